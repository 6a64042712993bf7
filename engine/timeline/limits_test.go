package timeline_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/testkit/redteam"
	"github.com/leaselab/leaselab/engine/limits"
	"github.com/leaselab/leaselab/engine/timeline"
	"github.com/leaselab/leaselab/engine/timeline/memrun"
)

// Every limit is checked before anything runs: at the limit the text
// parses, one past it is an error at the line and column where the text
// goes over, naming the limit and its value.
func TestParseLimits_AtTheLimitParsesOnePastIsAnErrorAtLineCol(t *testing.T) {
	small := limits.Limits{TextBytes: 400, Steps: 3, Jobs: 2, Workers: 3, Contenders: 2, MaxTime: 5000, NameBytes: 5, ResultBytes: 6}
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
		{"name_bytes of a job", head + "job abcde\n", head + "job abcdef\n",
			"t.tl:3:5: job name of 6 bytes: over the limit name_bytes (5 bytes of a job id, worker or owner name)"},
		{"name_bytes of a worker, in bytes not characters", head + "0 Abéd claim a\n", head + "0 Abcéd claim a\n",
			"t.tl:3:3: actor name of 6 bytes: over the limit name_bytes (5 bytes of a job id, worker or owner name)"},
		{"result_bytes", head + "0 A claim a\n1 A complete a result=\"abcdef\"\n", head + "0 A claim a\n1 A complete a result=\"abcdefg\"\n",
			"t.tl:4:23: result of 7 bytes: over the limit result_bytes (6 bytes of a job's result or a stored value)"},
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
		{"a job named by 100 KB, claimed next 2,000 times", redteam.Amplifier(100_000, 2000), "over the limit name_bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tl, err := timeline.Parse("red.tl", tc.src)
			if tl != nil || !strings.Contains(fmt.Sprint(err), tc.limit) {
				t.Fatalf("Parse = %v, %.200v; want an error naming %q", tl != nil, err, tc.limit)
			}
		})
	}
}

// traceSize is the bytes of src's trace with no limit in the way.
func traceSize(t *testing.T, src string) int {
	t.Helper()
	tr, err := memrun.RunSource(context.Background(), "t.tl", src, timeline.Options{TraceBytes: 1 << 30})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := tr.Encode(&b); err != nil {
		t.Fatal(err)
	}
	return b.Len()
}

// A trace is held to trace_bytes whole: at its exact size it runs and
// encodes; a byte less, the run or its encoding stops with an error that
// names the limit, at a step's line when the steps themselves pass it.
func TestRun_TraceAtTheLimitEncodesOneByteLessIsRefused(t *testing.T) {
	src := redteam.Amplifier(8, 40)
	size := traceSize(t, src)
	for _, tc := range []struct {
		name  string
		limit int
		ok    bool
	}{
		{"a byte more than the trace", size + 1, true},
		{"exactly the trace", size, true},
		{"a byte less", size - 1, false},
		{"half of it: the run stops at a step", size / 2, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := memrun.RunSource(context.Background(), "t.tl", src, timeline.Options{TraceBytes: tc.limit})
			var out bytes.Buffer
			if err == nil {
				err = tr.Encode(&out)
			}
			if tc.ok {
				if err != nil || out.Len() != size {
					t.Fatalf("limit %d: %d bytes, %v; want the whole trace of %d", tc.limit, out.Len(), err, size)
				}
				return
			}
			var ex *limits.ExceededError
			if !errors.As(err, &ex) || ex.Limit.Name != "trace_bytes" || ex.Limit.Value != int64(tc.limit) {
				t.Fatalf("limit %d: %v; want an *limits.ExceededError for trace_bytes %d", tc.limit, err, tc.limit)
			}
			if out.Len() != 0 {
				t.Fatalf("limit %d: %d bytes written; want none", tc.limit, out.Len())
			}
		})
	}
}

// The run counts its trace as it goes: a timeline whose trace would pass
// the limit is stopped at the step that passes it, a bad-input error at
// that step's line, not after the rest has run.
func TestRun_TraceOverTheLimitStopsAtTheStepThatPassesIt(t *testing.T) {
	src := redteam.Amplifier(8, 400)
	per := traceSize(t, redteam.Amplifier(8, 2)) - traceSize(t, redteam.Amplifier(8, 1))
	limit := traceSize(t, redteam.Amplifier(8, 100)) + per/2 // the 101st step's half
	_, err := memrun.RunSource(context.Background(), "t.tl", src, timeline.Options{TraceBytes: limit})
	if !errors.Is(err, timeline.ErrBadInput) || !errors.Is(err, limits.ErrExceeded) {
		t.Fatalf("err = %v; want a bad-input error that is limits.ErrExceeded", err)
	}
	var e *timeline.Error
	if !errors.As(err, &e) || e.Line != 104 || !strings.Contains(e.Msg, "trace_bytes") {
		t.Fatalf("err = %v; want it at line 104 (step 101, after three header lines), naming trace_bytes", err)
	}
}

// The red team's amplifier within every input limit — names of
// name_bytes, 2,000 claim-next steps — traces within trace_bytes: the
// default limits keep each other.
func TestRun_LongestNamesOnEveryStepTraceWithinTheDefaultLimit(t *testing.T) {
	src := redteam.Amplifier(limits.Default.NameBytes, limits.Default.Steps)
	tr, err := memrun.RunSource(context.Background(), "t.tl", src, timeline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := tr.Encode(&out); err != nil || out.Len() > limits.Default.TraceBytes {
		t.Fatalf("%d bytes, %v; want a trace within %d", out.Len(), err, limits.Default.TraceBytes)
	}
}
