//go:build sites

package sites_test

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"golang.org/x/net/html"

	"github.com/leaselab/leaselab/engine/internal/browsertest/headless"
	"github.com/leaselab/leaselab/engine/internal/coursesite"
)

var (
	root     string          // the module's folder
	bundle   string          // the bundle's folder (make dist), leaselab-VERSION
	leaselab string          // the leaselab command, built with the mutants
	browser  context.Context // a started browser; each test opens tabs in it
	snippets map[string]string
)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	fail := func(format string, args ...any) int {
		fmt.Fprintf(os.Stderr, "sites: "+format+"\n", args...)
		return 1
	}
	_, here, _, _ := runtime.Caller(0)
	root = filepath.Join(filepath.Dir(here), "..", "..", "..", "..")
	for _, f := range []string{"leaselab.wasm", "leaselab-tools.wasm", "wasm_exec.js", "traces/index.json"} {
		if _, err := os.Stat(filepath.Join(root, "web", f)); err != nil {
			return fail("web/%s is missing: build the page first with make wasm (make sites does)", f)
		}
	}
	for _, tool := range []string{"mkdocs", "hugo", "python3", "sphinx-build", "jupyter"} {
		if _, err := exec.LookPath(tool); err != nil {
			return fail("%s is missing: run make sites, which installs Debian's packages (.ci/need-sites)", tool)
		}
	}
	chrome, err := headless.Find()
	if err != nil {
		return fail("%v, or run make sites, which does", err)
	}
	// Docusaurus keeps webpack's cache in node_modules/.cache, which every
	// site built from the shared modules would share: a build then reuses
	// entries another site wrote (once, a locale's pages failed to render
	// on a missing doc). Each build here is a new site, so none keeps one.
	if err := os.Setenv("DOCUSAURUS_NO_PERSISTENT_CACHE", "1"); err != nil {
		return fail("%v", err)
	}
	tmp, err := os.MkdirTemp("", "leaselab-sites-")
	if err != nil {
		return fail("%v", err)
	}
	defer os.RemoveAll(tmp)
	// The README's commands: make dist, then the command, with the mutants.
	if out, err := command(root, "go", "run", "./engine/internal/build/dist", "-web", "web", "-out", filepath.Join(tmp, "dist")); err != nil {
		return fail("make dist: %v\n%s", err, out)
	}
	bundle = filepath.Join(tmp, "dist", coursesite.BundleDir())
	leaselab = filepath.Join(tmp, "leaselab")
	if out, err := command(root, "go", "build", "-tags", "mutants", "-o", leaselab, "."); err != nil {
		return fail("go build -tags mutants: %v\n%s", err, out)
	}
	if snippets, err = guideSnippets(filepath.Join(root, "web", "guide.html")); err != nil {
		return fail("web/guide.html: %v", err)
	}
	ctx, stop, _, err := headless.Start(chrome, filepath.Join(tmp, "profile"))
	if err != nil {
		return fail("%v", err)
	}
	defer stop()
	browser = ctx
	return m.Run()
}

// command runs name with args in dir and returns what it printed.
func command(dir, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// guideSnippets reads the guide's snippets: each <pre data-snippet=NAME>'s text.
func guideSnippets(file string) (map[string]string, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	doc, err := html.Parse(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode || n.Data != "pre" {
			continue
		}
		for _, a := range n.Attr {
			if a.Key == "data-snippet" {
				var t strings.Builder
				for d := range n.Descendants() {
					if d.Type == html.TextNode {
						t.WriteString(d.Data)
					}
				}
				out[a.Val] = t.String()
			}
		}
	}
	return out, nil
}

// snippet is the guide's snippet called name; the test fails without it.
func snippet(t *testing.T, name string) string {
	t.Helper()
	s, ok := snippets[name]
	if !ok {
		t.Fatalf("web/guide.html has no snippet %q", name)
	}
	return s
}

// copyTree copies the folder from into to.
func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	must(t, err)
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// servePython serves dir with python3 -m http.server on a free loopback
// port and returns its URL.
func servePython(t *testing.T, dir string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd := exec.Command("python3", "-m", "http.server", "--bind", "127.0.0.1", "--directory", dir, fmt.Sprint(port))
	must(t, cmd.Start())
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	url := fmt.Sprintf("http://127.0.0.1:%d", port)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if r, err := http.Get(url + "/"); err == nil {
			r.Body.Close()
			return url
		}
	}
	t.Fatalf("python3 -m http.server did not answer on %s", url)
	return ""
}

// serveUnder serves dir with Go's http.FileServer under prefix (a
// sub-path, e.g. /course/); with plainWasm, .wasm goes out as
// application/octet-stream, as from a host that does not know the type;
// header is a response header for every file (name and value), or none.
func serveUnder(t *testing.T, dir, prefix string, plainWasm bool, header ...string) string {
	t.Helper()
	files := http.FileServer(http.Dir(dir))
	h := http.StripPrefix(strings.TrimSuffix(prefix, "/"), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if len(header) == 2 {
			w.Header().Set(header[0], header[1])
		}
		if plainWasm && strings.HasSuffix(r.URL.Path, ".wasm") {
			w.Header().Set("Content-Type", "application/octet-stream")
		}
		files.ServeHTTP(w, r)
	}))
	mux := http.NewServeMux()
	mux.Handle(prefix, h)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL + strings.TrimSuffix(prefix, "/")
}

// tab opens a new tab that records uncaught errors and the players'
// events in window.__seen, with a time limit for the whole test; scripts
// off when noScript.
func tab(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browser)
	t.Cleanup(cancel)
	must(t, chromedp.Do(ctx))
	_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `
		window.__seen = {problems: [], events: []};
		window.addEventListener('error', (e) => __seen.problems.push('error ' + e.message));
		window.addEventListener('unhandledrejection', (e) => __seen.problems.push('rejection ' + e.reason));
		for (const type of ['ready', 'step', 'solved'])
			document.addEventListener(type, (e) => __seen.events.push({type, id: e.target.id, detail: e.detail}));
	`})
	must(t, err)
	_, err = chromedp.Call(ctx, page.BringToFront, cdp.Empty{})
	must(t, err)
	tctx, tcancel := context.WithTimeout(ctx, 2*time.Minute)
	t.Cleanup(tcancel)
	return tctx
}

func eval[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return v
}

// waitFor polls a JS predicate; on a time-out it fails showing the players.
func waitFor(t *testing.T, ctx context.Context, predicate string, timeout time.Duration) {
	t.Helper()
	_, err := chromedp.Run(ctx, chromedp.Poll[bool](predicate,
		chromedp.WithPollingTimeout(timeout), chromedp.WithPollingInterval(20*time.Millisecond)))
	if err != nil {
		state, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify({url: location.href,
			players: [...document.querySelectorAll('lease-timeline')].map((e) => ({id: e.id, ...e.dataset,
				status: e.shadowRoot && e.shadowRoot.querySelector('.lt-status').textContent,
				error: e.shadowRoot && e.shadowRoot.querySelector('.lt-error').textContent})),
			engine: document.documentElement.dataset.engine, seen: window.__seen})`))
		t.Fatalf("waiting for %s: %v; the page: %s", predicate, err, state)
	}
}

// wasmFetches counts the page's fetches of the engine, in either build
// (engine.js marks the worker's fetch on the page's timeline under the
// module's URL).
const wasmFetches = `[...performance.getEntriesByType('resource'), ...performance.getEntriesByType('mark')]
	.filter((e) => URL.canParse(e.name) && /\/leaselab(-tools)?\.wasm$/.test(new URL(e.name).pathname)).length`
