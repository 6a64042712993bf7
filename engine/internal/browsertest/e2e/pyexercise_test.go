//go:build e2e

package e2e_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/leaselab/leaselab/engine/grade"
)

// pyStudents are the fencing lab's Python students of engine/grade's
// testdata: the correct one, then each one-mistake variant.
func pyStudents(t *testing.T) []string {
	t.Helper()
	dir := filepath.Join(filepath.Dir(webDir), "engine", "grade", "testdata")
	files, err := filepath.Glob(filepath.Join(dir, "mistakes", "*.py"))
	must(t, err)
	return append([]string{filepath.Join(dir, "correct.py")}, files...)
}

// nativeFirst is leaselab grade's first failure of the Python student at
// path: its test and call ("" when it passes).
func nativeFirst(t *testing.T, path string) (test, call string) {
	t.Helper()
	dir := t.TempDir()
	prog, err := grade.Python(path, dir)
	must(t, err)
	r, err := grade.Grade(t.Context(), grade.Options{Program: prog, Dir: dir, FailFast: true})
	must(t, err)
	if f := r.First(); f != nil {
		return f.Name, f.Failure.Call
	}
	return "", ""
}

// The guide's Python exercise gives each student the verdict leaselab
// grade gives natively, at the same step and call: the correct lab
// passes, each one-mistake variant fails where it fails natively. The
// server sent nothing of Python for the page before Check (counted there:
// the page's Resource Timing omits its workers' fetches).
func TestPythonExercise_GivesTheNativeVerdictAtEachStepAndCall(t *testing.T) {
	ctx := tabFor(t, 8*time.Minute)
	before := pyodideServed.Load()
	must(t, chromedp.Do(ctx, chromedp.Navigate(baseURL+"/guide.html")))
	const el = `document.querySelector('lease-exercise[language=python]')`
	waitFor(t, ctx, el+`?.dataset.state === 'idle'`, 30*time.Second)
	eval[bool](t, ctx, `requestIdleCallback(() => setTimeout(() => { window.__settled = true; }, 500)) > 0`)
	waitFor(t, ctx, `window.__settled === true`, 10*time.Second)
	if n := pyodideServed.Load() - before; n != 0 {
		t.Fatalf("the server sent %d files of Python before the reader asked", n)
	}
	linked := 0 // failures linked to the simulator with the student's run
	for _, path := range pyStudents(t) {
		name := strings.TrimSuffix(filepath.Base(path), ".py")
		src, err := os.ReadFile(path)
		must(t, err)
		wantTest, wantCall := nativeFirst(t, path)
		must(t, chromedp.Do(ctx, chromedp.SetValue(chromedp.CSS(`lease-exercise[language=python] textarea`), string(src))))
		must(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`lease-exercise[language=python] .ll-check`))))
		waitFor(t, ctx, `['passed', 'failed', 'error'].includes(`+el+`.dataset.state)`, 80*time.Second)
		state := eval[string](t, ctx, el+`.dataset.state`)
		gotTest := eval[string](t, ctx, el+`.dataset.first || ''`)
		gotCall := ""
		if state == "failed" {
			gotCall = text(t, ctx, "lease-exercise[language=python] .ll-first .ll-answers dd code")
			href := eval[string](t, ctx, el+`.querySelector('.ll-link a')?.href || ''`)
			if strings.HasPrefix(wantTest, "step ") && strings.Contains(href, "impl=") && strings.Contains(href, "/index.html#") {
				linked++
			}
		}
		if (state == "passed") != (wantTest == "") || gotTest != wantTest || gotCall != wantCall {
			t.Errorf("%s: the page says %s at %q, call %q; leaselab grade fails at %q, call %q\n%s", name, state, gotTest, gotCall,
				wantTest, wantCall, text(t, ctx, "lease-exercise[language=python] .ll-status"))
		}
	}
	if linked < 5 {
		t.Errorf("%d failures link to the simulator with the student's run (impl=); want every step's played on a timeline", linked)
	}
	if pyodideServed.Load() == before {
		t.Error("the server sent no file of Python for a Check: it came from elsewhere, or the count sees nothing")
	}
	noProblems(t, ctx)
}

// The Python exercise stops a call that never ends at its budget and
// names its step and call, keeping the verdicts before it; the courier
// lab (lab="courier") passes, its tests of two programs at once skipped
// saying why; the report is clean for axe, and the editor and Check are
// reached and used by keyboard.
func TestPythonExercise_StopsALoopAndGradesTheCourierByKeyboard(t *testing.T) {
	ctx := tabFor(t, 4*time.Minute)
	must(t, chromedp.Do(ctx, chromedp.Navigate(baseURL+"/guide.html")))
	const el = `document.querySelector('lease-exercise[language=python]')`
	waitFor(t, ctx, el+`?.dataset.state === 'idle'`, 30*time.Second)
	dir := filepath.Join(filepath.Dir(webDir), "engine", "grade", "testdata")
	correct, err := os.ReadFile(filepath.Join(dir, "correct.py"))
	must(t, err)
	check := func(src string) string {
		t.Helper()
		must(t, chromedp.Do(ctx, chromedp.SetValue(chromedp.CSS(`lease-exercise[language=python] textarea`), src)))
		must(t, chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(`lease-exercise[language=python] textarea`))))
		must(t, chromedp.Do(ctx, chromedp.KeyEvent("\r", chromedp.KeyModifiers(2)))) // Ctrl+Enter
		waitFor(t, ctx, `['passed', 'failed', 'error'].includes(`+el+`.dataset.state)`, 90*time.Second)
		return eval[string](t, ctx, el+`.dataset.state`)
	}
	loop := strings.Replace(string(correct), "    if ttl <= 0:\n        raise ValueError(\"ttl must be positive\")\n    conn = _connect(path)\n    try:\n        conn.execute(\"BEGIN IMMEDIATE\")",
		"    while True:\n        pass\n    conn = _connect(path)\n    try:\n        conn.execute(\"BEGIN IMMEDIATE\")", 1)
	if state := check(loop); state != "failed" {
		t.Fatalf("an endless claim: state %s\n%s", state, text(t, ctx, "lease-exercise[language=python]"))
	}
	if first := eval[string](t, ctx, el+`.dataset.first`); first != "step 2: enqueue" {
		t.Errorf("an endless claim fails first at %q; want step 2's claim", first)
	}
	if broken := text(t, ctx, "lease-exercise[language=python] .ll-broken"); !strings.Contains(broken, "claim(path,") || !strings.Contains(broken, "ran longer than 5000 ms") {
		t.Errorf("the stop says %q; want the call and its budget", broken)
	}
	if got := text(t, ctx, "lease-exercise[language=python] .ll-tests [data-status=pass]"); !strings.Contains(got, "step 1: init_db") {
		t.Errorf("the verdicts before the loop are %q; want step 1 passed", got)
	}
	courier, err := os.ReadFile(filepath.Join(dir, "courier.py"))
	must(t, err)
	eval[any](t, ctx, el+`.lab = 'courier'`)
	if label := text(t, ctx, "lease-exercise[language=python] .ll-label"); !strings.Contains(label, "courier") {
		t.Errorf("the editor's label is %q after lab=courier", label)
	}
	if state := check(string(courier)); state != "passed" {
		t.Fatalf("the correct courier: state %s\n%s", state, text(t, ctx, "lease-exercise[language=python] .ll-status"))
	}
	skips := eval[string](t, ctx, `[...`+el+`.querySelectorAll('[data-status=skip]')].map((e) => e.title).join('\n')`)
	if strings.Count(skips, "two programs at once cannot run here") != 2 {
		t.Errorf("the courier's skipped tests say %q; want the two of two programs at once", skips)
	}
	must(t, chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(`lease-exercise[language=python] textarea`))))
	if f := press(t, ctx, kb.Tab, "Tab out of the Python editor"); f.Name != "Check" {
		t.Errorf("Tab from the Python editor went to %s %q; want its Check button", f.What, f.Name)
	}
	must(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.Tab, chromedp.KeyModifiers(8)))) // Shift
	if back := eval[string](t, ctx, `document.activeElement.tagName`); back != "TEXTAREA" {
		t.Errorf("Shift+Tab from Check went to %s; want the editor", back)
	}
	noProblems(t, ctx)
	audit(t, ctx, "/guide.html, the Python exercise's courier report")
}
