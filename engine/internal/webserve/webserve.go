// Package webserve serves the simulator's static files (the web/ directory):
// the page, its scripts and styles, the engine's WebAssembly and the traces
// precomputed by make wasm.
//
// What a response promises:
//   - Content-Type comes from the file's extension, never from sniffing
//     (.wasm is application/wasm, which streaming compilation requires;
//     .js and .mjs are text/javascript; .zip, Pyodide's standard library
//     in web/pyodide/, is application/zip), with X-Content-Type-Options:
//     nosniff.
//   - When NAME.br or NAME.gz lies beside NAME, is not older than NAME,
//     and the request's Accept-Encoding allows it, the precompressed bytes
//     are sent with Content-Encoding (brotli preferred) and Vary:
//     Accept-Encoding. Nothing is compressed at request time.
//   - Every response carries a strong ETag of the bytes sent (one per
//     encoding) and Cache-Control: no-cache, so a browser keeps the file
//     (and V8 its compiled wasm code) and revalidates it with a 304.
//   - Every response carries the Content-Security-Policy CSP: scripts and
//     styles only from this origin, WebAssembly compilation allowed
//     ('wasm-unsafe-eval'), no inline style, no inline script, no other origin;
//     its pages may frame this origin's pages, and only this origin may
//     frame them — except the pages made to be framed by any site
//     (Framable: embed.html), which carry EmbedCSP, and the grader's
//     worker script (Evaluates), which carries WorkerCSP.
//   - Only GET and HEAD (HEAD answers what GET would, without the body); a
//     directory is served as its index.html, never listed; a file's path
//     with a trailing slash (/app.js/) is 404; a name starting with a dot
//     is not served. A directory named without its trailing slash is a
//     301 to the cleaned path with the slash (/a/../docs is /docs/): the
//     Location is a path of this host, never "//" or "/\" at its start,
//     whatever the request's encoded slashes, backslashes and dots. A
//     folder on disk is served through an os.Root
//     (OpenDir): nothing outside it is read, symbolic links included.
//
// The handler owns no path prefix of its own: the caller mounts it at "/"
// and may mount other handlers (the HTTP API under /api/) beside it.
package webserve

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"
)

// policy is the Content-Security-Policy every response shares, without
// frame-ancestors: what the simulator page needs and nothing more.
const policy = "default-src 'none'; " +
	"script-src 'self' 'wasm-unsafe-eval'; " +
	"style-src 'self'; " +
	"img-src 'self' data:; " +
	"connect-src 'self'; " +
	"frame-src 'self'; " +
	"manifest-src 'self'; " +
	"base-uri 'none'; " +
	"form-action 'none'; "

// CSP is the Content-Security-Policy of every response: policy, and only
// this origin may frame the page.
const CSP = policy + "frame-ancestors 'self'"

// EmbedCSP is CSP for the pages Framable names: the same, except that any
// site may frame them.
const EmbedCSP = policy + "frame-ancestors *"

// WorkerCSP is the Content-Security-Policy of the grader's worker script:
// what a worker needs (this origin's scripts and fetches, WebAssembly), and
// 'unsafe-eval', with which a coding exercise (<lease-exercise>) runs the
// reader's own JavaScript in a grading worker. A worker has no DOM, and
// the code it evaluates is what the reader typed on the page; the page
// itself keeps CSP, without eval.
const WorkerCSP = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval' 'unsafe-eval'; connect-src 'self'; base-uri 'none'; form-action 'none'"

// Evaluates reports whether the file called name is the script of the
// worker that grades a coding exercise (grader-worker.js), the one file
// served with WorkerCSP: the engine's own worker scripts keep CSP.
func Evaluates(name string) bool {
	return name == "grader-worker.js"
}

// Framable reports whether any site may frame the file called name (a
// path inside the served folder): only the embed frame, for course hosts
// that strip scripts (web/embed.html).
func Framable(name string) bool { return name == "embed.html" }

// contentTypes maps the extensions web/ holds to their types. A file with
// another extension is served as application/octet-stream.
var contentTypes = map[string]string{
	".html":        "text/html; charset=utf-8",
	".css":         "text/css; charset=utf-8",
	".js":          "text/javascript; charset=utf-8",
	".mjs":         "text/javascript; charset=utf-8",
	".json":        "application/json",
	".wasm":        "application/wasm",
	".svg":         "image/svg+xml",
	".png":         "image/png",
	".ico":         "image/x-icon",
	".zip":         "application/zip",
	".txt":         "text/plain; charset=utf-8",
	".tl":          "text/plain; charset=utf-8",
	".webmanifest": "application/manifest+json",
}

// ContentType returns the type a file called name is served with.
func ContentType(name string) string {
	if t, ok := contentTypes[strings.ToLower(path.Ext(name))]; ok {
		return t
	}
	return "application/octet-stream"
}

// encodings are the precompressed variants, in order of preference.
var encodings = []struct{ token, suffix string }{
	{"br", ".br"},
	{"gzip", ".gz"},
}

// Handler serves the files of fsys as they are. fsys must keep its reads
// inside itself: os.DirFS follows a symbolic link out of its folder, so a
// folder on disk is served by OpenDir (an os.Root) instead; embed.FS,
// fstest.MapFS and (*os.Root).FS are fine as they are.
func Handler(fsys fs.FS) http.Handler {
	return &handler{fsys: fsys, etags: map[etagKey]string{}}
}

type handler struct {
	fsys fs.FS

	mu    sync.Mutex
	etags map[etagKey]string
}

// etagKey identifies one version of one file: a rebuilt file has a new
// modification time or size, so its ETag is computed again.
type etagKey struct {
	name    string
	size    int64
	modTime time.Time
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hdr := w.Header()
	hdr.Set("Content-Security-Policy", CSP)
	hdr.Set("X-Content-Type-Options", "nosniff")
	hdr.Set("Referrer-Policy", "no-referrer")
	hdr.Set("Cross-Origin-Opener-Policy", "same-origin")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		hdr.Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	name, ok := fileName(r.URL.Path)
	if !ok {
		http.NotFound(w, r)
		return
	}
	slash := strings.HasSuffix(r.URL.Path, "/")
	if st, err := fs.Stat(h.fsys, name); err == nil && st.IsDir() {
		if !slash {
			redirectToDir(w, r, name)
			return
		}
		name, slash = path.Join(name, "index.html"), false
	}
	plain, err := fs.Stat(h.fsys, name)
	if err != nil || plain.IsDir() || slash { // a file named as a folder (/app.js/) is not it
		http.NotFound(w, r)
		return
	}
	switch {
	case Framable(name):
		hdr.Set("Content-Security-Policy", EmbedCSP)
	case Evaluates(name):
		hdr.Set("Content-Security-Policy", WorkerCSP)
	}
	hdr.Set("Content-Type", ContentType(name))
	hdr.Set("Cache-Control", "no-cache")

	served, encoding, variants := h.variant(name, plain, r.Header.Get("Accept-Encoding"))
	if variants {
		hdr.Set("Vary", "Accept-Encoding")
	}
	if encoding != "" {
		hdr.Set("Content-Encoding", encoding)
	}
	f, err := h.fsys.Open(served)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		http.Error(w, "stat failed", http.StatusInternalServerError)
		return
	}
	rs, ok := f.(io.ReadSeeker)
	if !ok {
		http.Error(w, "file is not seekable", http.StatusInternalServerError)
		return
	}
	etag, err := h.etag(served, st, rs)
	if err != nil {
		http.Error(w, "read failed", http.StatusInternalServerError)
		return
	}
	hdr.Set("ETag", etag)
	if encoding != "" {
		// ServeContent leaves Content-Length out when Content-Encoding is
		// set; the precompressed file's size is the length sent (a range
		// request gets its own length from ServeContent).
		hdr.Set("Content-Length", strconv.FormatInt(st.Size(), 10))
	}
	http.ServeContent(w, r, name, st.ModTime(), rs)
}

// redirectToDir answers a request for the directory name (a cleaned name
// inside the file system, as fileName returns it) that lacks the trailing
// slash: 301 to "/"+name+"/", escaped. The Location is built from the
// cleaned name, never from the request's path: a path such as
// //evil.example/../docs cleans to /docs, and its raw form would send a
// browser to another host.
func redirectToDir(w http.ResponseWriter, r *http.Request, name string) {
	loc := "/"
	if name != "." {
		loc += name + "/"
	}
	u := url.URL{Path: loc}
	http.Redirect(w, r, u.EscapedPath(), http.StatusMovedPermanently)
}

// variant chooses what to send for the file name (plain is its stat): the
// first precompressed variant acceptEncoding allows, else the file itself.
// variants says whether any fresh variant exists (the answer then varies
// on Accept-Encoding).
func (h *handler) variant(name string, plain fs.FileInfo, acceptEncoding string) (served, encoding string, variants bool) {
	served = name
	for _, e := range encodings {
		st, err := fs.Stat(h.fsys, name+e.suffix)
		if err != nil || st.IsDir() || st.ModTime().Before(plain.ModTime()) {
			continue // none, or stale: older than the file it encodes
		}
		variants = true
		if encoding == "" && accepts(acceptEncoding, e.token) {
			served, encoding = name+e.suffix, e.token
		}
	}
	return served, encoding, variants
}

// fileName turns a URL path into a name inside the file system, refusing
// dot files (and with them any .. segment) and backslashes.
func fileName(urlPath string) (string, bool) {
	p := path.Clean("/" + urlPath)
	if strings.Contains(p, "\\") {
		return "", false
	}
	for _, seg := range strings.Split(p, "/") {
		if strings.HasPrefix(seg, ".") {
			return "", false
		}
	}
	name := strings.TrimPrefix(p, "/")
	if name == "" {
		name = "."
	}
	return name, fs.ValidPath(name)
}

// etag returns the strong ETag of one version of a file: a hash of its
// bytes, computed once per version.
func (h *handler) etag(name string, st fs.FileInfo, rs io.ReadSeeker) (string, error) {
	key := etagKey{name, st.Size(), st.ModTime()}
	h.mu.Lock()
	tag, ok := h.etags[key]
	h.mu.Unlock()
	if ok {
		return tag, nil
	}
	sum := sha256.New()
	if _, err := io.Copy(sum, rs); err != nil {
		return "", err
	}
	if _, err := rs.Seek(0, io.SeekStart); err != nil {
		return "", err
	}
	tag = `"` + hex.EncodeToString(sum.Sum(nil)[:16]) + `"`
	h.mu.Lock()
	h.etags[key] = tag
	h.mu.Unlock()
	return tag, nil
}

// accepts reports whether an Accept-Encoding header value allows coding:
// it is listed (or "*" is) with a q-value above zero.
func accepts(header, coding string) bool {
	star := false
	for _, part := range strings.Split(header, ",") {
		tok, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		tok = strings.ToLower(strings.TrimSpace(tok))
		q, err := qValue(params)
		if err != nil {
			continue
		}
		switch tok {
		case coding:
			return q > 0
		case "*":
			star = q > 0
		}
	}
	return star
}

var errBadQ = errors.New("bad q-value")

// qValue reads the q parameter of one Accept-Encoding element (1 when
// absent).
func qValue(params string) (float64, error) {
	for _, p := range strings.Split(params, ";") {
		k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
		if !ok || !strings.EqualFold(strings.TrimSpace(k), "q") {
			continue
		}
		q, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || q < 0 || q > 1 {
			return 0, errBadQ
		}
		return q, nil
	}
	return 1, nil
}
