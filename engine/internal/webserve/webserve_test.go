package webserve_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/leaselab/leaselab/engine/internal/webserve"
)

var site = fstest.MapFS{
	"index.html":             {Data: []byte("<!doctype html><title>page</title>")},
	"embed.html":             {Data: []byte("<!doctype html><title>frame</title>")},
	"app.js":                 {Data: []byte("export {}")},
	"style.css":              {Data: []byte("body{}")},
	"leaselab.wasm":          {Data: []byte("\x00asm-plain")},
	"leaselab.wasm.br":       {Data: []byte("brotli-bytes")},
	"leaselab.wasm.gz":       {Data: []byte("gzip-bytes")},
	"traces/index.json":      {Data: []byte(`[]`)},
	"traces/only-gz.json":    {Data: []byte(`{"plain":true}`)},
	"traces/only-gz.json.gz": {Data: []byte("gz-of-json")},
	"docs/index.html":        {Data: []byte("docs")},
	".hidden":                {Data: []byte("secret")},
	"sub/.env":               {Data: []byte("secret")},
}

func get(t *testing.T, h http.Handler, method, target string, header map[string]string) *http.Response {
	t.Helper()
	req := httptest.NewRequest(method, target, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

func body(t *testing.T, r *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(r.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestHandler_ContentTypeFromExtension(t *testing.T) {
	h := webserve.Handler(site)
	for _, tc := range []struct{ path, want string }{
		{"/", "text/html; charset=utf-8"},
		{"/index.html", "text/html; charset=utf-8"},
		{"/app.js", "text/javascript; charset=utf-8"},
		{"/style.css", "text/css; charset=utf-8"},
		{"/leaselab.wasm", "application/wasm"},
		{"/traces/index.json", "application/json"},
		{"/leaselab.wasm.br", "application/octet-stream"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			r := get(t, h, "GET", tc.path, nil)
			if r.StatusCode != http.StatusOK {
				t.Fatalf("status %d, want 200", r.StatusCode)
			}
			if got := r.Header.Get("Content-Type"); got != tc.want {
				t.Errorf("Content-Type %q, want %q", got, tc.want)
			}
			if got := r.Header.Get("X-Content-Type-Options"); got != "nosniff" {
				t.Errorf("X-Content-Type-Options %q, want nosniff", got)
			}
		})
	}
}

func TestHandler_PrecompressedVariantChosenByAcceptEncoding(t *testing.T) {
	h := webserve.Handler(site)
	for _, tc := range []struct {
		name, path, accept, wantEncoding, wantBody string
	}{
		{"none accepted", "/leaselab.wasm", "", "", "\x00asm-plain"},
		{"identity only", "/leaselab.wasm", "identity", "", "\x00asm-plain"},
		{"gzip only", "/leaselab.wasm", "gzip", "gzip", "gzip-bytes"},
		{"brotli preferred", "/leaselab.wasm", "gzip, deflate, br, zstd", "br", "brotli-bytes"},
		{"brotli refused by q=0", "/leaselab.wasm", "br;q=0, gzip", "gzip", "gzip-bytes"},
		{"brotli at smallest q", "/leaselab.wasm", "br;q=0.001", "br", "brotli-bytes"},
		{"both refused", "/leaselab.wasm", "br;q=0, gzip;q=0", "", "\x00asm-plain"},
		{"star allows brotli", "/leaselab.wasm", "*", "br", "brotli-bytes"},
		{"star q=0 allows nothing", "/leaselab.wasm", "*;q=0", "", "\x00asm-plain"},
		{"malformed q ignored", "/leaselab.wasm", "br;q=2, gzip", "gzip", "gzip-bytes"},
		{"case-insensitive token", "/leaselab.wasm", "BR", "br", "brotli-bytes"},
		{"only gzip variant exists", "/traces/only-gz.json", "br, gzip", "gzip", "gz-of-json"},
		{"no variant exists", "/app.js", "br, gzip", "", "export {}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := get(t, h, "GET", tc.path, map[string]string{"Accept-Encoding": tc.accept})
			if got := r.Header.Get("Content-Encoding"); got != tc.wantEncoding {
				t.Errorf("Content-Encoding %q, want %q", got, tc.wantEncoding)
			}
			if got := body(t, r); got != tc.wantBody {
				t.Errorf("body %q, want %q", got, tc.wantBody)
			}
			if got, want := r.Header.Get("Content-Length"), strconv.Itoa(len(tc.wantBody)); got != want {
				t.Errorf("Content-Length %q, want %s", got, want)
			}
			if got := r.Header.Get("Content-Type"); got != webserve.ContentType(tc.path) {
				t.Errorf("Content-Type %q, want the plain file's %q", got, webserve.ContentType(tc.path))
			}
			wantVary := tc.path != "/app.js"
			if got := r.Header.Values("Vary"); wantVary != (len(got) == 1 && got[0] == "Accept-Encoding") {
				t.Errorf("Vary %q; a file with variants must vary on Accept-Encoding exactly once, one without must not", got)
			}
		})
	}
}

func TestHandler_ETagPerEncodingAndNotModified(t *testing.T) {
	h := webserve.Handler(site)
	plain := get(t, h, "GET", "/leaselab.wasm", nil)
	br := get(t, h, "GET", "/leaselab.wasm", map[string]string{"Accept-Encoding": "br"})
	tagPlain, tagBr := plain.Header.Get("ETag"), br.Header.Get("ETag")
	if tagPlain == "" || tagBr == "" || tagPlain == tagBr {
		t.Fatalf("ETags plain %q, br %q: want two different non-empty tags", tagPlain, tagBr)
	}
	if strings.HasPrefix(tagPlain, "W/") {
		t.Errorf("ETag %q is weak, want strong", tagPlain)
	}
	if got := plain.Header.Get("Cache-Control"); got != "no-cache" {
		t.Errorf("Cache-Control %q, want no-cache", got)
	}
	again := get(t, h, "GET", "/leaselab.wasm", map[string]string{"Accept-Encoding": "br", "If-None-Match": tagBr})
	if again.StatusCode != http.StatusNotModified {
		t.Errorf("revalidation with the current ETag: status %d, want 304", again.StatusCode)
	}
	stale := get(t, h, "GET", "/leaselab.wasm", map[string]string{"Accept-Encoding": "br", "If-None-Match": tagPlain})
	if stale.StatusCode != http.StatusOK {
		t.Errorf("revalidation with another encoding's ETag: status %d, want 200", stale.StatusCode)
	}
}

func TestHandler_CSPAllowsOnlyWhatThePageNeeds(t *testing.T) {
	r := get(t, webserve.Handler(site), "GET", "/", nil)
	csp := r.Header.Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'none'", "script-src 'self' 'wasm-unsafe-eval'", "style-src 'self'", "connect-src 'self'", "base-uri 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	for _, banned := range []string{"'unsafe-inline'", "'unsafe-eval'", "*", "http:", "https:"} {
		if strings.Contains(strings.ReplaceAll(csp, "'wasm-unsafe-eval'", ""), banned) {
			t.Errorf("CSP %q allows %q", csp, banned)
		}
	}
}

// The embed frame may be framed by any site; every other page only by
// this origin, and both frame only this origin.
func TestHandler_OnlyTheEmbedFrameMayBeFramedByAnySite(t *testing.T) {
	for _, tc := range []struct {
		path, ancestors string
	}{
		{"/", "frame-ancestors 'self'"},
		{"/index.html", "frame-ancestors 'self'"},
		{"/embed.html", "frame-ancestors *"},
	} {
		r := get(t, webserve.Handler(site), "GET", tc.path, nil)
		if r.StatusCode != http.StatusOK {
			t.Fatalf("%s: status %d", tc.path, r.StatusCode)
		}
		csp := r.Header.Get("Content-Security-Policy")
		if !strings.HasSuffix(csp, tc.ancestors) {
			t.Errorf("%s: CSP %q, want it to end with %q", tc.path, csp, tc.ancestors)
		}
		if !strings.Contains(csp, "frame-src 'self'") || !strings.Contains(csp, "script-src 'self' 'wasm-unsafe-eval'") {
			t.Errorf("%s: CSP %q lacks frame-src 'self' or the page's script-src", tc.path, csp)
		}
		if rest := strings.TrimSuffix(csp, tc.ancestors); strings.Contains(strings.ReplaceAll(rest, "'wasm-unsafe-eval'", ""), "*") || strings.Contains(rest, "unsafe-inline") {
			t.Errorf("%s: CSP %q allows more than the page needs", tc.path, csp)
		}
	}
}

func TestHandler_RefusesWhatIsNotAPageFile(t *testing.T) {
	h := webserve.Handler(site)
	for _, tc := range []struct {
		name, method, path string
		want               int
	}{
		{"dot file", "GET", "/.hidden", http.StatusNotFound},
		{"dot file in a directory", "GET", "/sub/.env", http.StatusNotFound},
		{"dot-dot escape", "GET", "/../etc/passwd", http.StatusNotFound},
		{"missing file", "GET", "/nope.js", http.StatusNotFound},
		{"api path is not this handler's", "GET", "/api/jobs", http.StatusNotFound},
		{"directory without slash redirects", "GET", "/docs", http.StatusMovedPermanently},
		{"directory is its index", "GET", "/docs/", http.StatusOK},
		{"directory without index is not listed", "GET", "/traces/", http.StatusNotFound},
		{"POST", "POST", "/index.html", http.StatusMethodNotAllowed},
		{"HEAD", "HEAD", "/index.html", http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := get(t, h, tc.method, tc.path, nil)
			if r.StatusCode != tc.want {
				t.Errorf("%s %s: status %d, want %d", tc.method, tc.path, r.StatusCode, tc.want)
			}
			if r.Header.Get("Content-Security-Policy") == "" {
				t.Errorf("%s %s: no CSP on the response", tc.method, tc.path)
			}
		})
	}
}

func TestHandler_RangeOfAPrecompressedFileCountsEncodedBytes(t *testing.T) {
	r := get(t, webserve.Handler(site), "GET", "/leaselab.wasm", map[string]string{"Accept-Encoding": "br", "Range": "bytes=0-5"})
	if r.StatusCode != http.StatusPartialContent {
		t.Fatalf("status %d, want 206", r.StatusCode)
	}
	if got := body(t, r); got != "brotli" {
		t.Errorf("body %q, want the first 6 bytes of the brotli file", got)
	}
	if got := r.Header.Get("Content-Length"); got != "6" {
		t.Errorf("Content-Length %q, want 6", got)
	}
}

func TestHandler_StaleVariantOlderThanItsFileIsNotSent(t *testing.T) {
	now := time.Now()
	fsys := fstest.MapFS{
		"app.wasm":    {Data: []byte("rebuilt"), ModTime: now},
		"app.wasm.br": {Data: []byte("old-br"), ModTime: now.Add(-time.Second)},
		"app.wasm.gz": {Data: []byte("new-gz"), ModTime: now},
	}
	for _, tc := range []struct {
		name              string
		brAge             time.Duration
		wantEnc, wantBody string
	}{
		{"brotli a second older: skipped", -time.Second, "gzip", "new-gz"},
		{"brotli as old as its file: sent", 0, "br", "old-br"},
		{"brotli newer: sent", time.Second, "br", "old-br"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys["app.wasm.br"].ModTime = now.Add(tc.brAge)
			r := get(t, webserve.Handler(fsys), "GET", "/app.wasm", map[string]string{"Accept-Encoding": "br, gzip"})
			if got := r.Header.Get("Content-Encoding"); got != tc.wantEnc {
				t.Errorf("Content-Encoding %q, want %q", got, tc.wantEnc)
			}
			if got := body(t, r); got != tc.wantBody {
				t.Errorf("body %q, want %q", got, tc.wantBody)
			}
		})
	}
}

// A file's path with a trailing slash names a folder that is not there.
func TestHandler_FilePathWithTrailingSlashIs404(t *testing.T) {
	h := webserve.Handler(site)
	for _, tc := range []struct {
		path string
		want int
	}{
		{"/app.js", http.StatusOK},
		{"/app.js/", http.StatusNotFound},
		{"/index.html/", http.StatusNotFound},
		{"/traces/index.json/", http.StatusNotFound},
		{"/docs/", http.StatusOK},
	} {
		if r := get(t, h, "GET", tc.path, nil); r.StatusCode != tc.want {
			t.Errorf("GET %s: %d, want %d", tc.path, r.StatusCode, tc.want)
		}
	}
}

// HEAD answers what GET answers, headers and status, without the body
// (over a real connection, as a browser sees it).
func TestHandler_HeadIsGetWithoutTheBody(t *testing.T) {
	srv := httptest.NewServer(webserve.Handler(site))
	defer srv.Close()
	fetch := func(method, path string) (*http.Response, string) {
		req, err := http.NewRequest(method, srv.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Accept-Encoding", "br")
		r, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Body.Close()
		return r, body(t, r)
	}
	for _, path := range []string{"/", "/app.js", "/leaselab.wasm", "/nope.js", "/app.js/"} {
		g, _ := fetch("GET", path)
		hd, b := fetch("HEAD", path)
		if g.StatusCode != hd.StatusCode {
			t.Errorf("%s: HEAD %d, GET %d", path, hd.StatusCode, g.StatusCode)
		}
		for _, k := range []string{"Content-Type", "Content-Length", "Content-Encoding", "ETag", "Content-Security-Policy", "X-Content-Type-Options"} {
			if hd.Header.Get(k) != g.Header.Get(k) {
				t.Errorf("%s: HEAD %s %q, GET %q", path, k, hd.Header.Get(k), g.Header.Get(k))
			}
		}
		if b != "" {
			t.Errorf("%s: HEAD sent a body %q", path, b)
		}
	}
}

// CSP and EmbedCSP are one policy: they differ only in who may frame.
func TestCSP_EmbedDiffersOnlyInFrameAncestors(t *testing.T) {
	const self, any = "frame-ancestors 'self'", "frame-ancestors *"
	if !strings.HasSuffix(webserve.CSP, self) || !strings.HasSuffix(webserve.EmbedCSP, any) ||
		strings.TrimSuffix(webserve.CSP, self) != strings.TrimSuffix(webserve.EmbedCSP, any) {
		t.Fatalf("CSP %q\nEmbedCSP %q\nwant the same policy but for frame-ancestors", webserve.CSP, webserve.EmbedCSP)
	}
	for name, want := range map[string]bool{"embed.html": true, "index.html": false, "sub/embed.html": false, "": false} {
		if webserve.Framable(name) != want {
			t.Errorf("Framable(%q) = %v, want %v", name, !want, want)
		}
	}
}

// A directory's redirect goes to the cleaned path on this host: encoded
// slashes, backslashes, dots and doubled slashes in the request never make
// a Location that a browser reads as another host ("//host" or "/\host").
func TestHandler_DirectoryRedirectStaysOnThisHost(t *testing.T) {
	h := webserve.Handler(site)
	for _, tc := range []struct {
		name, target string
		want         int
		location     string
	}{
		{"plain", "/docs", http.StatusMovedPermanently, "/docs/"},
		{"with its slash", "/docs/", http.StatusOK, ""},
		{"the repro: encoded slashes to another host", "/%2fevil.example%2f..%2fdocs", http.StatusMovedPermanently, "/docs/"},
		{"upper-case encoded slashes", "/%2Fevil.example%2F..%2Fdocs", http.StatusMovedPermanently, "/docs/"},
		{"encoded slash before the name", "/%2fdocs", http.StatusMovedPermanently, "/docs/"},
		{"double slash", "//docs", http.StatusMovedPermanently, "/docs/"},
		{"triple slash with dots", "///evil.example/../docs", http.StatusMovedPermanently, "/docs/"},
		{"dot segment", "/./docs", http.StatusMovedPermanently, "/docs/"},
		{"trailing dot", "/docs/.", http.StatusMovedPermanently, "/docs/"},
		{"dot-dot inside", "/traces/../docs", http.StatusMovedPermanently, "/docs/"},
		{"dot-dot above the root", "/../docs", http.StatusMovedPermanently, "/docs/"},
		{"encoded backslash", "/%5cevil.example%5c..%5cdocs", http.StatusNotFound, ""},
		{"encoded backslash at the start", "/%5Cdocs", http.StatusNotFound, ""},
		{"raw backslash, cleaned away", `/\evil.example/../docs`, http.StatusMovedPermanently, "/docs/"},
		{"raw backslash kept", `/\docs`, http.StatusNotFound, ""},
		{"encoded slash then backslash", "/%2f%5cevil.example/../docs", http.StatusMovedPermanently, "/docs/"},
		{"nested directory", "/traces/../traces", http.StatusMovedPermanently, "/traces/"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := get(t, h, "GET", tc.target, nil)
			loc := r.Header.Get("Location")
			if r.StatusCode != tc.want || loc != tc.location {
				t.Fatalf("GET %s: %d Location %q, want %d Location %q", tc.target, r.StatusCode, loc, tc.want, tc.location)
			}
			if strings.HasPrefix(loc, "//") || strings.HasPrefix(loc, `/\`) || strings.Contains(loc, "evil") {
				t.Fatalf("GET %s: Location %q leaves the host", tc.target, loc)
			}
		})
	}
}

// Only the grader's worker script may evaluate code (a coding exercise runs
// the reader's JavaScript there); the pages, the engine's own worker and
// every other script may not.
func TestHandler_OnlyTheGradersWorkerMayEvaluate(t *testing.T) {
	fsys := fstest.MapFS{
		"index.html":                  {Data: []byte("<p>x")},
		"app.js":                      {Data: []byte("x")},
		"engine.js":                   {Data: []byte("x")},
		"engine-worker.js":            {Data: []byte("x")},
		"engine-worker.bundle.js":     {Data: []byte("x")},
		"engine-worker.bundle.js.map": {Data: []byte("x")},
		"grader-worker.js":            {Data: []byte("x")},
	}
	for _, tc := range []struct {
		path string
		eval bool
	}{
		{"/index.html", false}, {"/app.js", false}, {"/engine.js", false}, {"/engine-worker.bundle.js.map", false},
		{"/engine-worker.js", false}, {"/engine-worker.bundle.js", false}, {"/grader-worker.js", true},
	} {
		csp := get(t, webserve.Handler(fsys), "GET", tc.path, nil).Header.Get("Content-Security-Policy")
		if got := strings.Contains(csp, "'unsafe-eval'"); got != tc.eval {
			t.Errorf("%s: CSP %q allows eval: %v, want %v", tc.path, csp, got, tc.eval)
		}
		if !strings.Contains(csp, "default-src 'none'") || strings.Contains(csp, "unsafe-inline") || strings.Contains(strings.ReplaceAll(csp, "frame-ancestors 'self'", ""), "*") {
			t.Errorf("%s: CSP %q allows more than a script needs", tc.path, csp)
		}
	}
}
