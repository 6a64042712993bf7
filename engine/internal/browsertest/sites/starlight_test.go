//go:build sites

package sites_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/leaselab/leaselab/engine/internal/coursesite"
)

// buildStarlight builds testdata/starlight with astro build, its
// astro.config.mjs the guide's snippet and the bundle in public/; it
// returns the built site. The site's folder is made inside the lock file's
// install, where Node finds the modules by walking up (as in a monorepo):
// Astro's Vite fails on a node_modules that is a symbolic link out of the
// project (npmSite's). The site's own node_modules holds only Astro's and
// Vite's caches, so no build reuses another's.
func buildStarlight(t *testing.T) string {
	t.Helper()
	modules := npmModules(t, "starlight")
	dir, err := os.MkdirTemp(filepath.Dir(modules), "site-")
	must(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	copyTree(t, filepath.Join("testdata", "starlight"), dir)
	must(t, os.WriteFile(filepath.Join(dir, "astro.config.mjs"), []byte(snippet(t, "astro.config.mjs")), 0o644))
	copyTree(t, bundle, filepath.Join(dir, "public", coursesite.BundleDir()))
	start := time.Now()
	if out, err := command(dir, filepath.Join(modules, ".bin", "astro"), "build"); err != nil {
		t.Fatalf("astro build: %v\n%s", err, out)
	}
	t.Logf("astro build: %v", time.Since(start).Round(time.Millisecond))
	return filepath.Join(dir, "dist")
}

// Astro Starlight with the guide's astro.config.mjs, built once by astro
// build from the pinned lock file: Expressive Code writes each fence as a
// <pre data-language> with a div per line in a frame with a copy button;
// without JavaScript the fence reads line by line; leaselab prerender, as
// the guide says for a generator without a plugin, finds the timeline and
// the lab and tells the fence it cannot read by page and line; the page's
// timeline and lab then draw with no WebAssembly served, the exercise is
// built, every frame is hidden behind its element, and the fence that
// cannot be read says why in place.
func TestSite_StarlightFencesPlayPrerendered(t *testing.T) {
	site := buildStarlight(t)
	page, err := os.ReadFile(filepath.Join(site, "index.html"))
	must(t, err)
	for _, kind := range []string{"lease-timeline", "lease-lab", "lease-exercise"} {
		if !strings.Contains(string(page), `<pre data-language="`+kind+`"><code><div class="ec-line"><div class="code">`) {
			t.Fatalf("Starlight did not write its Expressive Code markup for the %s fence: the test tests nothing", kind)
		}
	}
	if strings.Contains(string(page), "language-lease-") || strings.Contains(string(page), "#! lease-") {
		t.Fatalf("the page marks a fence another way than data-language: the test tests nothing")
	}
	url := serveCounting(t, site)
	t.Run("without JavaScript", func(t *testing.T) { withoutJavaScript(t, url+"/") })

	out, err := command(root, leaselab, "prerender", site)
	if err == nil || !strings.Contains(out, "prerendered ") {
		t.Fatalf("leaselab prerender: %v (want exit status 1, for the fence it cannot read)\n%s", err, out)
	}
	if !regexp.MustCompile(`lessons/unreadable/index\.html: timeline 1 \(timeline\.tl\): line \d+: cannot be read: the directive's keys stpe are no option`).MatchString(out) {
		t.Errorf("leaselab prerender does not name the fence it cannot read:\n%s", out)
	}

	ctx := tab(t)
	must(t, chromedp.Do(ctx, chromedp.Navigate(url+"/")))
	waitFor(t, ctx, `(() => { const els = [...document.querySelectorAll('lease-timeline, lease-lab')];
		els.forEach((e) => e.dataset.state !== 'ready' && e.scrollIntoView({block: 'center'}));
		return els.length === 2 && els.every((e) => e.dataset.state === 'ready'); })()`, time.Minute)
	waitFor(t, ctx, `document.getElementById('ex')?.dataset.state === 'idle'`, time.Minute)
	got := eval[[]string](t, ctx, `[...document.querySelectorAll('[data-fence]')].map((e) =>
		[e.tagName.toLowerCase(), e.id, e.dataset.source || '', e.nextElementSibling?.className || ''].join(' '))`)
	want := []string{"lease-timeline courier prerendered expressive-code", "lease-lab  prerendered expressive-code", "lease-exercise ex  expressive-code"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("the fences became %q, want %q", got, want)
	}
	if hidden := eval[bool](t, ctx, `(() => { const b = [...document.querySelectorAll('[data-leaselab-fence]')];
		return b.length === 3 && b.every((e) => e.matches('div.expressive-code') && getComputedStyle(e).display === 'none'); })()`); !hidden {
		t.Errorf("the fences' frames are not all hidden behind their elements")
	}
	const player = `document.getElementById('courier')`
	if c := eval[string](t, ctx, player+`.dataset.cursor`); c != "3" {
		t.Errorf("the directive's step=3 put the cursor at %s", c)
	}
	eval[bool](t, ctx, player+`.seek(0) || `+player+`.play() || true`)
	waitFor(t, ctx, `Number(`+player+`.dataset.cursor) >= 2 && __seen.events.some((e) => e.type === 'step' && e.id === 'courier')`, 10*time.Second)
	eval[bool](t, ctx, player+`.pause() || true`)
	if n := eval[int](t, ctx, wasmFetches); n != 0 {
		t.Errorf("the prerendered page fetched the engine %d times before the reader acted", n)
	}
	noProblems(t, ctx)
	if n := wasmServed(t, url); n != 0 {
		t.Errorf("the server sent %d WebAssembly files before the reader acted, want none", n)
	}

	bad := tab(t)
	must(t, chromedp.Do(bad, chromedp.Navigate(url+"/lessons/unreadable/")))
	waitFor(t, bad, `(() => { const e = document.getElementById('typo');
		return e !== null && e.dataset.state === 'error' && e.shadowRoot.querySelector('.lt-error').textContent.includes('stpe'); })()`, time.Minute)
	if why := eval[string](t, bad, `document.getElementById('typo').dataset.fenceError`); !strings.Contains(why, "the directive's keys stpe are no option") {
		t.Errorf("the fence that cannot be read says %q", why)
	}
}
