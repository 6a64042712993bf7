package timeline_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/timeline"
)

// While a slow send waits to hear back, the other workers act at their own
// instants: B's claim of the courier's job is judged at its time, against
// the courier's lease (until 1000 ms), and the courier's complete at the
// send's end hears what B did. Before, at and after the lease's end.
func TestRun_SlowSendLetsOthersActBeforeItsCourierHearsBack(t *testing.T) {
	for _, tc := range []struct {
		at       int64
		claim    string // B's claim
		complete string // A's complete, heard at 1500 ms
	}{
		{999, "refused held", "refused expired"},
		{1000, "ok", "refused superseded"},
		{1001, "ok", "refused superseded"},
	} {
		t.Run(strconv.FormatInt(tc.at, 10), func(t *testing.T) {
			tr := run(t, "lease 1000ms\njob j\n0ms A send took=1500ms\n"+strconv.FormatInt(tc.at, 10)+"ms B claim j\n")
			if len(tr.Steps) != 3 {
				t.Fatalf("%d steps, want the send, B's claim and A hearing back", len(tr.Steps))
			}
			send, claim, heard := tr.Steps[0], tr.Steps[1], tr.Steps[2]
			if send.Op != "send" || send.Heard == nil || *send.Heard != 1500 || send.End != 0 || send.Receipt == nil || !send.Receipt.Delivered {
				t.Errorf("the send's first step: %+v", send)
			}
			if got := outcomeWords(claim); claim.Time != tc.at || got != tc.claim {
				t.Errorf("B's claim at %d: %s, want %s", claim.Time, got, tc.claim)
			}
			if got := outcomeWords(heard); heard.Op != "complete" || heard.Time != 1500 || heard.Line != 3 || got != tc.complete {
				t.Errorf("A hearing back: %s at %d (line %d), %s, want %s", heard.Op, heard.Time, heard.Line, got, tc.complete)
			}
			if tr.Summary.Violations != 0 {
				t.Errorf("violations %+v", tr.Summary)
			}
		})
	}
}

// outcomeWords is a step's outcome as an expectation writes it.
func outcomeWords(st timeline.Step) string {
	return strings.TrimSpace(st.Outcome.Kind + " " + st.Outcome.Reason)
}

// A slow send is split only when something comes inside it: a step at its
// end comes after its courier hears back, so the send stays one step and
// its complete is judged before B's claim. Before, at and after the end.
func TestRun_SlowSendHearsBackBeforeTheStepsAtItsEnd(t *testing.T) {
	for _, tc := range []struct {
		at       int64
		steps    int    // the send split in two, or one
		complete string // A's complete
	}{
		{1499, 3, "refused superseded"},
		{1500, 2, "refused expired"},
		{1501, 2, "refused expired"},
	} {
		t.Run(strconv.FormatInt(tc.at, 10), func(t *testing.T) {
			tr := run(t, "lease 1000ms\njob j\n0ms A send took=1500ms -> "+tc.complete+" job=j delivered=true total=1\n"+
				strconv.FormatInt(tc.at, 10)+"ms B claim j -> ok token=2\n")
			if len(tr.Steps) != tc.steps {
				t.Fatalf("%d steps, want %d", len(tr.Steps), tc.steps)
			}
			if split := tr.Steps[0].Heard != nil; split != (tc.steps == 3) {
				t.Errorf("split %v", split)
			}
			for _, f := range tr.Summary.Failures {
				t.Error(f)
			}
			if !tr.Summary.Passed || tr.Summary.Expectations != 2 {
				t.Errorf("summary %+v", tr.Summary)
			}
		})
	}
}

// A failed slow send releases the job when its courier hears back; in
// between, the job is the courier's, and the expectation of the send line
// (failed, in English and Korean sentences) holds on the whole send.
func TestRun_SlowFailedSendReleasesWhenItHearsBack(t *testing.T) {
	tr := run(t, "lease 1000ms\njob j\n0ms A send fail=true took=300ms -> failed job=j owner=none status=pending token=1\n100ms B claim j -> refused held\n")
	for _, f := range tr.Summary.Failures {
		t.Error(f)
	}
	if len(tr.Steps) != 3 || tr.Steps[2].Op != "release" || tr.Steps[0].Receipt != nil {
		t.Fatalf("steps %+v", tr.Steps)
	}
	const want = "A claims j with token 1 and sends it; it hears back at 300 ms, and the others go on meanwhile. The receiver does not answer."
	if got := tr.Steps[0].Explain; got != want {
		t.Errorf("%q\nwant %q", got, want)
	}
	if got := tr.Steps[2].Explain; !strings.HasSuffix(got, " (A sent it at 0 ms and hears back at 300 ms).") {
		t.Errorf("hearing back: %q", got)
	}
}
