package webserve_test

import (
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/webserve"
)

// folder lays out a served folder beside a secret outside it, with links
// that lead out of the folder and one that stays inside.
func folder(t *testing.T) string {
	t.Helper()
	base := t.TempDir()
	web := filepath.Join(base, "web")
	if err := os.MkdirAll(filepath.Join(web, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{
		filepath.Join(base, "secret.txt"): "outside",
		filepath.Join(web, "index.html"):  "<!doctype html>",
		filepath.Join(web, "app.js"):      "export {}",
	} {
		if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{
		filepath.Join(web, "leak.txt"):       filepath.Join(base, "secret.txt"), // absolute, out
		filepath.Join(web, "sub", "up.txt"):  filepath.Join("..", "..", "secret.txt"),
		filepath.Join(web, "outdir"):         base,
		filepath.Join(web, "sub", "same.js"): filepath.Join("..", "app.js"), // stays inside
	} {
		if err := os.Symlink(target, link); err != nil {
			t.Skipf("no symbolic links here: %v", err)
		}
	}
	return web
}

// A symbolic link that leads out of the served folder is 404, whether it
// names a file or a folder, absolutely or relatively; one that stays
// inside is served.
func TestOpenDir_SymlinkOutOfTheFolderIs404(t *testing.T) {
	d, err := webserve.OpenDir(folder(t))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, tc := range []struct {
		path string
		want int
	}{
		{"/leak.txt", http.StatusNotFound},
		{"/sub/up.txt", http.StatusNotFound},
		{"/outdir/secret.txt", http.StatusNotFound},
		{"/outdir/", http.StatusNotFound},
		{"/sub/same.js", http.StatusOK},
		{"/app.js", http.StatusOK},
	} {
		r := get(t, d, "GET", tc.path, nil)
		if b := body(t, r); r.StatusCode != tc.want || (tc.want == http.StatusNotFound && b == "outside") {
			t.Errorf("GET %s: %d %q, want %d", tc.path, r.StatusCode, b, tc.want)
		}
	}
}

func TestOpenDir_MissingFolderIsAnError(t *testing.T) {
	if d, err := webserve.OpenDir(filepath.Join(t.TempDir(), "none")); err == nil {
		d.Close()
		t.Fatal("OpenDir of a missing folder: no error")
	}
}

// Pyodide's runtime (web/pyodide/, which make wasm copies from the npm
// package pinned in web/.pyodide) is served from its folder with each
// file's type and its precompressed copies; the pin's folder is not.
func TestDir_ServesPyodidesRuntimeWithItsTypesAndPrecompressedCopies(t *testing.T) {
	web := t.TempDir()
	types := map[string]string{
		"pyodide.mjs":       "text/javascript; charset=utf-8",
		"pyodide.asm.mjs":   "text/javascript; charset=utf-8",
		"pyodide.asm.wasm":  "application/wasm",
		"python_stdlib.zip": "application/zip",
		"pyodide-lock.json": "application/json",
	}
	for _, dir := range []string{"pyodide", ".pyodide"} {
		if err := os.MkdirAll(filepath.Join(web, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(web, ".pyodide", "package.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name := range types {
		for _, ext := range []string{"", ".br", ".gz"} {
			if err := os.WriteFile(filepath.Join(web, "pyodide", name+ext), []byte(name+ext), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	d, err := webserve.OpenDir(web)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for name, typ := range types {
		for _, tc := range []struct{ accept, encoding, ext string }{
			{"br", "br", ".br"},
			{"gzip", "gzip", ".gz"},
			{"", "", ""},
		} {
			r := get(t, d, "GET", "/pyodide/"+name, map[string]string{"Accept-Encoding": tc.accept})
			got := body(t, r)
			if r.StatusCode != http.StatusOK || r.Header.Get("Content-Type") != typ ||
				r.Header.Get("Content-Encoding") != tc.encoding || got != name+tc.ext {
				t.Errorf("GET /pyodide/%s, Accept-Encoding %q: %d, type %q, encoding %q, body %q; want 200, %q, %q, %q",
					name, tc.accept, r.StatusCode, r.Header.Get("Content-Type"), r.Header.Get("Content-Encoding"), got,
					typ, tc.encoding, name+tc.ext)
			}
		}
	}
	if r := get(t, d, "GET", "/.pyodide/package.json", nil); r.StatusCode != http.StatusNotFound {
		t.Errorf("GET /.pyodide/package.json: %d, want 404: the pin's folder is not served", r.StatusCode)
	}
}

// The learner's tutorial is served from web/ as the simulator's page is:
// each page, its script and style sheet, with their types, under the
// policy that allows no inline script nor style, and framed only by this
// origin.
func TestDir_ServesTheTutorialUnderThePagesPolicy(t *testing.T) {
	d, err := webserve.OpenDir(filepath.Join("..", "..", "..", "web"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for name, typ := range map[string]string{
		"/tutorial.html":    "text/html; charset=utf-8",
		"/tutorial-ko.html": "text/html; charset=utf-8",
		"/tutorial.js":      "text/javascript; charset=utf-8",
		"/tutorial.css":     "text/css; charset=utf-8",
	} {
		r := get(t, d, "GET", name, nil)
		got := body(t, r)
		if r.StatusCode != http.StatusOK || r.Header.Get("Content-Type") != typ || r.Header.Get("Content-Security-Policy") != webserve.CSP || len(got) < 500 {
			t.Errorf("GET %s: %d, type %q, policy %q, %d bytes; want 200, %q, the pages' policy and the file",
				name, r.StatusCode, r.Header.Get("Content-Type"), r.Header.Get("Content-Security-Policy"), len(got), typ)
		}
	}
}
