//go:build mutants

package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// script writes an executable shell script standing in for a test binary.
func script(t *testing.T, dir, name, body string) testPkg {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return testPkg{importPath: "example/" + name, dir: dir, binary: p}
}

// quiet sends what suite prints to a file for the rest of the test: its
// echo of a failing binary ("--- FAIL: ...") in this test's own output
// would read as a failure of this package to go test's readers, this
// command among them.
func quiet(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "stdout"))
	if err != nil {
		t.Fatal(err)
	}
	stdout := os.Stdout
	os.Stdout = f
	t.Cleanup(func() { os.Stdout = stdout; f.Close() })
}

// With a mutant, the first binary that fails is the kill: a binary still
// running is stopped before it ends and counts for nothing (neither a
// failure nor a crash). With no mutant every binary runs to its end and
// every failure is reported. The slow binary's sleep is a child of its
// own, which holds the output open after the binary is stopped.
func TestSuite_MutantRunStopsAtTheFirstKill(t *testing.T) {
	quiet(t)
	dir := t.TempDir()
	ended := filepath.Join(dir, "slow-ended")
	pkgs := []testPkg{
		script(t, dir, "slow", `sleep 5; touch "`+ended+`"; echo "--- FAIL: TestSlow (5.00s)"; exit 1`),
		script(t, dir, "fast", `echo "--- FAIL: TestFast (0.00s)"; exit 1`),
	}

	o := suite(pkgs, "some-mutant", 0, false)
	if want := []string{"example/fast.TestFast"}; !slices.Equal(o.failed, want) || len(o.crash) > 0 {
		t.Errorf("with a mutant: failed %v, crash %v; want failed %v and no crash", o.failed, o.crash, want)
	}
	if _, err := os.Stat(ended); err == nil {
		t.Error("the slow binary ran to its end after the mutant was killed")
	}

	pkgs[0] = script(t, dir, "slow", `touch "`+ended+`"; echo "--- FAIL: TestSlow (0.00s)"; exit 1`)
	o = suite(pkgs, "", 0, false)
	if want := []string{"example/slow.TestSlow", "example/fast.TestFast"}; !slices.Equal(o.failed, want) {
		t.Errorf("with no mutant: failed %v; want %v, every failure in the packages' order", o.failed, want)
	}
	if _, err := os.Stat(ended); err != nil {
		t.Errorf("with no mutant the slow binary did not run to its end: %v", err)
	}
}
