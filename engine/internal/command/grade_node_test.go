package command

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// nodeRecipe is the guide's Node.js recipe: student.js, and the
// package.json and lock file that pin better-sqlite3.
const nodeRecipe = "../../grade/testdata/node"

// nodeRecipeDir installs the recipe's lock file (npm ci) once per
// package.json and lock file, in the user's cache folder, outside the
// repository, copies student.js beside it and returns the folder. A first
// install builds better-sqlite3's SQLite from source where no prebuilt
// binary can be fetched: minutes.
func nodeRecipeDir(t *testing.T) string {
	t.Helper()
	sum := sha256.New()
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(nodeRecipe, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	files := map[string][]byte{}
	for _, f := range []string{"package.json", "package-lock.json"} {
		files[f] = read(f)
		sum.Write(files[f])
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(cache, "leaselab-node-recipe", hex.EncodeToString(sum.Sum(nil)[:8]))
	if _, err := os.Stat(filepath.Join(dir, ".installed")); err != nil {
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, b := range files {
			if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		began := time.Now()
		npm := exec.Command("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
		npm.Dir, npm.Env = dir, append(os.Environ(), "CI=true")
		if out, err := npm.CombinedOutput(); err != nil {
			t.Fatalf("npm ci of the recipe: %v\n%s", err, out)
		}
		t.Logf("npm ci of the recipe took %v", time.Since(began).Round(100*time.Millisecond))
		if err := os.WriteFile(filepath.Join(dir, ".installed"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "student.js"), read("student.js"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// The guide's Node.js recipe is the one the test below grades: its
// package.json and student.js, to the byte.
func TestGuide_NodeRecipeIsTheTestedOne(t *testing.T) {
	for label, file := range map[string]string{"package.json (Node.js)": "package.json", "student.js (Node.js)": "student.js"} {
		b, err := os.ReadFile(filepath.Join(nodeRecipe, file))
		if err != nil {
			t.Fatal(err)
		}
		if got := guideBlock(t, label); got != strings.TrimRight(string(b), "\n") {
			t.Errorf("the guide's %s is not %s/%s:\n%s", label, nodeRecipe, file, got)
		}
	}
}

// The guide's Node.js recipe passes leaselab grade -cmd 'node student.js'.
// It runs in CI (CI=true) or when LEASELAB_NODE_RECIPE=1, where node and
// npm are, and never under -short: its first install compiles SQLite.
func TestGrade_NodeRecipePassesWithCmd(t *testing.T) {
	switch {
	case testing.Short():
		t.Skip("-short: the Node.js recipe installs better-sqlite3")
	case os.Getenv("CI") != "true" && os.Getenv("LEASELAB_NODE_RECIPE") != "1":
		t.Skip("the Node.js recipe runs in CI (CI=true) or with LEASELAB_NODE_RECIPE=1: its first install compiles SQLite")
	}
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("the Node.js recipe needs %s: %v", tool, err)
		}
	}
	t.Chdir(nodeRecipeDir(t))
	began := time.Now()
	code, out, errOut := main1(t, "", "grade", "-cmd", "node student.js")
	if code != ExitPass || !strings.Contains(out, "PASS  step 8: claim_many") || !strings.Contains(out, "PASS  search:") {
		t.Fatalf("exit %d:\n%s\n%s", code, out, errOut)
	}
	t.Logf("leaselab grade -cmd 'node student.js' passed in %v", time.Since(began).Round(100*time.Millisecond))
}
