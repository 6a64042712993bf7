package citecheck

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/testkit/modtest"
)

func TestCheck_NamesEachCitationAndPassesWhatOnlyLooksLikeOne(t *testing.T) {
	const (
		issue  = "an issue by number"
		addr   = "an issue by its address"
		file   = "a file outside the repository"
		seeds  = "the course's source documents"
		seed   = "one of the course's source documents"
		thisFS = "a path of this machine"
	)
	cases := []struct {
		name, src string
		want      []Finding // nil: nothing cited
	}{
		{"an issue in a comment", "// the cold start (" + cite("issue", 15) + ").", []Finding{{1, cite("issue", 15), issue}}},
		{"an issue's point", "// " + cite("Issue", 14) + ".3: a worksheet", []Finding{{1, cite("Issue", 14), issue}}},
		{"an issue with a hash", "// see issue #7", []Finding{{1, "issue #7", issue}}},
		{"an issue in a printed string", `fmt.Println("goals (` + cite("issue", 15) + `)")`, []Finding{{1, cite("issue", 15), issue}}},
		{"a pull request", "// PR #12 made it so", []Finding{{1, "PR #12", issue}}},
		{"a hash after fixes", "// fixes #3", []Finding{{1, "fixes #3", issue}}},
		{"an issue's address", "// github.com/golang/go/issues/1234", []Finding{{1, "/issues/1234", addr}}},
		{"a pull request's address", "// example.org/x/pull/9", []Finding{{1, "/pull/9", addr}}},
		{"the design notes", "// " + design + " suggested DOM views", []Finding{{1, design, file}}},
		{"the design notes, possessive", "// DESIGN's example", []Finding{{1, "DESIGN's", file}}},
		{"the facts notes", "# as FACTS.md says", []Finding{{1, "FACTS.md", file}}},
		{"the lab documents", "// as " + theSeeds + " teach", []Finding{{1, theSeeds, seeds}}},
		{"the lab documents, possessive", "// " + theSeeds + "' state", []Finding{{1, theSeeds, seeds}}},
		{"seeds, possessive, without the", "// both seeds' systems", []Finding{{1, "seeds'", seeds}}},
		{"a seed by number", `{"seed 000: stale complete", ...}`, []Finding{{1, "seed 000", seed}}},
		{"seeds by number", "// the shape seeds 000 and 001 teach", []Finding{{1, "seeds 000", seed}}},
		{"a seed in a test's name", "func TestDispatch_Seed000_LateCourier(t *testing.T) {", []Finding{{1, "Seed000", seed}}},
		{"a path of this machine", `dir := "/wor` + `k/shared"`, []Finding{{1, `"/work/`, thisFS}}},
		{"each line by its number", "a\n// b\n// " + cite("issue", 4) + "\n", []Finding{{3, cite("issue", 4), issue}}},

		{"an issue without a number", "// Serializable makes go-sqlite3 issue BEGIN IMMEDIATE", nil},
		{"a verb before a count", "// the driver issues 2 statements", nil},
		{"a token, not an issue", "// A#1, lease_until 1000; want B#2", nil},
		{"a hash in a selector", "document.querySelector('#player')", nil},
		{"the design in lower case", "// the design's first timeline", nil},
		{"a hash seed", "seed maphash.Seed", nil},
		{"a fuzz seed corpus", "// The seed corpus is in testdata/fuzz.", nil},
		{"a random seed", "rand.New(rand.NewPCG(seed, 1))", nil},
		{"seeding a fuzz test", `f.Fatalf("seeding %s", body)`, nil},
		{"a seed's case, not numbered", "// " + "the" + " seed value 42", nil},
		{"a path of this machine in a comment", "// see /wor" + "k/notes", []Finding{{1, " /work/", thisFS}}},
		{"a path under a work folder", "// ./work/ is ignored", nil},
		{"a working directory", "// the working directory /srv/work", nil},
		{"nothing", "", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Check(c.src); fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("Check(%q) = %v, want %v", c.src, got, c.want)
			}
		})
	}
}

func TestSkip_LeavesOutGeneratedVendoredAndTestInputAndTheRecord(t *testing.T) {
	for _, c := range []struct {
		path string
		want bool
	}{
		{"engine/timeline/testdata/golden/01-late-courier.json", true},
		{"testdata/x.go", true},
		{"web/.tools/node_modules/x/index.js", true},
		{"web/app.bundle.js", true},
		{"web/engine-worker.bundle.js.map", true},
		{"go.sum", true},
		{"web/.tools/package-lock.json", true},
		{"x/yarn.lock", true},
		{Record, true},

		{"engine/testdatax/a.go", false},
		{"engine/timeline/library/15-restart-keeps-tokens.tl", false},
		{"web/app.js", false},
		{"go.mod", false},
		{"README.md", false},
		{"engine/internal/DECISIONS.md", false},
		{"Makefile", false},
	} {
		if got := Skip(c.path); got != c.want {
			t.Errorf("Skip(%q) = %v, want %v", c.path, got, c.want)
		}
	}
}

// TestRepository_CitesNoIssueSeedOrFileOutsideIt holds every file of the
// repository the rule applies to, but this package's tests, which must
// plant what they look for.
func TestRepository_CitesNoIssueSeedOrFileOutsideIt(t *testing.T) {
	root, err := modtest.Root(".")
	if err != nil {
		t.Fatal(err)
	}
	here, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	own, err := filepath.Rel(root, here)
	if err != nil {
		t.Fatal(err)
	}
	files, err := Files(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, must := range []string{"README.md", "Makefile", "engine/doc.go", "web/app.js"} {
		if !slices.Contains(files, must) {
			t.Fatalf("Files lists %d files, not %s", len(files), must)
		}
	}
	for _, f := range files {
		if matched, _ := filepath.Match(filepath.ToSlash(own)+"/*_test.go", f); matched {
			continue
		}
		found, err := CheckFile(root, f)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range found {
			t.Errorf("%s:%d: %q cites %s; state the present reason (a measured decision's history goes in %s)", f, c.Line, c.Text, c.What, Record)
		}
	}
}

func TestCheckFile_BinaryOrGoneIsNothingToCheck(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "b.wasm"), []byte("\x00asm "+cite("issue", 15)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "t.go"), []byte("// "+cite("issue", 15)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		want int
	}{{"b.wasm", 0}, {"gone.go", 0}, {"t.go", 1}} {
		got, err := CheckFile(dir, c.name)
		if err != nil || len(got) != c.want {
			t.Errorf("CheckFile(%s) = %v, %v; want %d findings", c.name, got, err, c.want)
		}
	}
}

func TestWalkFiles_LeavesOutGitsOwnAndWhatBuildsWrite(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"a.go", "web/.tools/test/t.js", ".git/config", "x/node_modules/m.js",
		"e/testdata/d.txt", "wasm/worker/build/worker.mjs", "wasm/worker/.wrangler/s.json", "worktree/.git"} {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := walkFiles(dir)
	if want := []string{"a.go", "web/.tools/test/t.js"}; err != nil || !slices.Equal(got, want) {
		t.Errorf("walkFiles = %q, %v; want %q", got, err, want)
	}
}

// The citations the tests plant are assembled, so that this file, which
// the repository's own check skips, holds none a plain search would find.
var (
	design   = "DESIGN" + ".md"
	theSeeds = "the" + " seeds"
)

// cite is "word n", an issue citation to plant.
func cite(word string, n int) string { return word + " " + strconv.Itoa(n) }
