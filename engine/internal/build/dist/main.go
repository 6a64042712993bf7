// Command dist writes the course bundle (make dist DIST=DIR): one folder,
// DIR/leaselab-VERSION/ (engine/internal/coursesite's Version), that a course author
// copies into a site, whatever generator builds it and whatever static host
// serves it:
//
//	go run ./engine/internal/build/dist -web web -out DIR [-revision REV]
//
// What it holds: leaselab.js (the one script a page includes, as a module
// or a classic deferred script) and leaselab.css; the player's modules and
// styles; the engine (leaselab.wasm, the players' build, and
// leaselab-tools.wasm, the one with the explorer, the lab and the grader;
// engine-worker.js, engine.js, wasm_exec.js) and the SQLite it runs on (the engine's build of SQLite,
// wasm/sqlite, as sqlite-wasm/sqlite3.wasm, and sqlite-bridge.js, which
// loads it);
// Pyodide's runtime (pyodide/: CPython and its standard library, which
// the Python exercise runs), when make wasm copied it to web/pyodide/ (it
// needs npm; without it the bundle goes without, and says so);
// embed.html for hosts that strip scripts; the simulator
// page (the players' "open in the simulator" link) and the library's
// traces; sphinx/leaselab_sphinx.py, the Sphinx extension whose
// directives write the elements; guide.html, the author's guide;
// example.html, a small course
// page; tutorial.html and tutorial-ko.html, the learner's tutorial (its
// players in prediction mode, its coding exercise) in English and Korean; NOTICE.txt, the licenses of what the engine is built from;
// prerendered/index.json, empty until leaselab prerender fills it; and
// manifest.json: the version, the trace format, the revision, and every
// file with its size, its brotli and gzip sizes and its Subresource
// Integrity hash. Every file but prerendered/ has its .br and .gz beside
// it, for hosts that send precompressed files; a host that does not (a
// plain python3 -m http.server, GitHub Pages) needs none of them.
//
// Beside the folder it writes the same files as an npm package,
// DIR/leaselab-VERSION.0.tgz (npm install ./leaselab-VERSION.0.tgz;
// nothing is published): the element, and web/npm's build-time plugins
// for remark (Docusaurus, any unified site) and markdown-it (VitePress)
// with their types.
//
// The folder is written afresh: an old one of the same version is
// replaced whole; other versions beside it are left alone. Last it prints
// the engine's weight against its goals (engine/internal/bench/weight),
// and Pyodide's bytes, file by file.
package main

import (
	"bytes"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/leaselab/leaselab/engine/internal/bench/weight"
	"github.com/leaselab/leaselab/engine/internal/build/compress"
	"github.com/leaselab/leaselab/engine/internal/coursesite"
	"github.com/leaselab/leaselab/engine/timeline"
)

// left out of the bundle: the example course of the repository (its
// src= timeline lives in web/timelines), the benchmark pages, the tools.
var leftOut = []string{"example-course.html", "example-course.css"}

// needed are the files a bundle cannot go without.
var needed = []string{"leaselab.js", "leaselab.css", "lease-timeline.js", "lease-lab.js", "fences.js", "prerendered.js",
	"engine.js", "engine-worker.bundle.js", "engine-worker.js", "grader-worker.js", "wasm_exec.js", "leaselab.wasm", "leaselab-tools.wasm", "embed.html", "guide.html", "example.html",
	"tutorial.html", "tutorial-ko.html", "tutorial.js", "tutorial.css", "sqlite-bridge.js", sqliteDir + "/sqlite3.wasm", "traces/index.json", sphinxExtension}

// sphinxExtension is the Sphinx extension (its directives write the
// elements), in web/ and in the bundle: a site's conf.py puts the bundle's
// sphinx/ on Python's path.
const sphinxExtension = "sphinx/leaselab_sphinx.py"

// sqliteDir holds the engine's SQLite in web/ and in the bundle: its module,
// which make wasm builds there from wasm/sqlite (beside it, the notice of
// what the module holds, which NOTICE.txt takes in, stays out).
const sqliteDir = "sqlite-wasm"

// pyodideNPM is the folder of web that pins Pyodide's npm package, with
// the texts of Pyodide's license (MPL-2.0.txt) and of CPython's
// (CPython-LICENSE.txt) that NOTICE.txt takes in. A dot folder: it stays
// out of the bundle.
const pyodideNPM = ".pyodide"

func main() {
	web := flag.String("web", "web", "the page's folder, built by make wasm")
	out := flag.String("out", "", "the folder to write the bundle's folder into (required)")
	revision := flag.String("revision", "", "the source's revision, recorded in the manifest (default: git describe --always --dirty, or unknown)")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "usage: dist -out DIR [-web web] [-revision REV] (make dist DIST=DIR)")
		os.Exit(2)
	}
	if *revision == "" {
		*revision = "unknown"
		if out, err := exec.Command("git", "describe", "--always", "--dirty").Output(); err == nil {
			*revision = strings.TrimSpace(string(out))
		}
	}
	dir, pyodide, err := build(*web, *out, *revision)
	if err != nil {
		fmt.Fprintln(os.Stderr, "dist:", err)
		os.Exit(1)
	}
	if !pyodide {
		fmt.Printf("dist: %s is missing (make wasm copies it where npm is installed): the bundle goes without Pyodide, so its Python exercise will be unavailable\n",
			filepath.Join(*web, weight.PyodideDir))
	}
	pkg, err := writePackage(*web, dir, *out)
	if err != nil {
		fmt.Fprintln(os.Stderr, "dist: the npm package:", err)
		os.Exit(1)
	}
	fmt.Printf("dist: %s (leaselab %s); copy it into your site and include %s/leaselab.js (see its guide.html)\n",
		dir, coursesite.Version(), coursesite.BundleDir())
	fmt.Printf("dist: %s, the same as an npm package with the remark and markdown-it plugins (npm install %[1]s)\n", pkg)
	w, err := weight.Of(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "dist: the engine's weight:", err)
		os.Exit(1)
	}
	tools, err := weight.Tools(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "dist: the engine's weight:", err)
		os.Exit(1)
	}
	fmt.Println("dist: the engine's weight, against its goals (a missed goal is printed, not an error):")
	w.Write(os.Stdout)
	tools.WriteTools(os.Stdout)
	if pyodide {
		ws, err := weight.Pyodide(dir)
		if err != nil {
			fmt.Fprintln(os.Stderr, "dist: Pyodide's weight:", err)
			os.Exit(1)
		}
		weight.WritePyodide(os.Stdout, ws)
	}
}

// build writes the bundle into out and returns its folder, and whether it
// holds Pyodide's runtime (web has it).
func build(web, out, revision string) (dir string, pyodide bool, err error) {
	for _, f := range needed {
		if f == "example.html" || f == "prerendered.js" || f == "guide.html" || strings.HasPrefix(f, "tutorial") {
			continue // checked with the rest below
		}
		if _, err := os.Stat(filepath.Join(web, filepath.FromSlash(f))); err != nil {
			return "", false, fmt.Errorf("%s is missing: build the page first with make wasm (make dist does)", filepath.Join(web, f))
		}
	}
	if pyodide, err = pyodideIn(web); err != nil {
		return "", false, err
	}
	dir = filepath.Join(out, coursesite.BundleDir())
	if err := os.RemoveAll(dir); err != nil {
		return "", false, err
	}
	if err := os.MkdirAll(filepath.Join(dir, coursesite.PrerenderedDir), 0o755); err != nil {
		return "", false, err
	}
	files, err := copyWeb(web, dir)
	if err != nil {
		return "", false, err
	}
	notice, err := noticeText(web, pyodide)
	if err != nil {
		return "", false, err
	}
	idx, err := coursesite.EncodeIndex(coursesite.EmptyIndex())
	if err != nil {
		return "", false, err
	}
	for name, data := range map[string][]byte{"NOTICE.txt": notice, "prerendered/index.json": idx} {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), data, 0o644); err != nil {
			return "", false, err
		}
		files = append(files, name)
	}
	slices.Sort(files)
	for _, f := range needed {
		if !slices.Contains(files, f) {
			return "", false, fmt.Errorf("the bundle lacks %s", f)
		}
	}
	return dir, pyodide, writeManifest(web, dir, files, revision)
}

// pyodideIn reports whether web holds Pyodide's runtime: every file of
// weight.PyodideFiles in weight.PyodideDir. No such folder is false; a
// folder that lacks a file is an error (a copy cut short).
func pyodideIn(web string) (bool, error) {
	dir := filepath.Join(web, weight.PyodideDir)
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	for _, f := range weight.PyodideFiles {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			return false, fmt.Errorf("%w: make wasm copies Pyodide's runtime there (or remove %s to build without it)", err, dir)
		}
	}
	return true, nil
}

// copyWeb copies the bundle's files of web into dir (the top level's
// pages, scripts, styles, icons and engine, SQLite's build, the library's
// traces, the Sphinx extension, and Pyodide's runtime files) and returns their paths inside dir.
func copyWeb(web, dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(web, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(web, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "." || rel == "traces" || rel == sqliteDir || rel == weight.PyodideDir || rel == path.Dir(sphinxExtension) {
				return nil
			}
			return filepath.SkipDir // bench/, timelines/, .tools/, prerendered/
		}
		ext := path.Ext(rel)
		top := !strings.Contains(rel, "/")
		keep := (top && slices.Contains([]string{".html", ".js", ".css", ".svg", ".wasm"}, ext)) ||
			(strings.HasPrefix(rel, "traces/") && ext == ".json") ||
			rel == sqliteDir+"/sqlite3.wasm" || rel == sphinxExtension ||
			(path.Dir(rel) == weight.PyodideDir && slices.Contains(weight.PyodideFiles, path.Base(rel)))
		if !keep || slices.Contains(leftOut, rel) {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		files = append(files, rel)
		return os.WriteFile(dst, data, 0o644)
	})
	return files, err
}

// writeManifest precompresses the files (all but prerendered/; a file of
// web whose .br and .gz make wasm wrote and are fresh has them copied) and
// writes manifest.json.
func writeManifest(web, dir string, files []string, revision string) error {
	m := coursesite.Manifest{Name: "leaselab", Version: coursesite.Version(), Format: timeline.FormatVersion,
		Revision: revision, Entry: "leaselab.js"}
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f))
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha512.Sum384(data)
		mf := coursesite.ManifestFile{Path: f, Bytes: int64(len(data)),
			Integrity: "sha384-" + base64.StdEncoding.EncodeToString(sum[:])}
		if !strings.HasPrefix(f, coursesite.PrerenderedDir+"/") {
			if err := precompress(filepath.Join(web, filepath.FromSlash(f)), p); err != nil {
				return err
			}
			mf.Brotli, mf.Gzip = size(p+".br"), size(p+".gz")
		}
		m.Files = append(m.Files, mf)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(m); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "manifest.json"), b.Bytes(), 0o644)
}

// precompress writes dst.br and dst.gz: copies of src.br and src.gz when
// both are there and not older than src, else compressed afresh.
func precompress(src, dst string) error {
	st, err := os.Stat(src)
	fresh := err == nil
	for _, ext := range []string{".br", ".gz"} {
		if c, err := os.Stat(src + ext); err != nil || c.ModTime().Before(st.ModTime()) {
			fresh = false
		}
	}
	if !fresh {
		return compress.Precompress(dst)
	}
	for _, ext := range []string{".br", ".gz"} {
		data, err := os.ReadFile(src + ext)
		if err != nil {
			return err
		}
		if err := os.WriteFile(dst+ext, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func size(p string) int64 {
	st, err := os.Stat(p)
	if err != nil {
		return 0
	}
	return st.Size()
}

// noticeText is NOTICE.txt: what the bundle is built from and under which
// licenses — Go (its runtime is in the engine; wasm_exec.js is Go's), every
// module the engine links, each license's text in full, and the engine's
// SQLite, with the terms its build wrote beside it; with pyodide, Pyodide's
// and CPython's too (pyodideNotice).
func noticeText(web string, pyodide bool) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("leaselab " + coursesite.Version() + ": the course bundle\n\n" +
		"leaselab's own files (the scripts, styles and pages of this folder, and the engine's Go code in\n" +
		"leaselab.wasm and leaselab-tools.wasm) are the leaselab project's; its repository states their\n" +
		"terms. The engine, in both builds, is built with Go and links the modules below; wasm_exec.js is\n" +
		"Go's own file.\n" +
		"It runs on SQLite, compiled to WebAssembly for it (sqlite-wasm/).\n")
	if pyodide {
		b.WriteString("The Python exercise runs CPython in Pyodide (pyodide/), as Pyodide's npm package ships them.\n")
	}
	b.WriteString("Their licenses follow.\n")
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return nil, fmt.Errorf("go env GOROOT: %w", err)
	}
	goLicense, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(goroot)), "LICENSE"))
	if err != nil {
		return nil, fmt.Errorf("the license of Go: %w", err)
	}
	section(&b, "Go "+runtime.Version()+" (the runtime in leaselab.wasm and leaselab-tools.wasm, and wasm_exec.js)", goLicense)
	cmd := exec.Command("go", "list", "-deps", "-tags", "mutants,tools", "-f", "{{with .Module}}{{if not .Main}}{{.Path}} {{.Version}} {{.Dir}}{{end}}{{end}}", "./wasm/sim")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	listed, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list the engine's modules: %w", err)
	}
	lines := slices.Compact(slices.Sorted(slices.Values(strings.Split(strings.TrimSpace(string(listed)), "\n"))))
	for _, line := range lines {
		f := strings.Fields(line)
		if len(f) != 3 {
			continue
		}
		text, err := licenseOf(f[2])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f[0], err)
		}
		section(&b, f[0]+" "+f[1], text)
	}
	sqlite, err := sqliteNotice(web)
	if err != nil {
		return nil, err
	}
	section(&b, "SQLite ("+sqliteDir+"/sqlite3.wasm)", sqlite)
	if pyodide {
		if err := pyodideNotice(&b, web); err != nil {
			return nil, err
		}
	}
	return b.Bytes(), nil
}

// sqliteNotice is what the engine's SQLite was built from and the terms of
// what it holds, as wasm/sqlite/build.sh wrote them beside the module.
func sqliteNotice(web string) ([]byte, error) {
	p := filepath.Join(web, sqliteDir, "sqlite3.wasm.notice")
	text, err := os.ReadFile(p)
	if err != nil {
		return nil, fmt.Errorf("the engine's SQLite: %w (make wasm builds it)", err)
	}
	return text, nil
}

func section(b *bytes.Buffer, title string, text []byte) {
	b.WriteString("\n" + strings.Repeat("=", 78) + "\n" + title + "\n" + strings.Repeat("=", 78) + "\n\n")
	b.Write(bytes.TrimSpace(text))
	b.WriteString("\n")
}

// licenseOf reads a module's license file (LICENSE, COPYING and the like).
func licenseOf(dir string) ([]byte, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		n := strings.ToUpper(e.Name())
		if !e.IsDir() && (strings.HasPrefix(n, "LICENSE") || strings.HasPrefix(n, "LICENCE") || strings.HasPrefix(n, "COPYING")) {
			return os.ReadFile(filepath.Join(dir, e.Name()))
		}
	}
	return nil, errors.New("no license file in " + dir)
}
