package timeline_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/limits"
	"github.com/leaselab/leaselab/engine/timeline"
)

// Every limit is checked before anything runs: at the limit the text
// parses, one past it is an error at the line and column where the text
// goes over, naming the limit and its value.
func TestParseLimits_AtTheLimitParsesOnePastIsAnErrorAtLineCol(t *testing.T) {
	small := limits.Limits{TextBytes: 400, Steps: 3, Jobs: 2, Workers: 3, Contenders: 2, MaxTime: 5000}
	head := "lease 100ms\njob a\n"
	for _, tc := range []struct {
		name     string
		at, over string // the text at the limit and one past it
		want     string // the error one past it
	}{
		{"steps", head + "0 A claim a\n1 A state a\n2 A state a\n", head + "0 A claim a\n1 A state a\n2 A state a\n3 A state a\n",
			"t.tl:6:1: step 4: over the limit steps (3 step lines)"},
		{"jobs", head + "job b\n", head + "job b\n0 A enqueue c\n",
			"t.tl:4:13: job 3 (c): over the limit jobs (2 jobs, declared and enqueued)"},
		{"workers", head + "0 A state a\n0 B state a\n0 C state a\n", head + "0 A state a\n0 B state a\n0 C,D claim a\n",
			"t.tl:5:5: worker 4 (D): over the limit workers (3 distinct worker names)"},
		{"contenders", head + "0 A,B claim a\n", head + "0 A,B,C claim a\n",
			"t.tl:3:3: 3 contenders: over the limit contenders (2 workers in one concurrent claim)"},
		{"max_time of a step", head + "5000 A state a\n", head + "5001 A state a\n",
			"t.tl:3:1: time 5001 ms: over the limit max_time (5000 ms: the latest instant and the longest duration)"},
		{"max_time of a relative step", head + "4000 A state a\n+1s A state a\n", head + "4000 A state a\n+1001 A state a\n",
			"t.tl:4:1: time 5001 ms: over the limit max_time (5000 ms: the latest instant and the longest duration)"},
		{"max_time of a ttl", head + "0 A claim a ttl=5s\n", head + "0 A claim a ttl=5001\n",
			"t.tl:3:17: ttl 5001 ms: over the limit max_time (5000 ms: the latest instant and the longest duration)"},
		{"max_time of a send's end", head + "0 A send took=5000\n", head + "1 A send took=5000\n",
			"t.tl:3:1: the send's end 5001 ms: over the limit max_time (5000 ms: the latest instant and the longest duration)"},
		{"text_bytes", head + strings.Repeat("#", 400-len(head)), head + strings.Repeat("#", 401-len(head)),
			"t.tl:3:383: the text is 401 bytes: over the limit text_bytes (400 bytes of timeline text)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := timeline.ParseLimits("t.tl", tc.at, small); err != nil {
				t.Fatalf("at the limit: %v", err)
			}
			_, err := timeline.ParseLimits("t.tl", tc.over, small)
			if !errors.Is(err, timeline.ErrBadInput) {
				t.Fatalf("one past the limit: %v, want a bad-input error", err)
			}
			if got := strings.Split(err.Error(), "\n")[0]; got != tc.want {
				t.Fatalf("one past the limit:\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

// The red team's texts, under the default limits: each is refused with
// the limit it breaks, before anything runs.
func TestParse_RedTeamTextsAreRefusedByTheLimits(t *testing.T) {
	var many strings.Builder
	many.WriteString("lease 1000ms\n")
	for i := range 3000 {
		fmt.Fprintf(&many, "job j%d\n", i)
	}
	for range 3300 {
		many.WriteString("0 A state j0\n")
	}
	names := make([]string, 10000)
	for i := range names {
		names[i] = fmt.Sprintf("a%d", i)
	}
	for _, tc := range []struct{ name, src, limit string }{
		{"3,000 jobs and 3,300 steps", many.String(), "over the limit jobs"},
		{"one claim by 10,000 names", "lease 1000ms\njob a\n0 " + strings.Join(names, ",") + " claim a\n", "over the limit contenders"},
		{"a text over 128 KiB", strings.Repeat("# padding\n", 14000), "over the limit text_bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tl, err := timeline.Parse("red.tl", tc.src)
			if tl != nil || !strings.Contains(fmt.Sprint(err), tc.limit) {
				t.Fatalf("Parse = %v, %.200v; want an error naming %q", tl != nil, err, tc.limit)
			}
		})
	}
}
