//go:build e2e

package e2e_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// labelBoxes reads every label the lanes drew (tick, lane, offset, token,
// expiry and step labels: every <text> of the page's lanes) with the box
// the browser drew it in, and the pairs whose boxes overlap by more than
// half a pixel both ways.
const labelBoxes = `(() => {
	const boxes = [...document.querySelectorAll('#player svg.lanes text')].map((e) => {
		const r = e.getBoundingClientRect();
		return {kind: e.getAttribute('class'), text: e.textContent, x1: r.left, y1: r.top, x2: r.right, y2: r.bottom};
	});
	const overlaps = [];
	boxes.forEach((a, i) => {
		for (const b of boxes.slice(i + 1)) {
			const w = Math.min(a.x2, b.x2) - Math.max(a.x1, b.x1);
			const h = Math.min(a.y2, b.y2) - Math.max(a.y1, b.y1);
			if (w > 0.5 && h > 0.5) overlaps.push(a.kind + ' "' + a.text + '" over ' + b.kind + ' "' + b.text + '" by ' + w.toFixed(1) + 'x' + h.toFixed(1) + ' px');
		}
	});
	const svg = document.querySelector('#player svg.lanes').getBoundingClientRect();
	const outside = boxes.filter((b) => b.x1 < svg.left - 0.5 || b.x2 > svg.right + 0.5).map((b) => b.kind + ' "' + b.text + '"');
	return {count: boxes.length, overlaps, outside};
})()`

type labelReport struct {
	Count    int      `json:"count"`
	Overlaps []string `json:"overlaps"`
	Outside  []string `json:"outside"`
}

// No label the lanes draw may cover another, for any timeline
// of the library (whatever the page's story picker lists), at a phone's,
// a tablet's and a desktop's width, in English and in Korean.
func TestLanes_NoLabelOverlapsAnotherInAnyLibraryTimelineAt360_768And1280Pixels(t *testing.T) {
	ctx := tab(t)
	open(t, ctx, "")
	names := eval[[]string](t, ctx, `[...document.querySelectorAll('#picker option')].map((o) => o.value).filter(Boolean)`)
	if len(names) < len(index.Timelines) {
		t.Fatalf("the story picker lists %q, fewer than the library's %d timelines", names, len(index.Timelines))
	}
	waitEngine(t, ctx) // Korean runs on the engine
	checked := 0
	for _, width := range []int64{360, 768, 1280} {
		must(t, chromedp.Do(ctx, chromedp.EmulateViewport(width, 900)))
		for _, lang := range []string{"en", "ko"} {
			for _, name := range names {
				r := drawnLabels(t, ctx, fmt.Sprintf("#t=%s&lang=%s", name, lang))
				where := fmt.Sprintf("%s at %d px (%s)", name, width, lang)
				if r.Count == 0 {
					t.Errorf("%s: the lanes drew no label", where)
				}
				for _, o := range r.Overlaps {
					t.Errorf("%s: %s", where, o)
				}
				for _, o := range r.Outside {
					t.Errorf("%s: %s is drawn outside the lanes", where, o)
				}
				checked += r.Count
			}
		}
	}
	t.Logf("%d labels checked in %d drawings", checked, 3*2*len(names))
	noProblems(t, ctx)
}

// drawnLabels opens fragment on the page already open in ctx, goes to its
// last step, waits until the lanes are drawn for it and reads their labels.
func drawnLabels(t *testing.T, ctx context.Context, fragment string) labelReport {
	t.Helper()
	eval[bool](t, ctx, fmt.Sprintf(`(location.hash = %q, true)`, fragment))
	p := strings.NewReplacer("#t=", "", "&lang=", " ").Replace(fragment)
	name, lang, _ := strings.Cut(p, " ")
	waitFor(t, ctx, fmt.Sprintf(`(() => { const d = document.getElementById('player').dataset;
		return d.timeline === %q && d.lang === %q && document.body.dataset.engineView === 'ready'; })()`, name, lang), 30*time.Second)
	keys(t, ctx, kb.End)
	waitFor(t, ctx, `(() => { const d = document.getElementById('player').dataset; return d.cursor === d.steps; })()`, 10*time.Second)
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](frames, chromedp.EvalAwaitPromise))
	must(t, err)
	r := eval[labelReport](t, ctx, labelBoxes)
	if strings.Contains(fragment, "lang=ko") && eval[string](t, ctx, `document.documentElement.lang`) != "ko" {
		t.Fatalf("%s: the page did not switch to Korean", fragment)
	}
	return r
}

// windowTimeline is a timeline of n claims in turn by A and B of job j,
// 600 ms apart with 1000 ms leases: every lease is still held when the
// next claim comes (it is refused), so leases cross every window's edge.
func windowTimeline(n int) string {
	var b strings.Builder
	b.WriteString("# A long timeline\nlease 1000ms\njob j\n")
	for i := range n {
		who := "A"
		if i%2 == 1 {
			who = "B"
		}
		fmt.Fprintf(&b, "%dms %s claim j\n", i*600, who)
	}
	return b.String()
}

// A timeline longer than the lanes draw at once (lanes.js WINDOW_STEPS,
// 40) is drawn a window at a time: the window holding the cursor, named
// above the lanes, with only its steps' marks, and the next one once the
// cursor moves past it. One of 40 steps is drawn whole.
func TestLanes_ALongTimelineIsDrawnAWindowAtATimeThatFollowsTheCursor(t *testing.T) {
	ctx := tab(t)
	open(t, ctx, "")
	waitEngine(t, ctx)
	type drawn struct {
		Caption string `json:"caption"`
		Hidden  bool   `json:"hidden"`
		Marks   int    `json:"marks"`
		Cursor  string `json:"cursor"`
	}
	read := `(() => { const w = document.querySelector('#player .lanes-window');
		return {caption: w.textContent, hidden: w.hidden, marks: document.querySelectorAll('#player svg.lanes .mark').length,
			cursor: document.getElementById('player').dataset.cursor}; })()`
	show := func(n int) {
		eval[bool](t, ctx, fmt.Sprintf(`(location.hash = '#name=long.tl&src=' + btoa(%q).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, ''), true)`, windowTimeline(n)))
		waitFor(t, ctx, fmt.Sprintf(`document.getElementById('player').dataset.steps === '%d' && document.body.dataset.engineView === 'ready'`, n), 30*time.Second)
	}
	show(40)
	if d := eval[drawn](t, ctx, read); !d.Hidden || d.Marks == 0 {
		t.Fatalf("40 steps: the window caption is shown (%q) or no mark is drawn (%d); want one window, drawn whole", d.Caption, d.Marks)
	}
	show(100) // three windows: steps 1-34, 35-68, 69-100
	keys(t, ctx, kb.Home)
	for _, c := range []struct {
		cursor  int
		caption string
	}{{1, "steps 1–34 of 100"}, {34, "steps 1–34 of 100"}, {35, "steps 35–68 of 100"}, {100, "steps 69–100 of 100"}} {
		eval[bool](t, ctx, fmt.Sprintf(`(location.hash = location.hash.replace(/&step=\d+/, '') + '&step=%d', true)`, c.cursor))
		waitFor(t, ctx, fmt.Sprintf(`document.getElementById('player').dataset.cursor === '%d'`, c.cursor), 10*time.Second)
		d := eval[drawn](t, ctx, read)
		if d.Hidden || !strings.Contains(d.Caption, c.caption) {
			t.Errorf("cursor %d: the caption says %q (hidden %v), want %q", c.cursor, d.Caption, d.Hidden, c.caption)
		}
		if d.Marks == 0 || d.Marks > 34 {
			t.Errorf("cursor %d: %d step marks drawn, want those of one window (1 to 34)", c.cursor, d.Marks)
		}
	}
	noProblems(t, ctx)
}

// A table of many jobs is drawn a slice at a time (render.js fillSliced),
// so the page is never held long: it ends whole, and a step while it is
// still filling, or after, leaves each job once, in order.
func TestTable_ManyJobsEndWholeAndOnceEachWhileSteppingThroughThem(t *testing.T) {
	ctx := tab(t)
	open(t, ctx, "")
	waitEngine(t, ctx)
	const jobs = 400
	var b strings.Builder
	b.WriteString("lease 1000ms\n")
	for i := range jobs {
		fmt.Fprintf(&b, "job j%03d\n", i)
	}
	for i := range 5 {
		fmt.Fprintf(&b, "%dms A claim j%03d -> ok token=1\n", i*10, i*97)
	}
	eval[bool](t, ctx, fmt.Sprintf(`(location.hash = '#name=many.tl&src=' + btoa(%q).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, ''), true)`, b.String()))
	waitFor(t, ctx, `document.getElementById('player').dataset.steps === '5' && document.body.dataset.engineView === 'ready'`, 30*time.Second)
	rows := `[...document.querySelectorAll('#player .jobs-table:not(.storage-table) tbody tr')].filter((r) => r.closest('.view')).map((r) => r.dataset.job)`
	for _, k := range []string{kb.ArrowRight, kb.ArrowRight, kb.End, kb.Home} {
		keys(t, ctx, k) // at once: the table may still be filling
		waitFor(t, ctx, fmt.Sprintf(`%s.length === %d`, rows, jobs), 10*time.Second)
		got := eval[[]string](t, ctx, rows)
		for i, id := range got {
			if want := fmt.Sprintf("j%03d", i); id != want {
				t.Fatalf("after %q the table's row %d is %s, want %s (each job once, in order)", k, i, id, want)
			}
		}
	}
	noProblems(t, ctx)
}

// A move rewrites only the rows it changed (render.js patchRows): the
// other rows stay the elements they were. When it changed more rows than a
// slice (50), the rest are hidden at once and drawn again a slice per
// frame, where they stand: no frame shows a row of the old step beside
// rows of the new one. Before, at and after the slice's size, and beyond.
func TestTable_AMoveRewritesOnlyTheRowsItChangedASliceAFrameNeverBesideOldOnes(t *testing.T) {
	ctx := tab(t)
	const jobs, claims = 120, 60
	var b strings.Builder
	b.WriteString("lease 10s\n")
	for i := range jobs {
		fmt.Fprintf(&b, "job j%03d\n", i)
	}
	for i := range claims {
		fmt.Fprintf(&b, "%dms A claim j%03d -> ok token=1\n", i*10, i)
	}
	goTo := openStory(t, ctx, "slices.tl", b.String())
	rows := `[...document.querySelectorAll('#player .view .jobs-table tbody tr')]`
	done := fmt.Sprintf(`document.body.dataset.engineView === 'ready' && %s.length === %d && !document.querySelector('#player tr.outdated')`, rows, jobs)
	// watch samples every frame once the cursor is at step: the most rows
	// hidden at once, and the rows shown that do not match the step
	// (the first step jobs leased, the others pending).
	watch := `(step) => {
		const w = (window.__watch = { hidden: 0, wrong: 0, frames: 0 });
		const look = () => {
			if (document.getElementById('player').dataset.cursor === String(step)) {
				w.frames++;
				let hidden = 0;
				for (const r of ` + rows + `) {
					if (r.classList.contains('outdated')) { hidden++; continue; }
					const leased = r.querySelector('[data-col=status]').firstChild.textContent === 'leased';
					if (leased !== Number(r.dataset.job.slice(1)) < step) w.wrong++;
				}
				w.hidden = Math.max(w.hidden, hidden);
				if (hidden === 0 && w.frames > 1) return;
			}
			requestAnimationFrame(look);
		};
		requestAnimationFrame(look);
		return true;
	}`
	at := func(step int) {
		t.Helper()
		goTo(step)
		waitFor(t, ctx, done, 30*time.Second)
	}
	for _, c := range []struct {
		to     int
		hidden int // the most rows hidden in a frame: those past the first slice
	}{
		{to: 49, hidden: 0},
		{to: 50, hidden: 0},
		{to: 51, hidden: 1},
		{to: 60, hidden: 10},
	} {
		at(0)
		eval[bool](t, ctx, fmt.Sprintf(`(%s.forEach((r) => { r.dataset.before = '1'; }), true)`, rows))
		eval[bool](t, ctx, fmt.Sprintf(`(%s)(%d)`, watch, c.to))
		at(c.to)
		waitFor(t, ctx, `window.__watch.frames > 1`, 10*time.Second)
		got := eval[map[string]float64](t, ctx, fmt.Sprintf(`({kept: %s.filter((r) => r.dataset.before).length, hidden: __watch.hidden, wrong: __watch.wrong})`, rows))
		if want := float64(jobs - c.to); got["kept"] != want {
			t.Errorf("from step 0 to %d: %v rows kept, want %v (every row the move did not change)", c.to, got["kept"], want)
		}
		if got["hidden"] != float64(c.hidden) {
			t.Errorf("from step 0 to %d: at most %v rows hidden in a frame, want %d", c.to, got["hidden"], c.hidden)
		}
		if got["wrong"] != 0 {
			t.Errorf("from step 0 to %d: %v rows shown in frames at step %d did not show it", c.to, got["wrong"], c.to)
		}
	}
	noProblems(t, ctx)
}

// The time axis says where it is not to scale: a stretch too short to
// read at the scale (999 -> 1000 ms beside 0 -> 999 ms) is drawn wider
// and marked with a break (//) between its two ticks, with a tooltip
// naming it; the legend explains the mark and the drawing's description
// says it, in English and in Korean. A timeline whose stretches all fit
// the scale has no break and no such key.
func TestLanes_TheTimeAxisMarksEachStretchDrawnWiderThanTheScale(t *testing.T) {
	ctx := tab(t)
	open(t, ctx, "")
	waitEngine(t, ctx)
	type axis struct {
		Breaks []struct {
			From  string  `json:"from"`
			To    string  `json:"to"`
			X     float64 `json:"x"`
			Title string  `json:"title"`
		} `json:"breaks"`
		Ticks    map[string]float64 `json:"ticks"`
		Key      string             `json:"key"`
		KeyShown bool               `json:"keyShown"`
		Desc     string             `json:"desc"`
	}
	read := `(() => {
		const svg = document.querySelector('#player svg.lanes');
		const at = (g) => { const r = g.getBoundingClientRect(); return r.left + r.width / 2; };
		const ticks = {};
		for (const e of svg.querySelectorAll('text.tick')) ticks[e.textContent] = at(e);
		const key = document.querySelector('#player .legend-break');
		return {
			breaks: [...svg.querySelectorAll('.axis-break')].map((g) => ({from: g.dataset.from, to: g.dataset.to, x: at(g), title: g.querySelector('title').textContent})),
			ticks, key: key ? key.textContent : '', keyShown: !!key && key.checkVisibility(), desc: svg.querySelector('desc').textContent,
		};
	})()`
	show := func(text string, lang string) axis {
		src := base64.RawURLEncoding.EncodeToString([]byte(text))
		eval[bool](t, ctx, fmt.Sprintf(`(location.hash = 'name=axis.tl&lang=%s&src=%s', true)`, lang, src))
		waitFor(t, ctx, `document.getElementById('player').dataset.steps === '3' && document.body.dataset.engineView === 'ready'`, 30*time.Second)
		return eval[axis](t, ctx, read)
	}
	const late = "lease 1000ms\njob j\n0ms A claim j -> ok token=1\n999ms A renew j -> ok lease_until=1999\n1000ms B claim j -> refused held\n"
	for _, c := range []struct{ lang, key, desc, title string }{
		{"en", "not to scale", "to scale except at its // marks", "999 ms to 1000 ms: drawn wider"},
		{"ko", "축척과 다름", "축척대로입니다", "999 ms부터 1000 ms까지"},
	} {
		got := show(late, c.lang)
		if len(got.Breaks) != 1 || got.Breaks[0].From != "999" || got.Breaks[0].To != "1000" {
			t.Fatalf("%s: the axis's breaks are %+v, want one, from 999 to 1000", c.lang, got.Breaks)
		}
		b := got.Breaks[0]
		x999, ok1 := got.Ticks["999 ms"]
		x1000, ok2 := got.Ticks["1000 ms"]
		if ok1 && ok2 && !(x999 < b.X && b.X < x1000) {
			t.Errorf("%s: the break mark is at x=%.1f, not between its ticks (%.1f, %.1f)", c.lang, b.X, x999, x1000)
		}
		if !strings.Contains(b.Title, c.title) {
			t.Errorf("%s: the break's tooltip says %q, want it to name %q", c.lang, b.Title, c.title)
		}
		if !got.KeyShown || !strings.Contains(got.Key, c.key) {
			t.Errorf("%s: the legend's key to the mark is %q (shown %v), want %q shown", c.lang, got.Key, got.KeyShown, c.key)
		}
		if !strings.Contains(got.Desc, c.desc) {
			t.Errorf("%s: the drawing's description %q does not say where it is not to scale (%q)", c.lang, got.Desc, c.desc)
		}
	}
	even := "lease 1000ms\njob j\n0ms A claim j -> ok token=1\n500ms A renew j -> ok lease_until=1500\n1000ms A complete j -> ok\n"
	if got := show(even, "en"); len(got.Breaks) != 0 || got.KeyShown || strings.Contains(got.Desc, "to scale except") {
		t.Errorf("an evenly spaced timeline: breaks %+v, key shown %v, description %q; want none", got.Breaks, got.KeyShown, got.Desc)
	}
	noProblems(t, ctx)
}

// At 1280 px the simulator shows every library timeline with nothing to
// scroll sideways: the jobs table fits its panel at every step (a column
// name breaks after an underscore), and the editor wraps its lines, so a
// step's expectation is in view.
func TestPage_AtDesktopWidthNoTableOrEditorNeedsSidewaysScrolling(t *testing.T) {
	ctx := tabFor(t, 3*time.Minute)
	scheme(t, ctx, "light", 1280)
	open(t, ctx, "")
	waitEngine(t, ctx)
	names := eval[[]string](t, ctx, `[...document.querySelectorAll('#picker option')].map((o) => o.value).filter(Boolean)`)
	if len(names) < 20 {
		t.Fatalf("the story picker lists %d timelines, want the library's", len(names))
	}
	const over = `(() => { const ts = document.querySelector('#player .table-scroll'), ed = document.getElementById('editor');
		return {table: ts.scrollWidth - ts.clientWidth, editor: ed.scrollWidth - ed.clientWidth}; })()`
	for _, n := range names {
		eval[bool](t, ctx, fmt.Sprintf(`(location.hash = 't=%s&step=0', true)`, n))
		waitFor(t, ctx, fmt.Sprintf(`document.getElementById('picker').value === %q && document.body.dataset.engineView === 'ready'
			&& document.getElementById('player').dataset.cursor === '0'`, n), 30*time.Second)
		steps := eval[int](t, ctx, `Number(document.getElementById('player').dataset.steps)`)
		for s := 0; s <= steps; s++ {
			if s > 0 {
				keys(t, ctx, kb.ArrowRight)
				waitFor(t, ctx, fmt.Sprintf(`document.getElementById('player').dataset.cursor === '%d'`, s), 10*time.Second)
			}
			got := eval[map[string]int](t, ctx, over)
			if got["table"] > 0 || got["editor"] > 0 {
				t.Errorf("%s, step %d: the table needs %d px and the editor %d px of sideways scrolling at 1280 px; want none", n, s, got["table"], got["editor"])
				break
			}
		}
	}
	noProblems(t, ctx)
}
