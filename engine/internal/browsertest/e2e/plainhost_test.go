//go:build e2e

package e2e_test

import (
	"html"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The bundle's pages on a plain static host (each file as it is on disk)
// under the Content-Security-Policy the guide gives course sites.

// guidePolicy is the Content-Security-Policy the guide gives course
// sites (its snippet, data-snippet="Content-Security-Policy").
func guidePolicy(t *testing.T) string {
	t.Helper()
	return guideSnippet(t, "Content-Security-Policy")
}

// guideSnippet is the text of the guide's snippet called name
// (<pre data-snippet=NAME><code>), trimmed; the test fails without it.
func guideSnippet(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(webDir, "guide.html"))
	must(t, err)
	m := regexp.MustCompile(`(?s)data-snippet="` + regexp.QuoteMeta(name) + `"[^>]*><code>(.*?)</code>`).FindSubmatch(b)
	if m == nil {
		t.Fatalf("guide.html has no %s snippet", name)
	}
	return strings.TrimSpace(html.UnescapeString(string(m[1])))
}

// servePlain serves web/ as a plain static host does (each file as it is
// on disk, no Content-Encoding), with policy on every response, and
// counts the bytes of each .wasm body it writes.
func servePlain(t *testing.T, policy string) (url string, wasmSent func() map[string]int64) {
	t.Helper()
	var mu sync.Mutex
	sent := map[string]int64{}
	files := http.FileServer(http.Dir(webDir))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", policy)
		if !strings.HasSuffix(r.URL.Path, ".wasm") {
			files.ServeHTTP(w, r)
			return
		}
		cw := &bodyCounter{ResponseWriter: w}
		files.ServeHTTP(cw, r)
		mu.Lock()
		sent[r.Method+" "+r.URL.Path] += cw.n
		mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	return srv.URL, func() map[string]int64 {
		mu.Lock()
		defer mu.Unlock()
		out := map[string]int64{}
		for k, v := range sent {
			out[k] = v
		}
		return out
	}
}

// bodyCounter counts the body bytes written through it.
type bodyCounter struct {
	http.ResponseWriter
	n int64
}

func (c *bodyCounter) Write(b []byte) (int, error) {
	n, err := c.ResponseWriter.Write(b)
	c.n += int64(n)
	return n, err
}

// Each page of the course bundle — the simulator, the frame, the example
// and the guide — runs its engine on a plain host under the guide's own
// Content-Security-Policy with no violation and no uncaught error: no
// inline script, no data: URL.
func TestHost_BundlesPagesRunUnderTheGuidesPolicy(t *testing.T) {
	policy := guidePolicy(t)
	url, _ := servePlain(t, policy)
	ready := `(() => { const all = [...document.querySelectorAll('lease-timeline')];
		all.forEach((e) => e.dataset.state !== 'ready' && e.scrollIntoView());
		return all.length > 0 && all.every((e) => e.dataset.state === 'ready'); })()`
	for _, p := range []struct{ path, ready string }{
		{"/", `document.documentElement.dataset.engine === 'ready' && document.documentElement.dataset.firstRun !== undefined`},
		{"/embed.html#t=" + index.Timelines[0].Name, ready},
		{"/example.html", ready},
		{"/guide.html", ready},
	} {
		name := strings.TrimPrefix(strings.SplitN(p.path, "#", 2)[0], "/")
		if name == "" {
			name = "index.html"
		}
		t.Run(name, func(t *testing.T) {
			ctx := tabFor(t, 2*time.Minute)
			must(t, chromedp.Do(ctx, chromedp.Navigate(url+p.path)))
			_, err := chromedp.Run(ctx, chromedp.Poll[bool](p.ready,
				chromedp.WithPollingTimeout(90*time.Second), chromedp.WithPollingInterval(50*time.Millisecond)))
			if err != nil {
				t.Fatalf("%s under %q: not ready: %v; problems %q", p.path, policy, err, eval[[]string](t, ctx, `window.__problems`))
			}
			noProblems(t, ctx)
		})
	}
}

// On a plain host the engine's worker downloads each module's .gz and not
// one byte of the module itself: the simulator page's first trace costs
// the .gz files only.
func TestHost_PlainHostSendsNoByteOfAModuleBesideItsGzip(t *testing.T) {
	url, wasmSent := servePlain(t, guidePolicy(t))
	ctx := tab(t)
	must(t, chromedp.Do(ctx, chromedp.Navigate(url+"/")))
	waitEngine(t, ctx)
	sent := wasmSent()
	t.Logf("the .wasm requests and the body bytes sent: %v", sent)
	if len(sent) == 0 {
		t.Fatal("no .wasm was asked for: the engine did not come from the host")
	}
	for k, n := range sent {
		if strings.HasPrefix(k, "GET ") && n > 0 {
			t.Errorf("%s: %d bytes sent; want none, the .gz beside it instead", k, n)
		}
	}
	noProblems(t, ctx)
}
