//go:build e2e

package e2e_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/leaselab/leaselab/engine/internal/explore"
	"github.com/leaselab/leaselab/engine/simrun"
)

// exploreInPage runs the explorer through the page's API (loadExplorer: a
// worker of its own) and returns its report, the progress it heard, and
// whether the page's own engine answered a run meanwhile.
const exploreInPage = `async (goal, scope) => {
	const { loadEngine, loadExplorer } = await import('/engine.js');
	const [engine, explorer] = await Promise.all([loadEngine(), loadExplorer()]);
	const heard = [];
	const search = explorer.explore(goal, { scope, onProgress: (p) => heard.push(p) });
	const run = await engine.run('lease 1000ms\njob j\n0 A claim j -> ok\n', { name: 'side.tl' });
	const report = JSON.parse(await search);
	return { report, heard: heard.length, ranMeanwhile: JSON.parse(run).summary.passed };
}`

// The explorer runs in the browser off the main thread, in a worker of its
// own: it finds what the native explorer finds, byte for byte, reports its
// progress, and the page's own engine answers meanwhile.
func TestExplore_InThePageFindsWhatTheNativeExplorerFinds(t *testing.T) {
	ctx := blankTab(t, engineSite(t))
	scope := map[string]any{"steps": 4}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[struct {
		Report       json.RawMessage `json:"report"`
		Heard        int             `json:"heard"`
		RanMeanwhile bool            `json:"ranMeanwhile"`
	}](`(`+exploreInPage+`)({mutant: 'attempts-off-by-one'}, {steps: 4})`, chromedp.EvalAwaitPromise))
	must(t, err)
	native, err := simrun.ExploreJSON(context.Background(), explore.Goal{Mutant: "attempts-off-by-one"}, simrun.ExploreScope{Steps: 4}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var a, b map[string]any
	json.Unmarshal(got.Report, &a)
	json.Unmarshal(native, &b)
	if a["timeline"] != b["timeline"] || a["states"] != b["states"] || a["found"] != true {
		t.Fatalf("the page found %v in %v states; natively %v in %v states (scope %v)", a["timeline"], a["states"], b["timeline"], b["states"], scope)
	}
	if got.Heard < 1 || !got.RanMeanwhile {
		t.Fatalf("progress heard %d times; the page's engine answered meanwhile: %v", got.Heard, got.RanMeanwhile)
	}
}

// A search is cancelled at once, and the explorer answers the next one.
func TestExplore_CancelledAtOnceThenSearchesAgain(t *testing.T) {
	ctx := blankTab(t, engineSite(t))
	got, err := chromedp.Run(ctx, chromedp.Evaluate[struct {
		Name  string `json:"name"`
		Ms    int    `json:"ms"`
		Found bool   `json:"found"`
	}](`(async () => {
		const { loadExplorer } = await import('/engine.js');
		const explorer = await loadExplorer();
		const stop = new AbortController();
		const long = explorer.explore({ property: 'single-lease' }, { scope: { steps: 8 }, signal: stop.signal });
		await new Promise((r) => setTimeout(r, 300));
		const t0 = performance.now();
		stop.abort();
		const name = await long.then(() => 'finished', (e) => e.name);
		const ms = Math.round(performance.now() - t0);
		const next = JSON.parse(await explorer.explore({ mutant: 'claim-boundary' }));
		return { name, ms, found: next.found };
	})()`, chromedp.EvalAwaitPromise))
	must(t, err)
	if got.Name != "AbortError" || got.Ms > int((time.Second).Milliseconds()) || !got.Found {
		t.Fatalf("cancelled search: %q after %d ms; the next one found: %v", got.Name, got.Ms, got.Found)
	}
}

// The simulator page's Explore dialog finds the shortest timeline that
// tells a mutant apart, showing its progress, and loads it into the
// editor, where it runs on that mutant and fails its expectations (which
// are the correct engine's).
func TestPage_ExploreDialogFindsAndLoadsTheTimelineThatTellsAMutantApart(t *testing.T) {
	ctx := tab(t)
	open(t, ctx, "")
	waitEngine(t, ctx)
	must(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("explore-button"))))
	waitFor(t, ctx, `document.querySelector('#explore-mutant').options.length > 0`, 10*time.Second)
	eval[bool](t, ctx, `(document.querySelector('#explore-mutant').value = 'attempts-off-by-one', true)`)
	must(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("explore-search"))))
	waitFor(t, ctx, `!document.querySelector('#explore-load').hidden`, 30*time.Second)
	status := text(t, ctx, "#explore-status")
	if !strings.Contains(status, "confirmed on the engine") {
		t.Fatalf("status %q", status)
	}
	must(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("explore-load"))))
	waitFor(t, ctx, `document.querySelector('#editor').value.startsWith('# Found by leaselab explore')`, 10*time.Second)
	waitFor(t, ctx, `document.querySelector('#mutant').value === 'attempts-off-by-one'`, 10*time.Second)
	waitFor(t, ctx, `document.documentElement.dataset.engine === 'ready' && document.querySelector('.editor-pane .summary').classList.contains('fail')`, 20*time.Second)
	noProblems(t, ctx)
}

// A newcomer's first search, the dialog as it opens, finds a story: the
// boundary's broken engine, told apart by a claim and a claim at the
// instant its lease ends (2 steps), not a lone reopen of the database.
func TestExplore_TheFirstSearchFindsAStoryOfTwoClaims(t *testing.T) {
	ctx := tab(t)
	open(t, ctx, "")
	waitEngine(t, ctx)
	must(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("explore-button"))))
	waitFor(t, ctx, `document.querySelector('#explore-mutant').options.length > 0`, 10*time.Second)
	if got := eval[string](t, ctx, `document.querySelector('#explore-mutant').value`); got != "claim-boundary" {
		t.Errorf("the dialog opens on %q, want claim-boundary", got)
	}
	must(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("explore-search"))))
	waitFor(t, ctx, `!document.querySelector('#explore-load').hidden`, 30*time.Second)
	found := text(t, ctx, "#explore-result")
	if strings.Count(found, " claim a ") != 2 || strings.Contains(found, "reopen") {
		t.Errorf("the first search found %q, want two claims of one job", found)
	}
	if status := text(t, ctx, "#explore-status"); !strings.Contains(status, "2 steps") {
		t.Errorf("status %q, want 2 steps", status)
	}
}
