//go:build sites

package sites_test

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/leaselab/leaselab/engine/internal/coursesite"
)

// elementPage is a page of the bundle's one script and body, in a folder
// beside the bundle; served with header (a response header for every
// file: name and value, or none), it returns the page's URL.
func elementPage(t *testing.T, body string, header ...string) string {
	t.Helper()
	_, url := elementSite(t, body, header...)
	return url
}

// elementSite is elementPage, and the site's folder.
func elementSite(t *testing.T, body string, header ...string) (dir, url string) {
	t.Helper()
	dir = t.TempDir()
	copyTree(t, bundle, filepath.Join(dir, coursesite.BundleDir()))
	page := `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title>
<script src="` + coursesite.BundleDir() + `/leaselab.js" defer></script></head><body>` + body + `</body></html>`
	must(t, os.WriteFile(filepath.Join(dir, "page.html"), []byte(page), 0o644))
	files := http.FileServer(http.Dir(dir))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if len(header) == 2 {
			w.Header().Set(header[0], header[1])
		}
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return dir, srv.URL + "/page.html"
}

const courier = `# Late courier
lease 1000ms
job order-7 qty=2

0ms     A claim order-7            -> ok token=1 lease_until=1000
1000ms  B claim order-7            -> ok token=2
1001ms  A complete order-7         -> refused superseded
`

// countListeners, run before the page's scripts, counts the listeners on
// the page's global targets (window, document, media queries) and the
// observers observing anything: window.__live() is {listeners, observers}.
// A listener goes with removeEventListener or its signal's abort.
const countListeners = `(() => {
	const live = new Map();
	const global = (t) => t === window || t === document || t instanceof MediaQueryList;
	const key = (t, type, fn, o) => [t, type, fn, typeof o === 'boolean' ? o : Boolean(o && o.capture)];
	const find = (k) => [...live.keys()].find((x) => x.every((v, i) => v === k[i]));
	const add = EventTarget.prototype.addEventListener, remove = EventTarget.prototype.removeEventListener;
	EventTarget.prototype.addEventListener = function (type, fn, o) {
		if (global(this) && fn && !(o && o.signal && o.signal.aborted)) {
			const k = key(this, type, fn, o);
			if (!find(k)) {
				live.set(k, true);
				if (o && o.signal) o.signal.addEventListener('abort', () => { const f = find(k); if (f) live.delete(f); });
				if (o && o.once) add.call(this, type, () => { const f = find(k); if (f) live.delete(f); }, {once: true});
			}
		}
		return add.call(this, type, fn, o);
	};
	EventTarget.prototype.removeEventListener = function (type, fn, o) {
		if (global(this)) { const f = find(key(this, type, fn, o)); if (f) live.delete(f); }
		return remove.call(this, type, fn, o);
	};
	const observing = new Map();
	for (const O of [MutationObserver, ResizeObserver, IntersectionObserver]) {
		const { observe, disconnect } = O.prototype;
		const unobserve = O.prototype.unobserve;
		O.prototype.observe = function (target, o) {
			if (!observing.has(this)) observing.set(this, new Set());
			observing.get(this).add(target);
			return observe.call(this, target, o);
		};
		O.prototype.disconnect = function () { observing.delete(this); return disconnect.call(this); };
		if (unobserve) O.prototype.unobserve = function (target) {
			observing.get(this)?.delete(target);
			if (observing.get(this)?.size === 0) observing.delete(this);
			return unobserve.call(this, target);
		};
	}
	window.__live = () => ({ listeners: live.size,
		observed: [...observing.values()].reduce((n, s) => n + s.size, 0) });
})();`

// A hundred players created and removed, one page, leave no listener on
// the page's global targets and no observer observing anything beyond
// what the page had with none; connected again, a player works.
func TestElement_HundredPlayersLeaveNoListenerBehind(t *testing.T) {
	url := elementPage(t, `<div id="box"></div>`)
	ctx := tab(t)
	_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: countListeners})
	must(t, err)
	must(t, chromedp.Do(ctx, chromedp.Navigate(url)))
	waitFor(t, ctx, `customElements.get('lease-timeline') !== undefined`, 30*time.Second)
	type live struct{ Listeners, Observed int }
	before := eval[live](t, ctx, `(async () => {
		const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
		await frame();
		return __live(); })()`)
	after := eval[live](t, ctx, fmt.Sprintf(`(async () => {
		const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
		const box = document.getElementById('box');
		for (let i = 0; i < 100; i++) {
			const e = document.createElement('lease-timeline');
			e.text = %q;
			e.theme = i %% 2 ? 'dark' : 'auto';
			box.append(e);
		}
		await frame();
		window.__during = __live();
		box.replaceChildren();
		await frame();
		return __live(); })()`, courier))
	during := eval[live](t, ctx, `__during`)
	if during.Listeners <= before.Listeners || during.Observed <= before.Observed {
		t.Fatalf("100 players added no listener (%+v before, %+v with them): the count sees nothing", before, during)
	}
	t.Logf("global listeners and observed targets: %+v before, %+v with 100 players, %+v after", before, during, after)
	if after != before {
		t.Errorf("after 100 players came and went the page has %+v, want %+v as before them (%+v with them)", after, before, during)
	}
	// One removed and put back plays.
	eval[bool](t, ctx, fmt.Sprintf(`(() => { const e = document.createElement('lease-timeline'); e.id = 'back'; e.text = %q;
		document.body.append(e); e.remove(); document.body.append(e); return true; })()`, courier))
	waitFor(t, ctx, `document.getElementById('back').dataset.state === 'ready' && document.getElementById('back').dataset.steps === '3'`, time.Minute)
	noProblems(t, ctx)
}

// A <lease-exercise> and a <lease-lab> that arrive after the page has
// loaded, as a single-page site's navigation renders a page written with
// them (an MDX page in Docusaurus), are defined and come alive, as on a
// page loaded with them.
func TestElement_ExerciseAndLabArrivingAfterLoadAreDefined(t *testing.T) {
	url := elementPage(t, `<main id="page"><p>first page</p></main>`)
	ctx := tab(t)
	must(t, chromedp.Do(ctx, chromedp.Navigate(url)))
	waitFor(t, ctx, `document.readyState === 'complete' && customElements.get('lease-timeline') !== undefined`, 30*time.Second)
	eval[bool](t, ctx, `(() => { const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
		return frame().then(() => { document.getElementById('page').innerHTML = '<lease-exercise id="ex"></lease-exercise><lease-lab id="lab" name="n.lab"></lease-lab>'; return true; }); })()`)
	waitFor(t, ctx, `customElements.get('lease-exercise') !== undefined && customElements.get('lease-lab') !== undefined
		&& document.getElementById('ex').dataset.state === 'idle'`, 30*time.Second)
	noProblems(t, ctx)
}

// On a page React hydrates (Docusaurus), a <lease-exercise> the server
// rendered is left as it is until React has taken it over — its own
// contents written before then are a hydration mismatch (React's error
// #418, and the page thrown away and rendered again) — and then builds.
func TestElement_ExerciseWaitsForReactToHydrateIt(t *testing.T) {
	url := elementPage(t, `<div id="__docusaurus"><main><lease-exercise id="ex"></lease-exercise></main></div>`)
	ctx := tab(t)
	must(t, chromedp.Do(ctx, chromedp.Navigate(url)))
	waitFor(t, ctx, `customElements.get('lease-exercise') !== undefined`, 30*time.Second)
	before := eval[int](t, ctx, `new Promise((r) => requestIdleCallback(() => r(document.getElementById('ex').childNodes.length)))`)
	if before != 0 {
		t.Errorf("before React hydrated it the exercise wrote %d nodes into itself, want none", before)
	}
	eval[bool](t, ctx, `(document.getElementById('ex').__reactFiber$test = {}, true)`)
	waitFor(t, ctx, `document.getElementById('ex').dataset.state === 'idle' && document.getElementById('ex').querySelector('textarea') !== null`, 30*time.Second)
	noProblems(t, ctx)
}

// Every attribute has a property that reflects it, set before or after
// the element is defined (as React and Vue set a known name); no method
// has an attribute's name (seek moves the cursor); the text property and
// a text/plain script keep the timeline's whitespace; define() gives the
// class registered.
func TestElement_PropertiesReflectAttributesAndNoMethodTakesTheirNames(t *testing.T) {
	url := elementPage(t, `<lease-timeline id="early"></lease-timeline>
<lease-timeline id="script" step="1"><script type="text/plain">`+courier+`</script></lease-timeline>`)
	ctx := tab(t)
	// A framework sets a property on the element before its class is defined.
	_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: fmt.Sprintf(`
		document.addEventListener('DOMContentLoaded', () => { const e = document.getElementById('early'); e.step = 2; e.text = %q; });`, courier)})
	must(t, err)
	must(t, chromedp.Do(ctx, chromedp.Navigate(url)))
	waitFor(t, ctx, `['early', 'script'].every((id) => document.getElementById(id).dataset.state === 'ready')`, time.Minute)
	got := eval[map[string]any](t, ctx, `(async () => {
		const e = document.getElementById('early'), s = document.getElementById('script');
		const out = {early: e.getAttribute('step') + ' ' + e.dataset.cursor + '/' + e.dataset.steps,
			script: s.dataset.cursor + '/' + s.dataset.steps};
		const f = document.createElement('lease-timeline');
		const props = {step: [3, '3'], show: ['lanes table', 'lanes table'], mutant: ['claim-boundary', 'claim-boundary'],
			name: ['a.tl', 'a.tl'], height: ['200', '200'], theme: ['dark', 'dark'], src: ['x.tl', 'x.tl'], lang: ['ko', 'ko']};
		out.reflected = Object.entries(props).filter(([k, [v, a]]) => { f[k] = v; return f.getAttribute(k) === a && String(f[k]) === String(v); }).map(([k]) => k).join(' ');
		f.autoplay = true; const on = f.hasAttribute('autoplay'); f.autoplay = false;
		out.autoplay = on && !f.hasAttribute('autoplay') && f.autoplay === false;
		f.setAttribute('step', '4'); out.stepRead = f.step;
		const names = ['step', 'show', 'mutant', 'name', 'height', 'theme', 'src', 'lang', 'autoplay', 'id'];
		const proto = Object.getPrototypeOf(e);
		out.methods = Object.getOwnPropertyNames(proto).filter((k) => typeof Object.getOwnPropertyDescriptor(proto, k).value === 'function' && names.includes(k)).join(' ');
		out.seek = typeof e.seek;
		e.seek(1);
		out.text = e.text;
		const m = await import(new URL('`+coursesite.BundleDir()+`/lease-timeline.js', location.href).href);
		out.define = m.define() === customElements.get('lease-timeline') && typeof m.define('course-timeline') === 'function' && customElements.get('course-timeline') !== undefined;
		return out; })()`)
	want := map[string]any{
		"early": "2 2/3", "script": "1/3",
		"reflected": "step show mutant name height theme src lang", "autoplay": true, "stepRead": float64(4),
		"methods": "", "seek": "function", "text": courier, "define": true,
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: got %#v, want %#v", k, got[k], w)
		}
	}
	waitFor(t, ctx, `document.getElementById('early').dataset.cursor === '1'`, 5*time.Second)
	noProblems(t, ctx)
}

// theme=auto follows the site's scheme as each generator and the
// documented attribute and custom property set it; theme=light does not.
func TestElement_FollowsTheSitesDarkMode(t *testing.T) {
	url := elementPage(t, `<lease-timeline id="auto">`+courier+`</lease-timeline><lease-timeline id="light" theme="light">`+courier+`</lease-timeline>`)
	ctx := tab(t)
	must(t, chromedp.Do(ctx, chromedp.Navigate(url)))
	waitFor(t, ctx, `['auto', 'light'].every((id) => document.getElementById(id).shadowRoot?.querySelector('.lt'))`, 30*time.Second)
	const light, dark = "rgb(255, 255, 255)", "rgb(22, 26, 34)"
	colour := func(id string) string {
		return fmt.Sprintf(`getComputedStyle(document.getElementById(%q).shadowRoot.querySelector('.lt')).backgroundColor`, id)
	}
	if got := eval[string](t, ctx, colour("auto")); got != light {
		t.Fatalf("with the OS light and no site scheme the player is %s, want %s", got, light)
	}
	for _, c := range []struct{ site, on, off string }{
		{"Material for MkDocs", `document.body.setAttribute('data-md-color-scheme', 'slate')`, `document.body.setAttribute('data-md-color-scheme', 'default') || document.body.removeAttribute('data-md-color-scheme')`},
		{"Docusaurus", `document.documentElement.setAttribute('data-theme', 'dark')`, `document.documentElement.setAttribute('data-theme', 'light') || document.documentElement.removeAttribute('data-theme')`},
		{"VitePress", `document.documentElement.classList.add('dark')`, `document.documentElement.classList.remove('dark')`},
		{"data-leaselab-theme", `document.documentElement.setAttribute('data-leaselab-theme', 'dark')`, `document.documentElement.removeAttribute('data-leaselab-theme')`},
		{"--leaselab-scheme", `document.documentElement.style.setProperty('--leaselab-scheme', 'dark')`, `document.documentElement.style.removeProperty('--leaselab-scheme')`},
	} {
		eval[any](t, ctx, c.on)
		waitFor(t, ctx, colour("auto")+` === '`+dark+`'`, 5*time.Second)
		if got := eval[string](t, ctx, colour("light")); got != light {
			t.Errorf("%s dark: the theme=light player is %s, want %s", c.site, got, light)
		}
		if c.site == "Docusaurus" { // in print a player is light whatever the site shows
			_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"})
			must(t, err)
			if got := eval[string](t, ctx, colour("auto")); got != light {
				t.Errorf("printed on a dark site the player is %s, want %s", got, light)
			}
			_, err = chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: ""})
			must(t, err)
		}
		eval[any](t, ctx, c.off)
		waitFor(t, ctx, colour("auto")+` === '`+light+`'`, 5*time.Second)
		// The test's site has one switch at a time, as a real site has.
	}
	noProblems(t, ctx)
}

// The guide's Content-Security-Policy, sent as a header with every file:
// the engine runs (an edit needs it). Without 'wasm-unsafe-eval' the
// player says what the policy blocks and what to add, in its language.
func TestElement_RunsUnderTheGuidesContentSecurityPolicy(t *testing.T) {
	policy := strings.TrimSpace(snippet(t, "Content-Security-Policy"))
	if !strings.Contains(policy, "'wasm-unsafe-eval'") {
		t.Fatalf("the guide's policy %q does not allow compiling WebAssembly", policy)
	}
	body := `<lease-timeline id="p">` + courier + `</lease-timeline>`
	run := func(policy string) context.Context {
		t.Helper()
		url := elementPage(t, body, "Content-Security-Policy", policy)
		ctx := tab(t)
		must(t, chromedp.Do(ctx, chromedp.Navigate(url)))
		return ctx
	}
	ctx := run(policy)
	waitFor(t, ctx, `document.getElementById('p').dataset.state === 'ready' && document.getElementById('p').dataset.steps === '3' && document.getElementById('p').dataset.source === 'engine'`, time.Minute)
	noProblems(t, ctx)
	stricter := strings.ReplaceAll(policy, " 'wasm-unsafe-eval'", "")
	ctx = run(stricter)
	waitFor(t, ctx, `document.getElementById('p').dataset.state === 'error'`, time.Minute)
	status := eval[string](t, ctx, `document.getElementById('p').dataset.blocked + ': ' + document.getElementById('p').shadowRoot.querySelector('.lt-status').textContent`)
	if !strings.HasPrefix(status, "csp: ") || !strings.Contains(status, "add 'wasm-unsafe-eval' to its script-src") {
		t.Errorf("under %q the player says %q, want what the policy blocks and what to add", stricter, status)
	}
	body = `<lease-timeline id="p" lang="ko">` + courier + `</lease-timeline>`
	ctx = run(stricter)
	waitFor(t, ctx, `document.getElementById('p').dataset.state === 'error'`, time.Minute)
	status = eval[string](t, ctx, `document.getElementById('p').dataset.blocked + ': ' + document.getElementById('p').shadowRoot.querySelector('.lt-status').textContent`)
	if !strings.HasPrefix(status, "csp: ") || !strings.Contains(status, "script-src에 'wasm-unsafe-eval'을 추가하세요") {
		t.Errorf("under %q the Korean player says %q, want what the policy blocks and what to add, in Korean", stricter, status)
	}
	// Prerendered, the player draws under the stricter policy too.
	dir, url := elementSite(t, body, "Content-Security-Policy", stricter)
	if out, err := command(root, leaselab, "prerender", dir); err != nil {
		t.Fatalf("leaselab prerender: %v\n%s", err, out)
	}
	ctx = tab(t)
	must(t, chromedp.Do(ctx, chromedp.Navigate(url)))
	waitFor(t, ctx, `document.getElementById('p').dataset.state === 'ready' && document.getElementById('p').dataset.source === 'prerendered' && document.getElementById('p').dataset.steps === '3'`, time.Minute)
	noProblems(t, ctx)
}

// The guide's element snippet plays; without JavaScript the guide's
// plain HTML page, with its one script, reads as two timelines: its fence
// and its element, each monospace, a line per step.
func TestGuide_BothFormsReadAsTheTimelineWithoutJavaScript(t *testing.T) {
	ctx := tab(t)
	must(t, chromedp.Do(ctx, chromedp.Navigate(elementPage(t, snippet(t, "element.html")))))
	waitFor(t, ctx, `document.querySelector('lease-timeline')?.dataset.state === 'ready'`, time.Minute)
	if got := eval[string](t, ctx, `(() => { const e = document.querySelector('lease-timeline'); return e.dataset.cursor + '/' + e.dataset.steps; })()`); got != "1/1" {
		t.Errorf("the element snippet's player is at %s, want 1/1", got)
	}
	dir := t.TempDir()
	copyTree(t, bundle, filepath.Join(dir, coursesite.BundleDir()))
	must(t, os.WriteFile(filepath.Join(dir, "lesson.html"), []byte(snippet(t, "page.html")), 0o644))
	url := servePython(t, dir)
	ctx = tab(t)
	_, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
	must(t, err)
	must(t, chromedp.Do(ctx, chromedp.Navigate(url+"/lesson.html")))
	type form struct {
		Text, Font string
		Players    int
	}
	got := eval[[]form](t, ctx, `[...document.querySelectorAll('pre')].map((p) => ({text: p.innerText, font: getComputedStyle(p).fontFamily,
		players: document.querySelectorAll('lease-timeline:defined').length}))`)
	want := []string{
		"1000ms  B claim order-7     -> ok token=2\n1001ms  A complete order-7  -> refused superseded\n",
		"0ms      A claim parcel-1   -> ok token=1 lease_until=1000\n1000ms   B claim parcel-1   -> ok token=2\n",
	}
	if len(got) != len(want) {
		t.Fatalf("without JavaScript the page shows %d preformatted blocks, want the fence and the element: %+v", len(got), got)
	}
	for i, w := range want {
		if !strings.Contains(got[i].Text, w) || !strings.Contains(got[i].Font, "monospace") || got[i].Players != 0 {
			t.Errorf("without JavaScript form %d reads %+v, want %q line by line in monospace, no player", i+1, got[i], w)
		}
	}
}

// A fence as Docusaurus' Prism writes it — a line per element, a <br>
// and no newline character — plays with every step on the page; a fence
// whose directive swallowed the timeline says so, not "0 steps".
func TestFence_ReadsDocusaurusLinesAndSaysWhenItCannotRead(t *testing.T) {
	var lines strings.Builder
	for _, l := range strings.Split(strings.TrimSuffix("#! lease-timeline step=2\n"+courier, "\n"), "\n") {
		lines.WriteString(`<span class="token-line" style="color:#393A34"><span class="token plain">` + html.EscapeString(l) + `</span><br></span>`)
	}
	url := elementPage(t, `<div class="language-lease-timeline codeBlockContainer_x theme-code-block"><div class="codeBlockContent_x">`+
		`<pre tabindex="0" class="prism-code language-lease-timeline codeBlock_x thin-scrollbar"><code class="codeBlockLines_x">`+lines.String()+`</code></pre></div></div>`+
		`<pre><code class="language-lease-timeline">#! step=2 `+strings.ReplaceAll(html.EscapeString(courier), "\n", " ")+`</code></pre>`)
	ctx := tab(t)
	must(t, chromedp.Do(ctx, chromedp.Navigate(url)))
	waitFor(t, ctx, `(() => { const p = [...document.querySelectorAll('lease-timeline')]; p.forEach((e) => e.scrollIntoView());
		return p.length === 2 && p[0].dataset.state === 'ready' && p[1].dataset.state === 'error'; })()`, time.Minute)
	got := eval[[]string](t, ctx, `[...document.querySelectorAll('lease-timeline')].map((e) => e.dataset.cursor + '/' + e.dataset.steps + ' ' + e.shadowRoot.querySelector('.lt-error').textContent)`)
	if got[0] != "2/3 " {
		t.Errorf("the Docusaurus fence's player is %q, want at step 2 of 3", got[0])
	}
	if !strings.Contains(got[1], "the directive's keys #, Late, courier") {
		t.Errorf("the swallowed fence's player says %q, want why it cannot be read", got[1])
	}
}
