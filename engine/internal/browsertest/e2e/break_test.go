//go:build e2e

package e2e_test

import (
	"html"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/leaselab/leaselab/engine/internal/coursesite"
	"github.com/leaselab/leaselab/engine/timeline"
)

// breakView is what the simulator's break controls and lanes show.
const breakState = `(() => { const p = document.getElementById('player'); const b = p.querySelector('.break');
	return {cursor: p.dataset.cursor, text: document.getElementById('editor').value,
		status: b.querySelector('.break-status').textContent, menu: !b.querySelector('.break-menu').hidden,
		changed: p.querySelectorAll('.lanes .mark.changed').length, undo: !b.querySelector('.break-undo').disabled,
		focus: document.activeElement?.dataset?.lane ?? document.activeElement?.dataset?.break ?? document.activeElement?.tagName};
	})()`

type breakView struct {
	Cursor  string `json:"cursor"`
	Text    string `json:"text"`
	Status  string `json:"status"`
	Menu    bool   `json:"menu"`
	Changed int    `json:"changed"`
	Undo    bool   `json:"undo"`
	Focus   string `json:"focus"`
}

// On the simulator, by the keyboard alone: at the cursor after A's stale
// complete, B's lane's button opens its menu, and delaying B's next
// message (its complete) writes arrives=+2s into that line; the engine
// runs it again, the complete now arrives after B's lease ran out, and
// the lanes box that step and say how its outcome changed; Ctrl+Z puts
// the text back byte for byte. A pause the language refuses (A's, over
// its own later steps) leaves the text alone and says the parser's
// message. The focus stays on the menu's opener throughout.
func TestBreak_ASimulatorStoryBreaksByKeyboardAndUndoes(t *testing.T) {
	ctx := tab(t)
	open(t, ctx, "#t=01-late-courier.tl&lang=en")
	waitEngine(t, ctx)
	story, err := timeline.LibrarySource("01-late-courier.tl")
	must(t, err)
	if got := eval[string](t, ctx, `document.getElementById('editor').value`); got != story {
		t.Fatalf("the editor holds %q, want the library's story", got)
	}
	must(t, chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(`#player .lanes-scroll`))))
	keys(t, ctx, kb.End)
	keys(t, ctx, kb.ArrowLeft)
	waitFor(t, ctx, `document.getElementById('player').dataset.cursor === '4'`, 10*time.Second)

	must(t, chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(`#player .break-opener[data-lane="B"]`))))
	if label := eval[string](t, ctx, `document.activeElement.getAttribute('aria-label')`); label != "Break B at 1001 ms" {
		t.Errorf("B's button is named %q", label)
	}
	keys(t, ctx, kb.Enter)
	v := eval[breakView](t, ctx, breakState)
	if !v.Menu || v.Focus != "pause" {
		t.Fatalf("Enter on B's button: %+v; want its menu open, the focus on its first action", v)
	}
	focusOK(t, ctx, "opening B's menu")
	delay := eval[string](t, ctx, `document.querySelector('#player .break-menu [data-break="delay"]').textContent`)
	if delay != "Delay B’s next complete by 2000 ms" {
		t.Errorf("the delay action reads %q", delay)
	}
	keys(t, ctx, kb.Tab)
	keys(t, ctx, kb.Tab)
	keys(t, ctx, kb.Enter)
	waitFor(t, ctx, `document.getElementById('editor').value.includes('arrives=+2s')`, 30*time.Second)
	waitFor(t, ctx, `document.querySelector('#player .break-status').textContent.includes('Outcomes changed')`, 10*time.Second)
	v = eval[breakView](t, ctx, breakState)
	want := strings.Replace(story, "1200ms  B complete order-7", "1200ms  B complete order-7 arrives=+2s", 1)
	if v.Text != want {
		t.Errorf("after the delay the text is\n%s\nwant\n%s", v.Text, want)
	}
	if !strings.Contains(v.Status, "step 5, B complete order-7: ok → refused expired") || v.Changed != 1 || !v.Undo {
		t.Errorf("after the delay: %+v; want B's complete said and boxed as changed from ok to refused expired, undo on", v)
	}
	if v.Focus != "B" {
		t.Errorf("after the rerun the focus is on %s, want B's button", v.Focus)
	}
	focusOK(t, ctx, "the rerun")
	audit(t, ctx, "the simulator after a break")

	must(t, chromedp.Do(ctx, chromedp.KeyEvent("z", chromedp.KeyModifiers(2)))) // Ctrl+Z
	waitFor(t, ctx, `document.querySelector('#player .break-status').textContent.startsWith('Undone')`, 30*time.Second)
	v = eval[breakView](t, ctx, breakState)
	if v.Text != story || v.Changed != 0 || v.Undo {
		t.Errorf("after Ctrl+Z: %+v; want the story's text exactly, nothing boxed, undo off", v)
	}
	focusOK(t, ctx, "Ctrl+Z")

	// A's pause at its own pause's instant covers its later steps: refused.
	must(t, chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(`#player .lanes-scroll`))))
	keys(t, ctx, kb.Home)
	keys(t, ctx, kb.ArrowRight)
	keys(t, ctx, kb.ArrowRight)
	waitFor(t, ctx, `document.getElementById('player').dataset.cursor === '2'`, 10*time.Second)
	must(t, chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(`#player .break-opener[data-lane="A"]`))))
	keys(t, ctx, kb.Enter)
	keys(t, ctx, kb.Enter)
	waitFor(t, ctx, `document.querySelector('#player .break-status').textContent.includes('refuses')`, 30*time.Second)
	v = eval[breakView](t, ctx, breakState)
	if v.Text != story || v.Focus != "A" || !strings.Contains(v.Status, "pause") {
		t.Errorf("after a refused pause: %+v; want the text as it was, the parser's message, the focus on A's button", v)
	}
	noProblems(t, ctx)
}

// On a Korean course page whose trace was prerendered (drawn before any
// WebAssembly loads), by touch: a tap on a worker's name in the lanes
// opens its menu, a tap on delay loads the engine and breaks the story
// (the element's text gains arrives=), the changed step is said in Korean
// and boxed, and a tap on undo puts the author's text back.
func TestBreak_AnElementBreaksInKoreanByTouch(t *testing.T) {
	story, err := timeline.LibrarySource("01-late-courier.tl")
	must(t, err)
	page := `<!doctype html><html lang="ko"><head><meta charset="utf-8"><title>배달</title>
<script src="` + coursesite.BundleDir() + `/leaselab.js" defer></script></head><body><main><h1>배달</h1>
<pre><code class="language-lease-timeline">#! lease-timeline name=c.tl
` + html.EscapeString(story) + `</code></pre></main></body></html>`
	url, rep := prerenderedSite(t, page)
	if rep.Timelines != 1 {
		t.Fatalf("prerendered %d timelines, want 1", rep.Timelines)
	}
	ctx := tabFor(t, 3*time.Minute)
	must(t, chromedp.Do(ctx, chromedp.Navigate(url+"/lesson.html")))
	const wasm = `performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.wasm')).length`
	waitFor(t, ctx, `document.querySelector('lease-timeline')?.dataset.state === 'ready'`, time.Minute)
	if src, n := eval[string](t, ctx, `document.querySelector('lease-timeline').dataset.source`), eval[int](t, ctx, wasm); src != "prerendered" || n != 0 {
		t.Fatalf("the course page's timeline came from %q with %d WebAssembly files fetched; want prerendered, none", src, n)
	}
	const q = `document.querySelector('lease-timeline')?.shadowRoot`
	waitFor(t, ctx, q+`?.querySelector('.transport')?.hidden === false`, time.Minute)
	for range 4 {
		eval[bool](t, ctx, q+`.querySelector('button.forward').click() || true`)
	}
	waitFor(t, ctx, `document.querySelector('lease-timeline').dataset.cursor === '4'`, 10*time.Second)
	tap(t, ctx, q+`.querySelector('.lanes text.actor[data-actor="B"]')`)
	waitFor(t, ctx, q+`.querySelector('.break-menu')?.hidden === false`, 10*time.Second)
	if got := eval[string](t, ctx, q+`.querySelector('.break-menu-title').textContent`); got != "1001 ms에 B에게 무슨 일이 일어날까요?" {
		t.Errorf("the menu's title in Korean is %q", got)
	}
	tap(t, ctx, q+`.querySelector('.break-menu [data-break="delay"]')`)
	waitFor(t, ctx, q+`.querySelector('.lt-source').textContent.includes('arrives=+2s')`, time.Minute)
	if src := eval[string](t, ctx, `document.querySelector('lease-timeline').dataset.source`); src != "engine" {
		t.Errorf("the broken story ran on %q, want the engine, loaded by the break", src)
	}
	waitFor(t, ctx, q+`.querySelector('.break-status').textContent.includes('결과가 바뀐 단계')`, 10*time.Second)
	status := eval[string](t, ctx, q+`.querySelector('.break-status').textContent`)
	if !strings.Contains(status, "5단계 B complete order-7: ok → refused expired") {
		t.Errorf("the status in Korean is %q", status)
	}
	if n := eval[int](t, ctx, q+`.querySelectorAll('.lanes .mark.changed').length`); n != 1 {
		t.Errorf("%d marks boxed as changed, want 1", n)
	}
	audit(t, ctx, "a Korean element after a break")
	tap(t, ctx, q+`.querySelector('.break-undo')`)
	waitFor(t, ctx, q+`.querySelector('.break-status').textContent.startsWith('되돌렸습니다')`, 30*time.Second)
	if got := eval[string](t, ctx, q+`.querySelector('.lt-source').textContent`); got != story {
		t.Errorf("after undo the element's text is %q, want the author's", got)
	}
	if f := eval[string](t, ctx, `document.activeElement === document.body ? 'body' : 'kept'`); f == "body" {
		t.Errorf("after undo the focus fell to the page")
	}
}
