//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// makeDist runs the Makefile's dist rule with DIST given on make's command
// line or in its environment, with the bundle's build (wasm) taken as made
// and GO a stand-in that writes the arguments it gets to a file, NUL after
// each. It returns those arguments (nil when GO did not run), make's exit
// status and its output.
func makeDist(t *testing.T, dist string, fromEnv bool) (args []string, code int, out string) {
	t.Helper()
	tmp := t.TempDir()
	fake, got := filepath.Join(tmp, "go"), filepath.Join(tmp, "args")
	script := "#!/bin/sh\n[ \"$1\" = env ] && exit 0\nprintf '%s\\0' \"$@\" > \"$FAKEGO_ARGS\"\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("make", "-s", "-C", filepath.Join("..", "..", "..", ".."), "-o", "wasm", "dist", "GO="+fake)
	env := makeEnv("FAKEGO_ARGS=" + got)
	if fromEnv {
		env = append(env, "DIST="+dist)
	} else {
		cmd.Args = append(cmd.Args, "DIST="+dist)
	}
	cmd.Env = env
	b, code := combinedOutput(t, cmd)
	if b, err := os.ReadFile(got); err == nil {
		args = strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
	}
	return args, code, string(b)
}

// combinedOutput runs cmd and returns its output and exit status; a
// command that could not run fails the test.
func combinedOutput(t *testing.T, cmd *exec.Cmd) ([]byte, int) {
	t.Helper()
	b, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return b, ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return b, 0
}

// makeEnv is this process's environment for a make of its own, without
// what an outer make or an earlier test left in it, with extra added.
func makeEnv(extra ...string) []string {
	env := slices.Clone(extra)
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.Contains([]string{"MAKEFLAGS", "MFLAGS", "MAKELEVEL", "DIST", "FAKEGO_ARGS", "NPM", "GO", "FAKE_LOG"}, name) {
			env = append(env, kv)
		}
	}
	return env
}

// make dist hands DIST to the dist program as one argument, byte for byte,
// whatever it holds — spaces, quotes, ;, make's $(...), the shell's $,
// $(...) and backticks, # — and runs nothing it names; an empty DIST stops
// with a line saying what to give. From the command line and from the
// environment alike.
func TestMakeDist_TakesDISTLiterallyAndRunsNothingFromIt(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make:", err)
	}
	pwned := filepath.Join(t.TempDir(), "pwned")
	for _, dist := range []string{
		"dir",
		"x;touch " + pwned,
		"a b  c",
		`"double" 'single'`,
		"$(shell touch " + pwned + ")",
		"$$(touch " + pwned + ")",
		"$(touch " + pwned + ")",
		"`touch " + pwned + "`",
		"$HOME ${PATH} $$x $",
		"a#b\\ c|d&e>f",
	} {
		for _, fromEnv := range []bool{false, true} {
			args, code, out := makeDist(t, dist, fromEnv)
			want := []string{"run", "./engine/internal/build/dist", "-web", "web", "-out", dist}
			if code != 0 || !slices.Equal(args, want) {
				t.Errorf("DIST=%q (environment %v): exit %d, GO got %q; want %q\n%s", dist, fromEnv, code, args, want, out)
			}
			if _, err := os.Stat(pwned); err == nil {
				t.Fatalf("DIST=%q (environment %v) ran a command", dist, fromEnv)
			}
		}
	}
	args, code, out := makeDist(t, "", false)
	if code != 2 || args != nil || !strings.Contains(out, "dist: say where to write the bundle") {
		t.Errorf("an empty DIST: exit %d, GO got %q, output %q", code, args, out)
	}
}
