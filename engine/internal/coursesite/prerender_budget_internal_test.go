package coursesite

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/simrun"
)

// budgetSite writes a built site into a temporary folder: a bundle of
// this version and pages, each a fence per timeline.
func budgetSite(t *testing.T, pages map[string][]string) string {
	t.Helper()
	dir := t.TempDir()
	bundle := filepath.Join(dir, BundleDir())
	if err := os.MkdirAll(bundle, 0o755); err != nil {
		t.Fatal(err)
	}
	m, _ := json.Marshal(Manifest{Name: "leaselab", Version: Version(), Entry: "leaselab.js"})
	if err := os.WriteFile(filepath.Join(bundle, "manifest.json"), m, 0o644); err != nil {
		t.Fatal(err)
	}
	for name, fences := range pages {
		var b strings.Builder
		b.WriteString("<!doctype html><html lang=\"en\"><body>\n")
		for _, f := range fences {
			b.WriteString(`<pre><code class="language-lease-timeline">` + html.EscapeString(f) + "</code></pre>\n")
		}
		b.WriteString("</body></html>\n")
		if err := os.WriteFile(filepath.Join(dir, name), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// claims is a timeline of n claims of one job, each at its own ms: its
// trace grows with n.
func claims(n int) string {
	var b strings.Builder
	b.WriteString("lease 1000ms\njob j\n")
	for i := range n {
		fmt.Fprintf(&b, "%dms W%d claim j\n", i, i%50)
	}
	return b.String()
}

// withBudget runs f with the build's budget at fence and page bytes.
func withBudget(t *testing.T, fence, page int) {
	t.Helper()
	old := budget
	budget.fence, budget.page = fence, page
	t.Cleanup(func() { budget = old })
}

// An answer over the fence's budget stops its run there and is refused,
// told at its page and line with the limit's name; nothing is written for
// it, and the fences around it are prerendered. At the budget an answer is
// written; one byte under it, refused.
func TestPrerender_RefusesAnAnswerOverTheFenceBudgetAtItsLine(t *testing.T) {
	small, long := claims(2), claims(200)
	p := []string{long, small}
	smallSize, err := prerenderOne(small)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		fence      int
		overBudget int
		traces     int
	}{
		{smallSize - 1, 2, 0},
		{smallSize, 1, 1},
		{smallSize + 1, 1, 1},
	} {
		withBudget(t, tc.fence, 1<<30)
		dir := budgetSite(t, map[string][]string{"p.html": p})
		var log bytes.Buffer
		rep, err := Prerender(context.Background(), dir, &log)
		if err != nil {
			t.Fatal(err)
		}
		if rep.OverBudget != tc.overBudget || rep.Timelines != tc.traces {
			t.Errorf("fence budget %d (the small answer %d): %d over budget, %d prerendered; want %d, %d\n%s",
				tc.fence, smallSize, rep.OverBudget, rep.Timelines, tc.overBudget, tc.traces, log.String())
		}
		if want := fmt.Sprintf("p.html: timeline 1 (timeline.tl): line %d: its answer passes the limit prerender_fence_bytes", lineOf(p, 0)); !strings.Contains(log.String(), want) {
			t.Errorf("the log does not say %q:\n%s", want, log.String())
		}
		if n := len(readIndexIn(t, dir).Traces); n != tc.traces {
			t.Errorf("fence budget %d: the index holds %d traces, want %d", tc.fence, n, tc.traces)
		}
	}
}

// A page's answers together are held to the page's budget: the answer that
// would take them past it is refused naming prerender_page_bytes, the
// ones before it are written, and another page has a budget of its own.
func TestPrerender_HoldsAPagesAnswersToThePageBudget(t *testing.T) {
	a, b, c := claims(2), claims(3), claims(4)
	sa, _ := prerenderOne(a)
	sb, _ := prerenderOne(b)
	withBudget(t, 1<<30, sa+sb)
	p := []string{a, b, c}
	dir := budgetSite(t, map[string][]string{"p.html": p, "q.html": {c}})
	var log bytes.Buffer
	rep, err := Prerender(context.Background(), dir, &log)
	if err != nil {
		t.Fatal(err)
	}
	if rep.OverBudget != 1 || rep.Timelines != 3 {
		t.Errorf("%d over budget, %d prerendered; want 1 (p.html's third), 3\n%s", rep.OverBudget, rep.Timelines, log.String())
	}
	if want := fmt.Sprintf("p.html: timeline 3 (timeline.tl): line %d: its answer passes the limit prerender_page_bytes", lineOf(p, 2)); !strings.Contains(log.String(), want) {
		t.Errorf("the log does not say %q:\n%s", want, log.String())
	}
	if strings.Contains(log.String(), "q.html") {
		t.Errorf("q.html's one answer is within its own page's budget, yet told:\n%s", log.String())
	}
}

// prerenderOne is the size of a timeline's answer in English.
func prerenderOne(text string) (int, error) {
	out, err := simrun.TraceJSON(context.Background(), "timeline.tl", text, simrun.Options{Lang: "en"})
	return len(out), err
}

// lineOf is the page's line where budgetSite writes the pre of fence
// number i (from 0) of fences.
func lineOf(fences []string, i int) int {
	line := 2
	for _, f := range fences[:i] {
		line += strings.Count(f, "\n") + 1
	}
	return line
}

func readIndexIn(t *testing.T, dir string) Index {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, BundleDir(), PrerenderedDir, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	var idx Index
	if err := json.Unmarshal(b, &idx); err != nil {
		t.Fatal(err)
	}
	return idx
}
