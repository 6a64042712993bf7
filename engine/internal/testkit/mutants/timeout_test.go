//go:build mutants

package main

import "testing"

// timedOut names the tests go test's -timeout found running, and nothing
// for a binary that ended on its own.
func TestTimedOut_NamesTheRunningTests(t *testing.T) {
	out := "=== RUN   TestA\n--- PASS: TestA (0.00s)\npanic: test timed out after 5m0s\n\trunning tests:\n\t\tTestB (5m0s)\n\t\tTestC/sub (4m59s)\n\ngoroutine 1 [running]:\n"
	if got, want := timedOut([]byte(out)), "TestB (5m0s), TestC/sub (4m59s)"; got != want {
		t.Errorf("timedOut = %q, want %q", got, want)
	}
	if got := timedOut([]byte("--- FAIL: TestA (0.01s)\nFAIL\n")); got != "" {
		t.Errorf("a binary that ended: %q", got)
	}
}
