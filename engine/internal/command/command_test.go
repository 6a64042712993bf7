package command

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/leaselab/leaselab/engine/internal/explore"
	"github.com/leaselab/leaselab/engine/timeline"
)

func main1(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var o, e bytes.Buffer
	code := Main(args, strings.NewReader(stdin), &o, &e)
	return code, o.String(), e.String()
}

// leaselab alone prints its usage and exits 2: it never starts a server or
// creates a database file unasked.
func TestMain_AloneprintsUsageStartsNothingCreatesNothing(t *testing.T) {
	t.Chdir(t.TempDir())
	code, out, errOut := main1(t, "")
	if code != 2 || out != "" || !strings.Contains(errOut, "usage: leaselab COMMAND") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	for _, cmd := range []string{"check", "transcript", "trace", "export", "mutants", "serve", "Exit status: 0"} {
		if !strings.Contains(errOut, cmd) {
			t.Errorf("the usage does not mention %q:\n%s", cmd, errOut)
		}
	}
	if entries, _ := os.ReadDir("."); len(entries) != 0 {
		t.Fatalf("leaselab alone created %v", entries)
	}
}

// Every command answers -h with its usage on standard output only, the exit
// statuses included, and exit 0; an unknown command is 2.
func TestMain_EveryCommandTakesH(t *testing.T) {
	for _, cmd := range [][]string{{"check"}, {"transcript"}, {"trace"}, {"export"}, {"export", "gotest"}, {"mutants"}, {"prerender"}, {"grade"}, {"lab"}, {"history"}} {
		code, out, errOut := main1(t, "", append(cmd, "-h")...)
		if code != 0 || !strings.Contains(out, "usage: leaselab "+cmd[0]) || !strings.Contains(out, "Exit status: 0") || errOut != "" {
			t.Errorf("%v -h: exit %d, stdout %q, stderr %q", cmd, code, out, errOut)
		}
	}
	if code, out, errOut := main1(t, "", "serve", "-h"); code != 0 || !strings.Contains(out, "usage: leaselab serve") || errOut != "" {
		t.Errorf("serve -h: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if code, _, errOut := main1(t, "", "grab"); code != 2 || !strings.Contains(errOut, `unknown command "grab"`) {
		t.Errorf("unknown command: exit %d, %q", code, errOut)
	}
}

const story = `# Late courier
lease 1000ms
job order-7 qty=2

0ms     A claim order-7            -> ok token=1 lease_until=1000
# A's lease ends; B takes the job.
1000ms  B claim order-7            -> ok token=2
1001ms  A complete order-7         -> refused superseded
1200ms  B complete order-7         -> ok
`

// Every author's command reads - as standard input.
func TestMain_DashReadsStandardInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"check", "-"}, "PASS: 1 timeline, 4 steps, 4 expectations held"},
		{[]string{"trace", "-"}, `"format": 2`},
		{[]string{"transcript", "-"}, "# A's lease ends; B takes the job."},
		{[]string{"export", "gotest", "-"}, "func TestLateCourier(t *testing.T) {"},
	} {
		code, out, errOut := main1(t, story, tc.args...)
		if code != 0 || !strings.Contains(out, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; stdout lacks %q:\n%s", tc.args, code, errOut, tc.want, out)
		}
	}
}

// The transcript tells each step: its note, its line, its outcome and the
// sentence; in Korean, its own words are Korean too.
func TestTranscript_TellsEachStepInItsLanguage(t *testing.T) {
	code, out, _ := main1(t, story, "transcript", "-")
	for _, want := range []string{
		"  # A's lease ends; B takes the job.\n  line 7: 1000ms  B claim order-7            -> ok token=2\n",
		"    ok token=2 lease_until=2000  ✓ held\n",
		"    B claims order-7, whose lease by A with token 1 ended at 1000 ms, and gets token 2; the lease runs until 2000 ms.\n",
		"    refused superseded  ✓ held\n",
		"  PASS 4 steps, 4 of 4 expectations held, 0 invariant violations\n",
	} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("exit %d; the transcript lacks %q:\n%s", code, want, out)
		}
	}
	code, out, _ = main1(t, story, "transcript", "-lang", "ko", "-")
	for _, want := range []string{"  줄 7: ", "✓ 맞음", "B(이)가", "통과"} {
		if want == "B(이)가" {
			want = "B가"
		}
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("exit %d; the Korean transcript lacks %q:\n%s", code, want, out)
		}
	}
	if strings.Contains(out, " held") || strings.Contains(out, "PASS") {
		t.Errorf("the Korean transcript has English words:\n%s", out)
	}
}

// check -lang ko speaks Korean: its headings and its verdicts, each count
// in Korean order (the noun, then the number and its counter).
func TestCheck_KoreanWords(t *testing.T) {
	code, out, _ := main1(t, story, "check", "-lang", "ko", "-")
	for _, want := range []string{"줄", "작업자", "맞음", "통과: 타임라인 1개, ", "통과 4단계, 기대 4개 중 4개 맞음, 불변식 위반 0건\n"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("exit %d; check -lang ko lacks %q:\n%s", code, want, out)
		}
	}
	code, out, _ = main1(t, "lease 1000ms\njob a\n0ms A clam a\n", "check", "-lang", "ko", "-")
	for _, want := range []string{"잘못된 입력 (오류 1개)", "잘못된 입력: 전체 1개 중 타임라인 1개; 통과 0개, 실패 0개"} {
		if code != 2 || !strings.Contains(out, want) {
			t.Errorf("exit %d; check -lang ko of bad input lacks %q:\n%s", code, want, out)
		}
	}
}

// export gotest writes the caller's package clause, and with -queue a test
// of the caller's own queue; a name go test would not take is refused.
func TestExport_WritesATestForTheCallersPackage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"export", "gotest", "-"}, 0, []string{"package leaselabtest\n"}},
		{[]string{"export", "gotest", "-package", "worker", "-"}, 0, []string{"package worker\n", "func TestLateCourier(t *testing.T) {"}},
		{[]string{"export", "gotest", "-package", "worker_test", "-queue", "newQueue", "-"}, 0,
			[]string{"package worker_test\n", `enginetest.RunTimeline(t, "stdin.tl", testLateCourierSource, newQueue)`}},
		{[]string{"export", "gotest", "-package", "my-worker", "-"}, ExitBadInput, nil},
		{[]string{"export", "gotest", "-queue", "new(", "-"}, ExitBadInput, nil},
	} {
		code, out, errOut := main1(t, story, tc.args...)
		if code != tc.code {
			t.Errorf("%v: exit %d, want %d; stderr %q", tc.args, code, tc.code, errOut)
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: stdout lacks %q:\n%s", tc.args, w, out)
			}
		}
	}
}

// export gotest exits as -h promises: 1 when an expectation fails or an
// invariant breaks unannounced on the engine, with the failure on standard
// error and the test still written (it fails the same way); 0 when all
// holds, as in the test above.
func TestExport_ExitsOneOnAFailingTimelineAndStillWritesTheTest(t *testing.T) {
	for _, tc := range []struct {
		name, src, says string
	}{
		{"a wrong expectation", strings.Replace(story, "-> refused superseded", "-> ok", 1), "stdin.tl:8: expected ok, got refused superseded"},
		{"an unannounced break", unannounced(t), "stdin.tl:11: breaks tokens-increase: "},
	} {
		for _, queue := range []string{"", "newQueue"} {
			args := []string{"export", "gotest", "-"}
			if queue != "" {
				args = []string{"export", "gotest", "-queue", queue, "-"}
			}
			code, out, errOut := main1(t, tc.src, args...)
			if code != ExitFail || !strings.Contains(errOut, tc.says) || !strings.Contains(out, "(t *testing.T) {") {
				t.Errorf("%s %v: exit %d, stderr %q; want exit 1 saying %q and the test on stdout:\n%s", tc.name, args, code, errOut, tc.says, out)
			}
		}
	}
}

// unannounced is the library's story of a service that forgets its
// tokens, with the break it announces left out.
func unannounced(t *testing.T) string {
	t.Helper()
	src, err := timeline.LibrarySource("23-service-forgets.tl")
	if err != nil || !strings.Contains(src, " violates=tokens-increase") {
		t.Fatalf("the story no longer announces its break (%v)", err)
	}
	return strings.ReplaceAll(src, " violates=tokens-increase", "")
}

// A lease that ends while a step takes its time (a slow send) is told
// after that step, not before it; one that ended before the step, before.
func TestTranscript_ExpiryComesAfterTheStepThatOutlastedIt(t *testing.T) {
	const story = "lease 1000ms\njob a\njob b\n0ms A claim b\n1000ms B send took=1200ms -> refused expired job=a\n"
	_, out, _ := main1(t, story, "transcript", "-")
	ended := strings.Index(out, "1000 ms, lease ended: b (A, token 1)")
	step := strings.Index(out, "line 5:")
	during := strings.Index(out, "2000 ms, lease ended: a (B, token 1)")
	if ended < 0 || step < 0 || during < 0 || !(ended < step && step < during) {
		t.Fatalf("expiries out of order (before %d, step %d, during %d):\n%s", ended, step, during, out)
	}
}

// With -lang ko, check's parse errors, warnings, failed expectations and
// invariant details are Korean, as its table is.
func TestCheck_KoreanThroughout(t *testing.T) {
	_, out, errOut := main1(t, "lease 1s\njob j\n0 A clam j\n", "check", "-lang", "ko", "-")
	if !strings.Contains(errOut, ":3:5: 알 수 없는 동사") || !strings.Contains(out, "잘못된 입력") {
		t.Errorf("parse error:\n%s\n%s", errOut, out)
	}
	story := "clock B +300ms\nclock C +1ms\nlease 1000ms\njob j\n0 A claim j -> ok token=2\n800 B claim j\n"
	_, out, errOut = main1(t, story, "check", "-lang", "ko", "-")
	for _, want := range []string{"경고: ", "C의 시계가 정해졌지만"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("warnings lack %q:\n%s", want, errOut)
		}
	}
	for _, want := range []string{"기대 token=2, 실제 token=1", "불변식 single-lease 위반: 일 j:"} {
		if !strings.Contains(out, want) {
			t.Errorf("the table lacks %q:\n%s", want, out)
		}
	}
}

// The explorer says what it searches and where it stops before it starts,
// and what it searched when it stops, at the time limit too.
func TestExplore_StatesItsBoundsAndWhatItSearched(t *testing.T) {
	code, _, errOut := main1(t, "", "explore", "-property", "single-lease", "-steps", "2", "-progress=false")
	if code != ExitFail ||
		!strings.Contains(errOut, "searching every history of up to 2 steps (3 workers, jobs a, b, leases of 1000 ms), at most 2000000 states or 2m0s") ||
		!strings.Contains(errOut, "nothing found: searched every history of up to 2 steps (") {
		t.Errorf("exit %d:\n%s", code, errOut)
	}
	code, _, errOut = main1(t, "", "explore", "-property", "single-lease", "-time", "1ns", "-progress=false")
	if code != ExitFail || !strings.Contains(errOut, "nothing found within the time limit of 1ns: searched ") {
		t.Errorf("exit %d:\n%s", code, errOut)
	}
}

// A progress line names the states, the depth, the rate and the time.
func TestExplore_ProgressLine(t *testing.T) {
	got := progressLine(explore.Progress{States: 5120, Depth: 4, Rate: 6045.4}, 1400*time.Millisecond)
	if want := "explore: 5120 states, depth 4, 6045 states/s, 1s"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

// The transcript's instants of a lease's end are true time, and say what
// the clock that judged it read then, when that clock is off.
func TestTranscript_ExpiryNamesTheClockThatJudgedIt(t *testing.T) {
	for _, tc := range []struct{ head, want string }{
		{"", "  1000 ms, lease ended: j (A, token 1)"},
		{"clock A +300ms\n", "  1000 ms true time (A's clock reads 1300 ms), lease ended: j (A, token 1)"},
		{"service clock +200ms\n", "  1000 ms true time (the service's clock reads 1200 ms), lease ended: j (A, token 1)"},
	} {
		_, out, _ := main1(t, tc.head+"lease 1000ms\njob j\n0 A claim j\n1500 B claim j\n", "transcript", "-")
		if !strings.Contains(out, tc.want+"\n") {
			t.Errorf("%q: the transcript lacks %q:\n%s", tc.head, tc.want, out)
		}
	}
}

// Bad input is refused before the search starts: no "searching" line, the
// bound or the valid choices named once, exit 2.
func TestExplore_RefusesBadInputBeforeSearching(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-property", "single-leas"}, `unknown property "single-leas" ([single-lease`},
		{[]string{"-property", "single-lease", "-steps", "13"}, "13 steps: a scope has 1 to 12"},
		{[]string{"-property", "single-lease", "-deadline", "250000001"}, "deadline 250000001 ms: 0 (none) to 250000000"},
	} {
		code, _, errOut := main1(t, "", append([]string{"explore", "-progress=false"}, c.args...)...)
		if code != ExitBadInput || strings.Contains(errOut, "searching") || !strings.Contains(errOut, c.want) ||
			strings.Contains(errOut, "explore: explore:") {
			t.Errorf("%v: exit %d:\n%s", c.args, code, errOut)
		}
	}
}

// explore -h states explore's own exit statuses, not check's.
func TestExplore_HelpStatesItsExitStatuses(t *testing.T) {
	_, out, _ := main1(t, "", "explore", "-h")
	if !strings.Contains(out, "0 a timeline was found and confirmed on the engine") ||
		!strings.Contains(out, "1 nothing was found") || strings.Contains(out, "every expectation held") {
		t.Errorf("explore -h:\n%s", out)
	}
}

// A Korean clock note names the clock the sentence's instants are read on
// first, then what that clock reads now: "임대는 2100 ms까지입니다" is on
// B's clock, and 1100 ms is B's clock at the step, not another end.
func TestTranscript_KoreanClockNoteSaysWhoseClockThenItsReading(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"12-clock-skew.tl", "임대는 2100 ms까지입니다(B의 시계 기준: 지금 B의 시계는 1100 ms로 300 ms 빠름)."},
		{"28-service-clock-jump.tl", "임대는 2100 ms까지입니다(서비스의 시계 기준: 지금 서비스의 시계는 1100 ms로 600 ms 빠름)."},
	} {
		src, err := timeline.LibrarySource(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		code, out, _ := main1(t, src, "transcript", "-lang", "ko", "-")
		if code != 0 || !strings.Contains(out, tc.want) || strings.Contains(out, "시계로는 1100 ms") {
			t.Errorf("%s: exit %d; the Korean transcript lacks %q:\n%s", tc.name, code, tc.want, out)
		}
	}
}
