//go:build e2e

package e2e_test

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/leaselab/leaselab/engine/internal/explore"
	"github.com/leaselab/leaselab/engine/internal/mutant"
	"github.com/leaselab/leaselab/engine/internal/testkit/modtest"
	"github.com/leaselab/leaselab/engine/simrun"
	"github.com/leaselab/leaselab/engine/timeline"
)

// The course page's timelines, by element id, and where their text comes
// from.
var courseEmbeds = []struct {
	id, library, file string
}{
	{id: "late-courier", library: "01-late-courier.tl"},
	{id: "boundary-demo"},
	{id: "renew-demo", file: "timelines/renew-in-time.tl"},
	{id: "kleppmann-demo", library: "11-kleppmann-fencing.tl"},
	{id: "korean-demo", library: "10-korean-courier.tl"},
	{id: "worksheet"},
}

// js helpers every course evaluation starts with: el(id) is the element,
// sr(id, css) a node of its shadow root.
const courseJS = `const el = (id) => document.getElementById(id);
const sr = (id, css) => el(id).shadowRoot.querySelector(css);
const srAll = (id, css) => [...el(id).shadowRoot.querySelectorAll(css)];
`

func courseEval[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	return eval[T](t, ctx, "(() => {"+courseJS+"return "+js+";})()")
}

func courseWait(t *testing.T, ctx context.Context, predicate string, timeout time.Duration) {
	t.Helper()
	_, err := chromedp.Run(ctx, chromedp.Poll[bool]("(() => {"+courseJS+"return "+predicate+";})()",
		chromedp.WithPollingTimeout(timeout), chromedp.WithPollingInterval(20*time.Millisecond)))
	if err != nil {
		state, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify({
			embeds: [...document.querySelectorAll('lease-timeline')].map((e) => ({id: e.id, ...e.dataset,
				status: e.shadowRoot && e.shadowRoot.querySelector('.lt-status').textContent,
				error: e.shadowRoot && e.shadowRoot.querySelector('.lt-error').textContent})),
			engine: document.documentElement.dataset.engine, problems: window.__problems,
			view: {visibility: document.visibilityState, focus: document.hasFocus(), scrollY, innerHeight,
				rects: Object.fromEntries([...document.querySelectorAll('lease-timeline')].map((e) => [e.id, Math.round(e.getBoundingClientRect().top) + '+' + Math.round(e.getBoundingClientRect().height)]))}})`))
		t.Fatalf("waiting for %s: %v; the page: %s", predicate, err, state)
	}
}

// wasmFetches counts the document's requests for the engine, in either
// build: the engine's worker fetches it, and engine.js marks each such
// fetch on the page's timeline under the module's URL (a worker's own
// timeline is not the page's). A page of players that fetched the tools'
// build too counts two.
const wasmFetches = `[...performance.getEntriesByType('resource'), ...performance.getEntriesByType('mark')].filter((e) => URL.canParse(e.name) && /\/leaselab(-tools)?\.wasm$/.test(new URL(e.name).pathname)).length`

// frames waits for two rendering frames and a little more: long enough
// for intersection observers to have reported what is in view.
const frames = `new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => resolve(true), 100))))`

func courseText(t *testing.T, library, file string) string {
	t.Helper()
	switch {
	case library != "":
		src, err := timeline.LibrarySource(library)
		must(t, err)
		return src
	case file != "":
		b, err := os.ReadFile(filepath.Join(webDir, filepath.FromSlash(file)))
		must(t, err)
		return string(b)
	}
	return ""
}

// elementShot saves a screenshot of one element when LEASELAB_SHOTS is set.
func elementShot(t *testing.T, ctx context.Context, id, name string) {
	t.Helper()
	if shotsDir == "" {
		return
	}
	buf, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.ID(id)))
	must(t, err)
	must(t, os.WriteFile(filepath.Join(shotsDir, name), buf, 0o644))
}

func scrollTo(t *testing.T, ctx context.Context, id string) {
	t.Helper()
	courseEval[bool](t, ctx, fmt.Sprintf(`(el(%q).scrollIntoView({block: 'center'}), true)`, id))
}

// openCourse opens the example course page in a tab of its own, at a
// viewport short enough that the first timeline starts well below it, and
// waits until every <lease-timeline> has a state. Each course test opens
// its own page: none depends on another having run.
func openCourse(t *testing.T) context.Context {
	t.Helper()
	return loadCourse(t, tab(t))
}

// loadCourse is openCourse in the tab of ctx.
func loadCourse(t *testing.T, ctx context.Context) context.Context {
	t.Helper()
	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 480)))
	must(t, chromedp.Do(ctx, chromedp.Navigate(baseURL+"/example-course.html")))
	courseWait(t, ctx, `customElements.get('lease-timeline') !== undefined && [...document.querySelectorAll('lease-timeline')].every((e) => e.dataset.state)`, 30*time.Second)
	return ctx
}

// courseReady scrolls each of ids into view in turn (which runs it) and
// waits until it has run.
func courseReady(t *testing.T, ctx context.Context, ids ...string) {
	t.Helper()
	for _, id := range ids {
		scrollTo(t, ctx, id)
		// Scrolled to, it may still be pushed out of reach by a timeline
		// above it that finishes drawing in the next frame (lazy loading
		// is right to wait then): while it has not started, scroll again.
		courseWait(t, ctx, fmt.Sprintf(`(() => {
			const e = el(%q);
			if (e.dataset.state === 'text') e.scrollIntoView({block: 'center'});
			return e.dataset.state === 'ready';
		})()`, id), 60*time.Second)
	}
}

// courseIDs are the ids of every course embed, top to bottom.
func courseIDs() []string {
	var ids []string
	for _, e := range courseEmbeds {
		ids = append(ids, e.id)
	}
	return ids
}

func TestCourse_ShowsEachTimelineAsTextBeforeTheEngineRuns(t *testing.T) {
	ctx := openCourse(t)
	for _, e := range courseEmbeds {
		want := courseText(t, e.library, e.file)
		if want == "" {
			continue
		}
		got := courseEval[string](t, ctx, fmt.Sprintf(`sr(%q, '.lt-source').textContent`, e.id))
		if got != want {
			t.Errorf("#%s shows the text:\n%s\nwant:\n%s", e.id, got, want)
		}
		if h := courseEval[float64](t, ctx, fmt.Sprintf(`sr(%q, '.lt-source').getBoundingClientRect().height`, e.id)); h < 80 {
			t.Errorf("#%s: its text is %.0f px tall: not shown", e.id, h)
		}
	}
	if got := courseEval[string](t, ctx, `sr('worksheet', 'textarea').value`); !strings.Contains(got, "B claim job-1") {
		t.Errorf("the worksheet's editor holds %q, want its timeline", got)
	}
	elementShot(t, ctx, "late-courier", "course-before-engine.png")
	screenshot(t, ctx, "course-page-before-engine.png")
	noProblems(t, ctx)
}

func TestCourse_LoadsTheEngineOnlyWhenATimelineComesNear(t *testing.T) {
	ctx := openCourse(t)
	top := courseEval[float64](t, ctx, `el('late-courier').getBoundingClientRect().top - innerHeight`)
	if top < 350 { // the element loads the engine from 300 px away
		t.Fatalf("the first timeline starts %.0f px below the viewport: too near to tell lazy loading from eager", top)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](frames, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatal(err)
	}
	if n := eval[int](t, ctx, wasmFetches); n != 0 {
		t.Errorf("the page fetched leaselab.wasm %d times before any timeline came near", n)
	}
	if states := courseEval[[]string](t, ctx, `[...document.querySelectorAll('lease-timeline')].map((e) => e.dataset.state)`); len(states) != len(courseEmbeds) || strings.Count(strings.Join(states, ","), "text") != len(courseEmbeds) {
		t.Errorf("before any timeline came near, their states are %q, want text for all %d", states, len(courseEmbeds))
	}
	courseReady(t, ctx, "late-courier")
	if n := eval[int](t, ctx, wasmFetches); n != 1 {
		t.Errorf("the first timeline near the viewport fetched leaselab.wasm %d times, want 1", n)
	}
	if got := courseEval[string](t, ctx, `el('renew-demo').dataset.state`); got != "text" {
		t.Errorf("a timeline far below is %q, want still text: it runs when it comes near", got)
	}
	elementShot(t, ctx, "late-courier", "course-first.png")
	noProblems(t, ctx)
}

// An observer that never tells of an element coming near (Chromium was
// seen to leave one in view unreported for good, about one course page in
// sixty under test) still leaves no timeline waiting once it is scrolled
// into view, and none that is far away starts.
func TestCourse_StartsEachTimelineScrolledNearWhenTheObserverNeverReports(t *testing.T) {
	ctx := tab(t)
	_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `
		window.IntersectionObserver = class { observe() {} unobserve() {} disconnect() {} takeRecords() { return []; } };`})
	must(t, err)
	ctx = loadCourse(t, ctx)
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](frames, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatal(err)
	}
	if n := eval[int](t, ctx, wasmFetches); n != 0 {
		t.Errorf("the page fetched leaselab.wasm %d times before any timeline came near", n)
	}
	courseReady(t, ctx, courseIDs()...)
	noProblems(t, ctx)
}

func TestCourse_SharesOneEngineForEveryTimeline(t *testing.T) {
	ctx := openCourse(t)
	courseReady(t, ctx, courseIDs()...)
	if n := eval[int](t, ctx, wasmFetches); n != 1 {
		t.Errorf("%d timelines fetched leaselab.wasm %d times, want once", len(courseEmbeds), n)
	}
	noProblems(t, ctx)
}

func TestCourse_KeepsAClockAndADatabasePerTimeline(t *testing.T) {
	ctx := openCourse(t)
	courseReady(t, ctx, courseIDs()...)
	tr := libraryTrace(t, "01-late-courier.tl")
	k := staleComplete(t, tr)
	scrollTo(t, ctx, "late-courier")
	for range k {
		courseEval[bool](t, ctx, `(sr('late-courier', 'button.forward').click(), true)`)
	}
	cursors := courseEval[map[string]string](t, ctx, `Object.fromEntries([...document.querySelectorAll('lease-timeline')].map((e) => [e.id, e.dataset.cursor]))`)
	want := map[string]string{"late-courier": fmt.Sprint(k), "boundary-demo": "5", "renew-demo": "0", "korean-demo": "0", "worksheet": "0"}
	for id, c := range want {
		if cursors[id] != c {
			t.Errorf("#%s is at step %q, want %q (cursors %v)", id, cursors[id], c, cursors)
		}
	}
	if got, want := courseEval[string](t, ctx, `sr('late-courier', '.explain').textContent`), tr.Steps[k-1].Explain; !strings.HasSuffix(got, want) {
		t.Errorf("#late-courier at step %d explains %q, want the engine's %q", k, got, want)
	}
	if got := courseEval[[]string](t, ctx, `srAll('late-courier', '.lanes .mark.k-refused:not(.future) .mark-label').map((e) => e.textContent)`); len(got) != 1 || got[0] != "complete ✕ superseded · A#1 vs B#2" {
		t.Errorf("#late-courier's refused marks %q, want A's stale complete", got)
	}
	// The keys step the timeline that has the focus, and only it.
	scrollTo(t, ctx, "renew-demo")
	courseEval[bool](t, ctx, `(sr('renew-demo', '.lanes-scroll').focus(), true)`)
	keys(t, ctx, kb.ArrowRight)
	keys(t, ctx, kb.ArrowRight)
	if got := courseEval[[]string](t, ctx, `[el('renew-demo').dataset.cursor, el('late-courier').dataset.cursor]`); got[0] != "2" || got[1] != fmt.Sprint(k) {
		t.Errorf("two right arrows in #renew-demo left it at step %s and #late-courier at %s, want 2 and %d", got[0], got[1], k)
	}
	// Each ran on a database of its own: its table holds its own jobs only.
	for id, jobs := range map[string]string{"late-courier": "order-7", "boundary-demo": "parcel-1,parcel-2", "renew-demo": "report-3", "korean-demo": "주문-7", "worksheet": "job-1"} {
		got := courseEval[[]string](t, ctx, fmt.Sprintf(`srAll(%q, '.final tbody tr').map((r) => r.dataset.job)`, id))
		if strings.Join(got, ",") != jobs {
			t.Errorf("#%s's final table holds %q, want %s", id, got, jobs)
		}
	}
	elementShot(t, ctx, "late-courier", "course-cursor.png")
	elementShot(t, ctx, "boundary-demo", "course-boundary.png")
	elementShot(t, ctx, "renew-demo", "course-renew.png")
	noProblems(t, ctx)
}

func TestCourse_SpeaksKoreanWhereThePageSaysKo(t *testing.T) {
	ctx := openCourse(t)
	courseReady(t, ctx, "late-courier", "korean-demo")
	src := courseText(t, "10-korean-courier.tl", "")
	raw, err := simrun.TraceJSON(context.Background(), "korean-courier.tl", src, simrun.Options{Lang: "ko"})
	must(t, err)
	var tr timeline.Trace
	must(t, json.Unmarshal(raw, &tr))
	courseEval[bool](t, ctx, `(sr('korean-demo', 'button.forward').click(), true)`)
	if got := courseEval[string](t, ctx, `sr('korean-demo', '.explain').textContent`); !strings.HasSuffix(got, tr.Steps[0].Explain) || !strings.Contains(got, "단계") {
		t.Errorf("the Korean timeline explains step 1 as %q, want the engine's Korean %q in a Korean frame", got, tr.Steps[0].Explain)
	}
	if got := courseEval[string](t, ctx, `sr('korean-demo', 'button.play').getAttribute('aria-label')`); got != "재생" {
		t.Errorf("the Korean timeline's play button says %q, want 재생", got)
	}
	if got := courseEval[string](t, ctx, `sr('late-courier', 'button.play').getAttribute('aria-label')`); got != "Play" {
		t.Errorf("the English timeline's play button says %q, want Play", got)
	}
	font := courseEval[string](t, ctx, `getComputedStyle(sr('korean-demo', '.explain')).fontFamily`)
	if !strings.Contains(font, "Noto Sans KR") || !strings.Contains(font, "Malgun Gothic") {
		t.Errorf("the Korean explanation's fonts %q lack the Korean fallbacks", font)
	}
	// A Hangul label is drawn wider than its Latin letter count: the
	// lanes measure it as wide, so labels do not overlap.
	if w := courseEval[float64](t, ctx, `Math.max(...srAll('korean-demo', '.lanes .actor').map((e) => e.getComputedTextLength()))`); w < 20 {
		t.Errorf("the Korean actor names are %.0f px wide: not drawn", w)
	}
	elementShot(t, ctx, "korean-demo", "course-korean.png")
	noProblems(t, ctx)
}

func TestCourse_WorksheetSaysWhenATimelineCannotTellTheEnginesApart(t *testing.T) {
	if len(mutant.All()) == 0 {
		t.Fatal("this test binary has no mutants: run it with -tags e2e,mutants (make e2e does)")
	}
	ctx := openCourse(t)
	courseReady(t, ctx, "worksheet")
	text := courseEval[string](t, ctx, `sr('worksheet', 'textarea').value`)
	native := worksheet(t, text)
	if native.Difference != nil {
		t.Fatalf("the page's worksheet timeline already tells the engines apart natively (%+v): it should leave that to the reader", native.Difference)
	}
	if got := courseEval[string](t, ctx, `el('worksheet').dataset.differs`); got != "no" {
		t.Errorf("the worksheet says differs=%q, want no", got)
	}
	if got := courseEval[string](t, ctx, `sr('worksheet', '.sheet-verdict').textContent`); !strings.Contains(got, "does not tell them apart") {
		t.Errorf("the worksheet's verdict %q does not say the timeline cannot tell them apart", got)
	}
	if n := courseEval[int](t, ctx, `srAll('worksheet', '.view').length`); n != 2 {
		t.Errorf("the worksheet shows %d engines, want the correct and the broken side by side", n)
	}
	noProblems(t, ctx)
}

// revealWorksheet edits the course page's worksheet into a timeline that
// tells the engines apart and waits until the element says they differ;
// it returns the native worksheet of that text.
func revealWorksheet(t *testing.T, ctx context.Context) nativeWorksheet {
	t.Helper()
	courseReady(t, ctx, "worksheet")
	text := courseEval[string](t, ctx, `sr('worksheet', 'textarea').value`)
	revealing := strings.Replace(text, "1001ms   B claim", "1000ms   B claim", 1)
	if revealing == text {
		t.Fatalf("the worksheet's timeline has no B claim at 1001ms to move:\n%s", text)
	}
	native := worksheet(t, revealing)
	if native.Difference == nil {
		t.Fatal("natively, a claim at lease_until does not tell claim-boundary apart")
	}
	js, _ := json.Marshal(revealing)
	courseEval[bool](t, ctx, fmt.Sprintf(`(() => { const ta = sr('worksheet', 'textarea'); ta.value = %s; ta.dispatchEvent(new Event('input')); return true; })()`, js))
	courseWait(t, ctx, `el('worksheet').dataset.differs === 'yes'`, 30*time.Second)
	return native
}

func TestCourse_WorksheetFindsTheFirstStepWhereTheEnginesDiffer(t *testing.T) {
	ctx := openCourse(t)
	native := revealWorksheet(t, ctx)
	d := native.Difference
	got := courseEval[map[string]string](t, ctx, `({step: el('worksheet').dataset.diffStep, line: el('worksheet').dataset.diffLine})`)
	if got["step"] != fmt.Sprint(d.Step+1) || got["line"] != fmt.Sprint(d.Line) {
		t.Errorf("the worksheet says the engines differ first at step %s (line %s), want step %d (line %d) as natively", got["step"], got["line"], d.Step+1, d.Line)
	}
	verdict := courseEval[string](t, ctx, `sr('worksheet', '.sheet-verdict').textContent`)
	for _, want := range []string{fmt.Sprintf("step %d", d.Step+1), d.Source, "refused held", "ok token=2"} {
		if !strings.Contains(verdict, want) {
			t.Errorf("the worksheet's verdict %q lacks %q", verdict, want)
		}
	}
	if rings := courseEval[[]string](t, ctx, `srAll('worksheet', '.lanes .mark.differs').map((m) => m.dataset.step)`); len(rings) < 2 || rings[0] != fmt.Sprint(d.Step+1) {
		t.Errorf("ringed marks at steps %q, want step %d in both engines' lanes", rings, d.Step+1)
	}
	// The worksheet in the browser is byte for byte the native one.
	exported, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('worksheet').exportTrace()`, chromedp.EvalAwaitPromise))
	must(t, err)
	if exported != string(native.raw) {
		t.Errorf("the browser's worksheet JSON differs from the native one")
	}
	courseEval[bool](t, ctx, `(sr('worksheet', '.sheet-verdict button[data-step]').click(), true)`)
	if got := courseEval[string](t, ctx, `el('worksheet').dataset.cursor`); got != fmt.Sprint(d.Step+1) {
		t.Errorf("the verdict's button took the worksheet to step %s, want %d", got, d.Step+1)
	}
	elementShot(t, ctx, "worksheet", "course-worksheet.png")
	noProblems(t, ctx)
}

// A worksheet the reader solved (the engines part ways) says so, in the
// element's language, and its verdict is drawn in the colour of success,
// not of an error.
func TestCourse_SolvedWorksheetSaysSolvedInItsLanguageNotAsAnError(t *testing.T) {
	ctx := openCourse(t)
	revealWorksheet(t, ctx)
	for _, c := range []struct{ lang, solved string }{{"en", "Solved"}, {"ko", "풀었습니다"}} {
		courseEval[bool](t, ctx, fmt.Sprintf(`(el('worksheet').setAttribute('lang', %q), true)`, c.lang))
		courseWait(t, ctx, fmt.Sprintf(`el('worksheet').dataset.differs === 'yes' && sr('worksheet', '.sheet-verdict').textContent.includes(%q)`, c.solved), 30*time.Second)
	}
	colours := courseEval[map[string]string](t, ctx, `(() => {
		const v = sr('worksheet', '.sheet-verdict');
		const probe = document.createElement('i');
		v.after(probe);
		const of = (c) => { probe.style.color = c; return getComputedStyle(probe).color; };
		const got = { border: getComputedStyle(v).borderLeftColor, ok: of('var(--ok)'), bad: of('var(--bad)') };
		probe.remove();
		return got;
	})()`)
	if colours["border"] == colours["bad"] || colours["border"] != colours["ok"] {
		t.Errorf("the solved worksheet's verdict is edged %s: want the success colour %s, not the error colour %s", colours["border"], colours["ok"], colours["bad"])
	}
	noProblems(t, ctx)
}

func TestCourse_WorksheetWordsTheBrokenRuleInTheElementsLanguage(t *testing.T) {
	ctx := openCourse(t)
	courseReady(t, ctx, "worksheet")
	for _, lang := range []string{"ko", "en"} {
		want, _ := json.Marshal(mutant.Rule(lang, mutant.ClaimBoundary))
		courseEval[bool](t, ctx, fmt.Sprintf(`(el('worksheet').setAttribute('lang', %q), true)`, lang))
		courseWait(t, ctx, fmt.Sprintf(`sr('worksheet', '.breaks').textContent.includes(%s)`, want), 30*time.Second)
	}
	noProblems(t, ctx)
}

func TestCourse_ExportsTheTraceTheLanesAndAGoTestThatPasses(t *testing.T) {
	ctx := openCourse(t)
	courseReady(t, ctx, "late-courier")
	dir := t.TempDir()
	_, err := chromedp.CallBrowser(ctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
		Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: dir, EventsEnabled: new(true),
	})
	must(t, err)
	files := map[string]string{}
	for _, kind := range []string{"json", "svg", "go"} {
		files[kind] = download(t, ctx, dir, fmt.Sprintf(`sr('late-courier', 'button[data-export=%q]')`, kind))
	}
	text := courseText(t, "01-late-courier.tl", "")
	want, err := simrun.TraceJSON(context.Background(), "late-courier.tl", text, simrun.Options{})
	must(t, err)
	if files["json"] != string(want) {
		t.Errorf("the exported trace is not the native trace's bytes")
	}
	checkStandaloneSVG(t, files["svg"])
	goSrc, err := simrun.GoTest("late-courier.tl", text, "")
	must(t, err)
	if files["go"] != goSrc {
		t.Errorf("the exported Go test differs from the native GoTest:\n%s", files["go"])
	}

	// The worksheet's SVG holds both engines' lanes, and the worksheet the
	// reader wrote exports a Go test too; both tests go in one module.
	courseReady(t, ctx, "worksheet")
	wsSVG, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('worksheet').exportSVG()`, chromedp.EvalAwaitPromise))
	must(t, err)
	var stacked struct {
		Inner []struct {
			Y string `xml:"y,attr"`
		} `xml:"svg"`
	}
	must(t, xml.Unmarshal([]byte(wsSVG), &stacked))
	if len(stacked.Inner) != 2 || stacked.Inner[0].Y == stacked.Inner[1].Y {
		t.Errorf("the worksheet's SVG holds %d lanes drawings (%+v), want the two engines one above the other", len(stacked.Inner), stacked.Inner)
	}
	ws, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('worksheet').exportGoTest()`, chromedp.EvalAwaitPromise))
	must(t, err)
	noProblems(t, ctx)
	closeTab(ctx) // the go command gets the CPU to itself

	root, err := modtest.Root(".")
	must(t, err)
	mod := t.TempDir()
	must(t, modtest.Write(mod, root, map[string]string{"late_courier_test.go": files["go"], "worksheet_test.go": ws}))
	res, err := modtest.Test(mod)
	must(t, err)
	for _, fn := range []string{"TestLateCourier", "TestWorksheet"} {
		if !res.Passed[fn] {
			t.Errorf("%s did not pass under go test:\n%s", fn, res.Output)
		}
	}
}

// checkStandaloneSVG checks that an exported lanes SVG stands alone: lanes
// A and B drawn with their fills, and no class left for a stylesheet.
func checkStandaloneSVG(t *testing.T, file string) {
	t.Helper()
	var svg struct {
		XMLName xml.Name
		Width   string `xml:"width,attr"`
		Texts   []struct {
			Fill string `xml:"fill,attr"`
			Text string `xml:",chardata"`
		} `xml:"text"`
	}
	must(t, xml.Unmarshal([]byte(file), &svg))
	actors := map[string]string{}
	for _, tx := range svg.Texts {
		actors[tx.Text] = tx.Fill
	}
	if svg.XMLName.Local != "svg" || svg.Width == "" || actors["A"] == "" || actors["B"] == "" || strings.Contains(file, "class=") {
		t.Errorf("the exported SVG does not stand alone (lanes A and B with their fills, no classes):\n%.600s", file)
	}
}

func TestCourse_FrameReportsItsHeightToItsOwnOriginOnly(t *testing.T) {
	ctx := openCourse(t)
	scrollTo(t, ctx, "receiver-frame")
	courseWait(t, ctx, `(() => { const f = el('receiver-frame'); const d = f.contentDocument;
		const e = d && d.querySelector('lease-timeline');
		return Boolean(e && e.dataset.state === 'ready' && f.dataset.leaselabHeight &&
			Number(f.height) === Math.ceil(d.documentElement.getBoundingClientRect().height)); })()`, 60*time.Second)
	h := courseEval[int](t, ctx, `Number(el('receiver-frame').height)`)
	if h <= 320 {
		t.Errorf("the frame is %d px tall, want it grown from 320 to its timeline's height", h)
	}
	if got := courseEval[string](t, ctx, `el('receiver-frame').contentDocument.title`); got != "leaselab: The receiver ignores a resend: one business id is applied once" {
		t.Errorf("the frame's title is %q", got)
	}
	if n := courseEval[int](t, ctx, `((performance) => `+wasmFetches+`)(el('receiver-frame').contentWindow.performance)`); n != 1 {
		t.Errorf("the frame fetched leaselab.wasm %d times, want once", n)
	}
	forge := func(origin, source string) int {
		return courseEval[int](t, ctx, fmt.Sprintf(`(() => {
			window.dispatchEvent(new MessageEvent('message', {data: {type: 'leaselab:height', height: 111}, origin: %s, source: %s}));
			return Number(el('receiver-frame').height); })()`, origin, source))
	}
	for _, tc := range []struct{ name, origin, source string }{
		{"another origin", `'http://evil.example'`, `el('receiver-frame').contentWindow`},
		{"another window", `location.origin`, `window`},
		{"the opaque origin, the frame not sandboxed", `'null'`, `el('receiver-frame').contentWindow`},
	} {
		if got := forge(tc.origin, tc.source); got != h {
			t.Errorf("a height message from %s set the frame to %d px, want it ignored (%d)", tc.name, got, h)
		}
	}
	// The same message from the frame's window and origin is taken.
	if got := forge(`location.origin`, `el('receiver-frame').contentWindow`); got != 111 {
		t.Errorf("a height message from the frame itself left it at %d px, want 111: the check refuses everything", got)
	}
	courseEval[bool](t, ctx, `(el('receiver-frame').contentWindow.postMessage({type: 'leaselab:ping'}, location.origin), true)`)
	courseWait(t, ctx, fmt.Sprintf(`Number(el('receiver-frame').height) === %d`, h), 10*time.Second)
	elementShot(t, ctx, "receiver-frame", "course-frame.png")
	noProblems(t, ctx)
}

func TestCourse_PrintsTheTimelineAndItsFinalTable(t *testing.T) {
	ctx := openCourse(t)
	courseReady(t, ctx, "late-courier")
	_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"})
	must(t, err)
	got := courseEval[map[string]string](t, ctx, `({
		source: getComputedStyle(sr('late-courier', '.lt-source')).display,
		text: sr('late-courier', '.lt-source').textContent,
		final: getComputedStyle(sr('late-courier', '.final')).display,
		rows: srAll('late-courier', '.final tbody tr').map((r) => r.dataset.job + ':' + r.querySelector('[data-col=status]').textContent).join(','),
		transport: getComputedStyle(sr('late-courier', '.transport')).display})`)
	if got["source"] == "none" || got["text"] != courseText(t, "01-late-courier.tl", "") {
		t.Errorf("in print the timeline's text is %q (display %s), want it shown", got["text"], got["source"])
	}
	if got["final"] == "none" || got["rows"] != "order-7:done" {
		t.Errorf("in print the final table shows %q (display %s), want order-7 done", got["rows"], got["final"])
	}
	if got["transport"] != "none" {
		t.Errorf("in print the clock's controls show (display %s)", got["transport"])
	}
	noProblems(t, ctx)
}

func TestCourse_FollowsTheDarkScheme(t *testing.T) {
	ctx := openCourse(t)
	_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{
		{Name: "prefers-color-scheme", Value: "dark"},
	}})
	must(t, err)
	courseReady(t, ctx, "late-courier", "worksheet")
	lum := `((c) => { const [r, g, b] = c.match(/\d+(\.\d+)?/g).map(Number); return 0.2126 * r + 0.7152 * g + 0.0722 * b; })`
	bg := courseEval[float64](t, ctx, lum+`(getComputedStyle(sr('late-courier', '.lt')).backgroundColor)`)
	fg := courseEval[float64](t, ctx, lum+`(getComputedStyle(sr('late-courier', '.lt')).color)`)
	if bg > 60 || fg < 180 {
		t.Errorf("dark scheme: the timeline's background luminance %.0f, text %.0f; want dark and light", bg, fg)
	}
	elementShot(t, ctx, "late-courier", "course-dark.png")
	elementShot(t, ctx, "worksheet", "course-dark-worksheet.png")
	screenshot(t, ctx, "course-dark-page.png")
	noProblems(t, ctx)
}

func TestCourse_FitsA360PixelScreen(t *testing.T) {
	ctx := openCourse(t)
	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(360, 740, chromedp.EmulateScale(2))))
	courseReady(t, ctx, courseIDs()...)
	courseWait(t, ctx, `srAll('worksheet', '.lanes').every((s) => s.viewBox.baseVal.width <= 360)`, 10*time.Second)
	if w := eval[int](t, ctx, `document.documentElement.scrollWidth`); w > 360 {
		t.Errorf("the course page is %d px wide at a 360 px viewport: it scrolls sideways", w)
	}
	for _, e := range courseEmbeds {
		if right := courseEval[float64](t, ctx, fmt.Sprintf(`sr(%q, '.lt').getBoundingClientRect().right`, e.id)); right > 360.5 {
			t.Errorf("#%s ends at x=%.0f, beyond the 360 px viewport", e.id, right)
		}
	}
	elementShot(t, ctx, "late-courier", "course-narrow.png")
	noProblems(t, ctx)
}

// nativeWorksheet is simrun.WorksheetJSON's answer, natively.
type nativeWorksheet struct {
	raw        []byte
	Difference *timeline.Difference `json:"difference"`
}

func worksheet(t *testing.T, text string) nativeWorksheet {
	t.Helper()
	raw, err := simrun.WorksheetJSON(context.Background(), "worksheet.tl", text, simrun.Options{Mutant: mutant.ClaimBoundary, Lang: "en"})
	must(t, err)
	w := nativeWorksheet{raw: raw}
	must(t, json.Unmarshal(raw, &w))
	return w
}

// download clicks the button the JS expression (with courseJS) finds and
// returns the file it downloads into dir.
func download(t *testing.T, ctx context.Context, dir, button string) string {
	t.Helper()
	dctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	begins := chromedp.BrowserEvents(dctx, cdpbrowser.DownloadWillBegin)
	progress := chromedp.BrowserEvents(dctx, cdpbrowser.DownloadProgress)
	courseEval[bool](t, ctx, "("+button+".click(), true)")
	var guid string
	for ev, err := range begins {
		must(t, err)
		guid = ev.GUID
		break
	}
	for ev, err := range progress {
		must(t, err)
		if ev.GUID != guid {
			continue
		}
		if ev.State == cdpbrowser.DownloadProgressStateCanceled {
			t.Fatalf("the download from %s was canceled", button)
		}
		if ev.State == cdpbrowser.DownloadProgressStateCompleted {
			break
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, guid))
	must(t, err)
	return string(b)
}

// Without JavaScript the course page is still a lesson: each timeline is
// its own text, laid out as a timeline by the page's stylesheet, and the
// engine is never fetched.
func TestCourse_WithoutJavaScriptEachTimelineIsReadableText(t *testing.T) {
	ctx := tab(t)
	_, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
	must(t, err)
	must(t, chromedp.Do(ctx, chromedp.Navigate(baseURL+"/example-course.html")))
	if defined := eval[bool](t, ctx, `customElements.get('lease-timeline') !== undefined`); defined {
		t.Fatal("the element is defined: the page's scripts ran")
	}
	for _, e := range courseEmbeds {
		want := courseText(t, e.library, e.file)
		if want == "" || e.file != "" {
			continue // a src= timeline is fetched by the script: without it, there is no text to show
		}
		got := eval[map[string]string](t, ctx, fmt.Sprintf(`(() => { const e = document.getElementById(%q); const cs = getComputedStyle(e);
			return {text: e.textContent, whiteSpace: cs.whiteSpace, font: cs.fontFamily, height: String(e.getBoundingClientRect().height)}; })()`, e.id))
		for _, line := range strings.Split(strings.TrimSpace(want), "\n") {
			if !strings.Contains(got["text"], line) {
				t.Errorf("#%s without JavaScript lacks the line %q", e.id, line)
			}
		}
		if got["whiteSpace"] != "pre" || !strings.Contains(got["font"], "monospace") {
			t.Errorf("#%s without JavaScript is white-space %q in %q: its lines run together", e.id, got["whiteSpace"], got["font"])
		}
		lines := strings.Count(strings.TrimSpace(want), "\n") + 1
		if h := got["height"]; h == "" || mustFloat(t, h) < float64(lines)*15 {
			t.Errorf("#%s without JavaScript is %s px tall for %d lines", e.id, h, lines)
		}
	}
	if n := eval[int](t, ctx, wasmFetches); n != 0 {
		t.Errorf("without JavaScript the page fetched leaselab.wasm %d times", n)
	}
	screenshot(t, ctx, "course-nojs.png")
	_, err = chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"})
	must(t, err)
	if ws := eval[string](t, ctx, `getComputedStyle(document.getElementById('late-courier')).whiteSpace`); ws != "pre-wrap" {
		t.Errorf("printed without JavaScript, a timeline is white-space %q, want pre-wrap (long lines wrap on paper)", ws)
	}
	screenshot(t, ctx, "course-nojs-print.png")
}

func mustFloat(t *testing.T, s string) float64 {
	t.Helper()
	var f float64
	if _, err := fmt.Sscan(s, &f); err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return f
}

// The simulator's Share / Embed panel gives an element snippet and a frame
// snippet for the timeline on screen; the frame's URL opens that timeline.
func TestPage_ShareEmbedPanelGivesTheElementAndTheFrameSnippets(t *testing.T) {
	tr := defaultTrace(t)
	k := staleComplete(t, tr)
	ctx := tab(t)
	open(t, ctx, fmt.Sprintf("#t=%s&step=%d&lang=ko", tr.Name, k))
	must(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("share-button"))))
	got := eval[map[string]string](t, ctx, `({open: String(document.getElementById('share').open),
		link: document.getElementById('share-link').value,
		element: document.getElementById('share-element').value,
		frame: document.getElementById('share-iframe').value})`)
	if got["open"] != "true" {
		t.Fatal("the Share / Embed button did not open the panel")
	}
	if shotsDir != "" {
		buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		must(t, err)
		must(t, os.WriteFile(filepath.Join(shotsDir, "share.png"), buf, 0o644))
	}
	text := courseText(t, tr.Name, "")
	for _, want := range []string{
		`<script type="module" src="` + baseURL + `/lease-timeline.js"></script>`,
		`<link rel="stylesheet" href="` + baseURL + `/lease-timeline.css">`,
		fmt.Sprintf(`<lease-timeline name="%s" lang="ko" step="%d">`, tr.Name, k),
		strings.TrimSpace(text),
	} {
		if !strings.Contains(got["element"], want) {
			t.Errorf("the element snippet lacks %q:\n%s", want, got["element"])
		}
	}
	frameSrc := fmt.Sprintf(`%s/embed.html#t=%s&amp;lang=ko&amp;step=%d`, baseURL, tr.Name, k)
	for _, want := range []string{`<iframe src="` + frameSrc + `"`, `title="leaselab: ` + tr.Title + `"`, `<script src="` + baseURL + `/embed-host.js"></script>`} {
		if !strings.Contains(got["frame"], want) {
			t.Errorf("the frame snippet lacks %q:\n%s", want, got["frame"])
		}
	}
	if !strings.Contains(got["link"], "step="+fmt.Sprint(k)) {
		t.Errorf("the link %q does not keep the step", got["link"])
	}
	must(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`button[data-copy="share-iframe"]`))))
	waitFor(t, ctx, `document.getElementById('share-copied').textContent !== ''`, 5*time.Second)
	noProblems(t, ctx)
	closeTab(ctx)

	// The frame's URL shows the same timeline, in Korean, at the same step.
	frame := tab(t)
	must(t, chromedp.Do(frame, chromedp.Navigate(strings.ReplaceAll(frameSrc, "&amp;", "&"))))
	courseWait(t, frame, `Boolean(document.querySelector('lease-timeline') && document.querySelector('lease-timeline').dataset.state)`, 30*time.Second)
	view := eval[map[string]string](t, frame, `(() => { const e = document.querySelector('lease-timeline');
		return {text: e.shadowRoot.querySelector('.lt-source').textContent, lang: e.getAttribute('lang'), step: e.getAttribute('step'), title: document.title}; })()`)
	if view["text"] != text || view["lang"] != "ko" || view["step"] != fmt.Sprint(k) || view["title"] != "leaselab: "+tr.Title {
		t.Errorf("the frame shows %+v, want the %s timeline in Korean at step %d", view, tr.Name, k)
	}
	noProblems(t, frame)
}

// stepLine matches a step line of a timeline (it starts with its time).
var stepLine = regexp.MustCompile(`(?m)^\+?\d+ms `)

// A worksheet whose timeline does not yet tell the engines
// apart offers a hint; the explorer (in a worker of its own) finds the
// shortest timeline that does — the native explorer's, byte for byte —
// and the hint reveals it a step at a time, then opens it in the
// worksheet's editor, where it tells the engines apart.
func TestCourse_WorksheetHintRevealsTheExplorersTimelineAStepAtATime(t *testing.T) {
	ctx := openCourse(t)
	courseReady(t, ctx, "worksheet")
	raw, err := simrun.ExploreJSON(context.Background(), explore.Goal{Mutant: mutant.ClaimBoundary}, simrun.ExploreScope{}, nil)
	must(t, err)
	var found struct {
		Timeline string `json:"timeline"`
		Steps    int    `json:"steps"`
	}
	must(t, json.Unmarshal(raw, &found))
	if found.Steps < 2 {
		t.Fatalf("natively the explorer found %d steps; the test wants at least two to reveal", found.Steps)
	}
	courseEval[bool](t, ctx, `(sr('worksheet', '.hint button[data-hint="search"]').click(), true)`)
	courseWait(t, ctx, `sr('worksheet', '.hint .hint-lines') !== null`, 60*time.Second)
	shown := func() string { return courseEval[string](t, ctx, `sr('worksheet', '.hint .hint-lines').textContent`) }
	want := strings.TrimRight(found.Timeline, "\n")
	first := shown()
	if !strings.HasPrefix(want, first) || first == want || len(stepLine.FindAllString(first, -1)) != 1 {
		t.Fatalf("the hint first shows:\n%s\nwant the head and the first step of:\n%s", first, want)
	}
	for i := 2; i <= found.Steps; i++ {
		courseEval[bool](t, ctx, `(sr('worksheet', '.hint button[data-hint="next"]').click(), true)`)
		if got := shown(); !strings.HasPrefix(want, got) || len(stepLine.FindAllString(got, -1)) != i {
			t.Fatalf("after %d steps revealed the hint shows:\n%s", i, got)
		}
	}
	if got := shown(); got != want {
		t.Fatalf("fully revealed, the hint shows:\n%s\nwant the native explorer's:\n%s", got, want)
	}
	if n := courseEval[int](t, ctx, `srAll('worksheet', '.hint button[data-hint="next"]').length`); n != 0 {
		t.Errorf("every step is shown, yet a next button remains")
	}
	courseEval[bool](t, ctx, `(sr('worksheet', '.hint button[data-hint="open"]').click(), true)`)
	courseWait(t, ctx, `el('worksheet').dataset.differs === 'yes'`, 30*time.Second)
	if got := courseEval[string](t, ctx, `sr('worksheet', 'textarea').value`); got != found.Timeline {
		t.Errorf("the editor holds:\n%s\nwant the found timeline", got)
	}
	noProblems(t, ctx)
}
