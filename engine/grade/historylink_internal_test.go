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

// A race's round that no order fits carries its history, and every report
// links to it drawn: the link's history= holds the round's calls byte for
// byte, and they check as not linearizable again.
func TestOverlap_AFailingRoundLinksToItsHistoryInEveryReport(t *testing.T) {
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
