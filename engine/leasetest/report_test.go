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

const reopenTest = `package worker_test

import (
	"testing"

	"github.com/leaselab/leaselab/engine/leasetest"
	"github.com/leaselab/leaselab/engine/leasetest/enginetest"
)

// noReopen hides the model's Reopen.
type noReopen struct{ leasetest.Queue }

func newNoReopen(*testing.T) leasetest.Queue { return noReopen{leasetest.Model()} }

func TestRunWithoutReopen(t *testing.T) { leasetest.Run(t, newNoReopen) }

func TestRunWithReopen(t *testing.T) {
	leasetest.Run(t, func(*testing.T) leasetest.Queue { return leasetest.Model() })
}

func TestTimelineWithoutReopen(t *testing.T) {
	enginetest.RunTimeline(t, "restart.tl", "lease 1000ms\njob a\n0ms A claim a -> ok token=1\n500ms admin reopen\n1000ms B claim a -> ok token=2\n", newNoReopen)
}
`

// A timeline's reopen steps, which a Queue that is no Reopener cannot
// take, are not skipped in silence: the test's log names the timeline and
// the lines; a Reopener's log says nothing of them.
func TestRun_SaysWhichReopenStepsItSkips(t *testing.T) {
	res := runModule(t, map[string]string{"reopen_test.go": reopenTest})
	for _, fn := range []string{"TestRunWithoutReopen", "TestRunWithReopen", "TestTimelineWithoutReopen"} {
		if pass, ran := res.Passed[fn]; !ran || !pass {
			t.Errorf("%s ran %t, passed %t", fn, ran, pass)
		}
	}
	const notPlayed = "not played: the Queue is not a leasetest.Reopener"
	for _, want := range []string{
		"15-restart-keeps-tokens.tl: the reopen step at line 7 is " + notPlayed,
		"23-service-forgets.tl: the reopen step at line 11 is " + notPlayed,
		"restart.tl: the reopen step at line 4 is " + notPlayed,
	} {
		if !strings.Contains(res.Output, want) {
			t.Errorf("the log lacks %q", want)
		}
	}
	_, withReopen, _ := strings.Cut(res.Output, "=== RUN   TestRunWithReopen\n")
	withReopen, _, _ = strings.Cut(withReopen, "=== RUN   TestTimelineWithoutReopen")
	if withReopen == "" || strings.Contains(withReopen, notPlayed) {
		t.Errorf("a Reopener's run says its reopen steps are not played, or did not run:\n%s", withReopen)
	}
	if t.Failed() {
		t.Log(res.Output)
	}
}
