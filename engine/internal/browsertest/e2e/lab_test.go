//go:build e2e

package e2e_test

import (
	"context"
	"html"
	"io"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/leaselab/leaselab/engine/internal/coursesite"
	"github.com/leaselab/leaselab/engine/internal/lab"
	"github.com/leaselab/leaselab/engine/internal/webserve"
	"github.com/leaselab/leaselab/engine/simrun"
)

// labRuns is a lab's runs line.
var labRuns = regexp.MustCompile(`(?m)^(runs )\d+$`)

// goldenLabText is a library lab cut to the runs its golden result holds.
func goldenLabText(t *testing.T, name string) string {
	t.Helper()
	text, err := lab.LibraryText(name)
	if err != nil {
		t.Fatal(err)
	}
	return labRuns.ReplaceAllString(text, "${1}3")
}

// Each library lab's result, run in headless Chromium on the page's engine
// (the explorer's worker), is its golden file byte for byte, as natively
// and under Node, and its progress counts every run up to the total.
func TestLab_InChromiumGivesTheGoldenBytes(t *testing.T) {
	ctx := blankTab(t, engineSite(t))
	for _, name := range lab.LibraryNames() {
		got, err := chromedp.Run(ctx, chromedp.Evaluate[struct {
			Raw   string `json:"raw"`
			Heard int    `json:"heard"`
			Last  struct {
				Done  int `json:"done"`
				Total int `json:"total"`
			} `json:"last"`
		}](`(async (text, name) => {
			const { loadExplorer } = await import('/engine.js');
			const engine = await loadExplorer();
			let heard = 0, last = null;
			const raw = await engine.lab(text, { name, onProgress: (p) => { heard++; last = p; } });
			return { raw, heard, last };
		})(`+jsString(goldenLabText(t, name))+`, `+jsString(name)+`)`, chromedp.EvalAwaitPromise))
		must(t, err)
		want, err := os.ReadFile(filepath.Join("..", "..", "lab", "testdata", "golden", strings.TrimSuffix(name, ".lab")+".json"))
		must(t, err)
		if got.Raw != string(want) {
			t.Errorf("%s: Chromium's result differs from the golden file (%d bytes, want %d)", name, len(got.Raw), len(want))
		}
		if got.Heard != got.Last.Total || got.Last.Done != got.Last.Total || got.Last.Total == 0 {
			t.Errorf("%s: progress heard %d times, last %d of %d", name, got.Heard, got.Last.Done, got.Last.Total)
		}
	}
	noProblems(t, ctx)
}

const elementLab = "# Two leases\njobs 4\nworkers 2\nhorizon 10s\nsweep lease 1s 2s\nruns 2\n"

// <lease-lab> draws the engine's plot with its points as buttons and a
// table with a caption and a row a point; the arrow keys move between the
// points and Enter opens the worst run behind one in a <lease-timeline>,
// the timeline the native Story gives.
func TestLab_ElementDrawsPlotAndTableAndEnterOpensTheWorstRun(t *testing.T) {
	ctx := blankTab(t, engineSite(t))
	eval[bool](t, ctx, `(import('/lease-lab.js').then(() => {
		const el = document.createElement('lease-lab');
		el.setAttribute('name', 'two.lab');
		el.textContent = `+jsString(elementLab)+`;
		document.body.append(el);
	}), true)`)
	waitFor(t, ctx, `document.querySelector('lease-lab')?.dataset.state === 'ready'`, 60*time.Second)
	got := eval[struct {
		Points  int    `json:"points"`
		Buttons int    `json:"buttons"`
		Tabbed  int    `json:"tabbed"`
		Label   string `json:"label"`
		Rows    int    `json:"rows"`
		Caption string `json:"caption"`
		Source  string `json:"source"`
	}](t, ctx, `(() => {
		const el = document.querySelector('lease-lab'), root = el.shadowRoot;
		const pts = root.querySelectorAll('svg [data-point][role="button"]');
		return { points: Number(el.dataset.points), buttons: pts.length,
			tabbed: root.querySelectorAll('svg [tabindex="0"]').length, label: pts[0]?.getAttribute('aria-label') || '',
			rows: root.querySelectorAll('table tbody tr').length, caption: root.querySelector('table caption')?.textContent || '',
			source: el.dataset.source };
	})()`)
	if got.Points != 2 || got.Buttons != 2 || got.Tabbed != 1 || got.Rows != 2 || got.Source != "engine" ||
		!strings.Contains(got.Caption, "Two leases") || !strings.Contains(got.Label, "Enter") {
		t.Fatalf("the element drew %+v", got)
	}
	eval[bool](t, ctx, `(document.querySelector('lease-lab').shadowRoot.querySelector('svg [data-point]').focus(), true)`)
	keys(t, ctx, kb.ArrowRight)
	if p := eval[string](t, ctx, `document.querySelector('lease-lab').shadowRoot.activeElement?.dataset.point ?? ''`); p != "1" {
		t.Fatalf("ArrowRight focused point %q, want 1", p)
	}
	keys(t, ctx, kb.Enter)
	waitFor(t, ctx, `document.querySelector('lease-lab').shadowRoot.querySelector('lease-timeline')?.dataset.state === 'ready'`, 60*time.Second)
	story := eval[string](t, ctx, `document.querySelector('lease-lab').shadowRoot.querySelector('lease-timeline').text`)
	worst := eval[int](t, ctx, `document.querySelector('lease-lab').result.points[1].worst`)
	want, err := simrun.LabStory(context.Background(), "two.lab", elementLab, "", 1, worst)
	must(t, err)
	if strings.TrimSpace(story) != strings.TrimSpace(want) {
		t.Fatalf("the story shown is not the native one:\n%s\nwant\n%s", story, want)
	}
	noProblems(t, ctx)
}

// A rerun of an edited lab shows its progress and is cancelled at once by
// Cancel, the plot kept; run again, it draws the edited lab.
func TestLab_ElementRerunsAnEditWithProgressAndCancel(t *testing.T) {
	ctx := blankTab(t, engineSite(t))
	eval[bool](t, ctx, `(import('/lease-lab.js').then(() => {
		const el = document.createElement('lease-lab');
		el.textContent = `+jsString(elementLab)+`;
		document.body.append(el);
	}), true)`)
	waitFor(t, ctx, `document.querySelector('lease-lab')?.dataset.state === 'ready'`, 60*time.Second)
	long := strings.Replace(elementLab, "runs 2", "runs 1000", 1)
	eval[bool](t, ctx, `(() => {
		const root = document.querySelector('lease-lab').shadowRoot;
		root.querySelector('details').open = true;
		root.querySelector('textarea').value = `+jsString(long)+`;
		[...root.querySelectorAll('button')].find((b) => b.textContent === 'Run').click();
		return true;
	})()`)
	waitFor(t, ctx, `document.querySelector('lease-lab').shadowRoot.querySelector('progress').value > 0`, 60*time.Second)
	eval[bool](t, ctx, `([...document.querySelector('lease-lab').shadowRoot.querySelectorAll('button')].find((b) => b.textContent === 'Cancel').click(), true)`)
	waitFor(t, ctx, `document.querySelector('lease-lab').shadowRoot.querySelector('progress').hidden`, 5*time.Second)
	got := eval[struct {
		Status string `json:"status"`
		State  string `json:"state"`
		Runs   int    `json:"runs"`
	}](t, ctx, `(() => { const el = document.querySelector('lease-lab');
		return { status: el.shadowRoot.querySelector('.status').textContent, state: el.dataset.state, runs: el.result.runs }; })()`)
	if !strings.Contains(got.Status, "Cancelled") || got.State != "ready" || got.Runs != 2 {
		t.Fatalf("after Cancel: %+v", got)
	}
	eval[bool](t, ctx, `(() => {
		const root = document.querySelector('lease-lab').shadowRoot;
		root.querySelector('textarea').value = root.querySelector('textarea').value.replace('runs 1000', 'runs 3');
		[...root.querySelectorAll('button')].find((b) => b.textContent === 'Run').click();
		return true;
	})()`)
	waitFor(t, ctx, `document.querySelector('lease-lab').result?.runs === 3`, 60*time.Second)
	noProblems(t, ctx)
}

// The guide's labs (a lease-lab fence and elements, in English and in
// Korean) each draw their plot and table as they scroll into view, the
// Korean ones in Korean, and the page then passes axe-core with them.
func TestLab_GuidesLabsDrawInTheirLanguageAndPassAxe(t *testing.T) {
	ctx := tab(t)
	must(t, chromedp.Do(ctx, chromedp.Navigate(baseURL+"/guide.html")))
	waitFor(t, ctx, `(() => { const all = [...document.querySelectorAll('lease-lab')];
		const next = all.find((e) => e.dataset.state !== 'ready');
		if (next && next.dataset.state === 'waiting') next.scrollIntoView();
		return all.length === 4 && !next; })()`, 2*time.Minute)
	got := eval[[]struct {
		Fence   bool   `json:"fence"`
		Lang    string `json:"lang"`
		Points  int    `json:"points"`
		Caption string `json:"caption"`
	}](t, ctx, `[...document.querySelectorAll('lease-lab')].map((e) => ({ fence: e.dataset.fence !== undefined,
		lang: e.closest('[lang]').lang, points: e.shadowRoot.querySelectorAll('svg [data-point]').length,
		caption: e.shadowRoot.querySelector('caption').textContent }))`)
	if !got[0].Fence || got[1].Fence {
		t.Errorf("the first lab is not the fence's, or the second is: %+v", got)
	}
	for _, l := range got {
		korean := strings.Contains(l.Caption, "점마다")
		if l.Points == 0 || korean != (l.Lang == "ko") {
			t.Errorf("a lab drew %d points, caption %q in a %s section", l.Points, l.Caption, l.Lang)
		}
	}
	eval[bool](t, ctx, `(document.querySelector('lease-lab').shadowRoot.querySelector('svg [data-point]').dispatchEvent(new MouseEvent('click', { bubbles: true })), true)`)
	waitFor(t, ctx, `document.querySelector('lease-lab').shadowRoot.querySelector('lease-timeline')?.dataset.state === 'ready'`, time.Minute)
	eval[bool](t, ctx, `(document.querySelector('lease-lab').id = 'lab-shot', true)`)
	elementShot(t, ctx, "lab-shot", "guide-lab.png")
	noProblems(t, ctx)
	audit(t, ctx, "/guide.html with its labs drawn and a story open")
}

// On a course site a prerendered lab (leaselab prerender) is drawn from
// its prerendered result and plot before any WebAssembly loads; a click on
// a point then loads the engine and shows the run behind it.
func TestLab_PrerenderedOnACourseSiteDrawsBeforeAnyWebAssembly(t *testing.T) {
	page := `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A lab</title>
<script src="` + coursesite.BundleDir() + `/leaselab.js" defer></script></head><body><main><h1>A lab</h1>
<pre><code class="language-lease-lab">#! lease-lab name=two.lab
` + html.EscapeString(elementLab) + `</code></pre></main></body></html>`
	url, rep := prerenderedSite(t, page)
	if rep.Labs != 1 {
		t.Fatalf("prerendered %d labs, want 1", rep.Labs)
	}
	ctx := tab(t)
	must(t, chromedp.Do(ctx, chromedp.Navigate(url+"/lesson.html")))
	waitFor(t, ctx, `document.querySelector('lease-lab')?.dataset.state === 'ready'`, 30*time.Second)
	got := eval[struct {
		Source string `json:"source"`
		Points int    `json:"points"`
		Wasm   int    `json:"wasm"`
	}](t, ctx, `(() => { const el = document.querySelector('lease-lab');
		return { source: el.dataset.source, points: el.shadowRoot.querySelectorAll('svg [data-point]').length,
			wasm: performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.wasm')).length }; })()`)
	if got.Source != "prerendered" || got.Points != 2 || got.Wasm != 0 {
		t.Fatalf("the course page's lab: %+v", got)
	}
	eval[bool](t, ctx, `(document.querySelector('lease-lab').shadowRoot.querySelector('svg [data-point]').dispatchEvent(new MouseEvent('click', { bubbles: true })), true)`)
	waitFor(t, ctx, `document.querySelector('lease-lab').shadowRoot.querySelector('lease-timeline')?.dataset.state === 'ready'`, 60*time.Second)
	noProblems(t, ctx)
}

// A <lease-lab> the page removes as soon as it added it (before its
// prerendered answer was looked up) runs nothing while out of the page,
// and added again it runs and draws.
func TestLab_ElementRemovedBeforeItRunsStartsNoRun(t *testing.T) {
	ctx := blankTab(t, engineSite(t))
	state, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(async (text) => {
		await import('/lease-lab.js');
		const { prerenderedLab } = await import('/prerendered.js');
		const el = (window.__lab = document.createElement('lease-lab'));
		el.textContent = text;
		document.body.append(el);
		el.remove();
		await prerenderedLab(text, 'lab.lab', 'en');
		await new Promise((ok) => setTimeout(ok, 0));
		return el.dataset.state || '';
	})(`+jsString(elementLab)+`)`, chromedp.EvalAwaitPromise))
	must(t, err)
	if state == "running" {
		t.Fatalf("the removed element started a run (data-state %q)", state)
	}
	eval[bool](t, ctx, `(document.body.append(window.__lab), true)`)
	waitFor(t, ctx, `window.__lab.dataset.state === 'ready' && window.__lab.dataset.points === '2'`, 60*time.Second)
	noProblems(t, ctx)
}

// A <lease-lab>'s run buttons, reached by the keyboard (Tab from the plot),
// show a focus ring: the outline of the focused worst or typical button is
// drawn, at least 2 px wide.
func TestLab_RunButtonsShowTheKeyboardFocus(t *testing.T) {
	ctx := blankTab(t, engineSite(t))
	eval[bool](t, ctx, `(import('/lease-lab.js').then(() => {
		const el = document.createElement('lease-lab');
		el.setAttribute('name', 'two.lab');
		el.textContent = `+jsString(elementLab)+`;
		document.body.append(el);
	}), true)`)
	waitFor(t, ctx, `document.querySelector('lease-lab')?.dataset.state === 'ready'`, 60*time.Second)
	eval[bool](t, ctx, `(document.querySelector('lease-lab').shadowRoot.querySelector('svg [data-point]').focus(), true)`)
	const activeRun = `(() => { const a = document.querySelector('lease-lab').shadowRoot.activeElement;
		return a?.tagName === 'BUTTON' && a.dataset.run !== undefined; })()`
	for i := 0; i < 6 && !eval[bool](t, ctx, activeRun); i++ {
		keys(t, ctx, kb.Tab)
	}
	if !eval[bool](t, ctx, activeRun) {
		t.Fatal("Tab from the plot reached no run button")
	}
	f := focusOK(t, ctx, "Tab to a run button")
	if !strings.Contains(f.What, "button") {
		t.Errorf("the focus is on %s, want a run button", f.What)
	}
}

// prerenderedSite builds the bundle (make dist) into a course site whose
// one page, lesson.html, is page, prerenders it (leaselab prerender) and
// serves it; it returns the site's URL and what prerender did.
func prerenderedSite(t *testing.T, page string) (string, coursesite.Report) {
	t.Helper()
	tmp := t.TempDir()
	dist := exec.Command("go", "run", "./engine/internal/build/dist", "-web", webDir, "-out", filepath.Join(tmp, "dist"))
	dist.Dir = filepath.Dir(webDir)
	if out, err := dist.CombinedOutput(); err != nil {
		t.Fatalf("make dist: %v\n%s", err, out)
	}
	site := filepath.Join(tmp, "site")
	must(t, os.CopyFS(filepath.Join(site, coursesite.BundleDir()), os.DirFS(filepath.Join(tmp, "dist", coursesite.BundleDir()))))
	must(t, os.WriteFile(filepath.Join(site, "lesson.html"), []byte(page), 0o644))
	rep, err := coursesite.Prerender(context.Background(), site, io.Discard)
	must(t, err)
	srv := httptest.NewServer(webserve.Handler(os.DirFS(site)))
	t.Cleanup(srv.Close)
	return srv.URL, rep
}
