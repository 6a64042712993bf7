//go:build sites

package sites_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/leaselab/leaselab/engine/internal/coursesite"
)

// pythonExercise is the Python exercise as a course page writes it (the
// guide's element, with an id for the test), in Markdown and in MDX alike.
const pythonExercise = `<lease-exercise id="py" language="python"></lease-exercise>`

// pythonSite is a built site served as serveCounting serves it, with the
// bundle's worker scripts sent under the guide's Content-Security-Policy
// (grader-worker.js, where Pyodide runs, with 'unsafe-eval' added, as the
// guide tells a site with a policy to send it), each violation reported
// to the server (report-uri), which also counts the requests for files
// under the bundle's pyodide/ folder, the worker's fetches included.
type pythonSite struct {
	url     string
	pyodide atomic.Int64
	mu      sync.Mutex
	reports []string
}

// servePythonSite serves the built site in dir as pythonSite says.
func servePythonSite(t *testing.T, dir string) *pythonSite {
	t.Helper()
	if _, err := os.Stat(filepath.Join(bundle, "pyodide", "pyodide.mjs")); err != nil {
		t.Fatalf("the bundle holds no Pyodide (%v): make wasm copies it where npm is installed", err)
	}
	policy := strings.TrimSpace(snippet(t, "Content-Security-Policy"))
	graderPolicy := strings.Replace(policy, "'wasm-unsafe-eval'", "'wasm-unsafe-eval' 'unsafe-eval'", 1)
	if graderPolicy == policy {
		t.Fatalf("the guide's policy %q has no script-src with 'wasm-unsafe-eval' to add 'unsafe-eval' beside", policy)
	}
	const report = "/__csp-report"
	policies := map[string]string{
		"grader-worker.js":        graderPolicy + "; report-uri " + report,
		"engine-worker.js":        policy + "; report-uri " + report,
		"engine-worker.bundle.js": policy + "; report-uri " + report,
	}
	s := &pythonSite{}
	files := http.FileServer(http.Dir(dir))
	bundlePath := "/" + coursesite.BundleDir() + "/"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == report {
			b, _ := io.ReadAll(io.LimitReader(r.Body, 1<<16))
			s.mu.Lock()
			s.reports = append(s.reports, string(b))
			s.mu.Unlock()
			w.WriteHeader(http.StatusNoContent)
			return
		}
		if strings.HasPrefix(r.URL.Path, bundlePath+"pyodide/") {
			s.pyodide.Add(1)
		}
		if p, ok := policies[path.Base(r.URL.Path)]; ok && strings.HasPrefix(r.URL.Path, bundlePath) {
			w.Header().Set("Content-Security-Policy", p)
		}
		w.Header().Set("Cache-Control", "max-age=600")
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	s.url = srv.URL
	return s
}

// violations is the policy violations the site's server heard of.
func (s *pythonSite) violations() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.reports...)
}

// checksPython opens the page at the site's path, whose #py is the Python
// exercise: nothing of Python is fetched before the reader acts (counted
// by the server: Pyodide loads in the grader's worker, whose fetches the
// page's Resource Timing does not list); the fencing lab's correct Python,
// put into the editor, passes Check within 90 s, Python fetched from the
// bundle; and nothing on the way is a page error, a console error or
// warning, or a policy violation (the page's or a worker's). It logs how
// long Check took.
func checksPython(t *testing.T, s *pythonSite, at string) {
	t.Helper()
	correct, err := os.ReadFile(filepath.Join(root, "engine", "grade", "testdata", "correct.py"))
	must(t, err)
	ctx := spaTab(t)
	_, err = chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `
		document.addEventListener('securitypolicyviolation', (e) => __seen.problems.push('CSP ' + e.violatedDirective + ' ' + e.blockedURI));`})
	must(t, err)
	must(t, chromedp.Do(ctx, chromedp.Navigate(s.url+at)))
	const ex = `document.getElementById('py')`
	// Each player starts when it scrolls into view: each is brought there
	// in turn until all are ready, then the exercise.
	waitFor(t, ctx, `(() => { const e = `+ex+`;
		const waiting = [...document.querySelectorAll('lease-timeline')].find((p) => p.dataset.state !== 'ready');
		(waiting || e)?.scrollIntoView({block: 'center'});
		return !waiting && e?.dataset.state === 'idle' && e.language === 'python' && e.querySelector('textarea') !== null; })()`, time.Minute)
	eval[bool](t, ctx, `new Promise((r) => requestIdleCallback(() => r(true)))`) // the page has settled
	if n := s.pyodide.Load(); n != 0 {
		t.Errorf("the server sent %d files under pyodide/ before the reader acted", n)
	}
	must(t, chromedp.Do(ctx, chromedp.SetValue(chromedp.CSS(`#py textarea`), string(correct))))
	start := time.Now()
	must(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#py .ll-check`))))
	waitFor(t, ctx, `['passed', 'failed', 'error'].includes(`+ex+`.dataset.state)`, 90*time.Second)
	took := time.Since(start)
	if state := eval[string](t, ctx, ex+`.dataset.state`); state != "passed" {
		t.Errorf("the correct lab in Python is %s on the page: %s", state, eval[string](t, ctx, ex+`.querySelector('.ll-status').textContent + ' ' + `+ex+`.querySelector('.ll-result').textContent.slice(0, 2000)`))
	}
	if s.pyodide.Load() == 0 {
		t.Error("the server sent no file under pyodide/ for Check: Python came from elsewhere, or the count sees nothing")
	}
	t.Logf("Check took %v, Python loaded with it (%d files under pyodide/)", took.Round(100*time.Millisecond), s.pyodide.Load())
	if v := s.violations(); len(v) > 0 {
		t.Errorf("the site's policy was violated: %q", v)
	}
	noProblems(t, ctx)
}
