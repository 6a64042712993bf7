//go:build sites

package sites_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/leaselab/leaselab/engine/internal/coursesite"
)

// npmModules installs testdata/name's package-lock.json (npm ci) once per
// lock file, in the user's cache folder, and returns its node_modules.
func npmModules(t *testing.T, name string) string {
	t.Helper()
	lock, err := os.ReadFile(filepath.Join("testdata", name, "package-lock.json"))
	must(t, err)
	sum := sha256.Sum256(lock)
	cache, err := os.UserCacheDir()
	must(t, err)
	dir := filepath.Join(cache, "leaselab-sites", name+"-"+hex.EncodeToString(sum[:8]))
	modules := filepath.Join(dir, "node_modules")
	if _, err := os.Stat(filepath.Join(dir, ".installed")); err == nil {
		return modules
	}
	must(t, os.RemoveAll(dir))
	must(t, os.MkdirAll(dir, 0o755))
	for _, f := range []string{"package.json", "package-lock.json"} {
		b, err := os.ReadFile(filepath.Join("testdata", name, f))
		must(t, err)
		must(t, os.WriteFile(filepath.Join(dir, f), b, 0o644))
	}
	if out, err := command(dir, "npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"); err != nil {
		t.Fatalf("npm ci for %s: %v\n%s", name, err, out)
	}
	must(t, os.WriteFile(filepath.Join(dir, ".installed"), nil, 0o644))
	return modules
}

// npmSite copies testdata/name into a temporary folder with the modules
// of its lock file (and the packages of extra: name -> folder) and the
// bundle in public (a folder of the site), writes config at configFile,
// and runs its build; it returns the folder.
func npmSite(t *testing.T, name string, extra map[string]string, public, configFile, config string, build ...string) string {
	t.Helper()
	return npmSiteWith(t, name, extra, nil, public, configFile, config, build...)
}

// npmSiteWith is npmSite with more pages: their paths in the site's
// folder and their text.
func npmSiteWith(t *testing.T, name string, extra, pages map[string]string, public, configFile, config string, build ...string) string {
	t.Helper()
	modules := npmModules(t, name)
	dir := t.TempDir()
	copyTree(t, filepath.Join("testdata", name), dir)
	for path, text := range pages {
		must(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, path)), 0o755))
		must(t, os.WriteFile(filepath.Join(dir, path), []byte(text), 0o644))
	}
	if len(extra) == 0 {
		must(t, os.Symlink(modules, filepath.Join(dir, "node_modules")))
	} else {
		entries, err := os.ReadDir(modules)
		must(t, err)
		must(t, os.Mkdir(filepath.Join(dir, "node_modules"), 0o755))
		for _, e := range entries {
			if e.Name() == ".cache" {
				continue
			}
			must(t, os.Symlink(filepath.Join(modules, e.Name()), filepath.Join(dir, "node_modules", e.Name())))
		}
		for pkg, from := range extra {
			must(t, os.Symlink(from, filepath.Join(dir, "node_modules", pkg)))
		}
	}
	must(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, configFile)), 0o755))
	must(t, os.WriteFile(filepath.Join(dir, configFile), []byte(config), 0o644))
	copyTree(t, bundle, filepath.Join(dir, public, coursesite.BundleDir()))
	if out, err := command(dir, filepath.Join(dir, "node_modules", ".bin", build[0]), build[1:]...); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(build, " "), err, out)
	}
	return dir
}

// withConfig is the guide's snippet for a generator's configuration with
// the site's own keys added at its start (a title, languages).
func withConfig(t *testing.T, name, keys string) string {
	t.Helper()
	s := snippet(t, name)
	if !strings.Contains(s, "export default {\n") {
		t.Fatalf("the guide's %s does not start its object as the test expects:\n%s", name, s)
	}
	return strings.Replace(s, "export default {\n", "export default {\n"+keys, 1)
}

// consoleProblems, run before a page's scripts, records what the page
// writes to the console as an error or warning (a framework's hydration
// mismatch is one) in __seen.problems.
const consoleProblems = `for (const level of ['error', 'warn']) {
	const f = console[level].bind(console);
	console[level] = (...args) => { window.__seen.problems.push(level + ' ' + args.map(String).join(' ')); f(...args); };
}`

// spaTab is a tab that records the console's errors and warnings too.
func spaTab(t *testing.T) context.Context {
	t.Helper()
	ctx := tab(t)
	_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: consoleProblems})
	must(t, err)
	return ctx
}

// fenceSPA and elementSPA are the players a walk counts: the fences
// leaselab.js made into players (each hiding its fence), or the elements
// a build-time plugin wrote into the pages (no fence).
const fenceSPA, elementSPA = players, `[...document.querySelectorAll('lease-timeline')]`

// A step of a walk through a single-page site: a link to click (its
// text; "load:TEXT" for a link that loads a new document, as a switch of
// language in Docusaurus does), or "back", and the path and number of
// fences of the page it leads to.
type spaStep struct {
	click, path string
	fences      int
}

// walkSPA opens start, then follows each step by the site's own
// client-side navigation; on every page it waits until each of its fences
// is a player that ran, with the right number of players and of hidden
// fences, and no problem on the console. It returns the tab.
func walkSPA(t *testing.T, url, sel string, start spaStep, steps []spaStep) context.Context {
	t.Helper()
	ctx := spaTab(t)
	must(t, chromedp.Do(ctx, chromedp.Navigate(url+start.path)))
	eval[bool](t, ctx, `(window.__spa = 'same document', true)`)
	for _, s := range append([]spaStep{start}, steps...) {
		link, load := strings.CutPrefix(s.click, "load:")
		switch link {
		case "":
		case "back":
			eval[bool](t, ctx, `(history.back(), true)`)
		default:
			find := fmt.Sprintf(`[...document.querySelectorAll('main a, .vp-doc a, article a')].find((a) => a.textContent.trim() === %q)`, link)
			if load { // followed in this tab (Docusaurus opens such a link in a new one)
				must(t, chromedp.Do(ctx, chromedp.Navigate(eval[string](t, ctx, find+`?.href || ''`))))
				break
			}
			eval[bool](t, ctx, fmt.Sprintf(`(() => { const a = %s; if (!a) throw new Error('no link ' + %q); a.click(); return true; })()`, find, link))
		}
		waitFor(t, ctx, fmt.Sprintf(`location.pathname.endsWith(%q)`, s.path), 30*time.Second)
		if load {
			eval[bool](t, ctx, `(window.__spa = 'same document', true)`)
		}
		waitFor(t, ctx, fmt.Sprintf(`(() => { const p = %s; p.forEach((e) => e.dataset.state !== 'ready' && e.scrollIntoView({block: 'center'}));
			return p.length === %d && p.every((e) => e.dataset.state === 'ready' && Number(e.dataset.steps) > 0)
				&& document.querySelectorAll('[data-leaselab-fence]').length === (%[3]t ? %[2]d : 0); })()`, sel, s.fences, sel == fenceSPA), time.Minute)
		if got := eval[string](t, ctx, `window.__spa || ''`); got != "same document" {
			t.Fatalf("going to %s loaded a new document: not the site's client-side navigation", s.path)
		}
		noProblems(t, ctx)
	}
	return ctx
}

// vitepressWalk walks testdata/vitepress from its first page: forward,
// back, to the Korean page and back to English.
var vitepressWalk = []spaStep{
	{"the worksheet", "/lessons/worksheet.html", 1},
	{"back", "/", 2},
	{"in Korean", "/ko/", 1},
	{"English", "/", 2},
}

// VitePress 1.x, built from its pinned lock file with the guide's
// configuration: its two languages share one copy of the bundle; every
// fence plays on a fresh load, after client-side navigation forward and
// back and a switch of language, with no problem on the console (a
// hydration mismatch is one); once prerendered, the pages draw with no
// byte of the engine fetched.
func TestSite_VitePress(t *testing.T) {
	dir := npmSite(t, "vitepress", nil, "public", ".vitepress/config.js",
		withConfig(t, ".vitepress/config.js", "  title: 'Queues that survive crashes',\n  locales: { root: { label: 'English', lang: 'en' }, ko: { label: '한국어', lang: 'ko' } },\n"),
		"vitepress", "build")
	site := filepath.Join(dir, ".vitepress", "dist")
	oneEngine(t, site)
	url := serveCounting(t, site)
	playSPA(t, site, url, fenceSPA, vitepressWalk, spaStep{"", "/lessons/worksheet.html", 1}, "prerendered 4 timelines (1 worksheets) from 3 pages")
}

// A VitePress page written with the elements — the guide's element
// snippet, a <lease-exercise> and one in Python — built with the guide's
// configuration: all are in the built HTML (Vue did not take them for
// components it cannot find), and the page plays on a fresh load and
// again after client-side navigation away and back, with no hydration
// mismatch or other problem on the console; the Python exercise passes
// the correct lab (checksPython).
func TestSite_VitePressPageWrittenWithTheElementsHydrates(t *testing.T) {
	page := "# Elements\n\nBack to [the course](../).\n\n" + snippet(t, "element.html") + "\n<lease-exercise id=\"ex\"></lease-exercise>\n\n" + pythonExercise + "\n"
	dir := npmSiteWith(t, "vitepress", nil, map[string]string{"lessons/elements.md": page}, "public", ".vitepress/config.js",
		withConfig(t, ".vitepress/config.js", "  title: 'Queues that survive crashes',\n"), "vitepress", "build")
	site := filepath.Join(dir, ".vitepress", "dist")
	built, err := os.ReadFile(filepath.Join(site, "lessons", "elements.html"))
	must(t, err)
	for _, tag := range []string{"<lease-timeline step=\"1\"><pre>", "<lease-exercise id=\"ex\">", pythonExercise} {
		if !strings.Contains(string(built), tag) {
			t.Errorf("the built page lacks %s: Vue rendered the element as a component it could not find", tag)
		}
	}
	url := serveCounting(t, site)
	ctx := spaTab(t)
	must(t, chromedp.Do(ctx, chromedp.Navigate(url+"/lessons/elements.html")))
	eval[bool](t, ctx, `(window.__spa = 'same document', true)`)
	plays := `(() => { const p = document.querySelector('lease-timeline'), ex = document.getElementById('ex');
		return p !== null && p.dataset.state === 'ready' && p.dataset.steps === '1' && ex !== null && ex.dataset.state === 'idle'
			&& document.getElementById('py')?.dataset.state === 'idle'; })()`
	waitFor(t, ctx, plays, time.Minute)
	noProblems(t, ctx)
	eval[bool](t, ctx, `([...document.querySelectorAll('.vp-doc a')].find((a) => a.textContent.trim() === 'the course').click(), true)`)
	waitFor(t, ctx, `location.pathname === '/' && document.querySelector('lease-timeline, [data-leaselab-fence]') !== null`, 30*time.Second)
	eval[bool](t, ctx, `(history.back(), true)`)
	waitFor(t, ctx, `location.pathname.endsWith('/lessons/elements.html')`, 30*time.Second)
	waitFor(t, ctx, plays, time.Minute)
	if got := eval[string](t, ctx, `window.__spa || ''`); got != "same document" {
		t.Fatal("going back loaded a new document: not the site's client-side navigation")
	}
	noProblems(t, ctx)
	t.Run("python", func(t *testing.T) { checksPython(t, servePythonSite(t, site), "/lessons/elements.html") })
}

// docusaurusWalk walks testdata/docusaurus from its first page: forward,
// back, forward and by a link back, to Korean (a new document: each
// language is a site of its own), forward and back.
var docusaurusWalk = []spaStep{
	{"the worksheet", "/lessons/worksheet", 1},
	{"back", "/", 2},
	{"the worksheet", "/lessons/worksheet", 1},
	{"the course", "/", 2},
	{"load:in Korean", "/ko/", 1},
	{"연습 문제", "/ko/lessons/worksheet", 1},
	{"back", "/ko/", 1},
}

// docusaurusConfig is the site's own keys of testdata/docusaurus's
// configuration: a title, its URL, and English and Korean.
const docusaurusConfig = `  title: 'Queues that survive crashes',
  url: 'http://127.0.0.1',
  baseUrl: '/',
  i18n: { defaultLocale: 'en', locales: ['en', 'ko'] },
`

// docusaurusPython is an MDX page of the Docusaurus course holding the
// Python exercise, as the guide writes the element in MDX.
const docusaurusPython = "---\ntitle: The lab in Python\n---\n\nWrite the fencing lab in Python. Check runs leaselab grade's tests on it.\n\n" + pythonExercise + "\n"

// Docusaurus 3.x (classic, React 19), built from its pinned lock file with
// the guide's configuration: its two languages share one copy of the
// bundle, at the site's root; every fence — whose lines Prism writes
// without a newline character — plays on a fresh load and after
// client-side navigation forward and back, with no problem on the console
// (React's hydration error #418 is one); once prerendered, the pages draw
// with no byte of the engine fetched. The Python exercise of an MDX page
// is in the built HTML and passes the correct lab (checksPython).
func TestSite_Docusaurus(t *testing.T) {
	dir := npmSiteWith(t, "docusaurus", nil, map[string]string{"docs/lessons/python.mdx": docusaurusPython}, "static", "docusaurus.config.js",
		withConfig(t, "docusaurus.config.js", docusaurusConfig+
			"  presets: [['classic', { docs: { routeBasePath: '/' }, blog: false, pages: false }]],\n"),
		"docusaurus", "build", "--out-dir", "build")
	site := filepath.Join(dir, "build")
	oneEngine(t, site)
	t.Run("python", func(t *testing.T) {
		built, err := os.ReadFile(filepath.Join(site, "lessons", "python", "index.html"))
		must(t, err)
		if !strings.Contains(string(built), pythonExercise) {
			t.Fatalf("the built page lacks %s", pythonExercise)
		}
		checksPython(t, servePythonSite(t, site), "/lessons/python/")
	})
	url := serveCounting(t, site)
	playSPA(t, site, url, fenceSPA, docusaurusWalk, spaStep{"", "/lessons/worksheet/", 1}, "prerendered 5 timelines (2 worksheets) from 4 pages")
}

// oneEngine fails unless the built site holds one leaselab.wasm: a site
// of several languages shares one bundle, at its root, which every
// language's pages name.
func oneEngine(t *testing.T, site string) {
	t.Helper()
	var found []string
	must(t, filepath.WalkDir(site, func(path string, d os.DirEntry, err error) error {
		if err == nil && d.Name() == "leaselab.wasm" {
			rel, _ := filepath.Rel(site, path)
			found = append(found, rel)
		}
		return err
	}))
	if want := filepath.Join(coursesite.BundleDir(), "leaselab.wasm"); len(found) != 1 || found[0] != want {
		t.Errorf("the built site holds the engine at %v, want once, at %s", found, want)
	}
}

// serveCounting serves dir with Go's http.FileServer on 127.0.0.1, as a
// plain static host does (every file as it is on disk, no
// Content-Encoding), and counts the WebAssembly it sends: every .wasm,
// .wasm.gz and .wasm.br request, which GET /__wasm-served answers, and the
// bytes it wrote for each path, which GET /__wasm-bytes answers as JSON
// (the engine loads in a worker, whose fetches the page's performance
// list does not hold: the server sees them all), and the bytes it wrote
// for every path, which GET /__bytes answers alike. Every file goes out as a
// popular static host sends it, fresh for ten minutes
// (Cache-Control: max-age=600), so a walk after prerendering meets the
// index its tabs cached before.
func serveCounting(t *testing.T, dir string) string {
	t.Helper()
	return serveCountingOver(t, dir, 0)
}

// serveCountingOver is serveCounting over a link that carries a module's
// first held bytes (none held when 0) in the time the client takes to
// answer them: after those, the rest of a .wasm waits until the client
// closes the request, or lingers gone by (a client that reads the module
// whole). Loopback is no such link: the kernel's buffers would take a
// whole module before the client had read its first bytes, and count it
// as sent.
func serveCountingOver(t *testing.T, dir string, held int64) string {
	t.Helper()
	var served atomic.Int64
	var mu sync.Mutex
	sent, all := map[string]int64{}, map[string]int64{}
	files := http.FileServer(http.Dir(dir))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/__wasm-served":
			fmt.Fprint(w, served.Load())
			return
		case "/__wasm-bytes":
			mu.Lock()
			defer mu.Unlock()
			json.NewEncoder(w).Encode(sent)
			return
		case "/__bytes":
			mu.Lock()
			defer mu.Unlock()
			json.NewEncoder(w).Encode(all)
			return
		}
		w.Header().Set("Cache-Control", "max-age=600")
		cw := &countingWriter{ResponseWriter: w}
		wasm := isWasm(r.URL.Path)
		if wasm {
			served.Add(1)
		}
		if wasm && held > 0 && strings.HasSuffix(r.URL.Path, ".wasm") {
			cw.held, cw.gone = held, r.Context().Done()
		}
		files.ServeHTTP(cw, r)
		mu.Lock()
		if wasm {
			sent[r.URL.Path] += cw.n
		}
		all[r.URL.Path] += cw.n
		mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// isWasm says whether path is a WebAssembly module's, as it is or
// precompressed.
func isWasm(path string) bool {
	return strings.HasSuffix(path, ".wasm") || strings.HasSuffix(path, ".wasm.gz") || strings.HasSuffix(path, ".wasm.br")
}

// lingers is how long serveCountingOver holds the rest of a module for a
// client that has not closed the request.
const lingers = 5 * time.Second

// countingWriter counts the bytes of the body written through it; with
// held > 0, it writes the first held, then nothing more until gone is
// closed (the body is then cut there) or lingers has passed.
type countingWriter struct {
	http.ResponseWriter
	n, held int64
	gone    <-chan struct{}
}

func (c *countingWriter) Write(b []byte) (int, error) {
	if c.held > 0 && c.n+int64(len(b)) > c.held {
		first := b[:max(c.held-c.n, 0)]
		n, err := c.ResponseWriter.Write(first)
		c.n += int64(n)
		if err != nil {
			return n, err
		}
		if f, ok := c.ResponseWriter.(http.Flusher); ok {
			f.Flush()
		}
		select {
		case <-c.gone:
			return n, http.ErrAbortHandler
		case <-time.After(lingers):
		}
		c.held = 0
		m, err := c.ResponseWriter.Write(b[len(first):])
		c.n += int64(m)
		return n + m, err
	}
	n, err := c.ResponseWriter.Write(b)
	c.n += int64(n)
	return n, err
}

// wasmServed is how many WebAssembly files (.wasm, .wasm.gz, .wasm.br)
// serveCounting's server at url sent.
func wasmServed(t *testing.T, url string) int {
	t.Helper()
	r, err := http.Get(url + "/__wasm-served")
	must(t, err)
	defer r.Body.Close()
	var n int
	_, err = fmt.Fscan(r.Body, &n)
	must(t, err)
	return n
}

// wasmBytes is the bytes of body serveCounting's server at url wrote for
// each WebAssembly file's path.
func wasmBytes(t *testing.T, url string) map[string]int64 {
	t.Helper()
	return countsAt(t, url+"/__wasm-bytes")
}

// bytesSent is the bytes of body serveCounting's server at url wrote for
// each path, and their sum.
func bytesSent(t *testing.T, url string) (map[string]int64, int64) {
	t.Helper()
	sent := countsAt(t, url+"/__bytes")
	var sum int64
	for _, n := range sent {
		sum += n
	}
	return sent, sum
}

// countsAt is the JSON map of bytes per path that url answers.
func countsAt(t *testing.T, url string) map[string]int64 {
	t.Helper()
	r, err := http.Get(url)
	must(t, err)
	defer r.Body.Close()
	var sent map[string]int64
	must(t, json.NewDecoder(r.Body).Decode(&sent))
	return sent
}

// playSPA walks a built single-page site, served by serveCounting, from
// its first page, then from a deeper one back to the first (other), runs
// leaselab prerender (whose report says prerendered), and walks it again:
// every player draws its prerendered trace, and the server sends no
// WebAssembly.
func playSPA(t *testing.T, site, url, sel string, walk []spaStep, other spaStep, prerendered string) {
	t.Helper()
	walkSPA(t, url, sel, spaStep{"", "/", 2}, walk)
	walkSPA(t, url, sel, other, []spaStep{{"the course", "/", 2}})
	if wasmServed(t, url) == 0 {
		t.Fatal("the server counted no WebAssembly sent before prerendering: it cannot see the engine's fetches")
	}
	out, err := command(root, leaselab, "prerender", site)
	if err != nil || !strings.Contains(out, prerendered) {
		t.Fatalf("leaselab prerender: %v\n%s", err, out)
	}
	before := wasmServed(t, url)
	ctx := walkSPA(t, url, sel, spaStep{"", "/", 2}, walk)
	if n := eval[int](t, ctx, wasmFetches); n != 0 {
		t.Errorf("the prerendered site fetched the engine %d times", n)
	}
	if n := wasmServed(t, url) - before; n != 0 {
		t.Errorf("the server sent %d WebAssembly files to the prerendered site, want none", n)
	}
	if src := eval[[]string](t, ctx, sel+`.map((e) => e.dataset.source)`); len(src) == 0 || slices.ContainsFunc(src, func(s string) bool { return s != "prerendered" }) {
		t.Errorf("after prerendering the players' sources are %q, want prerendered for all", src)
	}
	auditLooks(t, ctx, "lease-timeline", filepath.Base(site)) // the theme is the generator's, the players the bundle's
}
