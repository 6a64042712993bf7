package makecompat

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/testkit/modtest"
)

func TestCheck_NamesEachConstructMake381DoesNotKnow(t *testing.T) {
	cases := []struct {
		name, src string
		want      []Finding // nil: 3.81 reads it
	}{
		{"grouped targets", "a b &: c\n\ttouch a b\n", []Finding{{1, "grouped targets (&:)", "4.3"}}},
		{"grouped double-colon targets", "a b &:: c\n", []Finding{{1, "grouped targets (&:)", "4.3"}}},
		{"grouped targets on a continued line name its first line", "x := 1\na \\\n  b &: c\n", []Finding{{2, "grouped targets (&:)", "4.3"}}},
		{"plain targets", "a b: c\n\ttouch $@\n", nil},
		{"double-colon rule", "a:: b\n", nil},
		{"shell assignment", "X != date\n", []Finding{{1, "shell assignment (!=)", "4.0"}}},
		{"exported shell assignment", "export X != date\n", []Finding{{1, "shell assignment (!=)", "4.0"}}},
		{"!= in a recipe is the shell's", "a:\n\t[ x != y ]\n", nil},
		{"!= in a continued recipe is the shell's", "a:\n\tif [ x \\\n != y ]; then :; fi\n", nil},
		{"ifneq", "ifneq ($(X),)\nendif\n", nil},
		{"::=", "X ::= 1\n", []Finding{{1, "simple assignment ::= or :::=", "4.0"}}},
		{":::=", "X :::= 1\n", []Finding{{1, "simple assignment ::= or :::=", "4.0"}}},
		{":=", "X := 1\n", nil},
		{"define =", "define X =\nendef\n", []Finding{{1, "define with an assignment operator", "3.82"}}},
		{"define :=", "define X :=\nendef\n", []Finding{{1, "define with an assignment operator", "3.82"}}},
		{"define +=", "override define X +=\nendef\n", []Finding{{1, "define with an assignment operator", "3.82"}}},
		{"plain define", "define X\nendef\n", nil},
		{"undefine", "undefine X\n", []Finding{{1, "undefine", "3.82"}}},
		{"private", "a: private X = 1\n", []Finding{{1, "private", "3.82"}}},
		{"private global", "private X := 1\n", []Finding{{1, "private", "3.82"}}},
		{"export override", "export override X = 1\n", []Finding{{1, "more than one of export, override, private", "3.82"}}},
		{"one modifier", "export X = 1\noverride Y = 2\n", nil},
		{"load", "load ./ext.so\n", []Finding{{1, "load", "4.0"}}},
		{".ONESHELL", ".ONESHELL:\n", []Finding{{1, ".ONESHELL", "3.82"}}},
		{".RECIPEPREFIX", ".RECIPEPREFIX = >\n", []Finding{{1, ".RECIPEPREFIX", "3.82"}}},
		{".SHELLFLAGS", ".SHELLFLAGS := -ec\n", []Finding{{1, ".SHELLFLAGS", "3.82"}}},
		{".EXTRA_PREREQS", "a: .EXTRA_PREREQS = b\n", []Finding{{1, ".EXTRA_PREREQS", "4.3"}}},
		{".WAIT", "all: a .WAIT b\n", []Finding{{1, ".WAIT", "4.4"}}},
		{".WAITING is no .WAIT", "all: a .WAITING b\n", nil},
		{"$(file ...)", "X := $(file <list)\n", []Finding{{1, "$(file ...)", "4.0"}}},
		{"${file ...}", "X := ${file <list}\n", []Finding{{1, "$(file ...)", "4.0"}}},
		{"$(file ...) in a recipe", "a:\n\t@echo $(file >out,x)\n", []Finding{{2, "$(file ...)", "4.0"}}},
		{"$(let ...)", "X = $(let a,1,$(a))\n", []Finding{{1, "$(let ...)", "4.4"}}},
		{"a function make never had", "X = $(nosuch a)\n", []Finding{{1, "$(nosuch ...)", "after 3.81"}}},
		{"$$(file x) is the shell's", "a:\n\tx=$$(file a.wasm)\n", nil},
		{"$$$(shell ...) is a dollar, then make's shell", "a:\n\techo $$$(shell echo x)\n", nil},
		{"3.81's functions and variables", "X := $(filter-out a,$(wildcard *.go)) $(abspath .) $(GO) $(@D)\n", nil},
		{"a comment names them", "# no &: here, nor .ONESHELL, nor $(file x)\nX := 1 # nor X != y\n", nil},
		{"a continued comment", "# a comment \\\n a &: b\n", nil},
		{"an escaped #", "X := a\\#b &: c\n", []Finding{{1, "grouped targets (&:)", "4.3"}}},
		{"two on one line", "a &: $(file <x)\n", []Finding{{1, "grouped targets (&:)", "4.3"}, {1, "$(file ...)", "4.0"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Check(c.src)
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("Check(%q) = %v, want %v", c.src, got, c.want)
			}
		})
	}
}

// root is this checkout's top.
func root(t *testing.T) string {
	t.Helper()
	dir, err := modtest.Root(".")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestMakefile_UsesOnlyWhatMake381Knows(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(root(t), "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range Check(string(src)) {
		t.Errorf("Makefile:%d: %s needs GNU make %s; macOS's make is 3.81", f.Line, f.What, f.Since)
	}
}

// The page's build uses the committed engine's SQLite as it is: however new
// its sources look (make -W), make wasm (and so make serve) never runs
// clang's build, which only make sqlite-wasm and make sqlite-verify run.
func TestMakefile_WasmNeverRebuildsTheCommittedSQLite(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	dir := root(t)
	dryRun := func(target string) string {
		t.Helper()
		cmd := exec.Command("make", "-n", "-W", "wasm/sqlite/build.sh", "-W", "wasm/sqlite/sqlite.c", target)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("make -n %s: %v\n%s", target, err, out)
		}
		return string(out)
	}
	for _, target := range []string{"wasm", "serve", "wasm-test"} {
		out := dryRun(target)
		for _, clang := range []string{"wasm/sqlite/build.sh", "need-clang"} {
			if strings.Contains(out, clang) {
				t.Errorf("make -n %s, with wasm/sqlite's sources newer than the module, runs %s:\n%s", target, clang, out)
			}
		}
	}
	for _, target := range []string{"sqlite-wasm", "sqlite-verify"} {
		if out := dryRun(target); !strings.Contains(out, "wasm/sqlite/") {
			t.Errorf("make -n %s rebuilds nothing from wasm/sqlite:\n%s", target, out)
		}
	}
}

// The committed engine's SQLite is held to a rebuild only with the compiler
// and wasi-libc its notice names: with another clang-19 or wasi-libc, or
// with CLANG naming no program, make sqlite-verify says it skipped and
// why, naming both versions (exit 0), or fails saying so under CI=true;
// with the named ones it rebuilds. It never changes the module it checks.
func TestSQLiteVerify_RebuildsOnlyWithTheToolchainTheNoticeNames(t *testing.T) {
	dir := root(t)
	if out, err := exec.Command("bash", filepath.Join(dir, ".ci/need-clang"), "--missing").CombinedOutput(); err != nil {
		t.Skipf("clang 19's packages are not all here (%s): make sqlite-verify skips before it reads the notice", strings.TrimSpace(string(out)))
	}
	committed := filepath.Join(dir, "web/sqlite-wasm/sqlite3.wasm")
	wasm, err := os.ReadFile(committed)
	if err != nil {
		t.Fatal(err)
	}
	notice, err := os.ReadFile(committed + ".notice")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(notice), "\n")
	if len(lines) < 3 {
		t.Fatalf("the notice has %d lines; its second and third name the compiler and wasi-libc", len(lines))
	}
	pinned, prefixed := strings.CutPrefix(lines[1], "by wasm/sqlite/build.sh with ")
	pinned, suffixed := strings.CutSuffix(pinned, ", against Debian's")
	if !prefixed || !suffixed {
		t.Fatalf("the notice's second line names no compiler: %q", lines[1])
	}
	wasiLibc := strings.TrimSuffix(strings.TrimPrefix(lines[2], "wasi-libc "), ".")

	// The module is checked as a copy: whatever verify.sh did, the
	// committed files stay as they are.
	work := t.TempDir()
	copied := filepath.Join(work, "sqlite3.wasm")
	if err := os.WriteFile(copied, wasm, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(copied+".notice", notice, 0o644); err != nil {
		t.Fatal(err)
	}
	// A clang-19 that reports a version and compiles nothing, and a
	// dpkg-query that reports another wasi-libc, each first on PATH.
	fake := func(name, version, dpkgVersion string) string {
		bin := filepath.Join(t.TempDir(), name)
		if err := os.Mkdir(bin, 0o755); err != nil {
			t.Fatal(err)
		}
		clang := fmt.Sprintf("#!/bin/sh\n[ \"$1\" = --version ] && { echo '%s'; exit 0; }\necho 'the fake clang compiles nothing' >&2\nexit 1\n", version)
		if err := os.WriteFile(filepath.Join(bin, "clang-19"), []byte(clang), 0o755); err != nil {
			t.Fatal(err)
		}
		if dpkgVersion != "" {
			dpkg := fmt.Sprintf("#!/bin/sh\nprintf '%%s' '%s'\n", dpkgVersion)
			if err := os.WriteFile(filepath.Join(bin, "dpkg-query"), []byte(dpkg), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		return bin
	}
	const other = "Homebrew clang version 19.1.3"
	const otherLibc = "0.0~git20990101.0000000-1"
	for _, tc := range []struct {
		name      string
		bin       string
		env       []string
		wantCode  int
		wantParts []string
	}{
		{"another clang-19", fake("other", other, ""), nil, 0,
			[]string{"sqlite-verify: skipped", pinned, other}},
		{"another clang-19 under CI", fake("other-ci", other, ""), []string{"CI=true"}, 1,
			[]string{"sqlite-verify:", pinned, other, "make sqlite-wasm"}},
		{"another wasi-libc", fake("libc", pinned, otherLibc), nil, 0,
			[]string{"sqlite-verify: skipped", wasiLibc, otherLibc}},
		{"CLANG naming no program", fake("none", pinned, ""), []string{"CLANG=" + filepath.Join(work, "no-clang")}, 0,
			[]string{"sqlite-verify: skipped", filepath.Join(work, "no-clang") + " is missing"}},
		{"the notice's clang-19 and wasi-libc", fake("pinned", pinned, ""), nil, 1,
			[]string{"the fake clang compiles nothing"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command("bash", filepath.Join(dir, "wasm/sqlite/verify.sh"), copied)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "CI=", "CLANG=", "PATH="+tc.bin+string(os.PathListSeparator)+os.Getenv("PATH"))
			cmd.Env = append(cmd.Env, tc.env...)
			out, _ := cmd.CombinedOutput()
			if code := cmd.ProcessState.ExitCode(); code != tc.wantCode {
				t.Errorf("exit %d, want %d:\n%s", code, tc.wantCode, out)
			}
			for _, part := range tc.wantParts {
				if !strings.Contains(string(out), part) {
					t.Errorf("the output does not say %q:\n%s", part, out)
				}
			}
			if tc.wantCode == 1 && strings.Contains(string(out), "skipped") {
				t.Errorf("it says it skipped, and fails:\n%s", out)
			}
			for path, want := range map[string][]byte{copied: wasm, copied + ".notice": notice} {
				if got, err := os.ReadFile(path); err != nil || string(got) != string(want) {
					t.Errorf("%s changed (%v)", filepath.Base(path), err)
				}
			}
		})
	}
}

// make help prints each target's ## line as written, unexpanded: a line
// naming a make variable, $(NAME), would show a newcomer make's syntax
// instead of its value.
func TestMakeHelp_ShowsNoMakeVariable(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	cmd := exec.Command("make", "--no-print-directory", "help")
	cmd.Dir = root(t)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make help: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "  serve ") {
		t.Fatalf("make help lists no serve target:\n%s", out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, "$(") || strings.Contains(line, "${") {
			t.Errorf("make help shows a make variable: %q", line)
		}
	}
}

// README's table of what each target needs names, in make test's row,
// every program .ci/need-sites requires before make sites runs: a
// newcomer reads that row, not the script.
func TestREADME_MakeTestRowNamesEveryProgramTheSitesNeed(t *testing.T) {
	dir := root(t)
	readme, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var row string
	for _, line := range strings.Split(string(readme), "\n") {
		if strings.HasPrefix(line, "| `make test` |") {
			row = strings.ToLower(line)
		}
	}
	if row == "" {
		t.Fatal("README has no row for make test")
	}
	script, err := os.ReadFile(filepath.Join(dir, ".ci/need-sites"))
	if err != nil {
		t.Fatal(err)
	}
	programs := regexp.MustCompile(`command -v ([a-z0-9-]+) >/dev/null 2>&1 \|\| missing\+=`).FindAllStringSubmatch(string(script), -1)
	if len(programs) == 0 {
		t.Fatal(".ci/need-sites requires no program")
	}
	for _, m := range programs {
		if !strings.Contains(row, m[1]) {
			t.Errorf("README's make test row does not name %s, which .ci/need-sites requires", m[1])
		}
	}
}
