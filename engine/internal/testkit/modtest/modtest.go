// Package modtest runs Go test files the way a reader of leaselab would: in
// a module of their own that requires github.com/leaselab/leaselab, here
// replaced by this checkout's source. The module gets this checkout's own
// requirements and checksums, and go runs with GOPROXY=off, so nothing is
// fetched: every module must already be in the module cache (building this
// checkout put it there).
package modtest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// Module is the path of the modules Write creates.
const Module = "example.com/timelines"

// Root returns the root directory of the leaselab checkout that holds dir
// (the nearest go.mod above it, which must be leaselab's).
func Root(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil {
			if !bytes.HasPrefix(mod, []byte("module github.com/leaselab/leaselab\n")) {
				return "", fmt.Errorf("modtest: %s/go.mod is not leaselab's", dir)
			}
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("modtest: no go.mod above the directory")
		}
		dir = parent
	}
}

// Write makes dir a module (go.mod, go.sum) that requires leaselab from
// root, and writes files (name -> content) into it.
func Write(dir, root string, files map[string]string) error {
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return err
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		return err
	}
	goLine, requires := "go 1.24", []string{"\tgithub.com/leaselab/leaselab v0.0.0"}
	inBlock := false
	sc := bufio.NewScanner(bytes.NewReader(mod))
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(l, "go "):
			goLine = l
		case l == "require (":
			inBlock = true
		case inBlock && l == ")":
			inBlock = false
		case inBlock && l != "":
			requires = append(requires, "\t"+l)
		case strings.HasPrefix(l, "require "):
			requires = append(requires, "\t"+strings.TrimPrefix(l, "require "))
		}
	}
	gomod := "module " + Module + "\n\n" + goLine + "\n\nrequire (\n" + strings.Join(requires, "\n") +
		"\n)\n\nreplace github.com/leaselab/leaselab => " + root + "\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
		return err
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Result is what go test -v reported.
type Result struct {
	// Passed maps each top-level test that ran to whether it passed.
	Passed map[string]bool
	// Output is go test's combined output.
	Output string
}

var verdict = regexp.MustCompile(`(?m)^--- (PASS|FAIL): (\S+)`)

// Test runs go test -count=1 -v in dir, offline. A failing test is not an
// error (see Result.Passed); a build that fails, or go that cannot run, is.
func Test(dir string) (Result, error) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		return Result{}, fmt.Errorf("modtest: go is not on PATH: %w", err)
	}
	cmd := exec.Command(goBin, "test", "-count=1", "-v", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	res := Result{Passed: map[string]bool{}, Output: string(out)}
	for _, m := range verdict.FindAllStringSubmatch(res.Output, -1) {
		res.Passed[m[2]] = m[1] == "PASS"
	}
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && len(res.Passed) > 0) {
		return res, fmt.Errorf("modtest: go test: %v\n%s", err, out)
	}
	return res, nil
}
