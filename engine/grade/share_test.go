package grade_test

import (
	"context"
	"encoding/base64"
	"net/url"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/grade"
	"github.com/leaselab/leaselab/engine/internal/testkit/nativeonly"
	"github.com/leaselab/leaselab/engine/timeline"
	"github.com/leaselab/leaselab/engine/timeline/memrun"
)

// openLink reads a link's share parameters and its timeline's text.
func openLink(t *testing.T, link string) (url.Values, string) {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	p, err := url.ParseQuery(u.Fragment)
	if err != nil {
		t.Fatal(err)
	}
	src, err := base64.RawURLEncoding.DecodeString(p.Get("src"))
	if err != nil {
		t.Fatalf("src is not unpadded base64url: %v", err)
	}
	return p, string(src)
}

// The first difference's link opens the reproducing timeline in the
// simulator with the cursor on the step that differs, played, and a note
// on it with the student's answer beside the contract's; the timeline
// still passes on the engine. A difference no timeline reproduces has no
// link.
func TestLink_OpensTheDifferenceAtItsStep(t *testing.T) {
	nativeonly.Python(t)
	r := gradeOrFatal(t, variant(t, "row[2] or row[0] > now", "row[2] or row[0] >= now"), grade.Options{FailFast: true})
	f := r.First().Failure
	if f.Where != "4-claim.tl:8" {
		t.Fatalf("the difference is at %s; want 4-claim.tl:8", f.Where)
	}
	for _, tc := range []struct{ lang, note string }{
		{"en", "# Here your code answered None where the contract answers 1."},
		{"ko", "# 여기서 제출한 코드의 답은 None, 계약의 답은 1입니다."},
	} {
		link := f.Link("http://course.example/sim/", tc.lang)
		if !strings.HasPrefix(link, "http://course.example/sim/#") {
			t.Fatalf("%s: %q does not open the simulator page given", tc.lang, link)
		}
		p, text := openLink(t, link)
		if p.Get("name") != "4-claim.tl" || p.Get("step") != "3" || (p.Get("lang") != "") != (tc.lang != "en") {
			t.Errorf("%s: name=%q step=%q lang=%q; want 4-claim.tl, 3 and the language unless English", tc.lang, p.Get("name"), p.Get("step"), p.Get("lang"))
		}
		tl, err := timeline.Parse("4-claim.tl", text)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(text, "\n")
		if s := tl.Steps[2]; lines[s.Line-2] != tc.note || !strings.HasPrefix(lines[s.Line-1], "0ms     A claim j1        -> ok token=1") {
			t.Errorf("%s: the third step (the cursor's) is %q after %q; want the differing claim after the note %q", tc.lang, lines[s.Line-1], lines[s.Line-2], tc.note)
		}
		tr, err := memrun.RunSource(context.Background(), "4-claim.tl", text, timeline.Options{})
		if err != nil || !tr.Summary.Passed {
			t.Errorf("%s: the linked timeline does not pass on the engine: %v %v", tc.lang, err, tr.Summary.Failures)
		}
	}
	if link := (&grade.Failure{Call: "claim_many(...)"}).Link(grade.DefaultSimulator, "en"); link != "" {
		t.Errorf("a failure with no timeline links to %q", link)
	}
}

// The courier's send step links its sends as a timeline, the cursor after
// the send that differs.
func TestLink_OpensTheCourierSendThatDiffers(t *testing.T) {
	nativeonly.Python(t)
	r := gradeCourier(t, courierVariant(t, "deliver(marker)  #", "deliver({\"id\": marker[\"id\"]})  #"), grade.Options{FailFast: true})
	f := r.First().Failure
	p, text := openLink(t, f.Link(grade.DefaultSimulator, "en"))
	if f.Where != "send 1" || p.Get("step") != "1" || !strings.Contains(text, "0ms     A send took=100ms") {
		t.Fatalf("at %s: step=%q, text\n%s\nwant the first send's step", f.Where, p.Get("step"), text)
	}
}
