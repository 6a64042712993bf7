//go:build e2e

package e2e_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/leaselab/leaselab/engine/internal/browsertest/headless"
	"github.com/leaselab/leaselab/engine/internal/testkit/redteam"
	"github.com/leaselab/leaselab/engine/internal/webserve"
	"github.com/leaselab/leaselab/engine/timeline"
)

var (
	// pyodideServed counts the server's answers under /pyodide/: Python
	// loads in a worker, whose fetches the page's Resource Timing omits.
	pyodideServed atomic.Int64
	baseURL       string
	browser       context.Context // a started browser; each test opens tabs in it
	webDir        string
	index         libraryIndex
	shotsDir      = os.Getenv("LEASELAB_SHOTS") // when set, tests also save screenshots there
)

type libraryIndex struct {
	Default   string `json:"default"`
	Timelines []struct {
		Name, Title, Text, Trace string
		Langs                    map[string]string // another language's trace
	} `json:"timelines"`
}

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	fail := func(format string, args ...any) int {
		fmt.Fprintf(os.Stderr, "e2e: "+format+"\n", args...)
		return 1
	}
	_, here, _, _ := runtime.Caller(0)
	webDir = filepath.Join(filepath.Dir(here), "..", "..", "..", "..", "web")
	for _, f := range []string{"index.html", "leaselab.wasm", "leaselab-tools.wasm", "wasm_exec.js", "traces/index.json"} {
		if _, err := os.Stat(filepath.Join(webDir, f)); err != nil {
			return fail("web/%s is missing: build the page first with make wasm (make e2e does)", f)
		}
	}
	raw, err := os.ReadFile(filepath.Join(webDir, "traces", "index.json"))
	if err != nil {
		return fail("%v", err)
	}
	if err := json.Unmarshal(raw, &index); err != nil {
		return fail("web/traces/index.json: %v", err)
	}
	chrome, err := headless.Find()
	if err != nil {
		return fail("%v, or run make e2e, which does", err)
	}

	files := webserve.Handler(os.DirFS(webDir))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/pyodide/") {
			pyodideServed.Add(1)
		}
		files.ServeHTTP(w, r)
	})) // 127.0.0.1, a free port
	defer srv.Close()
	baseURL = srv.URL

	profile, err := os.MkdirTemp("", "leaselab-e2e-profile-")
	if err != nil {
		return fail("%v", err)
	}
	defer os.RemoveAll(profile)
	ctx, stop, _, err := headless.Start(chrome, profile)
	if err != nil {
		return fail("%v", err)
	}
	defer stop()
	browser = ctx
	return m.Run()
}

// tab opens a new tab that records CSP violations and uncaught errors in
// window.__problems, with a time limit for the whole test.
func tab(t *testing.T) context.Context {
	t.Helper()
	return tabFor(t, 90*time.Second)
}

// tabFor is tab with a time limit of d for the whole test.
func tabFor(t *testing.T, d time.Duration) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browser)
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatal(err)
	}
	_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `
		window.__problems = [];
		document.addEventListener('securitypolicyviolation', (e) => __problems.push('CSP ' + e.violatedDirective + ' ' + e.blockedURI));
		window.addEventListener('error', (e) => __problems.push('error ' + e.message));
		window.addEventListener('unhandledrejection', (e) => __problems.push('rejection ' + e.reason));
	`})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, page.BringToFront, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	tctx, tcancel := context.WithTimeout(ctx, d)
	t.Cleanup(tcancel)
	return tctx
}

// closeTab closes the tab of ctx (a tab's engine competes for the CPU with
// the next one's).
func closeTab(ctx context.Context) {
	if c := chromedp.FromContext(ctx); c != nil && c.Target != nil {
		chromedp.Call(ctx, page.Close, cdp.Empty{})
	}
}

// open navigates to the page with fragment and waits for the first trace
// to be drawn.
func open(t *testing.T, ctx context.Context, fragment string) {
	t.Helper()
	must(t, chromedp.Do(ctx, chromedp.Navigate(baseURL+"/"+fragment)))
	waitFor(t, ctx, `document.documentElement.dataset.firstTrace !== undefined`, 30*time.Second)
}

// waitEngine waits until the WebAssembly engine is ready and its first run
// has finished.
func waitEngine(t *testing.T, ctx context.Context) {
	t.Helper()
	waitFor(t, ctx, `document.documentElement.dataset.engine === 'ready' && document.documentElement.dataset.firstRun !== undefined`, 60*time.Second)
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// waitFor polls a JS predicate and, when it times out, fails showing what
// the page showed.
func waitFor(t *testing.T, ctx context.Context, predicate string, timeout time.Duration) {
	t.Helper()
	// Interval polling: requestAnimationFrame does not run in a background tab.
	_, err := chromedp.Run(ctx, chromedp.Poll[bool](predicate,
		chromedp.WithPollingTimeout(timeout), chromedp.WithPollingInterval(20*time.Millisecond)))
	if err != nil {
		state, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify({
			status: document.getElementById('engine-status').textContent,
			count: document.querySelector('#player .step-count').textContent,
			error: document.getElementById('editor-error').textContent,
			root: document.documentElement.dataset, hash: location.hash, problems: window.__problems})`))
		t.Fatalf("waiting for %s: %v; the page: %s", predicate, err, state)
	}
}

func eval[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return v
}

func text(t *testing.T, ctx context.Context, css string) string {
	t.Helper()
	return eval[string](t, ctx, fmt.Sprintf(`(document.querySelector(%q)?.textContent ?? '<missing>')`, css))
}

func keys(t *testing.T, ctx context.Context, k string) {
	t.Helper()
	must(t, chromedp.Do(ctx, chromedp.KeyEvent(k)))
}

func noProblems(t *testing.T, ctx context.Context) {
	t.Helper()
	if p := eval[[]string](t, ctx, `window.__problems`); len(p) > 0 {
		t.Errorf("the page reported problems: %q", p)
	}
}

func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	if shotsDir == "" {
		return
	}
	buf, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	must(t, err)
	must(t, os.WriteFile(filepath.Join(shotsDir, name), buf, 0o644))
}

// defaultTrace is the native trace of the timeline the page opens on.
func defaultTrace(t *testing.T) timeline.Trace {
	t.Helper()
	return libraryTrace(t, index.Default)
}

// staleComplete is the 1-based step of A's refused complete in the late
// courier timeline.
func staleComplete(t *testing.T, tr timeline.Trace) int {
	t.Helper()
	if !strings.Contains(tr.Name, "late-courier") {
		t.Fatalf("the page opens on %q, want the late-courier timeline", tr.Name)
	}
	for _, st := range tr.Steps {
		if st.Op == "complete" && len(st.Actors) == 1 && st.Actors[0] == "A" && st.Outcome.Kind == "refused" {
			return st.Index + 1
		}
	}
	t.Fatal("the late-courier trace has no refused complete by A")
	return 0
}

type stepView struct {
	Count   string            `json:"count"`
	Explain string            `json:"explain"`
	Expect  string            `json:"expect"`
	Refused []string          `json:"refused"`
	Cells   map[string]string `json:"cells"`
	Changed []string          `json:"changed"`
	Hash    string            `json:"hash"`
}

// snapshot is a JS function reading what the page shows for one job,
// called with the step count text to wait for.
const snapshot = `(job, want) => {
	const count = document.querySelector('#player .step-count').textContent;
	if (want && count !== want) return null;
	const cells = {};
	for (const c of document.querySelectorAll('#player .table-panel tr[data-job="' + job + '"] [data-col]')) {
		cells[c.dataset.col] = c.firstChild ? c.firstChild.textContent : '';
	}
	return {
		count,
		explain: document.querySelector('#player .explain').textContent,
		expect: document.querySelector('#player .expect').hidden ? '' : document.querySelector('#player .expect').textContent,
		refused: [...document.querySelectorAll('#player svg.lanes .mark.k-refused:not(.future) .mark-label')].map((e) => e.textContent),
		cells,
		changed: [...document.querySelectorAll('#player .table-panel .changed')].map((e) => e.dataset.col),
		hash: location.hash,
	};
}`

func TestPage_PlayingLateCourierShowsAsCompleteRefusedAsSupersededToken1Against2(t *testing.T) {
	ctx := tab(t)
	tr := defaultTrace(t)
	k := staleComplete(t, tr)
	st := tr.Steps[k-1]
	job := st.Job

	must(t, chromedp.Do(ctx, chromedp.Navigate(baseURL+"/")))
	waitFor(t, ctx, `document.documentElement.dataset.firstTrace !== undefined`, 30*time.Second)
	first := eval[string](t, ctx, `document.documentElement.dataset.firstTrace`)
	t.Logf("cold load: first trace drawn %s ms after navigation", first)
	for _, tl := range index.Timelines {
		if tl.Name == tr.Name {
			if got := eval[string](t, ctx, `document.getElementById('editor').value`); got != tl.Text {
				t.Errorf("the editor opens on:\n%s\nwant the %s timeline:\n%s", got, tl.Name, tl.Text)
			}
		}
	}
	if got := eval[string](t, ctx, `document.getElementById('picker').value`); got != tr.Name {
		t.Errorf("the picker shows %q, want %q", got, tr.Name)
	}

	// Record what the page shows at every step while it plays.
	eval[bool](t, ctx, fmt.Sprintf(`(() => {
		const snap = %s;
		window.__views = [];
		new MutationObserver(() => __views.push(snap(%q, ''))).observe(
			document.querySelector('#player .step-count'), {childList: true, characterData: true, subtree: true});
		return true;
	})()`, snapshot, job))
	must(t, chromedp.Do(ctx, chromedp.SetValue(chromedp.CSS("#player .speed-select"), "4"), chromedp.Click(chromedp.CSS("#player button.play"))))
	// Play runs on to the end and stops there.
	waitFor(t, ctx, fmt.Sprintf(
		`document.querySelector('#player .step-count').textContent === 'step %d / %d' && !document.querySelector('#player button.play').classList.contains('playing')`,
		len(tr.Steps), len(tr.Steps)), 30*time.Second)
	views := eval[[]stepView](t, ctx, `window.__views`)
	var v stepView
	var played []string
	for _, w := range views {
		played = append(played, w.Count)
		if w.Count == fmt.Sprintf("step %d / %d", k, len(tr.Steps)) {
			v = w
		}
	}
	if v.Count == "" {
		t.Fatalf("playing showed %q, never step %d", played, k)
	}

	if !strings.Contains(v.Explain, st.Explain) {
		t.Errorf("explanation %q, want the engine's sentence %q", v.Explain, st.Explain)
	}
	wantMark := "complete ✕ superseded · A#1 vs B#2"
	if len(v.Refused) != 1 || v.Refused[0] != wantMark {
		t.Errorf("refused marks on the lanes %q, want exactly [%q]", v.Refused, wantMark)
	}
	for col, want := range map[string]string{"id": job, "owner": "B", "token": "2", "status": "leased", "result": "—", "attempts": "2"} {
		if v.Cells[col] != want {
			t.Errorf("jobs table at step %d: %s = %q, want %q", k, col, v.Cells[col], want)
		}
	}
	if len(v.Changed) != 0 {
		t.Errorf("a refused complete changed cells %q, want none highlighted", v.Changed)
	}
	if !strings.Contains(v.Expect, "refused superseded") || !strings.HasPrefix(v.Expect, "✓") {
		t.Errorf("expectation line %q, want it to hold: refused superseded", v.Expect)
	}

	// The step before: B's reclaim changed owner, token, lease_until and attempts.
	keys(t, ctx, kb.Home)
	for range k - 1 {
		keys(t, ctx, kb.ArrowRight)
	}
	before, err := chromedp.Run(ctx, chromedp.PollFunction[stepView](snapshot,
		chromedp.WithPollingArgs(job, fmt.Sprintf("step %d / %d", k-1, len(tr.Steps))), chromedp.WithPollingInterval(20*time.Millisecond)))
	must(t, err)
	for _, col := range []string{"owner", "token", "lease_until", "attempts"} {
		if !strings.Contains(strings.Join(before.Changed, ","), col) {
			t.Errorf("after B's claim, changed cells %q lack %s", before.Changed, col)
		}
	}
	if before.Cells["owner"] != "B" || before.Cells["token"] != "2" {
		t.Errorf("after B's claim the row shows owner %q token %q, want B and 2", before.Cells["owner"], before.Cells["token"])
	}

	waitEngine(t, ctx)
	ready := eval[string](t, ctx, `document.documentElement.dataset.engineReady + ' ms ready, first run done at ' + document.documentElement.dataset.firstRun + ' ms'`)
	t.Logf("cold load: engine %s", ready)
	if got := eval[string](t, ctx, `document.documentElement.dataset.lastRun`); got != "verified" {
		t.Errorf("the engine in Chromium ran the timeline to %q, want \"verified\": the same bytes as the native trace", got)
	}
	screenshot(t, ctx, "desktop.png")
	noProblems(t, ctx)
}

// In a concurrent claim every loser's mark on the lanes says which rule
// refused it, as the engine answered: held while the winner's lease runs,
// done once the job is done.
func TestPage_ConcurrentClaimMarksEachLoserWithItsReason(t *testing.T) {
	ctx := tab(t)
	open(t, ctx, "#t=08-concurrent-claim.tl&step=1")
	n := eval[int](t, ctx, `Number(document.querySelector('#player .step-count').textContent.split(' / ')[1])`)
	for _, c := range []struct {
		step int
		want []string
	}{
		{1, []string{"claim_many ✕ held", "claim_many ✕ held"}}, // A,B,C claim: B and C lose to A
		{6, []string{"claim_many ✕ held", "claim_many ✕ held", "complete ✕ superseded · B#0 vs A#1", // earlier marks stay
			"claim_many ✕ held", "complete ✕ superseded · A#1 vs C#2", "claim_many ✕ done", "claim_many ✕ done"}},
	} {
		open(t, ctx, fmt.Sprintf("#t=08-concurrent-claim.tl&step=%d", c.step))
		v, err := chromedp.Run(ctx, chromedp.PollFunction[stepView](snapshot,
			chromedp.WithPollingArgs("order-7", fmt.Sprintf("step %d / %d", c.step, n)), chromedp.WithPollingInterval(20*time.Millisecond)))
		must(t, err)
		if !slices.Equal(v.Refused, c.want) {
			t.Errorf("step %d: refused marks %q, want %q", c.step, v.Refused, c.want)
		}
	}
	noProblems(t, ctx)
}

func TestPage_KeyboardStepsPlaysAndShowsKeys(t *testing.T) {
	ctx := tab(t)
	tr := defaultTrace(t)
	n := len(tr.Steps)
	open(t, ctx, "")
	count := func() string { return text(t, ctx, "#player .step-count") }
	want := func(step int) string { return fmt.Sprintf("step %d / %d", step, n) }

	for _, tc := range []struct {
		name, key string
		want      int
	}{
		{"End jumps to the last step", kb.End, n},
		{"Home jumps to the start", kb.Home, 0},
		{"left at the start stays", kb.ArrowLeft, 0},
		{"right steps forward", kb.ArrowRight, 1},
		{"right again", kb.ArrowRight, 2},
		{"left steps back", kb.ArrowLeft, 1},
		{"End", kb.End, n},
		{"right at the end stays", kb.ArrowRight, n},
	} {
		keys(t, ctx, tc.key)
		if got := count(); got != want(tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, want(tc.want))
		}
	}

	keys(t, ctx, kb.Home)
	keys(t, ctx, " ")
	if !eval[bool](t, ctx, `document.querySelector('#player button.play').classList.contains('playing')`) {
		t.Error("space did not start playing")
	}
	keys(t, ctx, " ")
	if eval[bool](t, ctx, `document.querySelector('#player button.play').classList.contains('playing')`) {
		t.Error("space again did not pause")
	}

	keys(t, ctx, "?")
	if !eval[bool](t, ctx, `document.getElementById('keys').open`) {
		t.Error("? did not show the keys")
	}
	keys(t, ctx, "?")
	if eval[bool](t, ctx, `document.getElementById('keys').open`) {
		t.Error("? again did not hide the keys")
	}
	// Closing the keys gives focus back to their button; the dialog's close
	// event, which does it, comes a task later.
	waitFor(t, ctx, `document.activeElement && document.activeElement.id === 'keys-button'`, 5*time.Second)

	// In the editor the arrows move the caret, not the clock.
	keys(t, ctx, kb.Home)
	must(t, chromedp.Do(ctx, chromedp.Focus(chromedp.ID("editor"))))
	keys(t, ctx, kb.ArrowRight)
	if got := count(); got != want(0) {
		t.Errorf("an arrow typed in the editor stepped the clock: %q", got)
	}
	if got := eval[string](t, ctx, `document.activeElement.id`); got != "editor" {
		t.Errorf("focus moved to %q, want it to stay in the editor", got)
	}
	// Focus is visible: the focused control has an outline.
	must(t, chromedp.Do(ctx, chromedp.Focus(chromedp.CSS("#player button.play"))))
	keys(t, ctx, kb.Tab)
	if got := eval[string](t, ctx, `getComputedStyle(document.activeElement).outlineStyle`); got == "none" {
		t.Errorf("the keyboard-focused %s has no visible outline", eval[string](t, ctx, `document.activeElement.outerHTML.slice(0, 80)`))
	}
	noProblems(t, ctx)
}

func TestPage_URLHashRestoresTimelineAndCursor(t *testing.T) {
	tr := defaultTrace(t)
	k := staleComplete(t, tr)
	n := len(tr.Steps)

	ctx := tab(t)
	open(t, ctx, "")
	for range k {
		keys(t, ctx, kb.ArrowRight)
	}
	hash := eval[string](t, ctx, `location.hash`)
	if !strings.Contains(hash, fmt.Sprintf("step=%d", k)) || !strings.Contains(hash, "t="+tr.Name) {
		t.Fatalf("hash %q, want t=%s and step=%d", hash, tr.Name, k)
	}
	explain := text(t, ctx, "#player .explain")

	other := tab(t)
	open(t, other, hash)
	if got, want := text(t, other, "#player .step-count"), fmt.Sprintf("step %d / %d", k, n); got != want {
		t.Errorf("reopened %s: %q, want %q", hash, got, want)
	}
	if got := text(t, other, "#player .explain"); got != explain {
		t.Errorf("reopened explanation %q, want %q", got, explain)
	}
	noProblems(t, other)
	closeTab(other)
	_, err := chromedp.Call(ctx, page.BringToFront, cdp.Empty{})
	must(t, err)

	// An edited timeline travels in the hash too, and runs on the engine.
	waitEngine(t, ctx)
	edited := strings.Replace(tr.Steps[k-1].Source, "1001ms", "1100ms", 1)
	if edited == tr.Steps[k-1].Source {
		t.Fatalf("step %d (%q) has no 1001ms to edit", k, tr.Steps[k-1].Source)
	}
	src := eval[string](t, ctx, `document.getElementById('editor').value`)
	newSrc := strings.Replace(src, tr.Steps[k-1].Source, edited, 1)
	setEditor(t, ctx, newSrc)
	waitFor(t, ctx, `location.hash.includes('src=') && document.querySelector('#player .step-source').textContent.includes('1100ms')`, 30*time.Second)
	hash = eval[string](t, ctx, `location.hash`)
	noProblems(t, ctx)
	closeTab(ctx)

	third := tab(t)
	must(t, chromedp.Do(third, chromedp.Navigate(baseURL+"/"+hash)))
	waitFor(t, third, fmt.Sprintf(`document.querySelector('#player .step-count').textContent === 'step %d / %d'`, k, n), 60*time.Second)
	if got := eval[string](t, third, `document.getElementById('editor').value`); got != newSrc {
		t.Errorf("reopened edited timeline:\n%s\nwant:\n%s", got, newSrc)
	}
	if got := text(t, third, "#player .step-source"); !strings.Contains(got, "1100ms") {
		t.Errorf("reopened step %d shows %q, want the edited line", k, got)
	}
	noProblems(t, third)
}

// setEditor replaces the editor's text as typing would.
func setEditor(t *testing.T, ctx context.Context, src string) {
	t.Helper()
	js, _ := json.Marshal(src)
	eval[bool](t, ctx, fmt.Sprintf(`(() => { const e = document.getElementById('editor'); e.value = %s; e.dispatchEvent(new Event('input', {bubbles: true})); return true; })()`, js))
}

func TestPage_InvalidTimelineShowsLineColumnAndKeepsLastGoodRun(t *testing.T) {
	tr := defaultTrace(t)
	k := staleComplete(t, tr)
	ctx := tab(t)
	open(t, ctx, "")
	waitEngine(t, ctx)
	for range k {
		keys(t, ctx, kb.ArrowRight)
	}
	good := eval[string](t, ctx, `document.getElementById('editor').value`)
	bad := strings.Replace(good, "A complete", "A compleat", 1)
	_, perr := timeline.Parse(tr.Name, bad)
	var list timeline.ErrorList
	if !errors.As(perr, &list) || len(list) == 0 {
		t.Fatalf("the native parser accepts the broken text (%v)", perr)
	}
	want := fmt.Sprintf("%d:%d", list[0].Line, list[0].Col)

	setEditor(t, ctx, bad)
	waitFor(t, ctx, `!document.getElementById('editor-error').hidden`, 30*time.Second)
	got := text(t, ctx, "#editor-error .linecol")
	if got != want {
		t.Errorf("error shown at %q, want the parser's %q", got, want)
	}
	if msg := text(t, ctx, "#editor-error"); !strings.Contains(msg, list[0].Msg) {
		t.Errorf("error text %q lacks the parser's message %q", msg, list[0].Msg)
	}
	if got := eval[string](t, ctx, `document.getElementById('editor').getAttribute('aria-invalid')`); got != "true" {
		t.Errorf("editor aria-invalid %q, want true", got)
	}
	// The last good run stays on screen.
	if got, want := text(t, ctx, "#player .step-count"), fmt.Sprintf("step %d / %d", k, len(tr.Steps)); got != want {
		t.Errorf("after the error the clock shows %q, want the last good run's %q", got, want)
	}
	if marks := eval[int](t, ctx, `document.querySelectorAll('#player svg.lanes .mark').length`); marks < len(tr.Steps) {
		t.Errorf("after the error the lanes show %d marks, want the last good run's %d", marks, len(tr.Steps))
	}
	// Clicking the place puts the caret on it.
	must(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#editor-error .linecol"))))
	caret := eval[int](t, ctx, `document.getElementById('editor').selectionStart`)
	lines := strings.Split(bad, "\n")
	pos := 0
	for i := 0; i < list[0].Line-1; i++ {
		pos += len([]rune(lines[i])) + 1
	}
	if pos += list[0].Col - 1; caret != pos {
		t.Errorf("caret at %d, want %d (%s)", caret, pos, want)
	}

	setEditor(t, ctx, good)
	waitFor(t, ctx, `document.getElementById('editor-error').hidden`, 30*time.Second)
	noProblems(t, ctx)
}

func TestPage_UsableAt360PixelsWide(t *testing.T) {
	ctx := tab(t)
	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(360, 740, chromedp.EmulateScale(2))))
	open(t, ctx, "")
	keys(t, ctx, kb.ArrowRight)
	if w := eval[int](t, ctx, `document.documentElement.scrollWidth`); w > 360 {
		t.Errorf("the page is %d px wide at a 360 px viewport: it scrolls sideways", w)
	}
	for _, css := range []string{"#player button.play", "#player button.forward", "#player button.back", "#player button.last", "#player input[type=range]", "#editor", "#player .explain", ".table-scroll", ".lanes-scroll"} {
		right := eval[float64](t, ctx, fmt.Sprintf(`document.querySelector(%q).getBoundingClientRect().right`, css))
		if right > 360.5 {
			t.Errorf("%s ends at x=%.0f, beyond the 360 px viewport", css, right)
		}
	}
	screenshot(t, ctx, "narrow.png")
	if shotsDir != "" {
		eval[bool](t, ctx, `(document.querySelector('.play-pane').scrollIntoView(), true)`)
		buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		must(t, err)
		must(t, os.WriteFile(filepath.Join(shotsDir, "narrow-lanes.png"), buf, 0o644))
	}
	noProblems(t, ctx)
}

func TestPage_FollowsDarkSchemeAndReducedMotion(t *testing.T) {
	const name = "08-concurrent-claim.tl"
	tr := libraryTrace(t, name)
	ctx := tab(t)
	_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{
		{Name: "prefers-color-scheme", Value: "dark"},
		{Name: "prefers-reduced-motion", Value: "reduce"},
	}})
	must(t, err)
	open(t, ctx, "#t="+name+"&step=3")
	// Dark: the page's background is dark and its text light.
	lum := `(c) => { const [r, g, b] = c.match(/\d+/g).map(Number); return 0.2126 * r + 0.7152 * g + 0.0722 * b; }`
	bg := eval[float64](t, ctx, fmt.Sprintf(`(%s)(getComputedStyle(document.body).backgroundColor)`, lum))
	fg := eval[float64](t, ctx, fmt.Sprintf(`(%s)(getComputedStyle(document.body).color)`, lum))
	if bg > 60 || fg < 180 {
		t.Errorf("dark scheme: background luminance %.0f, text %.0f; want a dark background and light text", bg, fg)
	}
	screenshot(t, ctx, "dark.png")

	// Reduced motion: the clock jumps from step to step; it never sweeps
	// through the instants between.
	keys(t, ctx, kb.Home)
	eval[bool](t, ctx, `(() => {
		window.__clocks = [];
		new MutationObserver(() => __clocks.push(document.querySelector('#player .clock-value').textContent))
			.observe(document.querySelector('#player .clock-value'), {childList: true, characterData: true, subtree: true});
		return true;
	})()`)
	must(t, chromedp.Do(ctx, chromedp.SetValue(chromedp.CSS("#player .speed-select"), "4"), chromedp.Click(chromedp.CSS("#player button.play"))))
	waitFor(t, ctx, `!document.querySelector('#player button.play').classList.contains('playing')`, 30*time.Second)
	stepTimes := map[string]bool{"0 ms": true}
	for _, st := range tr.Steps {
		stepTimes[fmt.Sprintf("%d ms", st.Time)] = true
	}
	clocks := eval[[]string](t, ctx, `window.__clocks`)
	if len(clocks) < len(tr.Steps) {
		t.Errorf("playing showed the clock %q, want one value per step (%d)", clocks, len(tr.Steps))
	}
	for _, c := range clocks {
		if !stepTimes[c] {
			t.Errorf("with reduced motion the clock showed %q, an instant between steps", c)
		}
	}
	noProblems(t, ctx)
}

// libraryTrace is the native trace make wasm computed for a library timeline.
func libraryTrace(t *testing.T, name string) timeline.Trace {
	t.Helper()
	return libraryTraceIn(t, name, "en")
}

// libraryTraceIn is the trace make wasm wrote for the library timeline
// name, explained in lang.
func libraryTraceIn(t *testing.T, name, lang string) timeline.Trace {
	t.Helper()
	for _, tl := range index.Timelines {
		if tl.Name == name {
			file := tl.Trace
			if lang != "en" {
				file = tl.Langs[lang]
			}
			if file == "" {
				t.Fatalf("web/traces/index.json lists no %s trace of %s", lang, name)
			}
			raw, err := os.ReadFile(filepath.Join(webDir, filepath.FromSlash(file)))
			must(t, err)
			var tr timeline.Trace
			must(t, json.Unmarshal(raw, &tr))
			return tr
		}
	}
	t.Fatalf("web/traces/index.json lists no %s", name)
	return timeline.Trace{}
}

// A share link or a frame carrying the red team's text (a 100 KB job id
// claimed next 2,000 times, whose trace was gigabytes) is refused by the
// page's engine at the limit name_bytes, said where the page says a
// text's mistakes; the page stays usable.
func TestPage_ShareLinkAndFrameOfTheAmplifierAreRefusedByTheLimit(t *testing.T) {
	src := base64.RawURLEncoding.EncodeToString([]byte(redteam.Amplifier(100_000, 2000)))
	for _, tc := range []struct{ name, path, shown string }{
		{"the simulator's share link", "/#src=" + src, `document.querySelector('#editor-error')`},
		{"embed.html", "/embed.html#src=" + src, `document.querySelector('lease-timeline')?.shadowRoot?.querySelector('.lt-error')`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := tab(t)
			start := time.Now()
			must(t, chromedp.Do(ctx, chromedp.Navigate(baseURL+tc.path)))
			shown := fmt.Sprintf(`(() => { const e = %s; return e && !e.hidden ? e.textContent : ''; })()`, tc.shown)
			waitFor(t, ctx, shown+`.includes('name_bytes')`, 60*time.Second)
			t.Logf("%s refused in %v", tc.name, time.Since(start).Round(time.Millisecond))
			if got := eval[string](t, ctx, shown); !strings.Contains(got, "over the limit name_bytes (128 bytes") {
				t.Errorf("shown %.300q; want the limit named with its value", got)
			}
			closeTab(ctx)
		})
	}
}
