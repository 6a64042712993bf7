package timeline_test

import (
	"strings"
	"testing"
)

// A step's sentence says what happened, whose clock each instant is on, and
// every row the step changed; each case is a lesson a course author wrote
// whose sentence was once wrong or incomplete.
func TestRun_SentencesTellTheWholeStep(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		step      int
		want      []string
		not       []string
	}{
		{"a skewed reclaim puts the old lease's end on its holder's clock",
			"clock A -400ms\nlease 1000ms\njob j\n500ms A claim j\n1100ms B claim j\n", 1,
			[]string{"runs until 1100 ms on A's clock (true time 1500 ms): it has not ended, but B's clock says it has"},
			[]string{"ended at 1100 ms"}},
		{"a skewed reclaim after the true end says so",
			"clock B +300ms\nlease 1000ms\njob j\n0ms A claim j\n1000ms B claim j\n", 1,
			[]string{"ended at 1000 ms on A's clock (true time 1000 ms)"}, nil},
		{"a reclaim with clocks that agree names no clock",
			"lease 1000ms\njob j\n0ms A claim j\n1000ms B claim j\n", 1,
			[]string{"whose lease by A with token 1 ended at 1000 ms, and gets token 2"}, []string{"clock"}},
		{"a refused claim puts the holder's end on the holder's clock",
			"clock B +300ms\nlease 1000ms\njob j\n0 A claim j\n500 B claim j\n", 1,
			[]string{"A holds it with token 1 until 1000 ms on A's clock (true time 1000 ms) (on B's clock, which reads 800 ms"}, nil},
		{"a superseded holder on a clock that is off is told the grant's true time",
			"clock A +100ms\nlease 1000ms\njob j\n0 A claim j\n1100 B claim j\n1200 A complete j\n", 2,
			[]string{"B has held token 2 since 1100 ms true time (on A's clock, which reads 1300 ms"}, nil},
		{"a stale write the storage accepts is called stale",
			"lease 1000ms\njob r\n0ms A claim r\n1100ms B claim r\n1200ms A write r value=a\n", 2,
			[]string{"cannot tell that B has since been granted token 2. This write is stale."}, nil},
		{"a write after the writer's own lease ended says so",
			"lease 1000ms\njob r\n0ms A claim r\n1100ms A write r value=a\n", 1,
			[]string{"though A's lease ended at 1000 ms"}, nil},
		{"a live holder's write is told plainly",
			"lease 1000ms\njob r\n0ms A claim r\n100ms A write r value=a\n", 1,
			[]string{"the storage accepts it (no higher token wrote there before)"}, []string{"stale", "ended"}},
		{"a first delivery after another worker's is a delivery, not a resend",
			"lease 1000ms\njob o\n0ms A claim o\n10ms A deliver o\n1000ms B claim o\n1010ms B deliver o\n", 3,
			[]string{"B's delivery with token 2 adds nothing"}, []string{"resend"}},
		{"a send that quarantines the job it passes over names it",
			"lease 500ms\njob bad max_attempts=1\njob good\n0ms W1 claim bad\n600ms W3 send\n", 1,
			[]string{"W3 sends good", "The step changes bad too: quarantined (attempts used up) at token 1."}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := run(t, tc.src)
			got := tr.Steps[tc.step].Explain
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("sentence %q\nlacks %q", got, w)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(got, n) {
					t.Errorf("sentence %q\nhas %q", got, n)
				}
			}
		})
	}
}

// After a write, token= checks the token the write presented, not the
// job's: a stale writer's token=1 holds while the job is at token 2.
func TestRun_TokenAfterAWriteIsThePresentedOne(t *testing.T) {
	for _, tc := range []struct {
		expect string
		ok     bool
	}{
		{"ok token=1", true},
		{"ok token=2", false},
	} {
		tr := run(t, "lease 1000ms\njob r\n0ms A claim r\n1100ms B claim r\n1200ms A write r value=a -> "+tc.expect+"\n")
		if e := tr.Steps[2].Expect; e.OK != tc.ok {
			t.Errorf("-> %s: held=%v (%s), want %v", tc.expect, e.OK, e.Message, tc.ok)
		}
	}
}

// Release takes no time and never hears expired; Parse refuses the
// expectation rather than letting the run fail with "got ok".
func TestParse_ReleaseIsNeverRefusedExpired(t *testing.T) {
	const head = "lease 1000ms\njob j\n0ms A claim j\n"
	msg := parseErr(t, head+"1500ms A release j -> refused expired\n")
	if want := "`release` is never refused expired (it hears not_found, superseded, done, quarantined)"; !strings.Contains(msg, want) {
		t.Fatalf("error %q, want it to say %q", msg, want)
	}
	mustParse(t, head+"1500ms B claim j\n1600ms A release j -> refused superseded\n")
}
