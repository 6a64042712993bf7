package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/leaselab/leaselab/engine/internal/bench/weight"
)

// pyodideNotice writes NOTICE.txt's sections for Pyodide's runtime: Pyodide
// (its version as web/.pyodide's lock pins it) under the MPL 2.0, and the
// CPython it builds (its version as pyodide-lock.json names it) under the
// PSF License Version 2, with the texts committed in web/.pyodide. A
// CPython text that names another version than the runtime's is an error:
// the pin moved and its notice did not.
func pyodideNotice(b *bytes.Buffer, web string) error {
	pin := filepath.Join(web, pyodideNPM)
	var lock struct {
		Packages map[string]struct{ Version string } `json:"packages"`
	}
	if err := readJSON(filepath.Join(pin, "package-lock.json"), &lock); err != nil {
		return err
	}
	version := lock.Packages["node_modules/pyodide"].Version
	var runtime struct {
		Info struct{ Python string } `json:"info"`
	}
	if err := readJSON(filepath.Join(web, weight.PyodideDir, "pyodide-lock.json"), &runtime); err != nil {
		return err
	}
	python := runtime.Info.Python
	if version == "" || python == "" {
		return fmt.Errorf("the version of Pyodide (%s: %q) or of its Python (pyodide-lock.json: %q) is not there", pin, version, python)
	}
	mpl, err := os.ReadFile(filepath.Join(pin, "MPL-2.0.txt"))
	if err != nil {
		return fmt.Errorf("the license of Pyodide: %w", err)
	}
	psf, err := os.ReadFile(filepath.Join(pin, "CPython-LICENSE.txt"))
	if err != nil {
		return fmt.Errorf("the license of CPython: %w", err)
	}
	if !bytes.Contains(psf, []byte("CPython "+python+":")) {
		return fmt.Errorf("%s does not name CPython %s, the one Pyodide %s runs: write its notice for it", filepath.Join(pin, "CPython-LICENSE.txt"), python, version)
	}
	files := make([]string, len(weight.PyodideFiles))
	for i, f := range weight.PyodideFiles {
		files[i] = weight.PyodideDir + "/" + f
	}
	section(b, "Pyodide "+version+" ("+strings.Join(files, ", ")+")", []byte(
		"Pyodide "+version+", the files of "+weight.PyodideDir+"/ as its npm package (pyodide) ships them, unmodified,\n"+
			"is under the Mozilla Public License 2.0, whose text follows. Its Source Code Form is the\n"+
			"Pyodide project's (github.com/pyodide/pyodide, release "+version+"). The CPython it builds is\n"+
			"under its own terms, in the next section.\n\n"+string(mpl)))
	section(b, "CPython "+python+" (in "+weight.PyodideDir+"/pyodide.asm.wasm; its standard library, "+weight.PyodideDir+"/python_stdlib.zip)", psf)
	return nil
}

func readJSON(name string, v any) error {
	data, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}
