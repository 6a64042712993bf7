package timeline_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/timeline"
)

// Each of the mistakes a course author made writing real lessons gets one
// message, at the line and column of the mistake, saying what to write
// instead — and nothing after it on the line, or later, repeats it.
func TestParse_MessagesPointAtTheRealMistake(t *testing.T) {
	const head = "lease 1000ms\njob j\n"
	for _, tc := range []struct{ name, src, want string }{
		{"a space between a number and its unit", head + "0 A claim j\n2 s A claim j\n",
			"t.tl:4:3: no space between a number and its unit: write 2s"},
		{"a space in a ttl", head + "0 A claim j ttl=2 s\n",
			"t.tl:3:19: no space between a number and its unit: write ttl=2s"},
		{"a space in the lease line", "lease 2 s\n", "t.tl:1:9: no space between a number and its unit: write `lease 2s`"},
		{"=> for ->", head + "0 A claim j => ok\n", "t.tl:3:13: an expectation starts with -> (a hyphen and >), not =>"},
		{"a typo in a field", head + "0 A claim j tll=500ms\n",
			`t.tl:3:13: unknown field "tll": claim takes ttl= (did you mean ttl?)`},
		{"a typo in a verb", head + "0 A clam j\n",
			`t.tl:3:5: unknown verb "clam" (verbs: claim, renew, complete, release, send, deliver, enqueue, state, write, read, pause, crash, wait, reopen) (did you mean claim?)`},
		{"attempts= in a job line", "job j attempts=3\n",
			"t.tl:1:7: the attempts budget is max_attempts=N (attempts= after -> checks the count of claims)"},
		{"a typo in a job's name", head + "0 A claim jj\n",
			"t.tl:3:11: unknown job jj: declare it with a `job jj` line or enqueue it (did you mean j?)"},
		{"a step inside its worker's pause", head + "0 A claim j\n100 A pause 2s\n1500 A complete j\n",
			"t.tl:5:6: A is paused from 100 ms to 2100 ms (line 4): a paused worker does nothing; move this step to 2100 ms or later, or shorten the pause"},
		{"a clock that reads below 0", "clock B -200ms\n" + head + "100 B claim j\n",
			"t.tl:4:5: B's clock reads -100 ms at 100 ms (it is 200 ms behind): its first step comes at 200 ms or later"},
		{"a refusal the op never hears", head + "0 A claim j -> refused superseded\n",
			"t.tl:3:24: `claim` is never refused superseded (it hears not_found, done, quarantined, held)"},
		{"an unknown invariant", head + "0 A claim j -> ok violates=one-lease\n",
			"t.tl:3:28: unknown invariant \"one-lease\" (single-lease, tokens-increase, no-stale-write, no-late-write, final-is-final, attempts-bounded, lease-within-deadline, no-job-lost, storage-fenced, applied-once)"},
		{"a loser who did not contend", head + "0 A,B claim j -> ok loser.C=held\n",
			`t.tl:3:27: loser "C" is not one of the contenders A,B`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg := parseErr(t, tc.src)
			if msg != tc.want {
				t.Errorf("\n got %s\nwant %s", msg, tc.want)
			}
		})
	}
}

// A name typed decomposed (macOS pastes "café" as "cafe" and a combining
// accent) is the name declared composed: names are compared in NFC.
func TestParse_NamesAreComparedInNFC(t *testing.T) {
	composed, decomposed := "caf\u00e9", "cafe\u0301"
	tl := mustParse(t, "lease 1000ms\njob "+composed+"\n0 A claim "+decomposed+" -> ok\n")
	if tl.Steps[0].Job != composed {
		t.Fatalf("job %q, want the declared %q", tl.Steps[0].Job, composed)
	}
}

// One bad line gives one error: an enqueue with a bad field still makes
// its job known, so the lines that name it are not reported too.
func TestParse_NoCascadeAfterTheFirstErrorOfALine(t *testing.T) {
	src := "lease 1000ms\n0 A enqueue late qty=lots\n1 A claim late\n2 A complete late\n"
	_, err := timeline.Parse("t.tl", src)
	var list timeline.ErrorList
	if !errors.As(err, &list) || len(list) != 1 || list[0].Line != 2 {
		t.Fatalf("errors %v, want one, on line 2", err)
	}
}

// Every mistake is reported and counted, however many there are.
func TestParse_CountsEveryError(t *testing.T) {
	var b strings.Builder
	b.WriteString("lease 1000ms\njob j\n")
	for range 1998 {
		b.WriteString("0 A grab j\n")
	}
	_, err := timeline.Parse("t.tl", b.String())
	var list timeline.ErrorList
	if !errors.As(err, &list) || len(list) != 1998 {
		t.Fatalf("%d errors, want 1998", len(list))
	}
	if got := fmt.Sprint(list[1997]); !strings.HasPrefix(got, "t.tl:2000:5: unknown verb") {
		t.Fatalf("last error %s", got)
	}
}
