//go:build sites

package sites_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/leaselab/leaselab/engine/internal/coursesite"
)

// buildSphinx builds testdata/sphinx (reStructuredText and a MyST page)
// with sphinx-build -W, conf.py the given text and the bundle in _static/;
// it returns the built site.
func buildSphinx(t *testing.T, conf string) string {
	t.Helper()
	dir := sphinxProject(t, "sphinx", conf, bundle)
	if out, err := command(dir, "sphinx-build", "-q", "-W", "-b", "html", ".", "_build"); err != nil {
		t.Fatalf("sphinx-build: %v\n%s", err, out)
	}
	return filepath.Join(dir, "_build")
}

// sphinxProject is a Sphinx project made of testdata/src, conf.py the
// given text, and from (the bundle, or a part of it) in
// _static/leaselab-VERSION/; it returns the project's folder.
func sphinxProject(t *testing.T, src, conf, from string) string {
	t.Helper()
	dir := t.TempDir()
	copyTree(t, filepath.Join("testdata", src), dir)
	must(t, os.WriteFile(filepath.Join(dir, "conf.py"), []byte(conf), 0o644))
	rel, err := filepath.Rel(bundle, from)
	must(t, err)
	copyTree(t, from, filepath.Join(dir, "_static", coursesite.BundleDir(), rel))
	return dir
}

// Sphinx with the guide's conf.py: Pygments writes each block's text into a
// pre with no code, a code-block's in a highlight-lease-timeline wrapper,
// a MyST fence's too, a literal block's highlighted in spans with the
// marker first; each becomes a player that plays, and the site prerenders.
func TestSite_SphinxRSTAndMyST(t *testing.T) {
	site := buildSphinx(t, snippet(t, "conf.py"))
	for _, p := range []string{"index.html", "lessons/worksheet.html"} {
		b, err := os.ReadFile(filepath.Join(site, filepath.FromSlash(p)))
		must(t, err)
		if page := string(b); !strings.Contains(page, `<div class="highlight-lease-timeline notranslate"><div class="highlight"><pre><span></span>`) || strings.Contains(page, "<pre><code") {
			t.Fatalf("%s: Sphinx did not write its Pygments markup (a code-less pre in highlight-lease-timeline): the test tests nothing", p)
		}
	}
	url := servePython(t, site)
	playSite(t, site, url, []coursePage{{"/", 2, ""}, {"/lessons/worksheet.html", 1, "sheet"}})
}

// notebook is a notebook (nbformat 4) of Markdown cells.
func notebook(t *testing.T, cells ...string) []byte {
	t.Helper()
	type cell struct {
		Type     string         `json:"cell_type"`
		ID       string         `json:"id"`
		Metadata map[string]any `json:"metadata"`
		Source   string         `json:"source"`
	}
	nb := map[string]any{"nbformat": 4, "nbformat_minor": 5, "metadata": map[string]any{}}
	var cs []cell
	for i, c := range cells {
		cs = append(cs, cell{"markdown", "cell-" + string(rune('a'+i)), map[string]any{}, c})
	}
	nb["cells"] = cs
	b, err := json.Marshal(nb)
	must(t, err)
	return b
}

// A notebook whose first Markdown cell is the guide's script cell and whose
// next cells are the MkDocs site's lessons (their fences and worksheet),
// exported by jupyter nbconvert --to html beside the bundle: nbconvert
// writes each fence's language as its code's first line; the fences
// become players that play, and the page prerenders.
func TestSite_NotebookByNbconvert(t *testing.T) {
	dir := t.TempDir()
	var cells []string
	for _, p := range []string{"index.md", "lessons/worksheet.md"} {
		b, err := os.ReadFile(filepath.Join("testdata", "mkdocs", "docs", filepath.FromSlash(p)))
		must(t, err)
		cells = append(cells, string(b))
	}
	must(t, os.WriteFile(filepath.Join(dir, "lesson.ipynb"), notebook(t, append([]string{snippet(t, "notebook cell")}, cells...)...), 0o644))
	copyTree(t, bundle, filepath.Join(dir, coursesite.BundleDir()))
	if out, err := command(dir, "jupyter", "nbconvert", "--to", "html", "lesson.ipynb"); err != nil {
		t.Fatalf("jupyter nbconvert: %v\n%s", err, out)
	}
	b, err := os.ReadFile(filepath.Join(dir, "lesson.html"))
	must(t, err)
	if page := string(b); !strings.Contains(page, "<pre><code>lease-timeline\n#! step=3") || strings.Contains(page, "language-lease-timeline") {
		t.Fatalf("nbconvert did not write the fence's language as its first line: the test tests nothing")
	}
	url := servePython(t, dir)
	playSite(t, dir, url, []coursePage{{"/lesson.html", 3, "sheet"}})
}

// A notebook whose code cell is the guide's, its output saved as IPython
// writes it (the string given to HTML, as text/html), exported by jupyter
// nbconvert --to html beside the bundle: the page holds the output's HTML
// as it is, whose element plays on the engine, and once the folder is
// prerendered draws its trace with no engine; with --sanitize-html the
// element and the script are gone, the timeline's text kept.
func TestSite_NotebookCodeCellOutputPlaysExported(t *testing.T) {
	code := snippet(t, "notebook code cell")
	_, rest, ok := strings.Cut(code, `HTML("""`)
	out, _, ok2 := strings.Cut(rest, `""")`)
	if !ok || !ok2 || !strings.Contains(out, "<lease-timeline") || !strings.Contains(out, "leaselab.js") {
		t.Fatalf("the guide's notebook code cell passes no element and script to HTML:\n%s", code)
	}
	dir := t.TempDir()
	cell := map[string]any{"cell_type": "code", "id": "cell-a", "metadata": map[string]any{}, "execution_count": 1, "source": code,
		"outputs": []any{map[string]any{"output_type": "execute_result", "execution_count": 1, "metadata": map[string]any{},
			"data": map[string]any{"text/html": out, "text/plain": "<IPython.core.display.HTML object>"}}}}
	nb, err := json.Marshal(map[string]any{"nbformat": 4, "nbformat_minor": 5, "metadata": map[string]any{}, "cells": []any{cell}})
	must(t, err)
	must(t, os.WriteFile(filepath.Join(dir, "lesson.ipynb"), nb, 0o644))
	copyTree(t, bundle, filepath.Join(dir, coursesite.BundleDir()))
	if out, err := command(dir, "jupyter", "nbconvert", "--to", "html", "lesson.ipynb"); err != nil {
		t.Fatalf("jupyter nbconvert: %v\n%s", err, out)
	}
	page, err := os.ReadFile(filepath.Join(dir, "lesson.html"))
	must(t, err)
	if !strings.Contains(string(page), out) {
		t.Fatalf("the exported page does not hold the cell's output as it is")
	}
	if out, err := command(dir, "jupyter", "nbconvert", "--to", "html", "--sanitize-html", "--output", "sanitized", "lesson.ipynb"); err != nil {
		t.Fatalf("jupyter nbconvert --sanitize-html: %v\n%s", err, out)
	}
	clean, err := os.ReadFile(filepath.Join(dir, "sanitized.html"))
	must(t, err)
	if c := string(clean); strings.Contains(c, "<lease-timeline") || strings.Contains(c, `<script src="`+coursesite.BundleDir()) || !strings.Contains(c, "<pre>\n# Late courier") {
		t.Errorf("with --sanitize-html the exported output keeps the element or the script, or loses the timeline's text (the guide says otherwise)")
	}
	url := servePython(t, dir) + "/lesson.html"
	ready := `(() => { const e = document.querySelector('lease-timeline'); e?.scrollIntoView({block: 'center'});
		return e?.dataset.state === 'ready' && e.dataset.cursor === '3'; })()`
	source := `document.querySelector('lease-timeline').dataset.source`
	ctx := tab(t)
	must(t, chromedp.Do(ctx, chromedp.Navigate(url)))
	waitFor(t, ctx, ready, time.Minute)
	if src := eval[string](t, ctx, source); src == "prerendered" {
		t.Errorf("the player drew a prerendered trace before the folder was prerendered")
	}
	noProblems(t, ctx)
	if out, err := command(root, leaselab, "prerender", dir); err != nil || !strings.Contains(out, "prerendered 1 timelines") {
		t.Fatalf("leaselab prerender: %v\n%s", err, out)
	}
	ctx = tab(t)
	must(t, chromedp.Do(ctx, chromedp.Navigate(url)))
	waitFor(t, ctx, ready, time.Minute)
	if src := eval[string](t, ctx, source); src != "prerendered" {
		t.Errorf("after prerendering the player's source is %q, want prerendered", src)
	}
	if n := eval[int](t, ctx, wasmFetches); n != 0 {
		t.Errorf("the prerendered page fetched the engine %d times, want none", n)
	}
	noProblems(t, ctx)
}

// withCommand is the guide's conf.py for the extension, its leaselab
// command the one the tests built (with the mutants, for worksheets).
func withCommand(t *testing.T) string {
	return snippet(t, "conf.py (extension)") + fmt.Sprintf("leaselab_command = %q\n", leaselab)
}

// escapeHTML escapes as markdown-it's escapeHtml does (& < > ").
var escapeHTML = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace

// The bundle's Sphinx extension, with the guide's conf.py: its directives,
// in reStructuredText and in MyST, write the elements as the npm plugins
// write them (attributes in order, the text in a <pre>, an exercise's code
// in a text/plain script), a page that uses none gets no script, and the
// build prerenders the site: the pages' timelines draw their traces with
// no WebAssembly served until the reader edits the worksheet.
func TestSite_SphinxExtensionWritesTheElementsAndPrerenders(t *testing.T) {
	dir := sphinxProject(t, "sphinx-ext", withCommand(t), bundle)
	start := time.Now()
	if out, err := command(dir, "sphinx-build", "-q", "-W", "-b", "html", ".", "_build"); err != nil {
		t.Fatalf("sphinx-build: %v\n%s", err, out)
	}
	t.Logf("sphinx-build with the extension (its checks and prerender): %v", time.Since(start).Round(time.Millisecond))
	site := filepath.Join(dir, "_build")
	read := func(p string) string {
		b, err := os.ReadFile(filepath.Join(site, filepath.FromSlash(p)))
		must(t, err)
		return string(b)
	}
	courier := "# Late courier: the stale stamp is refused\nlease 1000ms\njob order-7 qty=2\n\n" +
		"0ms     A claim order-7            -> ok token=1 lease_until=1000\n1000ms  B claim order-7            -> ok token=2\n" +
		"1001ms  A complete order-7         -> refused superseded\n1200ms  B complete order-7         -> ok\n"
	sheet := "# Worksheet: which claim tells the broken boundary apart?\nlease 1000ms\njob job-1\n\n" +
		"0ms      A claim job-1      -> ok token=1 lease_until=1000\n999ms    B claim job-1      -> refused held\n" +
		"1001ms   B claim job-1      -> ok token=2\n"
	script := `<script defer="defer" src="%s_static/` + coursesite.BundleDir() + `/leaselab.js"></script>`
	for _, c := range []struct{ page, want string }{
		{"index.html", `<lease-timeline step="3" show="lanes explain table" id="courier"><pre>` + escapeHTML(courier) + `</pre></lease-timeline>`},
		{"index.html", `<lease-exercise id="ex" language="javascript"><script type="text/plain">function write(storage, token, value) {` +
			"\n" + `  return "<\/script>" + value;` + "\n}\n</script></lease-exercise>"},
		{"index.html", `<lease-lab name="heartbeat.lab"><pre>jobs 2` + "\nworkers 2\nwork uniform 100ms 200ms\nhorizon 5s\nlease 1s\n" +
			"sweep heartbeat 200ms 400ms\nruns 2\nseed 1\nplot dup_ms\n</pre></lease-lab>"},
		{"index.html", fmt.Sprintf(script, "")},
		{"lessons/worksheet.html", `<lease-timeline id="sheet" mutant="claim-boundary" name="worksheet.tl"><pre>` + escapeHTML(sheet) + `</pre></lease-timeline>`},
		{"lessons/worksheet.html", fmt.Sprintf(script, "../")},
	} {
		if !strings.Contains(read(c.page), c.want) {
			t.Errorf("%s lacks %s", c.page, c.want)
		}
	}
	if strings.Contains(read("about.html"), "leaselab.js") {
		t.Errorf("about.html, which uses no directive, includes the script")
	}
	t.Run("a page of one timeline sends under 1 MB", func(t *testing.T) { oneTimelineWeighs(t, site) })
	url := serveCounting(t, site)
	for _, p := range []struct{ path, ids string }{{"/index.html", "courier"}, {"/lessons/worksheet.html", "sheet"}} {
		ctx := tab(t)
		must(t, chromedp.Do(ctx, chromedp.Navigate(url+p.path)))
		waitFor(t, ctx, `(() => { const p = [...document.querySelectorAll('lease-timeline')];
			p.forEach((e) => e.dataset.state !== 'ready' && e.scrollIntoView({block: 'center'}));
			return p.length === 1 && p.every((e) => e.dataset.state === 'ready'); })()`, time.Minute)
		if got := eval[[]string](t, ctx, `[...document.querySelectorAll('lease-timeline')].map((e) => e.id + ':' + e.dataset.source)`); strings.Join(got, ",") != p.ids+":prerendered" {
			t.Errorf("%s: the players are %q, want %s prerendered", p.path, got, p.ids)
		}
		if p.ids == "courier" {
			waitFor(t, ctx, `document.getElementById('ex')?.dataset.state === 'idle'`, time.Minute)
			waitFor(t, ctx, `(() => { const l = document.querySelector('lease-lab'); l.scrollIntoView({block: 'center'});
				return l.dataset.state === 'ready'; })()`, time.Minute)
			if src := eval[string](t, ctx, `document.querySelector('lease-lab').dataset.source`); src != "prerendered" {
				t.Errorf("the lab's source is %q, want prerendered", src)
			}
		}
		if n := eval[int](t, ctx, wasmFetches); n != 0 {
			t.Errorf("%s fetched the engine %d times before the reader acted", p.path, n)
		}
		noProblems(t, ctx)
	}
	if n := wasmServed(t, url); n != 0 {
		t.Errorf("the server sent %d WebAssembly files before the reader acted, want none", n)
	}
	ctx := tab(t)
	must(t, chromedp.Do(ctx, chromedp.Navigate(url+"/lessons/worksheet.html")))
	solveWorksheet(t, ctx, "sheet")
	if wasmServed(t, url) == 0 {
		t.Errorf("the server counted no WebAssembly once the reader edited the worksheet: it cannot see the engine's fetches")
	}
}

// oneTimelineMaxBytes bounds what a page of one prerendered timeline
// costs a reader on a plain host, from the page to its timeline drawn.
const oneTimelineMaxBytes = 1_000_000

// oneTimelineWeighs opens the extension site's worksheet page, a page of
// one timeline, on a plain host (files as they are on disk, none
// precompressed, a fresh cache) and fails unless every byte the server
// sent until the timeline is drawn sums to under oneTimelineMaxBytes.
func oneTimelineWeighs(t *testing.T, site string) {
	url := serveCounting(t, site)
	ctx := tab(t)
	must(t, chromedp.Do(ctx, chromedp.Navigate(url+"/lessons/worksheet.html")))
	waitFor(t, ctx, `document.getElementById('sheet')?.dataset.state === 'ready'`, time.Minute)
	sent, sum := bytesSent(t, url)
	paths := slices.Sorted(maps.Keys(sent))
	var lines []string
	for _, p := range paths {
		lines = append(lines, fmt.Sprintf("%9d %s", sent[p], p))
	}
	t.Logf("a page of one timeline drawn: %d bytes sent in %d files\n%s", sum, len(sent), strings.Join(lines, "\n"))
	if sum >= oneTimelineMaxBytes {
		t.Errorf("a page of one timeline sent %d bytes until drawn, want under %d", sum, oneTimelineMaxBytes)
	}
}

// A block the extension cannot read, or whose timeline does not parse,
// fails the Sphinx build, naming the source file and the line (and, for a
// timeline leaselab check refuses, the column in the source, its
// indentation counted): in reStructuredText and in MyST.
func TestSite_SphinxExtensionFailsTheBuildAtABadBlock(t *testing.T) {
	for _, c := range []struct {
		about, file, from, to, want string
	}{
		{"an unknown verb in rST", "index.rst", "1001ms  A complete order-7", "1001ms  A compleet order-7",
			`index.rst:%d:14: a lease-timeline does not run: unknown verb "compleet"`},
		{"an unknown verb in MyST", "lessons/worksheet.md", "999ms    B claim job-1", "999ms    B clam job-1",
			`worksheet.md:%d:12: a lease-timeline does not run: unknown verb "clam"`},
		{"an option that is none in MyST", "lessons/worksheet.md", "#! mutant=claim-boundary", "#! mutnat=claim-boundary",
			`worksheet.md:%d: a lease-timeline block cannot be read: the directive's keys mutnat are no option`},
		{"a value an exercise's option does not take", "index.rst", "#! language=javascript", "#! language=pyton",
			`index.rst:%d: a lease-exercise block cannot be read: language=pyton is none of language's values`},
	} {
		t.Run(c.about, func(t *testing.T) {
			dir := sphinxProject(t, "sphinx-ext", withCommand(t), filepath.Join(bundle, "sphinx"))
			file := filepath.Join(dir, filepath.FromSlash(c.file))
			b, err := os.ReadFile(file)
			must(t, err)
			before, _, found := strings.Cut(string(b), c.from)
			if !found {
				t.Fatalf("%s holds no %q", c.file, c.from)
			}
			must(t, os.WriteFile(file, []byte(strings.Replace(string(b), c.from, c.to, 1)), 0o644))
			want := fmt.Sprintf(c.want, strings.Count(before, "\n")+1)
			out, err := command(dir, "sphinx-build", "-q", "-b", "html", ".", "_build")
			if err == nil {
				t.Fatalf("the build succeeded; its output:\n%s", out)
			}
			if !strings.Contains(out, want) {
				t.Errorf("the build's output lacks %q:\n%s", want, out)
			}
		})
	}
}
