//go:build sites

package sites_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/leaselab/leaselab/engine/internal/coursesite"
)

// The guide's snippets name this bundle: every leaselab-X.Y in them is
// this version's folder (the site tests build with them, so a stale one
// fails there too); the Docusaurus and VitePress configurations are
// JavaScript that parses; the README names this version; the simulator
// page links the guide.
func TestGuide_SnippetsNameThisBundle(t *testing.T) {
	names := regexp.MustCompile(`leaselab-\d+\.\d+`)
	for name, s := range snippets {
		for _, m := range names.FindAllString(s, -1) {
			if m != coursesite.BundleDir() {
				t.Errorf("the guide's snippet %q names %s, want %s", name, m, coursesite.BundleDir())
			}
		}
	}
	for _, name := range []string{"docusaurus.config.js", ".vitepress/config.js"} {
		s := snippet(t, name)
		if !strings.Contains(s, "'/"+coursesite.BundleDir()+"/leaselab.js'") {
			t.Errorf("%s does not name /%s/leaselab.js:\n%s", name, coursesite.BundleDir(), s)
		}
		file := filepath.Join(t.TempDir(), "config.mjs")
		must(t, os.WriteFile(file, []byte(s), 0o644))
		if out, err := command(root, "node", "--check", file); err != nil {
			t.Errorf("%s is not JavaScript: %v\n%s", name, err, out)
		}
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	must(t, err)
	for _, m := range names.FindAllString(string(readme), -1) {
		if m != coursesite.BundleDir() {
			t.Errorf("the README names %s, want %s", m, coursesite.BundleDir())
		}
	}
	guide, err := os.ReadFile(filepath.Join(root, "web", "guide.html"))
	must(t, err)
	if !strings.Contains(string(guide), `<code id="bundle-version">`+coursesite.BundleDir()+`</code>`) {
		t.Errorf("the guide does not say it is about %s", coursesite.BundleDir())
	}
	index, err := os.ReadFile(filepath.Join(root, "web", "index.html"))
	must(t, err)
	if !strings.Contains(string(index), `href="guide.html"`) {
		t.Error("the simulator page does not link the guide")
	}
	progress, err := os.ReadFile(filepath.Join(root, "web", "guide-progress.js"))
	must(t, err)
	if snippet(t, "guide-progress.js") != string(progress) {
		t.Error("the guide's events example is not web/guide-progress.js as it is")
	}
}

// The guide's plain HTML page, beside the bundle on a plain server: its
// module script turns the fence into a player, and the element plays too;
// and so does the bundle's example page.
func TestGuide_PlainHTMLPagePlays(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, bundle, filepath.Join(dir, coursesite.BundleDir()))
	must(t, os.WriteFile(filepath.Join(dir, "lesson.html"), []byte(snippet(t, "page.html")), 0o644))
	url := servePython(t, dir)
	ctx := tab(t)
	must(t, chromedp.Do(ctx, chromedp.Navigate(url+"/lesson.html")))
	waitFor(t, ctx, `(() => { const all = [...document.querySelectorAll('lease-timeline')];
		all.forEach((e) => e.dataset.state !== 'ready' && e.scrollIntoView());
		return all.length === 2 && all.every((e) => e.dataset.state === 'ready'); })()`, time.Minute)
	got := eval[[]string](t, ctx, `[...document.querySelectorAll('lease-timeline')].map((e) => e.id + ':' + e.dataset.cursor + '/' + e.dataset.steps)`)
	if strings.Join(got, " ") != ":2/3 boundary:0/2" {
		t.Errorf("the page's players are %q, want the fence at step 2 of 3 and the element at 0 of 2", got)
	}
	noProblems(t, ctx)
	// The bundle's own example page plays too (its script is a classic one).
	must(t, chromedp.Do(ctx, chromedp.Navigate(url+"/"+coursesite.BundleDir()+"/example.html")))
	waitFor(t, ctx, `(() => { const all = [...document.querySelectorAll('lease-timeline')];
		all.forEach((e) => e.dataset.state !== 'ready' && e.scrollIntoView());
		return all.length === 2 && all.every((e) => e.dataset.state === 'ready') && document.getElementById('exercise').dataset.differs === 'no'; })()`, time.Minute)
	noProblems(t, ctx)
}

// The guide's events example, on the guide in the bundle: solving its
// worksheet is recorded (solved) and kept; a mistake is told (error, with
// its line and column); the button starts the worksheet over (reset()).
func TestGuide_EventsExampleRecordsProgress(t *testing.T) {
	url := serveUnder(t, bundle, "/any/sub/path/", false)
	ctx := tab(t)
	must(t, chromedp.Do(ctx, chromedp.Navigate(url+"/guide.html")))
	if got := eval[string](t, ctx, `document.getElementById('progress').textContent`); got != "Nothing solved yet." {
		t.Fatalf("#progress says %q before anything is solved", got)
	}
	solveWorksheet(t, ctx, "exercise")
	waitFor(t, ctx, `document.getElementById('progress').textContent === 'Solved: exercise.'`, 10*time.Second)
	eval[bool](t, ctx, `(() => { const e = document.getElementById('exercise'); window.__errors = [];
		e.addEventListener('error', (ev) => __errors.push(ev.detail));
		const ta = e.shadowRoot.querySelector('textarea');
		ta.value = 'lease 1000ms\njob job-1\n0ms  A grab job-1\n'; ta.dispatchEvent(new Event('input', {bubbles: true})); return true; })()`)
	waitFor(t, ctx, `__errors.length === 1 && __errors[0].line === 3 && __errors[0].col === 8 && __errors[0].message.includes('grab')`, time.Minute)
	must(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("start-over"))))
	waitFor(t, ctx, `(() => { const e = document.getElementById('exercise');
		return e.dataset.differs === 'no' && e.shadowRoot.querySelector('textarea').value.includes('999ms    B claim job-1'); })()`, time.Minute)
	must(t, chromedp.Do(ctx, chromedp.Reload()))
	waitFor(t, ctx, `document.getElementById('progress')?.textContent === 'Solved: exercise.'`, 10*time.Second)
	noProblems(t, ctx)
}

// roundTrip is what serveCountingOver's link carries of a module in one
// round trip: 64 KB, a link of 5 Mbit/s with a round trip
// of 100 ms.
const roundTrip = 64 << 10

// The guide's plain HTML page beside the bundle, from a host that sends
// every file as it is on disk (serveCountingOver: no Content-Encoding):
// the engine's worker asks for each module by a HEAD request and compiles
// it from the bundle's .gz beside it, so the WebAssembly sent for the
// engine's first trace is the .gz files and no byte of the modules; and
// the engine draws the trace.
func TestGuide_PlainHostSendsTheModulesGzipFiles(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, bundle, filepath.Join(dir, coursesite.BundleDir()))
	must(t, os.WriteFile(filepath.Join(dir, "lesson.html"), []byte(snippet(t, "page.html")), 0o644))
	url := serveCountingOver(t, dir, roundTrip)
	ctx := tab(t)
	must(t, chromedp.Do(ctx, chromedp.Navigate(url+"/lesson.html")))
	waitFor(t, ctx, `(() => { const all = [...document.querySelectorAll('lease-timeline')];
		all.forEach((e) => e.dataset.state !== 'ready' && e.scrollIntoView());
		return all.length === 2 && all.every((e) => e.dataset.state === 'ready'); })()`, time.Minute)
	drawn := eval[[]string](t, ctx, `[...document.querySelectorAll('lease-timeline')].map((e) =>
		e.dataset.source + ':' + e.shadowRoot.querySelectorAll('svg [data-step]').length)`)
	if strings.Join(drawn, " ") != "engine:3 engine:2" {
		t.Errorf("the players' sources and the steps they draw are %q, want the engine's, 3 and 2", drawn)
	}
	noProblems(t, ctx)
	sent := wasmBytes(t, url)
	var total, gz, raw int64
	for path, n := range sent {
		total += n
		module, ok := strings.CutSuffix(path, ".gz")
		if !ok {
			continue
		}
		g, err := os.Stat(filepath.Join(dir, filepath.FromSlash(path)))
		must(t, err)
		r, err := os.Stat(filepath.Join(dir, filepath.FromSlash(module)))
		must(t, err)
		gz, raw = gz+g.Size(), raw+r.Size()
		if n != g.Size() {
			t.Errorf("the server sent %d bytes of %s, want all %d", n, path, g.Size())
		}
		if m := sent[module]; m != 0 {
			t.Errorf("the server sent %d bytes of %s, want none: the module was downloaded beside its .gz", m, module)
		}
	}
	t.Logf("WebAssembly sent: %d bytes (%v); the .gz files: %d; the modules: %d", total, sent, gz, raw)
	if len(sent) != 4 {
		t.Fatalf("the server sent %v, want the engine's and SQLite's modules and their .gz files", sent)
	}
	if total != gz {
		t.Errorf("the server sent %d bytes of WebAssembly, want the .gz files' %d (the modules are %d)", total, gz, raw)
	}
}

// mdxToHTML compiles an MDX page with MDX and renders it with React, both
// from testdata/docusaurus's lock file, as Docusaurus builds an .mdx page.
func mdxToHTML(t *testing.T, mdx string) string {
	t.Helper()
	dir := t.TempDir()
	must(t, os.Symlink(npmModules(t, "docusaurus"), filepath.Join(dir, "node_modules")))
	must(t, os.WriteFile(filepath.Join(dir, "page.mdx"), []byte(mdx), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "render.mjs"), []byte(`
		import { evaluate } from '@mdx-js/mdx';
		import * as runtime from 'react/jsx-runtime';
		import { createElement } from 'react';
		import { renderToStaticMarkup } from 'react-dom/server';
		import { readFileSync } from 'node:fs';
		const { default: Content } = await evaluate(readFileSync('page.mdx', 'utf8'), { ...runtime });
		process.stdout.write(renderToStaticMarkup(createElement(Content)));`), 0o644))
	out, err := command(dir, "node", "render.mjs")
	if err != nil {
		t.Fatalf("MDX: %v\n%s", err, out)
	}
	return out
}

// The guide's element in an MDX page (Docusaurus), as MDX and React write
// it: the player reads the timeline whole — its comment and its blank
// line are the timeline's, not a heading and a new paragraph — and plays
// every step.
func TestGuide_MDXElementKeepsItsTimelineWhole(t *testing.T) {
	s := snippet(t, "element.mdx")
	start, end := strings.Index(s, "{`"), strings.LastIndex(s, "`}")
	if start < 0 || end < start {
		t.Fatalf("the guide's element.mdx does not give its timeline as a JavaScript string:\n%s", s)
	}
	want := s[start+2 : end]
	if !strings.Contains(want, "\n#") && !strings.HasPrefix(want, "#") || !strings.Contains(want, "\n\n") {
		t.Fatalf("the guide's element.mdx timeline has no comment line or no blank line, which MDX would turn into Markdown:\n%s", want)
	}
	ctx := tab(t)
	must(t, chromedp.Do(ctx, chromedp.Navigate(elementPage(t, mdxToHTML(t, s)))))
	waitFor(t, ctx, `['ready', 'error'].includes(document.querySelector('lease-timeline')?.dataset.state)`, time.Minute)
	got := eval[[]string](t, ctx, `(() => { const e = document.querySelector('lease-timeline');
		return [e.text, e.dataset.state + ' ' + e.dataset.steps + ' ' + e.shadowRoot.querySelector('.lt-error').textContent]; })()`)
	steps := 0
	for _, l := range strings.Split(want, "\n") {
		if strings.Contains(l, "ms ") && !strings.HasPrefix(strings.TrimSpace(l), "#") {
			steps++
		}
	}
	if got[0] != want || got[1] != fmt.Sprintf("ready %d ", steps) {
		t.Errorf("the MDX page's player reads %q and is %q, want %q and ready with %d steps", got[0], got[1], want, steps)
	}
	noProblems(t, ctx)
}
