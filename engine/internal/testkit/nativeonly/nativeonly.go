// Package nativeonly marks the tests that need what a GOOS=js program under
// Node does not have: files on disk through SQLite's file VFS, child
// processes, the go command. make wasm-test runs the engine's test suites
// in WebAssembly on the browser build of SQLite; those tests are skipped
// there, with the reason, and run natively in the same make test.
package nativeonly

import (
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
