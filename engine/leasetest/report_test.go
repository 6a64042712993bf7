package leasetest_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/testkit/modtest"
	"github.com/leaselab/leaselab/engine/internal/testkit/nativeonly"
)

// runModule runs go test -v on files in a module of their own that
// requires this checkout, as a reader's tests would run.
func runModule(t *testing.T, files map[string]string) modtest.Result {
	t.Helper()
	nativeonly.Test(t, "the go command")
	root, err := modtest.Root(".")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := modtest.Write(dir, root, files); err != nil {
		t.Fatal(err)
	}
	res, err := modtest.Test(dir)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// lineOf is the line of src that holds s, counted from 1.
func lineOf(t *testing.T, src, s string) int {
	t.Helper()
	i := strings.Index(src, s)
	if i < 0 {
		t.Fatalf("%q is not in the source", s)
	}
	return strings.Count(src[:i], "\n") + 1
}

const callerTest = `package worker_test

import (
	"testing"

	"github.com/leaselab/leaselab/engine/leasetest"
)

func TestStampless(t *testing.T) {
	leasetest.Run(t, newStampless)
}
`

// A failure of Run, of a timeline or of the random sequences, is reported
// at the line of the caller's test that called Run, not inside leasetest.
func TestRun_FailuresPointAtTheCallersLine(t *testing.T) {
	res := runModule(t, map[string]string{"queue_test.go": stampless, "caller_test.go": callerTest})
	if pass, ran := res.Passed["TestStampless"]; !ran || pass {
		t.Fatalf("TestStampless ran %t, passed %t:\n%s", ran, pass, res.Output)
	}
	at := regexp.QuoteMeta("caller_test.go:" + strconv.Itoa(lineOf(t, callerTest, "leasetest.Run(t, newStampless)")) + ": ")
	for _, want := range []string{at + `01-late-courier\.tl:12: `, at + `(seed \d+: )?call \d+: `} {
		if !regexp.MustCompile(want).MatchString(res.Output) {
			t.Errorf("no failure matches %q:\n%s", want, res.Output)
		}
	}
	if inside := regexp.MustCompile(`(?m)^\s+(run|sequences|lockstep|timelines|queue)\.go:\d+: `).FindString(res.Output); inside != "" {
		t.Errorf("a failure points inside leasetest (%q):\n%s", inside, res.Output)
	}
}
