//go:build e2e

package e2e_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/leaselab/leaselab/engine/internal/browsertest/axe"
	"github.com/leaselab/leaselab/engine/timeline"
)

// axeRulesOff are the axe-core rules the audit does not run, each with the
// reason it does not apply here. An empty list means every rule runs.
var axeRulesOff = map[string]string{}

var (
	axeOnce   sync.Once
	axeSource string
	axeErr    error
)

// audit runs axe-core over the page of ctx as it stands, shadow roots
// included, and fails the test on every violation of impact serious or
// critical.
func audit(t *testing.T, ctx context.Context, where string) {
	t.Helper()
	axeOnce.Do(func() { axeSource, axeErr = axe.Script(webDir) })
	if axeErr != nil {
		t.Fatal(axeErr)
	}
	found, err := axe.Serious(ctx, axeSource, slices.Collect(maps.Keys(axeRulesOff)), "")
	must(t, err)
	for _, v := range found {
		t.Errorf("%s: %s", where, v)
	}
}

// scheme makes the tab of ctx prefer the colour scheme named and sets its
// viewport to width px.
func scheme(t *testing.T, ctx context.Context, name string, width int64) {
	t.Helper()
	_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{
		{Name: "prefers-color-scheme", Value: name},
	}})
	must(t, err)
	must(t, chromedp.Do(ctx, chromedp.EmulateViewport(width, 800)))
}

// Every page a learner or a course author opens passes axe-core's audit
// with no serious or critical violation, in both colour schemes, on a
// desktop and a phone: the simulator (in English and in Korean, with its
// dialogs open and after a search), the course page, the embed frame and
// the guide.
func TestA11y_EveryPageInEveryStatePassesAxe(t *testing.T) {
	tr := defaultTrace(t)
	for _, look := range []struct {
		scheme string
		width  int64
	}{{"light", 1280}, {"dark", 1280}, {"light", 360}, {"dark", 360}} {
		at := fmt.Sprintf("%s %dpx", look.scheme, look.width)
		t.Run(look.scheme+fmt.Sprint(look.width), func(t *testing.T) {
			t.Run("simulator", func(t *testing.T) {
				ctx := tab(t)
				scheme(t, ctx, look.scheme, look.width)
				open(t, ctx, "")
				waitEngine(t, ctx)
				waitFor(t, ctx, `!document.getElementById('intro').hidden`, 5*time.Second)
				audit(t, ctx, "/ "+at)
				eval[bool](t, ctx, `(document.getElementById('keys-button').click(), true)`)
				waitFor(t, ctx, `document.getElementById('keys').open`, 5*time.Second)
				audit(t, ctx, "/ Keys "+at)
				eval[bool](t, ctx, `(document.getElementById('keys-close').click(), true)`)
				eval[bool](t, ctx, `(document.getElementById('share-button').click(), true)`)
				waitFor(t, ctx, `document.getElementById('share').open`, 5*time.Second)
				audit(t, ctx, "/ Share "+at)
				eval[bool](t, ctx, `(document.getElementById('share-close').click(), true)`)
				eval[bool](t, ctx, `(document.getElementById('explore-button').click(), true)`)
				waitFor(t, ctx, `document.getElementById('explore').open && document.querySelector('#explore-mutant').options.length > 0`, 10*time.Second)
				audit(t, ctx, "/ Explore "+at)
				eval[bool](t, ctx, `(document.querySelector('#explore-mutant').value = 'attempts-off-by-one', document.getElementById('explore-search').click(), true)`)
				waitFor(t, ctx, `!document.querySelector('#explore-load').hidden`, 30*time.Second)
				audit(t, ctx, "/ Explore after a search "+at)
				noProblems(t, ctx)
			})
			t.Run("korean", func(t *testing.T) {
				ctx := tab(t)
				scheme(t, ctx, look.scheme, look.width)
				open(t, ctx, "#t="+tr.Name+"&lang=ko")
				waitEngine(t, ctx)
				audit(t, ctx, "/#t=…&lang=ko "+at)
				closeTab(ctx)
				intro := tab(t) // the introduction, in Korean: a first visit
				scheme(t, intro, look.scheme, look.width)
				open(t, intro, "#lang=ko")
				waitFor(t, intro, `!document.getElementById('intro').hidden`, 5*time.Second)
				audit(t, intro, "/#lang=ko "+at)
			})
			t.Run("course", func(t *testing.T) {
				ctx := tab(t)
				scheme(t, ctx, look.scheme, look.width)
				must(t, chromedp.Do(ctx, chromedp.Navigate(baseURL+"/example-course.html")))
				courseWait(t, ctx, `customElements.get('lease-timeline') !== undefined && [...document.querySelectorAll('lease-timeline')].every((e) => e.dataset.state)`, 30*time.Second)
				courseReady(t, ctx, courseIDs()...)
				audit(t, ctx, "/example-course.html "+at)
			})
			t.Run("embed", func(t *testing.T) {
				ctx := tab(t)
				scheme(t, ctx, look.scheme, look.width)
				must(t, chromedp.Do(ctx, chromedp.Navigate(baseURL+"/embed.html#t="+tr.Name)))
				courseWait(t, ctx, `Boolean(document.querySelector('lease-timeline') && document.querySelector('lease-timeline').dataset.state === 'ready')`, 60*time.Second)
				audit(t, ctx, "/embed.html "+at)
			})
			t.Run("guide", func(t *testing.T) {
				ctx := tab(t)
				scheme(t, ctx, look.scheme, look.width)
				must(t, chromedp.Do(ctx, chromedp.Navigate(baseURL+"/guide.html")))
				courseWait(t, ctx, `customElements.get('lease-timeline') === undefined || [...document.querySelectorAll('lease-timeline')].every((e) => e.dataset.state)`, 30*time.Second)
				audit(t, ctx, "/guide.html "+at)
				if w := eval[int](t, ctx, `document.documentElement.scrollWidth`); look.width == 360 && w > 360 {
					t.Errorf("/guide.html %s is %d px wide: it scrolls sideways", at, w)
				}
			})
		})
	}
}

// focusedJS describes the element that has the keyboard's focus, inside
// shadow roots too: what it is, whether it is drawn, its accessible name
// (the usual sources, in order) and its outline.
const focusedJS = `(() => {
	let a = document.activeElement;
	while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
	if (!a || a === document.body || a === document.documentElement) return {what: 'body'};
	const root = a.getRootNode();
	const byIds = (ids) => ids.split(/\s+/).map((id) => root.getElementById(id)?.textContent ?? '').join(' ');
	const name = (a.getAttribute('aria-label') || (a.getAttribute('aria-labelledby') && byIds(a.getAttribute('aria-labelledby')))
		|| (a.labels && a.labels[0] && a.labels[0].textContent) || a.textContent || a.title || '').trim();
	const r = a.getBoundingClientRect();
	const s = getComputedStyle(a);
	return {what: a.tagName.toLowerCase() + (a.id ? '#' + a.id : '') + (a.className && typeof a.className === 'string' ? '.' + a.className.split(' ').join('.') : ''),
		visible: r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && !a.closest('[hidden]'),
		name, outline: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2};
})()`

type focused struct {
	What    string `json:"what"`
	Visible bool   `json:"visible"`
	Name    string `json:"name"`
	Outline bool   `json:"outline"`
}

// focusOK fails the test unless the keyboard's focus is on a drawn,
// named element with a visible outline, and returns what it is.
func focusOK(t *testing.T, ctx context.Context, after string) focused {
	t.Helper()
	f := eval[focused](t, ctx, focusedJS)
	switch {
	case f.What == "body":
		t.Errorf("after %s the focus fell to the page", after)
	case !f.Visible || f.Name == "" || !f.Outline:
		t.Errorf("after %s the focus is on %s: drawn %v, name %q, outline %v; want a drawn, named, outlined element", after, f.What, f.Visible, f.Name, f.Outline)
	}
	return f
}

// tabStops counts the elements under css that Tab stops at.
func tabStops(t *testing.T, ctx context.Context, css string) int {
	t.Helper()
	n := eval[int](t, ctx, fmt.Sprintf(`[...document.querySelector(%q).querySelectorAll('a[href], button, input, select, textarea, [tabindex]')]
		.filter((e) => e.tabIndex >= 0 && !e.disabled && e.getClientRects().length > 0 && !e.closest('dialog:not([open])')).length`, css))
	if n < 2 {
		t.Fatalf("%s has %d tab stops", css, n)
	}
	return n
}

// press sends key k and checks where the focus went.
func press(t *testing.T, ctx context.Context, k, name string) focused {
	t.Helper()
	keys(t, ctx, k)
	return focusOK(t, ctx, name)
}

// Walked by the keyboard alone — Tab through the page, the transport to
// both ends, the editor's Esc, the Explore, Share and Keys dialogs, a
// search and its load — the focus is always on a drawn, named, outlined
// element, never on the page.
func TestA11y_KeyboardFocusNeverFallsToThePage(t *testing.T) {
	ctx := tab(t)
	n := len(defaultTrace(t).Steps)
	open(t, ctx, "")
	waitEngine(t, ctx)
	// Tab past the last stop leaves the page for the browser's own
	// controls: the walk stops at the last one.
	for i := range tabStops(t, ctx, "body") - 1 {
		press(t, ctx, kb.Tab, fmt.Sprintf("Tab %d", i+1))
	}
	// focusButton focuses css and waits until the focus is there: a dialog
	// closed just before hands the focus back to its opener in its close
	// event, which a loaded machine may run after the focus() here.
	focusButton := func(css string) {
		t.Helper()
		waitFor(t, ctx, fmt.Sprintf(`(() => { const b = document.querySelector(%q); if (document.activeElement !== b) b.focus(); const d = document.querySelector('dialog[open]'); return document.activeElement === b && (!d || d.contains(b)); })()`, css), 30*time.Second)
		focusOK(t, ctx, "focusing "+css)
	}
	focusButton("#player button.last")
	if f := press(t, ctx, kb.Enter, "Last step"); !strings.Contains(f.What, "play") {
		t.Errorf("after Last step the focus is on %s, want Play", f.What)
	}
	focusButton("#player button.first")
	if f := press(t, ctx, kb.Enter, "First step"); !strings.Contains(f.What, "play") {
		t.Errorf("after First step the focus is on %s, want Play", f.What)
	}
	focusButton("#player button.forward")
	for i := range n {
		press(t, ctx, kb.Enter, fmt.Sprintf("Step forward %d", i+1))
	}
	if got := text(t, ctx, "#player .step-count"); got != fmt.Sprintf("step %d / %d", n, n) {
		t.Fatalf("stepping forward %d times shows %q", n, got)
	}
	focusButton("#player button.back")
	for i := range n {
		press(t, ctx, kb.Enter, fmt.Sprintf("Step back %d", i+1))
	}

	eval[bool](t, ctx, `(document.getElementById('editor').focus(), true)`)
	press(t, ctx, kb.Escape, "Esc in the editor")

	focusButton("#share-button")
	press(t, ctx, kb.Enter, "opening Share")
	for i := range tabStops(t, ctx, "#share") - 1 {
		press(t, ctx, kb.Tab, fmt.Sprintf("Tab %d in Share", i+1))
	}
	if f := press(t, ctx, kb.Escape, "Esc in Share"); f.What != "button#share-button.ghost" {
		t.Errorf("closing Share put the focus on %s, want its button", f.What)
	}
	press(t, ctx, "?", "opening Keys")
	// The Keys dialog opens once its module has loaded: Esc waits for it.
	waitFor(t, ctx, `document.getElementById('keys').open`, 30*time.Second)
	press(t, ctx, kb.Escape, "Esc in Keys")
	// Closed, the dialog hands the focus back to its button in its close
	// event, which runs after the dialog is closed: wait for it to land
	// before focusing anything else.
	waitFor(t, ctx, `!document.getElementById('keys').open && document.activeElement.id === 'keys-button'`, 30*time.Second)

	focusButton("#explore-button")
	press(t, ctx, kb.Enter, "opening Explore")
	waitFor(t, ctx, `document.getElementById('explore').open && document.querySelector('#explore-mutant').options.length > 0`, 30*time.Second)
	eval[bool](t, ctx, `(document.querySelector('#explore-mutant').value = 'attempts-off-by-one', true)`)
	focusButton("#explore-search")
	press(t, ctx, kb.Enter, "Search")
	waitFor(t, ctx, `!document.querySelector('#explore-load').hidden && document.getElementById('explore').dataset.state === 'idle'`, 30*time.Second)
	if f := focusOK(t, ctx, "the search"); f.What != "button#explore-load.ghost" {
		t.Errorf("after the search the focus is on %s, want Load into the editor", f.What)
	}
	keys(t, ctx, kb.Enter)
	waitFor(t, ctx, `document.querySelector('#editor').value.startsWith('# Found by leaselab explore')`, 10*time.Second)
	if f := focusOK(t, ctx, "Load into the editor"); f.What != "textarea#editor" {
		t.Errorf("after Load into the editor the focus is on %s, want the editor", f.What)
	}
	noProblems(t, ctx)
}

// A worksheet's hint walked by the keyboard: the search, each revealed
// step and the load keep the focus on a named button, then the editor.
func TestA11y_WorksheetHintKeepsTheFocus(t *testing.T) {
	ctx := openCourse(t)
	courseReady(t, ctx, "worksheet")
	courseEval[bool](t, ctx, `(sr('worksheet', '.hint button[data-hint="search"]').focus(), true)`)
	focusOK(t, ctx, "focusing the hint")
	press(t, ctx, kb.Enter, "Show me a timeline")
	courseWait(t, ctx, `sr('worksheet', '.hint .hint-lines') !== null`, 60*time.Second)
	for i := 0; courseEval[bool](t, ctx, `sr('worksheet', '.hint button[data-hint="next"]') !== null`); i++ {
		if f := focusOK(t, ctx, fmt.Sprintf("revealing step %d", i+1)); !strings.Contains(f.Name, "Show step") {
			t.Fatalf("while steps remain the focus is on %s %q, want the next step's button", f.What, f.Name)
		}
		keys(t, ctx, kb.Enter)
	}
	if f := focusOK(t, ctx, "the last step"); f.Name != "Open it in the editor" {
		t.Errorf("after the last step the focus is on %s %q, want Open it in the editor", f.What, f.Name)
	}
	keys(t, ctx, kb.Enter)
	courseWait(t, ctx, `el('worksheet').dataset.differs === 'yes'`, 30*time.Second)
	if f := focusOK(t, ctx, "opening the found timeline"); !strings.HasPrefix(f.What, "textarea") {
		t.Errorf("after opening the found timeline the focus is on %s, want the editor", f.What)
	}
	// The verdict's "Go to step N" is gone once there: the focus moves on.
	courseWait(t, ctx, `sr('worksheet', '.sheet-verdict button[data-step]') !== null`, 10*time.Second)
	courseEval[bool](t, ctx, `(sr('worksheet', '.sheet-verdict button[data-step]').focus(), true)`)
	focusOK(t, ctx, "focusing Go to step")
	if f := press(t, ctx, kb.Enter, "Go to step"); !strings.Contains(f.What, "play") {
		t.Errorf("after Go to step the focus is on %s, want Play", f.What)
	}
	noProblems(t, ctx)
}

// Esc in an element's editor leaves it for the lanes, as it does in the
// simulator's: the player's keys work from there at once, and Tab is not
// the only way out.
func TestA11y_EscLeavesAnElementsEditorForItsLanes(t *testing.T) {
	ctx := openCourse(t)
	courseReady(t, ctx, "worksheet")
	courseEval[bool](t, ctx, `(sr('worksheet', 'textarea').focus(), true)`)
	if f := focusOK(t, ctx, "focusing the editor"); !strings.HasPrefix(f.What, "textarea") {
		t.Fatalf("the focus is on %s, want the worksheet's editor", f.What)
	}
	f := press(t, ctx, kb.Escape, "Esc in the editor")
	if !strings.Contains(f.What, "lanes-scroll") {
		t.Fatalf("after Esc the focus is on %s %q, want the worksheet's lanes", f.What, f.Name)
	}
	before := courseEval[string](t, ctx, `sr('worksheet', '.step-count').textContent`)
	press(t, ctx, kb.ArrowRight, "ArrowRight on the lanes")
	courseWait(t, ctx, fmt.Sprintf(`sr('worksheet', '.step-count').textContent !== %q`, before), 10*time.Second)
}

// liveJS counts, per live region of the page, the changes made to it
// from now on, and what it said after each.
const liveJS = `(() => {
	window.__live = [];
	const regions = [...document.querySelectorAll('[aria-live]:not([aria-live="off"]), [role=status], [role=alert], [role=log], output')];
	for (const el of regions) {
		const entry = {region: el.id || el.className || el.tagName, said: []};
		__live.push(entry);
		new MutationObserver(() => entry.said.push(el.textContent)).observe(el, {childList: true, characterData: true, subtree: true});
	}
	return regions.length;
})()`

type liveRegion struct {
	Region string   `json:"region"`
	Said   []string `json:"said"`
}

// Playing four steps, the page's live regions say four things: each
// step's short announcement once (its call and outcome; the sentence is
// there to read); the clock, the summary and the status say nothing.
func TestA11y_LiveRegionsSpeakOncePerStep(t *testing.T) {
	ctx := tab(t)
	n := len(defaultTrace(t).Steps)
	open(t, ctx, "")
	waitEngine(t, ctx)
	keys(t, ctx, kb.End)
	for range 4 {
		keys(t, ctx, kb.ArrowLeft)
	}
	if got := eval[int](t, ctx, liveJS); got < 2 {
		t.Fatalf("the page has %d live regions, want the step's sentence and the status at least", got)
	}
	must(t, chromedp.Do(ctx, chromedp.SetValue(chromedp.CSS("#player .speed-select"), "4")))
	eval[bool](t, ctx, `(document.querySelector('#player button.play').click(), true)`)
	waitFor(t, ctx, fmt.Sprintf(`document.querySelector('#player .step-count').textContent === 'step %d / %d' && !document.querySelector('#player button.play').classList.contains('playing')`, n, n), 30*time.Second)
	for _, r := range eval[[]liveRegion](t, ctx, `window.__live`) {
		want := 0
		if strings.Contains(r.Region, "announce") {
			want = 4
			for _, said := range r.Said {
				if n := len(strings.Fields(said)); n > 16 {
					t.Errorf("announcement %q is %d words, want a short one (the sentence is the explanation's)", said, n)
				}
			}
		}
		if len(r.Said) != want {
			t.Errorf("live region %s changed %d times during 4 steps, want %d: %q", r.Region, len(r.Said), want, r.Said)
		}
	}
	noProblems(t, ctx)
}

type introView struct {
	Shown   bool     `json:"shown"`
	Text    string   `json:"text"`
	Links   []string `json:"links"`
	Decode  string   `json:"decode"`
	Folded  []bool   `json:"folded"`
	ShowBtn bool     `json:"showButton"`
}

const introJS = `(() => ({
	shown: !document.getElementById('intro').hidden && document.getElementById('intro').getClientRects().length > 0,
	text: document.getElementById('intro').textContent,
	links: [...document.querySelectorAll('#start-list a')].map((a) => new URLSearchParams(a.hash.slice(1)).get('t')),
	decode: document.querySelector('#player .decode').hidden ? '' : document.querySelector('#player .decode').textContent,
	folded: [...document.querySelectorAll('#engine-more, #player details.sql-panel, #player details.verdicts-panel')].map((d) => !d.open),
	showButton: !document.getElementById('intro-show').hidden,
}))()`

// A first visit opens with an introduction — what a lease is, what a
// token is, why an older one is refused — and four stories to start
// with, in order; the lanes' shorthand is decoded; the engine, the SQL
// and the invariants are a click away. Hidden, it stays hidden, and a
// button brings it back. In Korean too.
func TestA11y_FirstVisitTeachesBeforeItShowsTheMachinery(t *testing.T) {
	ctx := tab(t)
	open(t, ctx, "")
	defer eval[bool](t, ctx, `(localStorage.removeItem('leaselab.intro'), true)`)
	v := eval[introView](t, ctx, introJS)
	if !v.Shown || v.ShowBtn {
		t.Fatalf("a first visit shows the introduction %v (and its show button %v), want it shown", v.Shown, v.ShowBtn)
	}
	for _, want := range []string{"A lease is", "gets a token", "A#1", "superseded", "Start here"} {
		if !strings.Contains(v.Text, want) {
			t.Errorf("the introduction lacks %q: %s", want, v.Text)
		}
	}
	if want := []string{"01-late-courier.tl", "11-kleppmann-fencing.tl", "03-lease-boundary.tl", "02-same-name-reclaim.tl"}; !slices.Equal(v.Links, want) {
		t.Errorf("Start here lists %q, want %q", v.Links, want)
	}
	if !strings.Contains(v.Decode, "A#1 vs B#2") || !strings.Contains(v.Decode, "superseded") {
		t.Errorf("the lanes' shorthand is decoded as %q, want A#1 vs B#2 and superseded", v.Decode)
	}
	if len(v.Folded) != 3 || slices.Contains(v.Folded, false) {
		t.Errorf("the engine, SQL and invariants folded: %v, want all three folded", v.Folded)
	}

	eval[bool](t, ctx, `(document.querySelectorAll('#start-list a')[1].click(), true)`)
	waitFor(t, ctx, `document.getElementById('picker').value === '11-kleppmann-fencing.tl'`, 10*time.Second)

	eval[bool](t, ctx, `(document.getElementById('intro-hide').focus(), true)`)
	if f := press(t, ctx, kb.Enter, "hiding the introduction"); f.What != "h2#lanes-title" {
		t.Errorf("hiding the introduction put the focus on %s, want the player's heading", f.What)
	}
	open(t, ctx, "")
	if v := eval[introView](t, ctx, introJS); v.Shown || !v.ShowBtn {
		t.Errorf("once hidden, a visit shows the introduction %v, its show button %v; want it hidden, the button shown", v.Shown, v.ShowBtn)
	}
	eval[bool](t, ctx, `(document.getElementById('intro-show').click(), true)`)
	if v := eval[introView](t, ctx, introJS); !v.Shown {
		t.Errorf("the show button did not bring the introduction back")
	}

	ko := tab(t)
	open(t, ko, "#lang=ko")
	v = eval[introView](t, ko, introJS)
	if !v.Shown || !strings.Contains(v.Text, "임대") || !strings.Contains(v.Text, "token") || len(v.Links) != 4 || v.Links[0] != "10-korean-courier.tl" {
		t.Errorf("in Korean the introduction shows %v, %q, links %q; want it in Korean, starting with the Korean courier", v.Shown, v.Text, v.Links)
	}
	noProblems(t, ctx)
	noProblems(t, ko)
}

// contrastJS returns, for the player on the page, every text of the lanes
// whose contrast against what it sits on is below 4.5:1 and every
// graphic below 3:1 against the lanes (or faded by an opacity), and the
// focus ring's contrast against the page and a card.
const contrastJS = `(() => {
	const rgb = (c) => c.match(/[\d.]+/g).slice(0, 3).map(Number);
	const lum = (c) => { const v = rgb(c).map((x) => { x /= 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; }); return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]; };
	const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
	const probe = (v) => { const d = document.createElement('div'); d.style.color = 'var(' + v + ')'; document.body.append(d); const c = getComputedStyle(d).color; d.remove(); return c; };
	const svg = document.querySelector('#player svg.lanes');
	const lanes = [...svg.querySelectorAll('rect.lane')].map((r) => getComputedStyle(r).fill);
	const low = [];
	for (const el of svg.querySelectorAll('text')) {
		if (el.closest('.measure')) continue;
		let faded = false;
		for (let a = el; a && a !== svg; a = a.parentElement) if (Number(getComputedStyle(a).opacity) < 1) faded = true;
		const fill = getComputedStyle(el).fill;
		const held = el.classList.contains('token') ? el.parentElement.querySelector('rect.held') : null;
		const heldFill = held ? getComputedStyle(held).fill : 'none';
		const behind = heldFill !== 'none' ? [heldFill] : lanes;
		const worst = Math.min(...behind.map((b) => ratio(fill, b)));
		if (faded || worst < 4.5) low.push(el.textContent + ' ' + (el.parentElement.getAttribute('class') || '') + ': ' + (faded ? 'faded' : worst.toFixed(2) + ':1'));
	}
	// Graphics: a send, a lease's bar, a step's dot, an expiry's line, by
	// its fill or its outline, whichever stands out more, at 3:1.
	for (const el of svg.querySelectorAll('.send, .lease rect.held, .mark .dot, .expiry line')) {
		let faded = false;
		for (let a = el; a && a !== svg; a = a.parentElement) if (Number(getComputedStyle(a).opacity) < 1) faded = true;
		const s = getComputedStyle(el);
		const paints = [s.fill, s.stroke].filter((c) => c && c !== 'none' && !c.startsWith('url'));
		const best = Math.max(0, ...paints.map((c) => Math.min(...lanes.map((l) => ratio(c, l)))));
		if (faded || best < 3) low.push((el.getAttribute('class') || el.tagName) + ' in ' + (el.parentElement.getAttribute('class') || '') + ': ' + (faded ? 'faded' : best.toFixed(2) + ':1'));
	}
	const focus = probe('--focus');
	return {low, focusPage: ratio(focus, probe('--bg')), focusCard: ratio(focus, probe('--card')), focusLane: Math.min(...lanes.map((l) => ratio(focus, l)))};
})()`

// Every text of the lanes reads at 4.5:1 against what it sits on, and
// every bar, dot and line stands at 3:1 — steps not reached yet too,
// which are drawn in another style, not faded — and
// the focus ring stands at 3:1 against the page, the cards and the lanes,
// in both schemes, before the first step, midway and at the end.
func TestA11y_LanesTextAndFocusRingMeetTheirContrast(t *testing.T) {
	for _, sch := range []string{"light", "dark"} {
		for _, story := range []string{index.Default, "07-receiver-resend.tl", "11-kleppmann-fencing.tl", "13-crash-restart.tl"} {
			ctx := tab(t)
			scheme(t, ctx, sch, 1280)
			tr := libraryTrace(t, story)
			for _, step := range []int{0, len(tr.Steps) / 2, len(tr.Steps)} {
				open(t, ctx, fmt.Sprintf("#t=%s&step=%d", story, step))
				waitFor(t, ctx, fmt.Sprintf(`document.getElementById('player').dataset.cursor === '%d' && document.getElementById('player').dataset.timeline === %q`, step, story), 10*time.Second)
				got := eval[struct {
					Low                             []string
					FocusPage, FocusCard, FocusLane float64
				}](t, ctx, contrastJS)
				for _, l := range got.Low {
					t.Errorf("%s, %s at step %d: %s", sch, story, step, l)
				}
				if got.FocusPage < 3 || got.FocusCard < 3 || got.FocusLane < 3 {
					t.Errorf("%s: the focus ring stands at %.2f:1 on the page, %.2f:1 on a card, %.2f:1 on the lanes; want 3:1", sch, got.FocusPage, got.FocusCard, got.FocusLane)
				}
			}
			closeTab(ctx)
		}
	}
}

// The lanes are a named region a screen reader reaches, and inside it
// each lease's and step's own title, as Chromium's accessibility tree
// gives them.
func TestA11y_LanesItemsReachAScreenReader(t *testing.T) {
	ctx := tab(t)
	tr := defaultTrace(t)
	open(t, ctx, fmt.Sprintf("#t=%s&step=%d", tr.Name, len(tr.Steps)))
	waitFor(t, ctx, fmt.Sprintf(`document.getElementById('player').dataset.cursor === '%d'`, len(tr.Steps)), 10*time.Second)
	res, err := chromedp.Call(ctx, accessibility.GetFullAXTree, accessibility.GetFullAXTreeParams{})
	must(t, err)
	val := func(v *accessibility.Value) string {
		if v == nil {
			return ""
		}
		return strings.Trim(string(v.Value), `"`)
	}
	byID := map[accessibility.NodeID]*accessibility.Node{}
	for _, n := range res.Nodes {
		byID[n.NodeID] = n
	}
	// A node inside an image is a leaf's part: screen readers do not
	// reach it (Chromium's tree holds it all the same).
	reached := func(n *accessibility.Node) bool {
		for p := byID[n.ParentID]; p != nil; p = byID[p.ParentID] {
			if r := val(p.Role); r == "img" || r == "image" {
				return false
			}
		}
		return !n.Ignored
	}
	var names []string
	region := false
	for _, n := range res.Nodes {
		if !reached(n) {
			continue
		}
		names = append(names, val(n.Name))
		if val(n.Role) == "region" && val(n.Name) == "Workers on a shared clock" {
			region = true
		}
	}
	if !region {
		t.Errorf("no region named %q in the accessibility tree", "Workers on a shared clock")
	}
	for _, want := range []string{"A holds order-7 with token 1", "B holds order-7 with token 2"} {
		if !slices.ContainsFunc(names, func(s string) bool { return strings.Contains(s, want) }) {
			t.Errorf("the accessibility tree names nothing %q a screen reader reaches: the lanes' items are hidden", want)
		}
	}
	noProblems(t, ctx)
}

// On the course page each player is a region named by its story's title,
// a heading one level below the heading before it, its panels' headings
// one below that; heading-level sets the level.
func TestA11y_EachPlayerIsARegionHeadedAtItsPlace(t *testing.T) {
	ctx := openCourse(t)
	courseReady(t, ctx, "late-courier", "kleppmann-demo")
	type player struct {
		ID, Title, Named string
		Level, Want      int
		Panels           []string
	}
	got := eval[[]player](t, ctx, `[...document.querySelectorAll('lease-timeline')].map((e) => {
		const heads = [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')].filter((x) => x.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_FOLLOWING);
		const frame = e.shadowRoot.querySelector('[role=region]');
		const title = e.shadowRoot.querySelector('[role=heading]');
		return {id: e.id, title: title.textContent, named: frame && e.shadowRoot.getElementById(frame.getAttribute('aria-labelledby'))?.textContent,
			level: Number(title.getAttribute('aria-level')), want: heads.length ? Math.min(Number(heads[heads.length - 1].tagName[1]) + 1, 6) : 2,
			panels: [...new Set([...e.shadowRoot.querySelectorAll('.panels h1, .panels h2, .panels h3, .panels h4, .panels h5, .panels h6')].map((h) => h.tagName))]};
	})`)
	if len(got) < 5 {
		t.Fatalf("the course page has %d players", len(got))
	}
	for _, p := range got {
		if p.Named == "" || p.Named != p.Title {
			t.Errorf("#%s is a region named %q, want its title %q", p.ID, p.Named, p.Title)
		}
		if p.Level != p.Want {
			t.Errorf("#%s's title is a heading of level %d, want %d (one below the heading before it)", p.ID, p.Level, p.Want)
		}
		if want := fmt.Sprintf("H%d", min(p.Want+1, 6)); len(p.Panels) > 0 && (len(p.Panels) != 1 || p.Panels[0] != want) {
			t.Errorf("#%s's panels are headed %q, want %s", p.ID, p.Panels, want)
		}
	}
	level := eval[string](t, ctx, `(() => {
		const e = document.createElement('lease-timeline');
		e.setAttribute('heading-level', '5');
		e.textContent = 'lease 1000ms\njob j\n0ms A claim j -> ok';
		document.body.append(e);
		return e.shadowRoot.querySelector('[role=heading]').getAttribute('aria-level');
	})()`)
	if level != "5" {
		t.Errorf("heading-level=\"5\" made the title's level %s", level)
	}
	noProblems(t, ctx)
}

// A story title in the other language than the page's is marked with its
// own — on the Korean page an English title lang="en", on the English
// page a Korean one lang="ko" — in the picker, at the start of the player
// and in Start here; a title in the page's language is not marked.
func TestA11y_EachPageMarksTitlesInTheOtherLanguage(t *testing.T) {
	hangul := regexp.MustCompile(`\p{Hangul}`)
	for _, page := range []struct{ lang, fragment string }{{"ko", "#lang=ko&step=0"}, {"en", "#step=0"}} {
		ctx := tab(t)
		open(t, ctx, page.fragment)
		waitFor(t, ctx, fmt.Sprintf(`document.getElementById('player').dataset.lang === %q`, page.lang), 30*time.Second)
		got := eval[map[string]string](t, ctx, `Object.fromEntries([
			...[...document.querySelectorAll('#picker option[value]:not([value=""]), #start-list a')].map((o) => [o.textContent, o.lang]),
			['start: ' + document.querySelector('#player .step-source code').textContent, document.querySelector('#player .step-source code').lang],
		])`)
		english, korean := 0, 0
		for title, lang := range got {
			titleLang := "en"
			if hangul.MatchString(title) {
				titleLang, korean = "ko", korean+1
			} else {
				english++
			}
			want := titleLang
			if titleLang == page.lang {
				want = ""
			}
			if lang != want {
				t.Errorf("the %s page marks %q lang=%q, want %q", page.lang, title, lang, want)
			}
		}
		if english < 10 || korean < 2 {
			t.Errorf("the %s page: read %d English and %d Korean titles: %q", page.lang, english, korean, got)
		}
		noProblems(t, ctx)
		closeTab(ctx)
	}
}

// axButton is the accessible name of the button whose description is
// desc, as Chromium's accessibility tree gives it ("" when none is).
func axButton(t *testing.T, ctx context.Context, desc string) string {
	t.Helper()
	res, err := chromedp.Call(ctx, accessibility.GetFullAXTree, accessibility.GetFullAXTreeParams{})
	must(t, err)
	val := func(v *accessibility.Value) string {
		var s string
		if v != nil {
			json.Unmarshal(v.Value, &s) // a value that is no string is ""
		}
		return s
	}
	for _, n := range res.Nodes {
		if !n.Ignored && val(n.Role) == "button" && val(n.Description) == desc {
			return val(n.Name)
		}
	}
	return ""
}

// typeAtEnd types s at the end of the editor's text, key by key.
func typeAtEnd(t *testing.T, ctx context.Context, s string) {
	t.Helper()
	eval[bool](t, ctx, `(document.getElementById('editor').focus(), document.getElementById('editor').setSelectionRange(1e6, 1e6), true)`)
	keys(t, ctx, s)
}

// A mistake typed into the editor is said in words a screen reader
// reads as a place — "line 15, column 11", not only "15:11", which reads
// as a time of day — in the page's language; the learner's text and the
// focus stay where they were.
func TestA11y_AMistakeIsSaidWithItsLineAndColumnInWords(t *testing.T) {
	for _, tc := range []struct {
		lang, desc, line, col string
	}{
		{"en", "Go to this place in the text", "line %d", "column %d"},
		{"ko", "텍스트의 이 위치로 가기", "%d행", "%d열"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			ctx := tab(t)
			open(t, ctx, "#lang="+tc.lang)
			waitEngine(t, ctx)
			good := eval[string](t, ctx, `document.getElementById('editor').value`)
			const typed = "\n1300ms  A compleat order-7"
			typeAtEnd(t, ctx, typed)
			waitFor(t, ctx, `!document.getElementById('editor-error').hidden`, 30*time.Second)
			_, perr := timeline.Parse("typed.tl", good+typed)
			var list timeline.ErrorList
			if !errors.As(perr, &list) || len(list) == 0 {
				t.Fatalf("the native parser accepts the typed text (%v)", perr)
			}
			name := axButton(t, ctx, tc.desc)
			for _, want := range []string{fmt.Sprintf(tc.line, list[0].Line), fmt.Sprintf(tc.col, list[0].Col)} {
				if !strings.Contains(name, want) {
					t.Errorf("the mistake's place is said %q, want it to say %q", name, want)
				}
			}
			// The label shown is in the name, first: one who speaks to the
			// page names the button by what it shows.
			if shown := text(t, ctx, "#editor-error .linecol"); shown != fmt.Sprintf("%d:%d", list[0].Line, list[0].Col) || !strings.HasPrefix(name, shown) {
				t.Errorf("the mistake's place is shown %q and named %q, want %d:%d shown and the name to begin with it", shown, name, list[0].Line, list[0].Col)
			}
			if got := eval[string](t, ctx, `document.getElementById('editor').value`); got != good+typed {
				t.Errorf("after the mistake the editor holds %q, want the learner's text kept", got)
			}
			if got := eval[string](t, ctx, `document.activeElement.id`); got != "editor" {
				t.Errorf("after the mistake the focus is on %q, want the editor", got)
			}
			noProblems(t, ctx)
		})
	}
}

// While a mistake stands, typing elsewhere runs the text again and the
// alert says nothing more: a screen reader hears a mistake once, not
// after every pause in typing; a new mistake is said.
func TestA11y_AStandingMistakeIsNotSaidAgainOnEveryEdit(t *testing.T) {
	ctx := tab(t)
	open(t, ctx, "")
	waitEngine(t, ctx)
	typeAtEnd(t, ctx, "\n1300ms  A compleat order-7")
	// A run of a part of the line may say another mistake first.
	waitFor(t, ctx, `document.getElementById('editor-error').textContent.includes('"compleat"') && document.body.dataset.engineView === 'ready'`, 30*time.Second)
	said := func() map[string]int {
		counts := map[string]int{}
		for _, r := range eval[[]liveRegion](t, ctx, `window.__live`) {
			counts[r.Region] = len(r.Said)
		}
		return counts
	}
	eval[int](t, ctx, liveJS)
	// runs counts the runs the status has told of, each ended.
	runs := `window.__live.find((r) => r.region === 'engine-state').said.filter((s) => s.includes('running')).length`
	// The first line is a comment: typing there leaves the mistake as it is.
	eval[bool](t, ctx, `(() => { const e = document.getElementById('editor'); const i = e.value.indexOf('\n'); e.setSelectionRange(i, i); return true; })()`)
	for i, k := range []string{" a", " b"} {
		keys(t, ctx, k)
		waitFor(t, ctx, fmt.Sprintf(`%s > %d && document.body.dataset.engineView === 'ready'`, runs, i), 30*time.Second)
	}
	if n := said()["editor-error"]; n != 0 {
		t.Errorf("typing in a comment while a mistake stands changed the alert %d times, want 0: %v", n, eval[any](t, ctx, `window.__live`))
	}
	// A new mistake is said.
	eval[bool](t, ctx, `(() => { const e = document.getElementById('editor'); const i = e.value.indexOf('compleat'); e.setSelectionRange(i, i + 8); return true; })()`)
	keys(t, ctx, "complet")
	waitFor(t, ctx, `document.getElementById('editor-error').textContent.includes('"complet"')`, 30*time.Second)
	if n := said()["editor-error"]; n == 0 {
		t.Error("a new mistake left the alert unchanged")
	}
	noProblems(t, ctx)
}

// swatchJS returns, for each swatch of the lanes' legend, the better of
// its fill's and its border's contrast against the page behind it.
const swatchJS = `(() => {
	const rgb = (c) => c.match(/[\d.]+/g).slice(0, 3).map(Number);
	const lum = (c) => { const v = rgb(c).map((x) => { x /= 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; }); return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]; };
	const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
	const opaque = (c) => c && c !== 'transparent' && !/rgba\(.*,\s*0\)$/.test(c);
	const page = getComputedStyle(document.body).backgroundColor;
	return Object.fromEntries([...document.querySelectorAll('#player .legend .sw')].map((sw) => {
		const s = getComputedStyle(sw);
		const fill = opaque(s.backgroundColor) ? ratio(s.backgroundColor, page) : 1;
		const border = s.borderTopStyle !== 'none' && parseFloat(s.borderTopWidth) > 0 ? ratio(s.borderTopColor, page) : 1;
		return [sw.className, Math.max(fill, border)];
	}));
})()`

// In forced colours (Windows' high contrast) every swatch of the lanes'
// legend still shows, at 3:1 against the page: the lanes keep their own
// colours there, and a key whose swatches vanished would name nothing.
func TestA11y_LegendSwatchesShowInForcedColors(t *testing.T) {
	for _, sch := range []string{"light", "dark"} {
		t.Run(sch, func(t *testing.T) {
			ctx := tab(t)
			_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{
				{Name: "forced-colors", Value: "active"},
				{Name: "prefers-color-scheme", Value: sch},
			}})
			must(t, err)
			open(t, ctx, "#t=01-late-courier.tl&step=3")
			if !eval[bool](t, ctx, `matchMedia('(forced-colors: active)').matches`) {
				t.Fatal("the tab does not report forced colours")
			}
			got := eval[map[string]float64](t, ctx, swatchJS)
			if len(got) < 4 {
				t.Fatalf("the legend has %d swatches: %v", len(got), got)
			}
			for sw, r := range got {
				if r < 3 {
					t.Errorf("in forced colours (%s) the legend's %q stands at %.2f:1 against the page; want 3:1", sch, sw, r)
				}
			}
			noProblems(t, ctx)
		})
	}
}

// Every column header of the jobs and storage tables carries what its
// column means, in the player's language, as its description (title): in
// English, and in Korean once the reader switches, the schema's name
// itself untranslated.
func TestA11y_EveryTableColumnSaysWhatItMeansInTheReadersLanguage(t *testing.T) {
	ctx := tab(t)
	open(t, ctx, "")
	const heads = `[...document.querySelectorAll('#player .view .jobs-table thead th')].map((th) => [th.textContent, th.title])`
	check := func(lang string, hangul bool) {
		t.Helper()
		got := eval[[][2]string](t, ctx, heads)
		if len(got) < 11 {
			t.Fatalf("%s: the tables' headers are %q, want every column of the jobs table", lang, got)
		}
		for _, h := range got {
			ko := strings.ContainsFunc(h[1], func(r rune) bool { return r >= 0xac00 && r <= 0xd7a3 })
			if len(h[1]) < 5 || ko != hangul {
				t.Errorf("%s: the column %s says %q of what it means", lang, h[0], h[1])
			}
		}
	}
	check("en", false)
	// The menu's choice is kept for the next visit: forget it, or every
	// later test in this browser opens in Korean.
	defer eval[bool](t, ctx, `(localStorage.removeItem('leaselab.lang'), true)`)
	eval[bool](t, ctx, `(() => { const s = document.getElementById('lang'); s.value = 'ko'; s.dispatchEvent(new Event('change')); return true; })()`)
	waitFor(t, ctx, `document.documentElement.lang === 'ko'`, 10*time.Second)
	check("ko", true)
	noProblems(t, ctx)
}
