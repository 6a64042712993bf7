//go:build e2e

package e2e_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// axeRulesOff are the axe-core rules the audit does not run, each with the
// reason it does not apply here. An empty list means every rule runs.
var axeRulesOff = map[string]string{}

var (
	axeOnce   sync.Once
	axeSource string
	axeErr    error
)

// axeScript is axe-core's script, pinned in web/.tools (make e2e installs
// it with npm ci).
func axeScript(t *testing.T) string {
	t.Helper()
	axeOnce.Do(func() {
		var b []byte
		b, axeErr = os.ReadFile(filepath.Join(webDir, ".tools", "node_modules", "axe-core", "axe.min.js"))
		axeSource = string(b)
	})
	if axeErr != nil {
		t.Fatalf("axe-core is missing (%v): install it with cd web/.tools && npm ci (make e2e does)", axeErr)
	}
	return axeSource
}

type axeViolation struct {
	ID     string   `json:"id"`
	Impact string   `json:"impact"`
	Help   string   `json:"help"`
	Nodes  []string `json:"nodes"`
}

// audit runs axe-core (WCAG 2.0, 2.1 and 2.2 A and AA, and best practice)
// over the page of ctx as it stands, shadow roots included, and fails the
// test on every violation of impact serious or critical.
func audit(t *testing.T, ctx context.Context, where string) {
	t.Helper()
	// Injected over the protocol, the script is not subject to the page's
	// content security policy.
	if !eval[bool](t, ctx, `typeof axe === 'object'`) {
		eval[bool](t, ctx, axeScript(t)+"\n;true")
	}
	off := "{"
	for id := range axeRulesOff {
		off += fmt.Sprintf("%q: {enabled: false},", id)
	}
	off += "}"
	found, err := chromedp.Run(ctx, chromedp.Evaluate[[]axeViolation](fmt.Sprintf(`axe.run(document, {
		runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']},
		rules: %s, resultTypes: ['violations'],
	}).then((r) => r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => ({
		id: v.id, impact: v.impact, help: v.help,
		nodes: v.nodes.map((n) => n.target.join(' >>> ') + (n.failureSummary ? ': ' + n.failureSummary.replace(/\s+/g, ' ') : '')),
	})))`, off), chromedp.EvalAwaitPromise))
	must(t, err)
	for _, v := range found {
		t.Errorf("%s: axe %s (%s): %s\n\t%s", where, v.ID, v.Impact, v.Help, strings.Join(v.Nodes, "\n\t"))
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
				audit(t, ctx, "/ "+at)
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
				audit(t, ctx, "/#lang=ko "+at)
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
