//go:build e2e

package e2e_test

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/leaselab/leaselab/engine/grade"
	"github.com/leaselab/leaselab/engine/internal/testkit/nativeonly"
)

// gradeLink grades the lab's correct Python module with old replaced by
// new and returns its first difference's link to the page under test.
func gradeLink(t *testing.T, old, new string) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", "..", "grade", "testdata", "correct.py"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "student.py")
	must(t, os.WriteFile(path, []byte(strings.Replace(string(src), old, new, 1)), 0o600))
	dir, err := grade.TempDir()
	must(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	prog, err := grade.Python(path, dir)
	must(t, err)
	r, err := grade.Grade(context.Background(), grade.Options{Program: prog, Dir: dir, FailFast: true, CallTimeout: 5 * time.Second})
	must(t, err)
	if r.First() == nil {
		t.Fatal("the variant passed; want a difference")
	}
	return r.First().Failure.Link(baseURL+"/", "en")
}

// A grading report's link opens the reproducing timeline with the
// student's run beside the engine's: two titled columns, the same cursor
// (the keys move both), the step that differs marked in both with the
// student's answer and table there, and a button back to it; a link whose
// run cannot be read says so where the run would be, and the engine's
// run still plays.
func TestPage_GradeLinkShowsTheStudentsRunBesideTheEngines(t *testing.T) {
	nativeonly.Python(t)
	link := gradeLink(t, "row[2] or row[0] > now", "row[2]") // a claim that ignores until
	ctx := tab(t)
	defer closeTab(ctx)
	must(t, chromedp.Do(ctx, chromedp.Navigate(link)))
	waitFor(t, ctx, `document.querySelector('#player .view.student')?.dataset.step === '4' && document.getElementById('player').dataset.cursor === '4'`, 60*time.Second)

	type column struct {
		Title, Status string
		Diff          bool
		Calls, Rows   []string
		GoTo          bool
	}
	columns := func() (engine, student column) {
		t.Helper()
		v := eval[[]column](t, ctx, `[...document.querySelectorAll('#player .views.side-by-side > .view')].map((v) => ({
			title: v.querySelector('.view-title').hidden ? '' : v.querySelector('.view-title').textContent,
			status: v.querySelector('.student-status')?.textContent ?? '',
			diff: v.classList.contains('at-diff'),
			calls: [...v.querySelectorAll('.student-calls li')].map((li) => li.textContent),
			rows: [...v.querySelectorAll('.student-table tbody tr')].map((tr) => [...tr.cells].map((c) => c.textContent).join(' ')),
			goTo: Boolean(v.querySelector('.student-go:not([hidden])')),
		}))`)
		if len(v) != 2 {
			t.Fatalf("%d columns side by side; want the engine's and the student's", len(v))
		}
		return v[0], v[1]
	}
	engine, student := columns()
	if !strings.HasPrefix(engine.Title, "correct engine") || student.Title != "your code" {
		t.Errorf("the columns are titled %q and %q; want the correct engine, then your code", engine.Title, student.Title)
	}
	if !engine.Diff || !student.Diff || student.Status != "Here your code parts from the contract." || student.GoTo {
		t.Errorf("at step 4: engine marked %v, student %+v; want both marked, saying so, no button", engine.Diff, student)
	}
	if strings.Join(student.Calls, "|") != `claim(path, "j1", "B", 999, 1000) → 2` || len(student.Rows) != 2 || student.Rows[0] != "j1 B 1999 2 NULL 0" {
		t.Errorf("at step 4 the student's calls %q and rows %q; want the claim that took j1 and B holding it", student.Calls, student.Rows)
	}
	if eval[string](t, ctx, `document.querySelector('#player .view.student .student-status').getAttribute('aria-live')`) != "polite" {
		t.Error("the student's status is not a polite live region")
	}

	screenshot(t, ctx, "grade-link.png")
	audit(t, ctx, "a grading report's link, at the step that differs")

	// The keys move both columns.
	must(t, chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(`#player .play`))))
	keys(t, ctx, kb.ArrowLeft)
	waitFor(t, ctx, `document.getElementById('player').dataset.cursor === '3'`, 5*time.Second)
	engine, student = columns()
	if engine.Diff || student.Diff || strings.Join(student.Calls, "|") != `claim(path, "j1", "A", 0, 1000) → 1` || student.Rows[0] != "j1 A 1000 1 NULL 0" || !student.GoTo {
		t.Errorf("at step 3: engine marked %v, student %+v; want neither marked, A's claim, and a button to step 4", engine.Diff, student)
	}
	if h := eval[string](t, ctx, `location.hash`); !strings.Contains(h, "impl=") || !strings.Contains(h, "step=3") {
		t.Errorf("the hash %q lost the student's run or the cursor", h)
	}
	must(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#player .student-go`))))
	waitFor(t, ctx, `document.getElementById('player').dataset.cursor === '4'`, 5*time.Second)
	noProblems(t, ctx)

	// A run that cannot be read: said where it would be; the engine plays.
	u, err := url.Parse(link)
	must(t, err)
	p, err := url.ParseQuery(u.Fragment)
	must(t, err)
	p.Set("impl", "not-a-run")
	u.Fragment = p.Encode()
	must(t, chromedp.Do(ctx, chromedp.Navigate(u.String())))
	waitFor(t, ctx, `document.querySelector('#player .view.student.refused') !== null && Number(document.getElementById('player').dataset.steps) > 4`, 60*time.Second)
	if s := text(t, ctx, "#player .view.student .student-status"); !strings.Contains(s, "cannot be read") ||
		eval[string](t, ctx, `document.querySelector('#player .view.student .student-status').getAttribute('role')`) != "alert" {
		t.Errorf("a malformed run says %q; want an alert that it cannot be read", s)
	}
	audit(t, ctx, "a grading report's link whose run cannot be read")
	screenshot(t, ctx, "grade-link-refused.png")
}
