// Package citecheck holds the repository's text to its rule on citations:
// a comment or a string states the contract, the boundary or the present
// reason, and never cites where it came from. Check names each line that
// cites an issue or a pull request by number, the design or facts notes
// kept beside the repository by their file names, the course's source
// documents by their working name (or one of them by its number), or a path
// of the machine the repository was written on. A measured decision's
// history belongs in engine/DECISIONS.md, which is not checked.
//
// Files lists the repository's files the rule applies to: its tracked and
// new files (git ls-files), or, without git, the files under its root;
// never testdata, node_modules, generated bundles, go.sum, lock files,
// binary files or the record of decisions.
package citecheck

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"
)

// Finding is one line that cites what the rule forbids.
type Finding struct {
	Line int    // 1-based
	Text string // what matched
	What string // what it cites
}

// rules are written so that no line of this file matches one.
var rules = []struct {
	re   *regexp.Regexp
	what string
}{
	{regexp.MustCompile(`(?i)\b(issue|pull request)\s+#?\d+`), "an issue by number"},
	{regexp.MustCompile(`\bPR\s*#?\d+`), "an issue by number"},
	{regexp.MustCompile(`(?i)\b(fix(es|ed)?|close[sd]?|resolve[sd]?|see)\s+#\d+\b`), "an issue by number"},
	{regexp.MustCompile(`/(issues|pull)/\d+`), "an issue by its address"},
	{regexp.MustCompile(`\b(DESIGN|FACTS)(\.md\b|[']s\b)`), "a file outside the repository"},
	{regexp.MustCompile(`(?i)\bthe\s+seeds\b|\bseeds[']`), "the course's source documents"},
	{regexp.MustCompile(`(?i)\bseeds?\s*0\d\d\b|Seed0\d\d`), "one of the course's source documents"},
	{regexp.MustCompile("(^|[\\s\"'`(])/wor[k]/"), "a path of this machine"},
}

// Check returns every citation in src, in the order of its lines; on one
// line, each rule's first match.
func Check(src string) []Finding {
	var out []Finding
	for i, line := range strings.Split(src, "\n") {
		for _, r := range rules {
			if m := r.re.FindString(line); m != "" {
				out = append(out, Finding{Line: i + 1, Text: m, What: r.what})
			}
		}
	}
	return out
}

// Record is the repository's record of measured decisions, which keeps
// what the comments leave out and so is not checked.
const Record = "engine/DECISIONS.md"

// Skip reports whether the rule does not apply to the file at p, a
// slash-separated path from the repository's root: generated, vendored or
// test input, checksums and lock files, and the record of decisions.
func Skip(p string) bool {
	for _, dir := range strings.Split(path.Dir(p), "/") {
		if dir == "testdata" || dir == "node_modules" {
			return true
		}
	}
	base := path.Base(p)
	return p == Record || base == "go.sum" || strings.Contains(base, ".bundle.") ||
		strings.HasSuffix(base, "-lock.json") || strings.HasSuffix(base, ".lock")
}

// Files lists the files under root the rule applies to, as slash-separated
// paths from root.
func Files(root string) ([]string, error) {
	names, err := gitFiles(root)
	if err != nil {
		names, err = walkFiles(root)
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, n := range names {
		if !Skip(n) {
			out = append(out, n)
		}
	}
	return out, nil
}

// gitFiles lists the tracked files and the new ones git does not ignore.
func gitFiles(root string) ([]string, error) {
	cmd := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return nil, err
	}
	var names []string
	for _, n := range bytes.Split(out, []byte{0}) {
		if len(n) > 0 {
			names = append(names, string(n))
		}
	}
	if len(names) == 0 {
		return nil, errors.New("citecheck: git lists no file")
	}
	return names, nil
}

// walkFiles lists the regular files under root, leaving out git's own and
// what the builds and the package managers write.
func walkFiles(root string) ([]string, error) {
	var names []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "testdata", ".wrangler", "build":
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && d.Name() != ".git" { // a worktree's .git is a file
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			names = append(names, filepath.ToSlash(rel))
		}
		return nil
	})
	return names, err
}

// CheckFile reads the file at p under root and checks it; a binary file
// (one with a NUL byte) or one no longer there has nothing to check.
func CheckFile(root, p string) ([]Finding, error) {
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil || bytes.IndexByte(b, 0) >= 0 {
		return nil, err
	}
	return Check(string(b)), nil
}
