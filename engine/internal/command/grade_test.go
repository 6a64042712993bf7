package command

import (
	"encoding/json"
	"fmt"
	"github.com/leaselab/leaselab/engine/internal/testkit/nativeonly"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A correct implementation exits 0 and scores every rule's points in
// Gradescope's results.json, each test that ran shown as passed.
func TestGrade_CorrectScoresEveryRuleInGradescopeFormat(t *testing.T) {
	nativeonly.Python(t)
	out := filepath.Join(t.TempDir(), "results.json")
	code, _, errOut := main1(t, "", "grade", "-format", "gradescope", "-o", out, "-sequences", "20", "-rounds", "5", "../../grade/testdata/correct.py")
	if code != ExitPass {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Score float64
		Tests []struct {
			Name       string
			Score      *float64
			MaxScore   *float64 `json:"max_score"`
			Status     string
			Visibility string
		}
	}
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Tests) < 8+10 || r.Score != 100 {
		t.Fatalf("score %v, %d tests; want 100, the 8 rules and the tests that ran:\n%s", r.Score, len(r.Tests), data)
	}
	for i, x := range r.Tests {
		rule := i < 8
		if x.Status != "passed" || x.Visibility != "visible" || strings.HasPrefix(x.Name, "rule: ") != rule ||
			(x.Score != nil) != rule || (rule && *x.Score != *x.MaxScore) {
			t.Errorf("test %+v: want it passed and visible, a rule with all its points or a test without any", x)
		}
	}
}

// A wrong one exits 1 with the first difference in Korean, and writes a
// timeline that leaselab check replays on the engine, where it passes.
func TestGrade_WrongExitsOneAndItsTimelinePassesOnTheEngine(t *testing.T) {
	nativeonly.Python(t)
	student, tl := wrongStudent(t, "../../grade/testdata/correct.py", "row[2] or row[0] > now", "row[2] or row[0] >= now")
	code, out, errOut := main1(t, "", "grade", "-lang", "ko", "-timeline", tl, "-fail-fast", student)
	if code != ExitFail || !strings.Contains(out, "첫 번째 차이: 4단계: claim") || !strings.Contains(out, `claim(path, "j1"`) {
		t.Fatalf("exit %d:\n%s\n%s", code, out, errOut)
	}
	if strings.Contains(out, "5단계") {
		t.Errorf("-fail-fast went on after step 4:\n%s", out)
	}
	if code, out, _ := main1(t, "", "check", tl); code != ExitPass {
		t.Fatalf("check of the grader's timeline: exit %d\n%s", code, out)
	}
	// check -impl replays it on the student's code, where it differs.
	code, out, _ = main1(t, "", "check", "-impl", student, tl)
	if code != ExitFail || !strings.Contains(out, "differs from the contract") || !strings.Contains(out, `call:     claim(path, "j1"`) {
		t.Fatalf("check -impl on the wrong code: exit %d\n%s", code, out)
	}
	if code, out, _ := main1(t, "", "check", "-impl", "../../grade/testdata/correct.py", tl); code != ExitPass {
		t.Fatalf("check -impl on the correct code: exit %d\n%s", code, out)
	}
}

// Code that cannot be run is exit 2, saying why.
func TestGrade_CodeThatCannotRunIsExitTwo(t *testing.T) {
	nativeonly.Python(t)
	bad := filepath.Join(t.TempDir(), "student.py")
	if err := os.WriteFile(bad, []byte("def init_db(path:\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"grade", bad}, {"grade", filepath.Join(t.TempDir(), "none.py")}, {"grade"}} {
		code, _, errOut := main1(t, "", args...)
		if code != ExitBadInput || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q; want 2 and why", args, code, errOut)
		}
	}
	if _, _, errOut := main1(t, "", "grade", bad); !strings.Contains(errOut, "SyntaxError") {
		t.Errorf("a syntax error is not named: %q", errOut)
	}
}

// Code that cannot be run (a module that does not load, a file not
// submitted) still gets a report in the machine formats: an autograder
// reads its results file whatever the exit status, so the student sees
// score 0 and why, not a missing file.
func TestGrade_CodeThatCannotRunStillWritesTheResultsFile(t *testing.T) {
	nativeonly.Python(t)
	dir := t.TempDir()
	bad := filepath.Join(dir, "student.py")
	if err := os.WriteFile(bad, []byte("def init_db(path:\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ file, why string }{{bad, "SyntaxError"}, {filepath.Join(dir, "none.py"), "none.py"}} {
		out := filepath.Join(dir, "results.json")
		os.Remove(out)
		if code, _, errOut := main1(t, "", "grade", "-format", "gradescope", "-o", out, c.file); code != ExitBadInput || !strings.Contains(errOut, c.why) {
			t.Errorf("%s: exit %d, stderr %q; want 2 naming %s", c.file, code, errOut, c.why)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatalf("%s: no results.json: %v", c.file, err)
		}
		var r struct {
			Score float64
			Tests []struct {
				Score          float64
				MaxScore       float64 `json:"max_score"`
				Status, Output string
			}
		}
		if err := json.Unmarshal(data, &r); err != nil {
			t.Fatalf("%s: %v\n%s", c.file, err, data)
		}
		last := len(r.Tests) - 1
		if r.Score != 0 || len(r.Tests) != 8+1 || r.Tests[0].Status != "failed" || r.Tests[0].MaxScore != 5 ||
			r.Tests[last].Status != "failed" || !strings.Contains(r.Tests[last].Output, c.why) {
			t.Errorf("%s: got %s; want score 0, every rule failed, and one failed test naming %s", c.file, data, c.why)
		}
		xmlOut := filepath.Join(dir, "junit.xml")
		if code, _, _ := main1(t, "", "grade", "-format", "junit", "-o", xmlOut, c.file); code != ExitBadInput {
			t.Errorf("%s junit: exit %d; want 2", c.file, code)
		}
		if data, err := os.ReadFile(xmlOut); err != nil || !strings.Contains(string(data), `failures="1"`) || !strings.Contains(string(data), c.why) {
			t.Errorf("%s junit: %v\n%s; want one failure naming %s", c.file, err, data, c.why)
		}
	}
}

// Any program that speaks the protocol is graded, with -cmd.
func TestGrade_CmdGradesAProgramSpeakingTheProtocol(t *testing.T) {
	nativeonly.Python(t)
	code, out, errOut := main1(t, "", "grade", "-sequences", "10", "-rounds", "5", "-cmd", "python3 ../../grade/testdata/loop.py")
	if code != ExitPass || !strings.Contains(out, "PASS  step 8: claim_many") {
		t.Fatalf("exit %d:\n%s\n%s", code, out, errOut)
	}
}

// -lab courier grades the courier lab: the reference passes; a finish
// that takes a marker at lease_until exits 1 at step 5, and the timeline
// it writes passes on the engine and, with check -impl -lab courier,
// differs on the student's code.
func TestGrade_CourierLabPassesTheReferenceAndFailsAWrongFinish(t *testing.T) {
	nativeonly.Python(t)
	ref := "../../grade/testdata/courier.py"
	if code, out, errOut := main1(t, "", "grade", "-lab", "courier", "-sequences", "10", "-rounds", "5", ref); code != ExitPass || !strings.Contains(out, "step 10: two processes") {
		t.Fatalf("the reference: exit %d\n%s\n%s", code, out, errOut)
	}
	student, tl := wrongStudent(t, ref, "AND lease_until>? AND", "AND lease_until>=? AND")
	code, out, errOut := main1(t, "", "grade", "-lab", "courier", "-timeline", tl, "-fail-fast", student)
	if code != ExitFail || !strings.Contains(out, "First difference: step 5: finish") || !strings.Contains(out, "finish(path, {") {
		t.Fatalf("exit %d:\n%s\n%s", code, out, errOut)
	}
	if code, out, _ := main1(t, "", "check", tl); code != ExitPass {
		t.Fatalf("check of the grader's timeline: exit %d\n%s", code, out)
	}
	if code, out, _ := main1(t, "", "check", "-impl", student, "-lab", "courier", tl); code != ExitFail || !strings.Contains(out, "finish(path, {") {
		t.Fatalf("check -impl -lab courier on the wrong code: exit %d\n%s", code, out)
	}
	if code, _, _ := main1(t, "", "grade", "-lab", "postman", ref); code != ExitBadInput {
		t.Errorf("an unknown lab: exit %d; want %d", code, ExitBadInput)
	}
}

// A first difference that no timeline can tell (a receive) writes no
// -timeline file, and says so, rather than leaving the file silently
// absent or as an earlier run left it.
func TestGrade_TimelineFlagSaysWhenTheDifferenceHasNone(t *testing.T) {
	nativeonly.Python(t)
	student, tl := wrongStudent(t, "../../grade/testdata/courier.py", "INSERT OR IGNORE INTO received", "INSERT OR REPLACE INTO received")
	code, out, errOut := main1(t, "", "grade", "-lab", "courier", "-timeline", tl, "-fail-fast", student)
	if code != ExitFail || !strings.Contains(out, "First difference: step 9: receive") {
		t.Fatalf("exit %d:\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "-timeline: no timeline reproduces the first difference (step 9: receive); "+tl+" not written") {
		t.Errorf("stderr %q; want it to say the timeline file is not written", errOut)
	}
	if _, err := os.Stat(tl); !os.IsNotExist(err) {
		t.Errorf("%s: %v; want no file", tl, err)
	}
}

// wrongStudent writes the module ref with old replaced by new as
// student.py in a temporary directory, and names a timeline file beside
// it.
func wrongStudent(t *testing.T, ref, old, new string) (student, tl string) {
	t.Helper()
	src, err := os.ReadFile(ref)
	if err != nil || !strings.Contains(string(src), old) {
		t.Fatalf("%s: %v, or no %q in it", ref, err, old)
	}
	dir := t.TempDir()
	student = filepath.Join(dir, "student.py")
	if err := os.WriteFile(student, []byte(strings.Replace(string(src), old, new, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	return student, filepath.Join(dir, "difference.tl")
}

// -weights gives each rule its points: the report scores them, here a
// courier whose receiver applies a resend losing receive's 40 of 100
// points; a file naming a rule the lab has not, or bad points, is exit
// 2 before anything is graded, naming the file, its line and the fault.
func TestGrade_WeightsFlagScoresTheFilesPoints(t *testing.T) {
	nativeonly.Python(t)
	dir := t.TempDir()
	write := func(name, src string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	rules := "init_db 5\nenqueue 5\nstate 5\nclaim_next 10\nfinish 10\nquarantine 5\ndeadline 5\nsend 15\n"
	good := write("good.txt", "# our course\n"+rules+"receive 40\n")
	student, _ := wrongStudent(t, "../../grade/testdata/courier.py", "INSERT OR IGNORE INTO received", "INSERT OR REPLACE INTO received")
	code, out, errOut := main1(t, "", "grade", "-lab", "courier", "-sequences", "10", "-rounds", "5", "-weights", good, student)
	if code != ExitFail || !strings.Contains(out, "Score by rule: 60/100\n") || !strings.Contains(out, "  receive     0/40  failed: step 9: receive\n") {
		t.Fatalf("exit %d; want 1 and receive's 40 points lost:\n%s\n%s", code, out, errOut)
	}
	for _, c := range []struct{ file, why string }{
		{write("unknown.txt", rules+"receive 40\nrecieve 1\n"), `line 10: the courier lab has no rule "recieve"`},
		{write("bad.txt", rules+"receive forty\n"), `line 9: receive's points "forty" are not a number at least 0`},
		{write("fencing.txt", "init_db 5\nenqueue 5\nstate 5\nclaim 25\nrenew 15\ncomplete 20\nrelease 10\nclaim_many 15\n"), `line 4: the courier lab has no rule "claim"`},
		{filepath.Join(dir, "none.txt"), "none.txt"},
	} {
		code, out, errOut := main1(t, "", "grade", "-lab", "courier", "-weights", c.file, student)
		if code != ExitBadInput || out != "" || !strings.Contains(errOut, "-weights "+c.file) || !strings.Contains(errOut, c.why) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want 2, nothing graded, naming the file and %q", c.file, code, out, errOut, c.why)
		}
	}
}

// A module that is not there (misnamed, or never submitted) is exit 2,
// saying which files its folder holds, and the machine formats' results
// say so too: the student sees the name they gave their file.
func TestGrade_AMissingModuleNamesTheFilesSubmitted(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"Lab.py", "notes.txt", ".hidden"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	out := filepath.Join(t.TempDir(), "results.json")
	code, _, errOut := main1(t, "", "grade", "-format", "gradescope", "-o", out, "lab.py")
	const want = "lab.py is not there; the folder holds: Lab.py, notes.txt"
	if code != ExitBadInput || !strings.Contains(errOut, want) {
		t.Errorf("exit %d, stderr %q; want 2 saying %q", code, errOut, want)
	}
	if data, err := os.ReadFile(out); err != nil || !strings.Contains(string(data), want) {
		t.Errorf("results.json %s (%v); want it saying %q", data, err, want)
	}
}

// The folder's files are named up to submittedMost, its Python files
// first, and the rest counted.
func TestNotThere_NamesTheFolderUpToItsBound(t *testing.T) {
	cases := []struct {
		files int
		tail  string
	}{
		{submittedMost - 1, fmt.Sprintf("f%02d.txt", submittedMost-3)},
		{submittedMost, fmt.Sprintf("f%02d.txt", submittedMost-2)},
		{submittedMost + 1, fmt.Sprintf("f%02d.txt, and 1 more", submittedMost-2)},
		{0, "lab.py is not there; the folder is empty"},
	}
	for _, tc := range cases {
		dir := t.TempDir()
		if tc.files > 0 {
			if err := os.WriteFile(filepath.Join(dir, "z.py"), nil, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		for i := range tc.files - 1 {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%02d.txt", i)), nil, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		msg := notThere(filepath.Join(dir, "lab.py")).Error()
		if !strings.HasSuffix(msg, tc.tail) || (tc.files > 0 && !strings.Contains(msg, "the folder holds: z.py, f00.txt")) {
			t.Errorf("%d files: %q; want the Python file first, ending %q", tc.files, msg, tc.tail)
		}
	}
	if msg := notThere(filepath.Join(t.TempDir(), "sub", "lab.py")).Error(); !strings.Contains(msg, "there is no folder") {
		t.Errorf("a missing folder: %q", msg)
	}
}
