package timeline_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/timeline"
)

const predictHead = "lease 1000ms\njob a\n0ms A claim a -> ok token=1\n"

// The mark `?`, the first word after "->", marks a step for a learner's
// prediction, alone or before an expectation, which it leaves as written;
// without it a step is not marked.
func TestPredictMark_MarksAStepAloneOrBeforeItsExpectation(t *testing.T) {
	for _, tc := range []struct {
		line    string
		predict bool
		expect  string // the expectation's text, "" for none
	}{
		{"1000ms B claim a -> ?", true, ""},
		{"1000ms B claim a -> ? ok token=2", true, "ok token=2"},
		{"1000ms B claim a ->   ?   ok   # a note", true, "ok"},
		{"1000ms B claim a -> ok token=2", false, "ok token=2"},
		{"1000ms B claim a", false, ""},
	} {
		tl, err := timeline.Parse("t.tl", predictHead+tc.line+"\n")
		if err != nil {
			t.Fatalf("%q: %v", tc.line, err)
		}
		s := tl.Steps[len(tl.Steps)-1]
		got := ""
		if s.Expect != nil {
			got = s.Expect.Text
		}
		if s.Predict != tc.predict || got != tc.expect {
			t.Errorf("%q: predict %v, expectation %q; want %v, %q", tc.line, s.Predict, got, tc.predict, tc.expect)
		}
	}
}

// A mark run into the next word, or on a step with no outcome, is an
// error at the mark's column.
func TestPredictMark_RefusesAMarkItCannotAsk(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"1000ms B claim a -> ?ok", "t.tl:4:21: the prediction mark ? is a word of its own: `-> ? ok`"},
		{"1000ms B pause 1s -> ?", "t.tl:4:22: pause has no outcome to predict"},
		{"1000ms B claim a -> ? maybe", "t.tl:4:"},
	} {
		_, err := timeline.Parse("t.tl", predictHead+tc.line+"\n")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.line, err, tc.want)
		}
	}
}

// A marked step's trace offers its operation's outcomes and names the
// one it had; an unmarked step's carries no question; the expectation
// after the mark is judged as any other.
func TestTrace_AMarkedStepOffersItsChoicesAndItsAnswer(t *testing.T) {
	tr := run(t, predictHead+"1000ms B claim a -> ?\n1001ms A complete a -> ? ok\n1002ms B complete a\n")
	claim, complete, last := tr.Steps[1], tr.Steps[2], tr.Steps[3]
	if tr.Steps[0].Predict != nil || last.Predict != nil {
		t.Errorf("unmarked steps carry a question: %+v, %+v", tr.Steps[0].Predict, last.Predict)
	}
	if claim.Predict == nil || claim.Predict.Answer != "ok" ||
		!slices.Equal(claim.Predict.Choices, []string{"ok", "refused done", "refused held"}) {
		t.Errorf("the claim's question is %+v", claim.Predict)
	}
	if complete.Predict == nil || complete.Predict.Answer != "refused superseded" ||
		!slices.Equal(complete.Predict.Choices, []string{"ok", "refused superseded", "refused done", "refused expired"}) {
		t.Errorf("the stale complete's question is %+v", complete.Predict)
	}
	if complete.Expect == nil || complete.Expect.OK || tr.Summary.Passed {
		t.Errorf("the expectation after the mark (ok) held on a refused complete: %+v", complete.Expect)
	}
	var b bytes.Buffer
	if err := tr.Encode(&b); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), `"predict": {`); n != 2 {
		t.Errorf("the trace's JSON holds %d questions, want the two marked steps'", n)
	}
	if !strings.Contains(b.String(), `"predict": {
        "choices": [
          "ok",
          "refused superseded",
          "refused done",
          "refused expired"
        ],
        "answer": "refused superseded"
      }`) {
		t.Errorf("the complete's question is not in the JSON as written:\n%s", b.String())
	}
}
