package main

import (
	"archive/tar"
	"compress/gzip"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/bench/weight"
	"github.com/leaselab/leaselab/engine/internal/coursesite"
)

// repoRoot is the repository's folder, made absolute while the tests
// start in this package's (bundleOf moves to it).
var repoRoot, _ = filepath.Abs(filepath.Join("..", "..", "..", ".."))

// fakeWeb lays out a page's folder that make dist takes: the files the
// bundle needs (a line each), SQLite's notice, and web/.pyodide's pin with
// its license texts as committed; with python set, Pyodide's runtime too,
// its pyodide-lock.json naming that CPython, and a file of the npm package
// the loader does not read.
func fakeWeb(t *testing.T, python string) string {
	t.Helper()
	web := t.TempDir()
	files := map[string]string{sqliteDir + "/sqlite3.wasm.notice": "SQLite: public domain"}
	for _, f := range needed {
		files[f] = "// " + f
	}
	for _, f := range []string{"package-lock.json", "MPL-2.0.txt", "CPython-LICENSE.txt"} {
		b, err := os.ReadFile(filepath.Join(repoRoot, "web", pyodideNPM, f))
		if err != nil {
			t.Fatal(err)
		}
		files[pyodideNPM+"/"+f] = string(b)
	}
	if python != "" {
		for _, f := range weight.PyodideFiles {
			files[weight.PyodideDir+"/"+f] = strings.Repeat(f, 50)
		}
		files[weight.PyodideDir+"/pyodide-lock.json"] = `{"info": {"python": "` + python + `"}, "packages": {}}`
		files[weight.PyodideDir+"/pyodide.js"] = "the loader's CommonJS twin, which the page does not load"
	}
	for name, data := range files {
		p := filepath.Join(web, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return web
}

// bundleOf runs make dist's build and its npm package on web, from the
// repository's folder (NOTICE.txt lists the engine's modules with go list).
func bundleOf(t *testing.T, web string) (dir string, pyodide bool, err error) {
	t.Helper()
	t.Chdir(repoRoot)
	out := t.TempDir()
	if dir, pyodide, err = build(web, out, "test"); err == nil {
		_, err = writePackage(web, dir, out)
	}
	return dir, pyodide, err
}

// With web/pyodide/ built, the bundle holds Pyodide's five runtime files,
// each with its .br and .gz, in the manifest with its size, its encodings'
// sizes and its SRI hash; NOTICE.txt holds Pyodide's license and CPython's;
// the npm package holds the files too. Without web/pyodide/ the bundle is
// built without any of it.
func TestBuild_BundleHoldsPyodidesRuntimeAndItsNotice(t *testing.T) {
	for _, with := range []bool{true, false} {
		python := ""
		if with {
			python = "3.14.2"
		}
		dir, pyodide, err := bundleOf(t, fakeWeb(t, python))
		if err != nil || pyodide != with {
			t.Fatalf("with Pyodide %v: build says Pyodide %v, %v", with, pyodide, err)
		}
		var m coursesite.Manifest
		b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		var listed []string
		for _, f := range m.Files {
			if !strings.HasPrefix(f.Path, weight.PyodideDir+"/") {
				continue
			}
			listed = append(listed, f.Path)
			data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.Path)))
			if err != nil {
				t.Fatal(err)
			}
			sum := sha512.Sum384(data)
			if f.Bytes != int64(len(data)) || f.Integrity != "sha384-"+base64.StdEncoding.EncodeToString(sum[:]) ||
				f.Brotli != size(filepath.Join(dir, f.Path+".br")) || f.Gzip != size(filepath.Join(dir, f.Path+".gz")) || f.Brotli == 0 || f.Gzip == 0 {
				t.Errorf("manifest %+v; the file is %d bytes, its .br %d, its .gz %d", f, len(data),
					size(filepath.Join(dir, f.Path+".br")), size(filepath.Join(dir, f.Path+".gz")))
			}
		}
		var want []string
		if with {
			for _, f := range weight.PyodideFiles {
				want = append(want, weight.PyodideDir+"/"+f)
			}
			slices.Sort(want)
		}
		if !slices.Equal(listed, want) {
			t.Errorf("with Pyodide %v: the manifest lists %q under %s/, want %q", with, listed, weight.PyodideDir, want)
		}
		notice, err := os.ReadFile(filepath.Join(dir, "NOTICE.txt"))
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range []string{"Pyodide 314.0.7 (", "Mozilla Public License Version 2.0", "CPython 3.14.2 (", "PYTHON SOFTWARE FOUNDATION LICENSE VERSION 2"} {
			if strings.Contains(string(notice), s) != with {
				t.Errorf("with Pyodide %v: NOTICE.txt holds %q: %v", with, s, !with)
			}
		}
		if got := packaged(t, filepath.Join(filepath.Dir(dir), PackageFile()), weight.PyodideDir+"/"); !slices.Equal(got, want) {
			t.Errorf("with Pyodide %v: the npm package holds %q under %s/, want %q", with, got, weight.PyodideDir, want)
		}
	}
}

// A web/pyodide/ that lacks a runtime file, or whose CPython is not the
// one the committed notice names, stops make dist.
func TestBuild_RefusesAPartialPyodideOrANoticeOfAnotherCPython(t *testing.T) {
	for _, f := range weight.PyodideFiles {
		web := fakeWeb(t, "3.14.2")
		if err := os.Remove(filepath.Join(web, weight.PyodideDir, f)); err != nil {
			t.Fatal(err)
		}
		if _, _, err := bundleOf(t, web); err == nil || !strings.Contains(err.Error(), f) {
			t.Errorf("web/pyodide/ without %s: build says %v, want an error naming it", f, err)
		}
	}
	if _, _, err := bundleOf(t, fakeWeb(t, "3.15.0")); err == nil || !strings.Contains(err.Error(), "CPython 3.15.0") {
		t.Errorf("a runtime of CPython 3.15.0: build says %v, want an error naming it", err)
	}
}

// packaged lists the files of the npm package at tgz under prefix, sorted.
func packaged(t *testing.T, tgz, prefix string) []string {
	t.Helper()
	f, err := os.Open(tgz)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	var names []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if name, ok := strings.CutPrefix(h.Name, "package/"+prefix); ok {
			names = append(names, prefix+name)
		}
	}
	slices.Sort(names)
	return names
}
