//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/leaselab/leaselab/engine/internal/bench/weight"
)

// pyodideSandbox lays out, in a fresh folder, the repository's Makefile
// and web/.pyodide's lock, with stand-ins for npm (its ci writes Pyodide's
// package: the runtime files, each holding its name, and files the loader
// does not read) and go (its precompress writes NAME.br and NAME.gz), each
// logging what it did to FAKE_LOG. It returns the folder and the make
// command's variables and environment that use them.
func pyodideSandbox(t *testing.T) (dir string, vars, env []string) {
	t.Helper()
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make:", err)
	}
	dir = t.TempDir()
	mk, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	pkg := filepath.Join(dir, "web", ".pyodide")
	if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	files := append(slices.Clone(weight.PyodideFiles), "pyodide.js", "pyodide.mjs.map", "README.md")
	npm := "#!/bin/sh\necho \"npm $*\" >> \"$FAKE_LOG\"\n[ \"$1\" = ci ] || exit 1\nmkdir -p node_modules/pyodide\n" +
		"for f in " + strings.Join(files, " ") + "; do echo \"$f\" > node_modules/pyodide/$f; done\n"
	goCmd := "#!/bin/sh\n[ \"$1\" = env ] && exit 0\n[ \"$2\" = ./engine/internal/build/precompress ] || exit 1\nshift 2\n" +
		"for f; do [ -f \"$f\" ] || continue; echo br > \"$f.br\"; echo gz > \"$f.gz\"; echo \"precompress $f\" >> \"$FAKE_LOG\"; done\n"
	for name, data := range map[string]string{
		filepath.Join(dir, "Makefile"):          string(mk),
		filepath.Join(pkg, "package-lock.json"): "{}\n",
		filepath.Join(dir, "bin", "npm"):        npm,
		filepath.Join(dir, "bin", "go"):         goCmd,
		filepath.Join(dir, "log"):               "",
		filepath.Join(dir, "web", "index.html"): "<!doctype html>",
	} {
		if err := os.WriteFile(name, []byte(data), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	vars = []string{"NPM=" + filepath.Join(dir, "bin", "npm"), "GO=" + filepath.Join(dir, "bin", "go")}
	return dir, vars, makeEnv("FAKE_LOG=" + filepath.Join(dir, "log"))
}

// runMake runs make in dir with args and env, and returns its exit
// status, its output and what the stand-ins logged so far.
func runMake(t *testing.T, dir string, env []string, args ...string) (code int, out, log string) {
	t.Helper()
	cmd := exec.Command("make", append([]string{"-s", "-C", dir}, args...)...)
	cmd.Env = env
	b, code := combinedOutput(t, cmd)
	l, err := os.ReadFile(filepath.Join(dir, "log"))
	if err != nil {
		t.Fatal(err)
	}
	return code, string(b), string(l)
}

// make pyodide installs the pinned package once, copies exactly the files
// Pyodide's loader reads (weight.PyodideFiles) to web/pyodide/ with their
// .br and .gz; run again, it installs, copies and compresses nothing; a
// lock newer than the install installs and copies again.
func TestMakePyodide_CopiesTheRuntimeFilesOnceUntilTheLockChanges(t *testing.T) {
	dir, vars, env := pyodideSandbox(t)
	code, out, log := runMake(t, dir, env, append(vars, "pyodide")...)
	if code != 0 {
		t.Fatalf("make pyodide: exit %d\n%s", code, out)
	}
	want := []string{"npm ci --no-audit --no-fund --loglevel=error"}
	var files []string
	for _, f := range weight.PyodideFiles {
		want = append(want, "precompress web/pyodide/"+f)
		files = append(files, f, f+".br", f+".gz")
		b, err := os.ReadFile(filepath.Join(dir, "web", "pyodide", f))
		if err != nil || string(b) != f+"\n" {
			t.Errorf("web/pyodide/%s holds %q (%v), want the package's file", f, b, err)
		}
	}
	if got := strings.Split(strings.TrimSpace(log), "\n"); !slices.Equal(got, want) {
		t.Errorf("make pyodide ran %q, want %q", got, want)
	}
	entries, err := os.ReadDir(filepath.Join(dir, "web", "pyodide"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if slices.Sort(files); !slices.Equal(got, files) {
		t.Errorf("web/pyodide/ holds %q, want exactly %q", got, files)
	}

	if code, out, again := runMake(t, dir, env, append(vars, "pyodide")...); code != 0 || again != log {
		t.Errorf("a second make pyodide: exit %d, ran %q; want nothing run\n%s", code, strings.TrimPrefix(again, log), out)
	}

	later := time.Now().Add(time.Hour) // the lock edited after the install
	if err := os.Chtimes(filepath.Join(dir, "web", ".pyodide", "package-lock.json"), later, later); err != nil {
		t.Fatal(err)
	}
	_, _, third := runMake(t, dir, env, append(vars, "pyodide")...)
	if ran := strings.TrimPrefix(third, log); !strings.HasPrefix(ran, "npm ci ") || strings.Count(ran, "precompress ") != len(weight.PyodideFiles) {
		t.Errorf("make pyodide after the lock changed ran %q; want npm ci and every file copied again", ran)
	}
}

// Without npm, make wasm prints one line saying the page's Python exercise
// will be unavailable and how to install npm, and goes on: it exits 0 and
// runs its own recipe.
func TestMakeWasm_WithoutNPMSaysSoInOneLineAndGoesOn(t *testing.T) {
	dir, vars, env := pyodideSandbox(t)
	vars[0] = "NPM=" + filepath.Join(dir, "bin", "no-npm")
	// make wasm's other prerequisites, taken as made: make's database names them.
	db := exec.Command("make", append([]string{"-s", "-C", dir, "-pq", ".DEFAULT"}, vars...)...)
	db.Env = env
	dump, _ := db.Output() // -q exits 1: .DEFAULT is not up to date
	args := slices.Clone(vars)
	for _, line := range strings.Split(string(dump), "\n") {
		if prereqs, ok := strings.CutPrefix(line, "wasm: "); ok {
			for _, p := range strings.Fields(prereqs) {
				if p != "pyodide" {
					args = append(args, "-o", p)
				}
			}
		}
	}
	if len(args) == len(vars) {
		t.Fatalf("make's database names no prerequisite of wasm:\n%.2000s", dump)
	}
	code, out, log := runMake(t, dir, env, append(args, "wasm")...)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 1 || !strings.Contains(out, "npm is missing") ||
		!strings.Contains(out, "Python exercise will be unavailable") || !strings.Contains(out, "apt-get install -y nodejs npm") {
		t.Errorf("make wasm without npm: exit %d, output %q; want exit 0 and one line saying so", code, out)
	}
	if !strings.Contains(log, "precompress web/index.html") || strings.Contains(log, "npm") {
		t.Errorf("make wasm without npm ran %q; want its own recipe and no npm", log)
	}
	if _, err := os.Stat(filepath.Join(dir, "web", "pyodide")); err == nil {
		t.Error("make wasm without npm made web/pyodide/")
	}
}
