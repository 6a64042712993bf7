// Command mutants proves the test suite: it runs the tests of the engine's
// packages once with no mutant (they must pass) and once per named mutant
// (package engine/internal/mutant; each run must fail), and prints which test killed each
// mutant:
//
//	mutant claim-boundary -> killed by engine.TestClaim_ReclaimIffLeaseUntilReached
//	mutant renew-boundary -> SURVIVED
//
// A mutant's run stops at its first kill (see suite), so the test named is
// the first to fail, not the only one that would.
//
// It exits 1 unless the suite passes without a mutant and every mutant is
// killed. Run it from the module root (make mutants):
//
//	go run -tags mutants ./engine/internal/testkit/mutants [-pkgs ./engine/...]
//
// Each package's test binary is built once (-tags mutants) and run per
// mutant with LEASELAB_MUTANT set, which every test store reads; the
// binaries of one run go side by side, one per CPU. rapid's
// shrinking is capped and its fail files are not written: a kill needs a
// failure, not a minimal one.
package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/leaselab/leaselab/engine/internal/mutant"
)

// mutantEnv is the variable the engine's test stores read the mutant from.
const mutantEnv = "LEASELAB_MUTANT"

func main() {
	pkgs := flag.String("pkgs", "./engine/...", "packages whose tests must kill the mutants")
	timeout := flag.Duration("timeout", 5*time.Minute, "per test binary and mutant")
	only := flag.String("run", "", "run only the mutants whose names match this regexp")
	verbose := flag.Bool("v", false, "print each test binary's output")
	flag.Parse()

	start := time.Now()
	ok, err := run(*pkgs, *only, *timeout, *verbose)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutants:", err)
		os.Exit(1)
	}
	fmt.Printf("mutants: done in %v\n", time.Since(start).Round(100*time.Millisecond))
	if !ok {
		os.Exit(1)
	}
}

// testPkg is one package's test binary.
type testPkg struct {
	importPath, dir, binary string
}

// outcome is what one run of the suite showed.
type outcome struct {
	failed []string // failing top-level tests, as pkg.TestName, in output order
	crash  []string // binaries that failed without naming a test
}

func (o outcome) killed() bool { return len(o.failed)+len(o.crash) > 0 }

func run(pattern, only string, timeout time.Duration, verbose bool) (bool, error) {
	mutants := mutant.All()
	if len(mutants) == 0 {
		return false, errors.New("this build has no mutants: build with -tags mutants")
	}
	var filter *regexp.Regexp
	if only != "" {
		var err error
		if filter, err = regexp.Compile(only); err != nil {
			return false, err
		}
	}
	bin, err := os.MkdirTemp("", "leaselab-mutants-")
	if err != nil {
		return false, err
	}
	defer os.RemoveAll(bin)

	t0 := time.Now()
	pkgs, err := build(pattern, bin)
	if err != nil {
		return false, err
	}
	fmt.Printf("mutants: built %d test binaries in %v\n", len(pkgs), time.Since(t0).Round(100*time.Millisecond))

	t0 = time.Now()
	base := suite(pkgs, "", timeout, verbose)
	if base.killed() {
		fmt.Printf("mutants: the suite FAILS with no mutant (%s); fix it first\n", describe(base))
		return false, nil
	}
	fmt.Printf("mutants: the suite passes with no mutant (%v)\n", time.Since(t0).Round(100*time.Millisecond))

	allKilled := true
	killed, total := 0, 0
	for _, m := range mutants {
		if filter != nil && !filter.MatchString(m.Name) {
			continue
		}
		total++
		t0 := time.Now()
		o := suite(pkgs, m.Name, timeout, verbose)
		took := time.Since(t0).Round(100 * time.Millisecond)
		if o.killed() {
			killed++
			fmt.Printf("mutant %s -> killed by %s [%v]\n", m.Name, describe(o), took)
		} else {
			allKilled = false
			fmt.Printf("mutant %s -> SURVIVED (breaks: %s) [%v]\n", m.Name, m.Breaks, took)
		}
	}
	fmt.Printf("mutants: %d of %d killed\n", killed, total)
	return allKilled, nil
}

// describe names the first failure and counts the rest.
func describe(o outcome) string {
	all := append(append([]string(nil), o.failed...), o.crash...)
	s := all[0]
	if len(all) > 1 {
		s += fmt.Sprintf(" (and %d more)", len(all)-1)
	}
	return s
}

// build lists the packages matching pattern that have tests and builds
// each one's test binary into dir.
func build(pattern, dir string) ([]testPkg, error) {
	out, err := exec.Command("go", "list", "-tags", "mutants",
		"-f", "{{.ImportPath}}\t{{.Dir}}\t{{len .TestGoFiles}}\t{{len .XTestGoFiles}}", pattern).Output()
	if err != nil {
		return nil, fmt.Errorf("go list %s: %w%s", pattern, err, stderrOf(err))
	}
	var pkgs []testPkg
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 4 || (f[2] == "0" && f[3] == "0") {
			continue
		}
		pkgs = append(pkgs, testPkg{importPath: f[0], dir: f[1],
			binary: filepath.Join(dir, fmt.Sprintf("%02d-%s.test", len(pkgs), filepath.Base(f[0])))})
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("no package with tests matches %s", pattern)
	}
	// Each build writes its own binary.
	errs := make([]error, len(pkgs))
	perCPU(len(pkgs), func(i int) {
		p := pkgs[i]
		cmd := exec.Command("go", "test", "-tags", "mutants", "-c", "-o", p.binary, p.importPath)
		if b, err := cmd.CombinedOutput(); err != nil {
			errs[i] = fmt.Errorf("build the tests of %s: %w\n%s", p.importPath, err, b)
		}
	})
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return pkgs, nil
}

func stderrOf(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) && len(ee.Stderr) > 0 {
		return "\n" + string(ee.Stderr)
	}
	return ""
}

// failLine is a failing top-level test (subtests are indented).
var failLine = regexp.MustCompile(`^--- FAIL: (\S+)`)

// suite runs every test binary with mutant set, as many at once as there
// are CPUs (one binary keeps about one core busy), and collects the
// failures in the packages' order, whatever order the binaries end in.
//
// With no mutant every binary runs to its end: each failure is reported.
// With a mutant one failing test is a kill, so each binary stops at its
// first failure (-test.failfast) and, once one binary has failed, the
// others are stopped or not started: a run is then as long as the first
// kill, not as the slowest package. A stopped binary counts for nothing.
func suite(pkgs []testPkg, mutant string, timeout time.Duration, verbose bool) outcome {
	type result struct {
		out     []byte
		err     error
		stopped bool // ended or skipped because another binary killed the mutant
	}
	results := make([]result, len(pkgs))
	killed, kill := context.WithCancel(context.Background())
	defer kill()
	perCPU(len(pkgs), func(i int) {
		if killed.Err() != nil {
			results[i] = result{stopped: true}
			return
		}
		p := pkgs[i]
		ctx, cancel := context.WithTimeout(killed, timeout+30*time.Second)
		defer cancel()
		args := []string{"-test.count=1", "-test.timeout=" + timeout.String()}
		if mutant != "" {
			args = append(args, "-test.failfast")
		}
		cmd := exec.CommandContext(ctx, p.binary, args...)
		// A stopped binary's children (a test's subprocesses) may hold its
		// output open: its output is then given up a second later.
		cmd.WaitDelay = time.Second
		cmd.Dir = p.dir
		cmd.Env = append(os.Environ(),
			mutantEnv+"="+mutant,
			"RAPID_NOFAILFILE=true", // never write testdata/rapid into the repository
			"RAPID_SHRINKTIME=1s",
		)
		out, err := cmd.CombinedOutput()
		if err != nil && killed.Err() != nil {
			results[i] = result{out: out, stopped: true}
			return
		}
		results[i] = result{out, err, false}
		if err != nil && mutant != "" {
			kill()
		}
	})

	var o outcome
	for i, p := range pkgs {
		if results[i].stopped {
			if verbose {
				fmt.Printf("=== %s (mutant %q): stopped, the mutant was killed elsewhere\n", p.importPath, mutant)
			}
			continue
		}
		out, err := results[i].out, results[i].err
		if verbose {
			fmt.Printf("=== %s (mutant %q)\n%s", p.importPath, mutant, out)
		}
		short := strings.TrimPrefix(p.importPath, "github.com/leaselab/leaselab/")
		named := 0
		sc := bufio.NewScanner(bytes.NewReader(out))
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			if m := failLine.FindStringSubmatch(sc.Text()); m != nil {
				o.failed = append(o.failed, short+"."+m[1])
				named++
			}
		}
		if err != nil && named == 0 {
			o.crash = append(o.crash, fmt.Sprintf("%s (%v, no failing test named)", short, err))
		}
		if running := timedOut(out); running != "" {
			fmt.Printf("mutants: %s ran out of time (%v) with mutant %q, running: %s\n", short, timeout, mutant, running)
		}
		if err != nil && !verbose && mutant == "" {
			fmt.Printf("=== %s fails with no mutant:\n%s", p.importPath, tail(out, 60))
		}
	}
	return o
}

// perCPU calls work(i) for each i in [0, n), as many at once as there are
// CPUs, and returns when every call has.
func perCPU(n int, work func(i int)) {
	sem := make(chan struct{}, runtime.NumCPU())
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			work(i)
		}()
	}
	wg.Wait()
}

// timedOut names the tests a binary was running when go test's -timeout
// stopped it ("" when it did not): a mutant that makes a test loop is
// killed, but the minutes it costs should have a name.
func timedOut(out []byte) string {
	_, after, ok := bytes.Cut(out, []byte("panic: test timed out after"))
	if !ok {
		return ""
	}
	var names []string
	sc := bufio.NewScanner(bytes.NewReader(after))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			break
		}
		if strings.HasPrefix(line, "Test") {
			names = append(names, line)
		}
	}
	return strings.Join(names, ", ")
}

// tail returns the last n lines of out.
func tail(out []byte, n int) string {
	lines := strings.SplitAfter(string(out), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "")
}
