//go:build e2e

package e2e_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

// story uses what the library's stories need drawn: a note, a pause, a worker
// whose clock runs ahead, a violation the story announces (violates=), the
// fenced storage and a crash that makes a worker forget its lease.
const story = `# Paused worker, skewed clock, fenced storage
lease 1000ms
job job-1
clock B +200ms

0ms     A claim job-1              -> ok token=1
# A stalls in a long GC pause.
# Its lease runs out while it sleeps.
100ms   A pause 1200ms
900ms   B claim job-1              -> ok token=2 violates=single-lease
950ms   B write job-1 value=b      -> ok
1300ms  A write job-1 value=a      -> refused fenced  # the fence holds
1400ms  B crash
2000ms  C claim job-1              -> refused held
2100ms  C claim job-1              -> ok token=3
2200ms  C write job-1 value=c      -> ok
`

// openStory opens text on the simulator page, runs it on the engine and
// returns a function that moves the cursor to a step.
func openStory(t *testing.T, ctx context.Context, name, text string) func(step int) {
	t.Helper()
	src := base64.RawURLEncoding.EncodeToString([]byte(text))
	open(t, ctx, fmt.Sprintf("#name=%s&src=%s", name, src))
	waitEngine(t, ctx)
	waitFor(t, ctx, fmt.Sprintf(`document.getElementById('player').dataset.timeline === %q`, name), 30*time.Second)
	return func(step int) {
		t.Helper()
		eval[bool](t, ctx, fmt.Sprintf(`(location.hash = location.hash.replace(/&step=\d+/, '') + '&step=%d', true)`, step))
		waitFor(t, ctx, fmt.Sprintf(`document.getElementById('player').dataset.cursor === '%d'`, step), 10*time.Second)
	}
}

// markX is the x of a step's mark on a worker's lane (its glyph's centre).
func markX(t *testing.T, ctx context.Context, step int, actor string) float64 {
	t.Helper()
	return eval[float64](t, ctx, fmt.Sprintf(`(() => { const g = document.querySelector('#player svg.lanes .mark[data-step="%d"][data-actor=%q]');
		const d = g.querySelector('.dot'); return d.tagName === 'rect' ? Number(d.getAttribute('x')) + Number(d.getAttribute('width')) / 2 : Number(d.getAttribute('cx')); })()`, step, actor))
}

func near(a, b float64) bool { return math.Abs(a-b) < 1 }

func TestPage_DrawsAStoryPauseNoteClockStorageAndCrash(t *testing.T) {
	ctx := tab(t)
	goTo := openStory(t, ctx, "story.tl", story)
	q := func(js string) string { return eval[string](t, ctx, js) }

	// The note of the step, under the engine's sentence.
	goTo(2)
	if got := q(`(() => { const n = document.querySelector('#player .step-note'); return n.hidden ? '' : n.textContent; })()`); !strings.HasSuffix(got, "A stalls in a long GC pause.\nIts lease runs out while it sleeps.") {
		t.Errorf("step 2's note reads %q, want the two comment lines above it", got)
	}
	goTo(5)
	if got := q(`document.querySelector('#player .step-note').textContent`); !strings.HasSuffix(got, "the fence holds") {
		t.Errorf("step 5's note reads %q, want its end-of-line comment", got)
	}

	// The pause: a gap in A's lane from the pause (100 ms) to 1300 ms, where A writes next.
	gap := eval[map[string]float64](t, ctx, `(() => { const r = document.querySelectorAll('#player svg.lanes rect.pause');
		return {n: r.length, x: Number(r[0].getAttribute('x')), w: Number(r[0].getAttribute('width'))}; })()`)
	if gap["n"] != 1 || !near(gap["x"], markX(t, ctx, 2, "A")) || !near(gap["x"]+gap["w"], markX(t, ctx, 5, "A")) {
		t.Errorf("the pause is drawn as %v, want one gap from A's pause mark (x=%.1f) to its write at 1300 ms (x=%.1f)", gap, markX(t, ctx, 2, "A"), markX(t, ctx, 5, "A"))
	}
	if got := q(`document.querySelector('#player svg.lanes .mark[data-step="2"] .mark-label').textContent`); got != "pause 1200 ms" {
		t.Errorf("the pause is labelled %q, want \"pause 1200 ms\"", got)
	}

	// B's clock runs 200 ms ahead: its lane says so, and its steps show its own clock.
	if got := q(`[...document.querySelectorAll('#player svg.lanes .actor-offset')].map((e) => e.textContent).join()`); got != "(+200 ms)" {
		t.Errorf("the lanes' clock offsets read %q, want B's (+200 ms) only", got)
	}
	goTo(3)
	if got := q(`document.querySelector('#player .step-source .own-clock').textContent`); got != "B's clock reads 1100 ms" {
		t.Errorf("step 3 (900 ms) says %q of B's clock, want 1100 ms", got)
	}
	if got := q(`document.querySelector('#player svg.lanes .mark[data-step="3"] title').textContent`); !strings.Contains(got, "B's clock reads 1100 ms") {
		t.Errorf("B's claim's tooltip %q does not give B's own clock", got)
	}

	// The fenced storage: B's accepted write changes the value, A's refused one does not.
	for _, c := range []struct {
		step                int
		value, owner, token string
		changed             string
	}{{4, "b", "B", "2", "value,owner,token"}, {5, "b", "B", "2", ""}, {9, "c", "C", "3", "value,owner,token"}} {
		goTo(c.step)
		got := eval[map[string]string](t, ctx, `(() => { const p = document.querySelector('#player .storage-panel');
			const cell = (c) => p.querySelector('tr[data-key="job-1"] [data-col=' + c + ']').firstChild.textContent;
			return {hidden: String(p.hidden), value: cell('value'), owner: cell('owner'), token: cell('token'),
				changed: [...p.querySelectorAll('.changed')].map((e) => e.dataset.col).join()}; })()`)
		if got["hidden"] != "false" || got["value"] != c.value || got["owner"] != c.owner || got["token"] != c.token || got["changed"] != c.changed {
			t.Errorf("after step %d the storage shows %v, want job-1 = %s by %s#%s, changed %q", c.step, got, c.value, c.owner, c.token, c.changed)
		}
	}

	// The crash: a mark, and B's lease drawn as forgotten from there until it ends (1900 ms true time, 2100 on B's clock).
	goTo(6)
	if got := q(`document.querySelector('#player svg.lanes .mark.k-crash[data-step="6"] .mark-label').textContent`); got != "crash (forgets #2)" {
		t.Errorf("the crash is labelled %q", got)
	}
	forgot := eval[map[string]float64](t, ctx, `(() => { const r = document.querySelector('#player svg.lanes .lease[data-actor="B"][data-token="2"] rect.forgotten');
		const e = document.querySelector('#player svg.lanes .expiry[data-token="2"] line');
		return {x: Number(r.getAttribute('x')), end: Number(r.getAttribute('x')) + Number(r.getAttribute('width')), expiry: Number(e.getAttribute('x1'))}; })()`)
	if crash := markX(t, ctx, 6, "B"); !near(forgot["x"], crash) || !near(forgot["end"], forgot["expiry"]) {
		t.Errorf("B's forgotten lease is drawn over %v, want from the crash (x=%.1f) to the lease's end", forgot, crash)
	}
	noProblems(t, ctx)
}

// A violation the story announces (violates=) is drawn apart from one it
// does not: amber and "expected", not red, and the summary counts them
// apart; the same step without violates= is an ordinary failure.
func TestPage_DrawsAnAnnouncedViolationApartFromAnUnexpectedOne(t *testing.T) {
	type view struct {
		Summary, SummaryClass, Verdict, VerdictClass, Color, Mark, Ring string
	}
	read := func(ctx context.Context, name, text string) view {
		goTo := openStory(t, ctx, name, text)
		goTo(3)
		return eval[view](t, ctx, `(() => { const li = document.querySelector('#player .verdicts li[data-invariant="single-lease"]');
			const mark = document.querySelector('#player svg.lanes .mark[data-step="3"]');
			const s = document.querySelector('.pane-head .summary');
			return {Summary: s.textContent, SummaryClass: s.className, Verdict: li.textContent, VerdictClass: li.className,
				Color: getComputedStyle(li).color, Mark: mark.getAttribute('class'), Ring: getComputedStyle(mark.querySelector('.violation')).stroke}; })()`)
	}
	ctx := tab(t)
	announced := read(ctx, "announced.tl", story)
	unexpected := read(ctx, "unexpected.tl", strings.Replace(story, " violates=single-lease", "", 1))
	if announced.VerdictClass != "expected" || !strings.HasPrefix(announced.Verdict, "!expected: single-lease broken — ") {
		t.Errorf("the announced violation reads %q (%s), want \"expected: single-lease broken\"", announced.Verdict, announced.VerdictClass)
	}
	if unexpected.VerdictClass != "bad" {
		t.Errorf("the unexpected violation is drawn as %q, want bad", unexpected.VerdictClass)
	}
	if announced.Color == unexpected.Color || announced.Ring == unexpected.Ring {
		t.Errorf("both violations are drawn alike: %s / %s (verdict), %s / %s (ring on the lanes)", announced.Color, unexpected.Color, announced.Ring, unexpected.Ring)
	}
	if !strings.Contains(announced.Mark, "v-expected") || !strings.Contains(unexpected.Mark, "v-unexpected") {
		t.Errorf("the marks are %q and %q, want v-expected and v-unexpected", announced.Mark, unexpected.Mark)
	}
	if !strings.Contains(announced.Summary, "no unexpected violation") || !strings.Contains(announced.Summary, "1 announced violation (expected)") || !strings.Contains(announced.SummaryClass, "pass") {
		t.Errorf("with violates= the summary says %q (%s), want it to pass and count the announced violation apart", announced.Summary, announced.SummaryClass)
	}
	if !strings.Contains(unexpected.Summary, "1 invariant violation") || strings.Contains(unexpected.Summary, "announced") || !strings.Contains(unexpected.SummaryClass, "fail") {
		t.Errorf("without violates= the summary says %q (%s), want one failing invariant violation", unexpected.Summary, unexpected.SummaryClass)
	}
	noProblems(t, ctx)
}

// A timeline that never writes to the fenced storage shows no storage table.
func TestPage_ShowsTheStorageOnlyWhenTheTimelineWritesToIt(t *testing.T) {
	ctx := tab(t)
	open(t, ctx, "#t="+defaultTrace(t).Name+"&step=2")
	if !eval[bool](t, ctx, `document.querySelector('#player .storage-panel').hidden`) {
		t.Error("the late courier, which writes nothing to the storage, shows a storage table")
	}
	noProblems(t, ctx)
}
