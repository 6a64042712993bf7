// Command wasmfacts writes the Facts of the page's engine (engine/simrun)
// into its WebAssembly module, as the custom section simrun.FactsSection
// holding their JSON, so that the engine's worker (web/engine-worker.js)
// reads them with WebAssembly.Module.customSections instead of running Go
// as the engine starts. make wasm runs it on every build of the module:
//
//	go run -tags mutants ./engine/internal/build/wasmfacts web/leaselab.wasm
//
// The facts are computed here, natively, by the code the module runs, so
// it must be built with the module's tags (make wasm builds both with
// mutants); a test of engine/simrun, run in WebAssembly by make wasm-test,
// holds the section of the built module equal to what the module itself
// computes. A section written before is replaced, so the command may run
// twice on one file; the file is rewritten whole or not at all.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/leaselab/leaselab/engine/simrun"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run -tags mutants ./engine/internal/build/wasmfacts MODULE.wasm")
		os.Exit(2)
	}
	if err := write(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "wasmfacts:", err)
		os.Exit(1)
	}
}

// write puts the build's facts into the module at path.
func write(path string) error {
	module, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	facts, err := json.Marshal(simrun.BuildFacts())
	if err != nil {
		return err
	}
	out, err := withSection(module, simrun.FactsSection, facts)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".wasmfacts-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // once renamed, there is nothing left to remove
	if _, err := tmp.Write(out); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if info, err := os.Stat(path); err == nil {
		os.Chmod(tmp.Name(), info.Mode().Perm())
	}
	return os.Rename(tmp.Name(), path)
}
