package apisurface_test

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/testkit/apisurface"
	"github.com/leaselab/leaselab/engine/internal/testkit/modtest"
)

var update = flag.Bool("update", false, "rewrite the golden files with the packages' APIs")

const module = "github.com/leaselab/leaselab"

func root(t *testing.T) string {
	t.Helper()
	r, err := modtest.Root(".")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Every package a normal build of each GOOS can import from outside the
// module is listed once, as supported or as public without a promise: a
// new public package is a decision, not an accident.
func TestSurface_EveryImportablePackageIsListedOnce(t *testing.T) {
	root := root(t)
	importable := map[string]bool{}
	for _, env := range [][]string{nil, {"GOOS=js", "GOARCH=wasm"}} {
		cmd := exec.Command("go", "list", "-f", "{{.Name}} {{.ImportPath}}", "./...")
		cmd.Dir, cmd.Env = root, append(os.Environ(), env...)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list %v: %v", env, err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			name, path, _ := strings.Cut(line, " ")
			rel := strings.TrimPrefix(strings.TrimPrefix(path, module), "/")
			if name == "main" || rel == "" || strings.Contains("/"+rel+"/", "/internal/") {
				continue
			}
			importable[rel] = true
		}
	}
	listed := map[string]int{}
	for _, p := range slices.Concat(apisurface.Supported, apisurface.NoPromise) {
		listed[p.Path]++
		if !importable[p.Path] {
			t.Errorf("%s is listed, but no build can import it from outside the module", p.Path)
		}
	}
	for p := range importable {
		if listed[p] != 1 {
			t.Errorf("%s can be imported from outside the module and is listed %d times: add it once to Supported or NoPromise, or move it under engine/internal", p, listed[p])
		}
	}
}

// Each public package exports in a normal build exactly what its golden
// file holds (go test ./engine/internal/testkit/apisurface -update writes
// them): a change of the public API shows in review as a change of that
// file.
func TestSurface_EachPackageExportsWhatItsGoldenHolds(t *testing.T) {
	root := root(t)
	for _, p := range slices.Concat(apisurface.Supported, apisurface.NoPromise) {
		t.Run(p.Path, func(t *testing.T) {
			got, err := apisurface.API(filepath.Join(root, p.Path), p.GOOS)
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", apisurface.GoldenName(p.Path))
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test -update writes it)", err)
			}
			if got != string(want) {
				t.Errorf("the exported API of %s differs from %s (go test -update rewrites it, if the change is meant):\n%s",
					p.Path, golden, lineDiff(string(want), got))
			}
		})
	}
}

// A normal build exports no mutant: the broken engines, and every way to
// select one, exist only in builds with the mutants tag.
func TestSurface_ANormalBuildExportsNoMutant(t *testing.T) {
	root := root(t)
	for _, p := range slices.Concat(apisurface.Supported, apisurface.NoPromise) {
		api, err := apisurface.API(filepath.Join(root, p.Path), p.GOOS)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(api, "\n") {
			if strings.Contains(line, "Mutant") && !allowedMutantLine(p.Path, line) {
				t.Errorf("%s exports %q in a normal build", p.Path, strings.TrimSpace(line))
			}
		}
	}
}

// allowedMutantLine is a line of the API that may name a mutant in a
// normal build: the browser's engine (no promise) lists and plays them; a
// trace says which engine it ran on (data, "" in a normal build); and a
// timeline run's option names one, which a normal build refuses.
func allowedMutantLine(path, line string) bool {
	line = strings.TrimSpace(line)
	return path == "engine/simrun" ||
		(path == "engine/timeline" && (line == "Mutant string `json:\"mutant\"`" || line == "Mutant string"))
}

// lineDiff lists the lines only want has (-) and only got has (+).
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for _, l := range w {
		if !slices.Contains(g, l) {
			b.WriteString("- " + l + "\n")
		}
	}
	for _, l := range g {
		if !slices.Contains(w, l) {
			b.WriteString("+ " + l + "\n")
		}
	}
	return b.String()
}
