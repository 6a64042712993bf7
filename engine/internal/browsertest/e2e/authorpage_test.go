//go:build e2e

package e2e_test

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
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
