// Package nativeonly marks the tests that need what a GOOS=js program under
// Node does not have: files on disk through SQLite's file VFS, child
// processes, the go command. make wasm-test runs the engine's test suites
// in WebAssembly on the browser build of SQLite; those tests are skipped
// there, with the reason, and run natively in the same make test.
package nativeonly

import (
	"os"
	"os/exec"
	"runtime"
	"testing"
)

// Test skips t under GOOS=js, saying what it needs (e.g. "a file database").
// Everywhere else it does nothing.
func Test(t testing.TB, needs string) {
	t.Helper()
	if runtime.GOOS == "js" {
		t.Skipf("needs %s, which GOOS=js under Node does not have; it runs natively", needs)
	}
}

// Python skips t without python3 on PATH, except in CI (CI=true), where it
// fails: a grader's Python students need it, and .ci/need-sites installs it.
// It skips in a mutant run too (LEASELAB_MUTANT set): the grader compares
// a student with the model, which no mutant changes.
func Python(t testing.TB) {
	t.Helper()
	Test(t, "python3 and child processes")
	if os.Getenv("LEASELAB_MUTANT") != "" {
		t.Skip("the grader compares with the model, which a mutant run does not change")
	}
	if _, err := exec.LookPath("python3"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("python3 is needed to grade Python students: install it (.ci/need-sites installs it)")
		}
		t.Skip("python3 is not installed: the grader's Python tests need it")
	}
}
