package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/leaselab/leaselab/engine/internal/coursesite"
)

// npmDir is the folder of web that holds the npm package's own files: its
// build-time plugins (*.js, which import the bundle's fences.js as
// ../fences.js) and their types (types/*.d.ts).
const npmDir = "npm"

// PackageVersion is the npm package's version: the bundle's, as semver.
func PackageVersion() string { return coursesite.Version() + ".0" }

// PackageFile is the npm package's tarball, written beside the bundle's
// folder: what `npm install ./leaselab-VERSION.tgz` installs.
func PackageFile() string { return "leaselab-" + PackageVersion() + ".tgz" }

// packageJSON is the package's package.json: the element as its main
// export, the plugins as leaselab/markdown-it and leaselab/remark, each
// with its types, and every file of the bundle under leaselab/FILE.
func packageJSON() ([]byte, error) {
	type entry struct {
		Types   string `json:"types"`
		Default string `json:"default"`
	}
	pkg := map[string]any{
		"name":        "leaselab",
		"version":     PackageVersion(),
		"description": "leaselab's course bundle: the <lease-timeline> element, and remark and markdown-it plugins that turn lease-timeline and lease-exercise fences into elements at build time",
		"type":        "module",
		"license":     "SEE LICENSE IN NOTICE.txt",
		"exports": map[string]any{
			".":             entry{"./types/lease-timeline.d.ts", "./lease-timeline.js"},
			"./markdown-it": entry{"./types/markdown-it.d.ts", "./npm/markdown-it.js"},
			"./remark":      entry{"./types/remark.d.ts", "./npm/remark.js"},
			"./*":           "./*",
		},
		"types": "./types/lease-timeline.d.ts",
	}
	b, err := json.MarshalIndent(pkg, "", "  ")
	return append(b, '\n'), err
}

// writePackage writes the npm package of the bundle at dir (its files,
// without their precompressed copies) with web's npm/ files, as
// PackageFile in out. The tarball is the same bytes for the same files:
// sorted, with a fixed time and modes.
func writePackage(web, dir, out string) (string, error) {
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".br") || strings.HasSuffix(p, ".gz") {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b, err := os.ReadFile(p)
		files[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		return "", err
	}
	for _, pattern := range []string{"*.js", "types/*.d.ts"} {
		matches, err := filepath.Glob(filepath.Join(web, npmDir, filepath.FromSlash(pattern)))
		if err != nil {
			return "", err
		}
		for _, m := range matches {
			b, err := os.ReadFile(m)
			if err != nil {
				return "", err
			}
			rel, _ := filepath.Rel(filepath.Join(web, npmDir), m)
			rel = filepath.ToSlash(rel)
			if !strings.HasPrefix(rel, "types/") {
				rel = path.Join(npmDir, rel)
			}
			files[rel] = b
		}
	}
	if files["package.json"], err = packageJSON(); err != nil {
		return "", err
	}
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		h := &tar.Header{Name: "package/" + name, Mode: 0o644, Size: int64(len(files[name])), ModTime: time.Unix(0, 0).UTC(), Typeflag: tar.TypeReg, Format: tar.FormatPAX}
		if err := tw.WriteHeader(h); err != nil {
			return "", err
		}
		if _, err := tw.Write(files[name]); err != nil {
			return "", err
		}
	}
	if err := tw.Close(); err != nil {
		return "", err
	}
	if err := gz.Close(); err != nil {
		return "", err
	}
	file := filepath.Join(out, PackageFile())
	return file, os.WriteFile(file, buf.Bytes(), 0o644)
}
