//go:build sites

package sites_test

import (
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/coursesite"
	"github.com/leaselab/leaselab/engine/timeline"
)

// The bundle (make dist) is one folder named by its version, and its
// manifest lists every file in it with its size, its brotli and gzip
// copies and a Subresource Integrity hash that holds; the prerendered
// index it starts with is empty; the notice names Go and the modules the
// engine links.
func TestBundle_ManifestListsEveryFileWithItsHash(t *testing.T) {
	if filepath.Base(bundle) != "leaselab-"+coursesite.Version() {
		t.Fatalf("the bundle's folder is %s", filepath.Base(bundle))
	}
	b, err := os.ReadFile(filepath.Join(bundle, "manifest.json"))
	must(t, err)
	var m coursesite.Manifest
	must(t, json.Unmarshal(b, &m))
	if m.Name != "leaselab" || m.Version != coursesite.Version() || m.Format != timeline.FormatVersion || m.Entry != "leaselab.js" || m.Revision == "" {
		t.Errorf("the manifest says %+v", m)
	}
	listed := map[string]coursesite.ManifestFile{}
	for _, f := range m.Files {
		listed[f.Path] = f
		data, err := os.ReadFile(filepath.Join(bundle, filepath.FromSlash(f.Path)))
		must(t, err)
		sum := sha512.Sum384(data)
		if want := "sha384-" + base64.StdEncoding.EncodeToString(sum[:]); f.Integrity != want || f.Bytes != int64(len(data)) {
			t.Errorf("%s: manifest %d bytes %s, the file %d bytes %s", f.Path, f.Bytes, f.Integrity, len(data), want)
		}
		compressed := !strings.HasPrefix(f.Path, coursesite.PrerenderedDir+"/")
		if compressed && (f.Brotli == 0 || f.Gzip == 0) {
			t.Errorf("%s has no brotli or gzip copy", f.Path)
		}
	}
	err = filepath.WalkDir(bundle, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(bundle, p)
		rel = filepath.ToSlash(rel)
		base := strings.TrimSuffix(strings.TrimSuffix(rel, ".br"), ".gz")
		if _, ok := listed[base]; !ok && rel != "manifest.json" {
			t.Errorf("%s is in the bundle but not in its manifest", rel)
		}
		return nil
	})
	must(t, err)
	for _, f := range []string{"leaselab.js", "leaselab.css", "leaselab.wasm", "leaselab-tools.wasm", "engine-worker.js", "wasm_exec.js", "embed.html", "guide.html", "example.html", "tutorial.html", "tutorial-ko.html", "NOTICE.txt",
		"sqlite-bridge.js", "sqlite-wasm/sqlite3.wasm"} {
		if _, ok := listed[f]; !ok {
			t.Errorf("the bundle lacks %s", f)
		}
	}
	idx, err := os.ReadFile(filepath.Join(bundle, "prerendered", "index.json"))
	must(t, err)
	var i coursesite.Index
	if must(t, json.Unmarshal(idx, &i)); i.Format != coursesite.IndexFormat || len(i.Traces) != 0 {
		t.Errorf("the bundle's prerendered index is %+v, want empty", i)
	}
	notice, err := os.ReadFile(filepath.Join(bundle, "NOTICE.txt"))
	must(t, err)
	for _, want := range []string{"Go go1.", "SQLite 3.54.1", "The author disclaims copyright", "wasi-libc", "Copyright"} {
		if !strings.Contains(string(notice), want) {
			t.Errorf("NOTICE.txt lacks %q", want)
		}
	}
	if slices.ContainsFunc(m.Files, func(f coursesite.ManifestFile) bool { return strings.HasPrefix(f.Path, "bench/") }) {
		t.Error("the bundle holds the benchmark pages")
	}
	if slices.ContainsFunc(m.Files, func(f coursesite.ManifestFile) bool {
		return strings.Contains(f.Path, "node_modules") || strings.HasSuffix(f.Path, "package.json") || strings.HasSuffix(f.Path, "sqlite3.js")
	}) {
		t.Error("the bundle holds SQLite's npm package or its JavaScript, not only its module")
	}
}
