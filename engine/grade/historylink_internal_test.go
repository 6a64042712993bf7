package grade

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/history"
	"github.com/leaselab/leaselab/engine/internal/testkit/nativeonly"
)

// checkThenActCompleteFailure is the failure of the fencing lab's race on
// complete, for a complete that checks and writes in two statements.
func checkThenActCompleteFailure(t *testing.T) *Failure {
	t.Helper()
	nativeonly.Python(t)
	ref, err := os.ReadFile("testdata/correct.py")
	if err != nil {
		t.Fatal(err)
	}
	swap := checkThenAct["complete"]
	bad := overlapGraderOf(t, Fencing, strings.Replace(string(ref), swap[0], swap[1], 1))
	f, err := bad.overlap(context.Background(), overlap{fn: "complete"})
	if err != nil || f == nil {
		t.Fatalf("a check-then-act complete passed its overlap (%v)", err)
	}
	return f
}

// A race's round that no order fits carries its history, and every report
// links to it drawn: the link's history= holds the round's calls byte for
// byte, and they check as not linearizable again.
func TestOverlap_AFailingRoundLinksToItsHistoryInEveryReport(t *testing.T) {
	f := checkThenActCompleteFailure(t)
	h, err := history.Read(strings.NewReader(f.History))
	if err != nil {
		t.Fatalf("the failure's history does not read: %v\n%s", err, f.History)
	}
	if res, err := history.Check(h); err != nil || res.Verdict != history.NotLinearizable {
		t.Fatalf("the failure's history checks as %v (%v); want not linearizable", res, err)
	}
	const sim = "https://course.example/sim/"
	link := f.Link(sim, "ko")
	rest, ok := strings.CutPrefix(link, sim+"#history=")
	param, lang, _ := strings.Cut(rest, "&")
	if !ok || lang != "lang=ko" {
		t.Fatalf("link %q; want %s#history=...&lang=ko", link, sim)
	}
	text, err := history.ReadLinkParam(param)
	if err != nil || !bytes.Equal(text, []byte(f.History)) {
		t.Fatalf("the link's history= reads as %q (%v); want the failure's history byte for byte:\n%s", text, err, f.History)
	}
	r := &Report{Lab: Fencing, Simulator: sim, Tests: []Test{{Name: "race", Failure: f}}}
	var txt, gs, junit bytes.Buffer
	WriteText(&txt, r, "en")
	if err := WriteGradescope(&gs, r); err != nil {
		t.Fatal(err)
	}
	if err := WriteJUnit(&junit, r); err != nil {
		t.Fatal(err)
	}
	en := f.Link(sim, "en")
	for name, out := range map[string]string{"text": txt.String(), "gradescope": gs.String(), "junit": junit.String()} {
		if !strings.Contains(out, "drawn on one time axis: "+en) {
			t.Errorf("the %s report does not give the history's link %s:\n%s", name, en, out)
		}
	}
}

// A race's two answers are joined in the report's language: "True and 2"
// in English, no English word between them in Korean.
func TestOverlap_TheTwoAnswersAreJoinedInTheReportsLanguage(t *testing.T) {
	f := checkThenActCompleteFailure(t)
	for _, tc := range []struct{ lang, label, join string }{{"en", "yours:", " and "}, {"ko", "제출:", " 와 "}} {
		var yours string
		for _, line := range strings.Split(failureText(f, tc.lang), "\n") {
			if rest, ok := strings.CutPrefix(strings.TrimSpace(line), tc.label); ok {
				yours = rest
				break
			}
		}
		if !strings.Contains(yours, tc.join) || (tc.lang != "en" && strings.Contains(yours, " and ")) {
			t.Errorf("%s: the answers read %q; want them joined by %q", tc.lang, yours, tc.join)
		}
	}
}

// A race's tables are of two moments, and the report says which: the
// contract's after the calls some order fits, the student's after the
// round; a failure one call at a time keeps "the table after the call".
func TestFailureText_ARacesTablesSayWhenEachIs(t *testing.T) {
	f := checkThenActCompleteFailure(t)
	for _, tc := range []struct{ lang, says string }{
		{"en", "the tables (id owner until fence result done): the contract's after the calls some order fits, yours after the round:"},
		{"ko", "테이블 (`id owner until fence result done`): 계약은 어떤 순서에 맞는 호출들 뒤, 제출은 이 라운드 뒤:"},
	} {
		if text := failureText(f, tc.lang); !strings.Contains(text, tc.says) {
			t.Errorf("%s: the report does not say %q:\n%s", tc.lang, tc.says, text)
		}
	}
	one := &Failure{Lab: Fencing, Call: "complete(...)", WantRows: f.WantRows, GotRows: f.GotRows}
	if text := failureText(one, "en"); !strings.Contains(text, "the table after the call (") {
		t.Errorf("a failure one call at a time does not say \"the table after the call\":\n%s", text)
	}
}
