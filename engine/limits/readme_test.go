package limits_test

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/limits"
)

// The README and the author's guide (web/guide.html) state the limits as
// the table holds them, each in its own table's form, the bound on a
// prerendered site's files after them; the guide also states the grading
// run's bounds, which bound a teacher's own run, not a visitor.
func TestDocs_StateEveryLimit(t *testing.T) {
	for _, doc := range []struct {
		file    string
		row     func(limits.Row) string
		grading bool
	}{
		{"../../README.md", func(r limits.Row) string {
			return "| `" + r.Name + "` | " + strconv.FormatInt(r.Value, 10) + " |"
		}, false},
		{"../../web/guide.html", func(r limits.Row) string {
			return "<tr><td><code>" + r.Name + "</code></td><td>" + strconv.FormatInt(r.Value, 10) + "</td>"
		}, true},
	} {
		b, err := os.ReadFile(doc.file)
		if err != nil {
			t.Skipf("no %s beside the module: %v", doc.file, err)
		}
		rows := append(append(limits.Default.Rows(), limits.PageRow), limits.PrerenderRows...)
		if doc.grading {
			rows = append(rows, limits.DefaultGrading.Rows()...)
		}
		for _, r := range rows {
			if row := doc.row(r); !strings.Contains(string(b), row) {
				t.Errorf("%s lacks the row %q", doc.file, row)
			}
		}
	}
}

// The page refuses a grading link's run (impl=) over the limit the
// grader writes it within.
func TestPage_HoldsTheLinkRunLimit(t *testing.T) {
	b, err := os.ReadFile("../../web/grade-run.js")
	if err != nil {
		t.Skipf("no web/grade-run.js beside the module: %v", err)
	}
	want := "export const RUN_BYTES = " + strconv.Itoa(limits.DefaultGrading.LinkRunBytes) + ";"
	if !strings.Contains(string(b), want) {
		t.Errorf("web/grade-run.js lacks %q (grade_link_run_bytes)", want)
	}
}

// The npm plugins hold a site's build to the budget prerender holds it
// to: each limit of PrerenderRows, by name and value.
func TestPlugins_HoldThePrerenderBudget(t *testing.T) {
	b, err := os.ReadFile("../../web/npm/node-engine.js")
	if err != nil {
		t.Skipf("no web/npm/node-engine.js beside the module: %v", err)
	}
	for _, r := range limits.PrerenderRows {
		want := "{ name: '" + r.Name + "', bytes: " + strconv.FormatInt(r.Value, 10) + " }"
		if !strings.Contains(string(b), want) {
			t.Errorf("web/npm/node-engine.js lacks %q", want)
		}
	}
}
