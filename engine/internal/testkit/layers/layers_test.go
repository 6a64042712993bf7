package layers_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/testkit/layers"
)

const module = "github.com/leaselab/leaselab"

// listed is a package as go list gives it.
type listed struct {
	ImportPath string
	Imports    []string
}

// list runs go list over the module for one build (env and tags) and
// returns its packages, keyed by folder from the module's root.
func list(t *testing.T, root string, env []string, tags string) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-e", "-json", "-tags", tags, "./...")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("go list %v: %v\n%s", env, err, errOut.String())
	}
	pkgs := map[string][]string{}
	dec := json.NewDecoder(&out)
	for dec.More() {
		var p listed
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		pkgs[folder(p.ImportPath)] = p.Imports
	}
	return pkgs
}

// folder is an import path of the module as a folder from its root ("."
// for the root), or "" for another module's.
func folder(path string) string {
	if path == module {
		return "."
	}
	rest, ok := strings.CutPrefix(path, module+"/")
	if !ok {
		return ""
	}
	return rest
}

func root(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && bytes.Contains(b, []byte("module "+module+"\n")) {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no leaselab go.mod above the test")
		}
		dir = parent
	}
}

// Every package of every build is on the whiteboard or among the tools
// beside it; every import between whiteboard packages points down, to a
// lower layer; no whiteboard package imports a tool.
func TestWhiteboard_EveryImportPointsDown(t *testing.T) {
	root := root(t)
	builds := []struct {
		name string
		env  []string
		tags string
	}{
		{"native", nil, "mutants,e2e,sites"},
		{"native, a normal build", nil, ""},
		{"GOOS=js", []string{"GOOS=js", "GOARCH=wasm"}, "mutants"},
	}
	seen := map[string]bool{}
	for _, b := range builds {
		for pkg, imports := range list(t, root, b.env, b.tags) {
			rank, ok := layers.Rank(pkg)
			if !ok && strings.HasPrefix(pkg, "engine/internal/") {
				continue // the tools beside the board
			}
			seen[pkg] = true
			if !ok {
				t.Errorf("%s (%s): not on the whiteboard; add it to layers.Board at its layer", pkg, b.name)
				continue
			}
			for _, imp := range imports {
				dep := folder(imp)
				switch depRank, onBoard := layers.Rank(dep); {
				case dep == "":
				case strings.HasPrefix(dep, "engine/internal/") && !onBoard:
					t.Errorf("%s (%s) imports the tool %s: nothing on the whiteboard may", pkg, b.name, dep)
				case !onBoard:
					t.Errorf("%s (%s) imports %s, which is not on the whiteboard", pkg, b.name, dep)
				case depRank <= rank:
					t.Errorf("%s (layer %d, %s) imports %s (layer %d): an arrow that does not point down", pkg, rank+1, b.name, dep, depRank+1)
				}
			}
		}
	}
	for _, l := range layers.Board {
		for _, p := range l.Packages {
			if !seen[p] {
				t.Errorf("the whiteboard lists %s, which no build has", p)
			}
		}
	}
}

// The README shows the whiteboard as the board holds it.
func TestWhiteboard_TheReadmeShowsIt(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if want := layers.Whiteboard(); !strings.Contains(string(b), want) {
		t.Fatalf("README.md lacks the whiteboard as layers.Board holds it:\n%s", want)
	}
}

// changingSection is the README's section for people changing leaselab.
func changingSection(t *testing.T, root string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "\n## Changing leaselab\n")
	if !ok {
		t.Fatal("README.md has no section ## Changing leaselab")
	}
	if i := strings.Index(rest, "\n## "); i >= 0 {
		rest = rest[:i]
	}
	return rest
}

// The README's section for people changing leaselab says what is so: each
// make target it names is one make runs (make -n, and make help lists it),
// and each file and folder it names is there.
func TestReadme_ChangingLeaselabNamesWhatIsThere(t *testing.T) {
	root := root(t)
	section := changingSection(t, root)
	help := exec.Command("make", "-s", "help")
	help.Dir = root
	help.Env = withoutMakeFlags()
	listing, err := help.Output()
	if err != nil {
		t.Fatalf("make help: %v", err)
	}
	targets, paths := 0, 0
	for _, quoted := range backticked(section) {
		switch {
		case strings.HasPrefix(quoted, "make "):
			targets++
			target := strings.TrimPrefix(quoted, "make ")
			dry := exec.Command("make", "-n", target)
			dry.Dir = root
			dry.Env = withoutMakeFlags()
			if out, err := dry.CombinedOutput(); err != nil {
				t.Errorf("the README names %q, but make -n %s fails: %v\n%s", quoted, target, err, out)
			}
			if !strings.Contains(string(listing), "  "+target+" ") {
				t.Errorf("the README names %q, which make help does not list", quoted)
			}
		case strings.HasPrefix(quoted, "engine/") || strings.HasPrefix(quoted, "wasm/") || strings.HasPrefix(quoted, "web/") ||
			strings.HasPrefix(quoted, ".ci/") || quoted == "serve.go":
			paths++
			if _, err := os.Stat(filepath.Join(root, quoted)); err != nil {
				t.Errorf("the README names %s, which is not there: %v", quoted, err)
			}
		}
	}
	if targets < 3 || paths < 10 {
		t.Fatalf("the section names %d make targets and %d paths; want make check, test and bench and where things live", targets, paths)
	}
}

// backticked is every `quoted` span of text.
func backticked(text string) []string {
	var out []string
	parts := strings.Split(text, "`")
	for i := 1; i < len(parts); i += 2 {
		out = append(out, parts[i])
	}
	return out
}

// withoutMakeFlags is the environment without what a make running this
// test would pass to the make it starts.
func withoutMakeFlags() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "MAKEFLAGS=") && !strings.HasPrefix(kv, "MAKELEVEL=") && !strings.HasPrefix(kv, "MFLAGS=") {
			env = append(env, kv)
		}
	}
	return env
}
