package command

import (
	"encoding/json"
	"github.com/leaselab/leaselab/engine/internal/testkit/nativeonly"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A correct implementation exits 0 and scores every test in Gradescope's
// results.json.
func TestGrade_CorrectScoresEveryTestInGradescopeFormat(t *testing.T) {
	nativeonly.Python(t)
	out := filepath.Join(t.TempDir(), "results.json")
	code, _, errOut := main1(t, "", "grade", "-format", "gradescope", "-o", out, "-sequences", "20", "../../grade/testdata/correct.py")
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
			Score      float64
			MaxScore   float64 `json:"max_score"`
			Visibility string
		}
	}
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Tests) < 10 || r.Score != float64(len(r.Tests)) {
		t.Fatalf("score %v of %d tests; want every test scored:\n%s", r.Score, len(r.Tests), data)
	}
	for _, x := range r.Tests {
		if x.MaxScore != 1 || x.Visibility != "visible" || x.Name == "" {
			t.Errorf("test %+v: want a name, max_score 1, visible", x)
		}
	}
}

// A wrong one exits 1 with the first difference in Korean, and writes a
// timeline that leaselab check replays on the engine, where it passes.
func TestGrade_WrongExitsOneAndItsTimelinePassesOnTheEngine(t *testing.T) {
	nativeonly.Python(t)
	src, err := os.ReadFile("../../grade/testdata/correct.py")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	student := filepath.Join(dir, "student.py")
	wrong := strings.Replace(string(src), "row[2] or row[0] > now", "row[2] or row[0] >= now", 1)
	if err := os.WriteFile(student, []byte(wrong), 0o600); err != nil {
		t.Fatal(err)
	}
	tl := filepath.Join(dir, "difference.tl")
	code, out, errOut := main1(t, "", "grade", "-lang", "ko", "-timeline", tl, "-fail-fast", student)
	if code != ExitFail || !strings.Contains(out, "첫 번째 차이: step 4: claim") || !strings.Contains(out, `claim(path, "j1"`) {
		t.Fatalf("exit %d:\n%s\n%s", code, out, errOut)
	}
	if strings.Contains(out, "step 5") {
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

// Any program that speaks the protocol is graded, with -cmd.
func TestGrade_CmdGradesAProgramSpeakingTheProtocol(t *testing.T) {
	nativeonly.Python(t)
	code, out, errOut := main1(t, "", "grade", "-sequences", "10", "-cmd", "python3 ../../grade/testdata/loop.py")
	if code != ExitPass || !strings.Contains(out, "PASS  step 8: claim_many") {
		t.Fatalf("exit %d:\n%s\n%s", code, out, errOut)
	}
}
