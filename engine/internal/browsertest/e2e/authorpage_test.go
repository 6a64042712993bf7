//go:build e2e

package e2e_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// A course author's page with the elements in it: their colour scheme
// (here), ids (ids_test.go) and headings (outline_test.go) share the page
// with the author's own.

// authorPage is the script that puts body into the blank page's <main>,
// with leaselab.css, once the three elements are defined.
func authorPage(body string) string {
	return `(Promise.all([import('/lease-timeline.js'), import('/lease-exercise.js'), import('/lease-lab.js')]).then(() => {
		document.head.append(Object.assign(document.createElement('link'), { rel: 'stylesheet', href: '/leaselab.css' }));
		document.querySelector('#poke').remove();
		const main = document.createElement('main');
		main.innerHTML = ` + jsString(body) + `;
		document.body.append(main);
	}), true)`
}

// authorTab opens the blank page of engineSite in a tab with d for the
// whole test.
func authorTab(t *testing.T, d time.Duration) context.Context {
	t.Helper()
	ctx := tabFor(t, d)
	must(t, chromedp.Do(ctx, chromedp.Navigate(engineSite(t)+"/e2e-blank.html")))
	return ctx
}

const hostTimeline = "lease 1000ms\njob j\n0ms A claim j -> ok token=1\n1000ms B claim j -> ok token=2\n"

// On a light-only page (no color-scheme, dark text on white) with the
// reader's system dark, a player, a lab and an exercise take one
// decision, light, and the player draws light.
func TestHost_ElementsTakeOneColourSchemeOnAPage(t *testing.T) {
	ctx := blankTab(t, engineSite(t))
	scheme(t, ctx, "dark", 1280)
	eval[bool](t, ctx, authorPage(`<lease-timeline name="a.tl">`+hostTimeline+`</lease-timeline>
		<lease-exercise></lease-exercise><lease-lab name="l.lab">`+twoByTwoLab+`</lease-lab>`))
	waitFor(t, ctx, `document.querySelector('lease-exercise')?.dataset.state === 'idle' && document.querySelector('lease-lab')?.dataset.scheme !== undefined
		&& document.querySelector('lease-timeline')?.dataset.state !== undefined`, 30*time.Second)
	got := eval[map[string]string](t, ctx, `Object.fromEntries(['lease-timeline', 'lease-exercise', 'lease-lab'].map((n) =>
		[n, document.querySelector(n).dataset.scheme ?? '(none)']))`)
	for n, s := range got {
		if s != "light" {
			t.Errorf("%s follows %q; want light, as the page: %v", n, s, got)
		}
	}
	lum := eval[float64](t, ctx, `(() => { const c = getComputedStyle(document.querySelector('lease-timeline').shadowRoot.querySelector('.lt')).backgroundColor;
		const [r, g, b] = c.match(/\d+(\.\d+)?/g).map(Number); return 0.2126 * r + 0.7152 * g + 0.0722 * b; })()`)
	if lum < 200 {
		t.Errorf("the player's card has luminance %.0f; want light (200 or more)", lum)
	}
	noProblems(t, ctx)
}

// A reader who tabs down a course page reaches a player before it has
// run: focus lands on its text, which the first run then hides under the
// lanes. Focus stays in the player (on its lanes), never falls to the
// page's <body>.
func TestHost_FocusStaysInAPlayerThatRunsUnderIt(t *testing.T) {
	ctx := blankTab(t, engineSite(t))
	eval[bool](t, ctx, authorPage(`<button id="before">Before</button><pre>`+strings.Repeat("a line of the lesson\n", 200)+`</pre>
		<lease-timeline name="a.tl">`+hostTimeline+`</lease-timeline>`))
	waitFor(t, ctx, `!!document.querySelector('lease-timeline')?.shadowRoot?.querySelector('.lt-source')`, 30*time.Second)
	if s := eval[string](t, ctx, `document.querySelector('lease-timeline').dataset.state || '(none)'`); s == "ready" {
		t.Fatal("the player ran before the reader reached it; the test needs it below the fold")
	}
	eval[bool](t, ctx, `(document.getElementById('before').focus(), true)`)
	keys(t, ctx, kb.Tab)
	on := `(() => { const el = document.querySelector('lease-timeline'); const f = el.shadowRoot.activeElement;
		return document.activeElement === el && f ? f.className : document.activeElement.tagName; })()`
	if got := eval[string](t, ctx, on); got != "lt-source" {
		t.Fatalf("Tab from the button before the player focused %q; want the player's text (lt-source), not yet run", got)
	}
	waitFor(t, ctx, `document.querySelector('lease-timeline').dataset.state === 'ready'`, 30*time.Second)
	if got := eval[string](t, ctx, on); got != "lanes-scroll" {
		t.Errorf("after the player ran under the focus, focus is on %q; want the player's lanes (lanes-scroll)", got)
	}
	noProblems(t, ctx)
}
