//go:build e2e

package e2e_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// labSource reads a JavaScript lab of wasm/jslab's testdata.
func labSource(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(filepath.Dir(webDir), "wasm", "jslab", "testdata", name))
	must(t, err)
	return string(b)
}

// The guide's coding exercise, under the server's policies: it starts from
// the skeleton of the lab's eight functions; a claim whose boundary is >= fails at step 4 with the
// call, both answers, the SQL the code ran and both tables; the correct
// lab passes every test; axe finds nothing wrong in the report, and no
// CSP violation happens on the way.
func TestExercise_InThePageShowsTheFirstDifferenceThenPasses(t *testing.T) {
	ctx := tab(t)
	must(t, chromedp.Do(ctx, chromedp.Navigate(baseURL+"/guide.html")))
	waitFor(t, ctx, `document.querySelector('lease-exercise')?.dataset.state === 'idle'`, 30*time.Second)
	start := eval[string](t, ctx, `document.querySelector('lease-exercise textarea').value`)
	skeleton, err := chromedp.Run(ctx, chromedp.Evaluate[string](`import('/lease-exercise.js').then((m) => m.SKELETON)`, chromedp.EvalAwaitPromise))
	must(t, err)
	if start != skeleton || !strings.Contains(start, "function claimMany(db, jobId, owners, now, ttl)") {
		t.Fatalf("the editor starts from\n%s\nwant lease-exercise.js's SKELETON", start)
	}
	if label := eval[string](t, ctx, `document.querySelector('lease-exercise textarea').labels[0]?.textContent || ''`); label == "" {
		t.Fatal("the editor has no label")
	}
	check := func(source, want string) {
		t.Helper()
		must(t, chromedp.Do(ctx, chromedp.SetValue(chromedp.CSS(`lease-exercise textarea`), source)))
		must(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`lease-exercise .ll-check`))))
		waitFor(t, ctx, `['passed', 'failed', 'error'].includes(document.querySelector('lease-exercise').dataset.state)`, 80*time.Second)
		if got := eval[string](t, ctx, `document.querySelector('lease-exercise').dataset.state`); got != want {
			t.Fatalf("state %s, want %s: %s", got, want, text(t, ctx, "lease-exercise"))
		}
	}
	correct := labSource(t, "correct.js")
	check(strings.Replace(correct, "row.until > now", "row.until >= now", 1), "failed")
	if first := eval[string](t, ctx, `document.querySelector('lease-exercise').dataset.first`); first != "step 4: claim" {
		t.Fatalf("first difference at %q, want step 4: claim", first)
	}
	if got := text(t, ctx, "lease-exercise .ll-status"); !strings.Contains(got, `Start here: make claim(db, "j1", "A", 0, 1000) answer as the contract does`) {
		t.Errorf("status %q does not say where to start", got)
	}
	for css, want := range map[string]string{
		".ll-first .ll-answers dd code":              `claim(db, "j1", "A", 0, 1000)`,
		".ll-first .ll-want":                         "1",
		".ll-first .ll-got":                          "null",
		".ll-calls li[data-first=yes] .ll-sql":       "SELECT until, fence, done FROM jobs WHERE id = ?",
		".ll-calls li[data-first=yes] .ll-want-rows": "j1A1000",
		".ll-calls li[data-first=yes] .ll-got-rows":  "j1NULL0",
		".ll-tests [data-status=fail] .ll-verdict":   "FAIL",
	} {
		if got := text(t, ctx, "lease-exercise "+css); !strings.Contains(got, want) {
			t.Errorf("%s: %q, want it to hold %q", css, got, want)
		}
	}
	noProblems(t, ctx)
	audit(t, ctx, "/guide.html, the coding exercise at its first difference")
	eval[any](t, ctx, `window.__problems = []`) // axe's own styles are inline
	check(correct, "passed")
	if got := text(t, ctx, "lease-exercise .ll-status"); !strings.Contains(got, " 0 failed") {
		t.Errorf("status %q after the correct lab", got)
	}
	noProblems(t, ctx)
}

// The coding exercise when the reader's code cannot run or never comes
// back: a syntax error names its line and column; code that loops without
// end is stopped at the time limit (shortened here), and the page keeps
// the verdicts of the tests that ended before it, the stuck test failed,
// beside the call that never came back.
func TestExercise_NamesASyntaxErrorsPlaceAndKeepsTheStepsBeforeAHang(t *testing.T) {
	ctx := tab(t)
	must(t, chromedp.Do(ctx, chromedp.Navigate(baseURL+"/guide.html")))
	waitFor(t, ctx, `document.querySelector('lease-exercise')?.dataset.state === 'idle'`, 30*time.Second)
	check := func(source string, within time.Duration) {
		t.Helper()
		must(t, chromedp.Do(ctx, chromedp.SetValue(chromedp.CSS(`lease-exercise textarea`), source)))
		must(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`lease-exercise .ll-check`))))
		waitFor(t, ctx, `['passed', 'failed', 'error'].includes(document.querySelector('lease-exercise').dataset.state)`, within)
		if got := eval[string](t, ctx, `document.querySelector('lease-exercise').dataset.state`); got != "error" {
			t.Fatalf("state %s, want error: %s", got, text(t, ctx, "lease-exercise"))
		}
	}
	correct := labSource(t, "correct.js")
	check(correct+"\nfunction (\n", 80*time.Second)
	where := fmt.Sprintf("(line %d, column 10)", strings.Count(correct, "\n")+2)
	if got := text(t, ctx, "lease-exercise .ll-error"); !strings.HasPrefix(got, "SyntaxError: ") || !strings.HasSuffix(got, where) {
		t.Fatalf("the syntax error reads %q; want a SyntaxError ending %s", got, where)
	}
	// The page's time limit, shortened: the grader's worker is warm now.
	eval[any](t, ctx, `(() => { const timeout = AbortSignal.timeout.bind(AbortSignal);
		AbortSignal.timeout = (ms) => timeout(Math.min(ms, 15000)); })()`)
	loop := "function renew(db, jobId, owner, fence, now, ttl) {\n  for (;;) {}"
	check(strings.Replace(correct, "function renew(db, jobId, owner, fence, now, ttl) {", loop, 1), 40*time.Second)
	if first := eval[string](t, ctx, `document.querySelector('lease-exercise').dataset.first || ''`); first != "step 5: renew" {
		t.Fatalf("stuck in %q, want step 5: renew: %s", first, text(t, ctx, "lease-exercise"))
	}
	passed := eval[[]string](t, ctx, `[...document.querySelectorAll('lease-exercise .ll-tests [data-status=pass]')].map((li) => li.textContent)`)
	failed := eval[[]string](t, ctx, `[...document.querySelectorAll('lease-exercise .ll-tests [data-status=fail]')].map((li) => li.textContent)`)
	if len(passed) != 4 || !strings.HasSuffix(passed[3], "step 4: claim") || len(failed) != 1 || !strings.HasSuffix(failed[0], "step 5: renew") {
		t.Fatalf("passed %q, failed %q; want steps 1 to 4 passed, step 5 failed", passed, failed)
	}
	if got := text(t, ctx, "lease-exercise .ll-status"); !strings.Contains(got, `renew(db, "j1"`) {
		t.Errorf("the status %q does not name the call that never came back", got)
	}
	noProblems(t, ctx)
}
