package grade_test

import (
	"os"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/grade"
	"github.com/leaselab/leaselab/engine/internal/testkit/nativeonly"
)

// A failure says the difference in the lab's own words: the call, both
// answers and both tables, and nothing in the engine's (its operations,
// its answers, the fields the fencing lab's table has no column for).
func TestFailure_NamesNoEngineOperationNorColumnTheLabLacks(t *testing.T) {
	lab := &goLab{claimBoundary: true}
	t.Cleanup(lab.close)
	first := firstFailed(t, lab)
	if first == nil {
		t.Fatal("passed; want the claim step to fail")
	}
	// The timeline that reproduces it is the engine's language, by design.
	text, _, _ := strings.Cut(grade.FailureText(first.Failure), "A timeline that reproduces it")
	for _, engineWord := range []string{"engine's terms", "qty=", "attempt=", "ok A#", "refused held", "now="} {
		if strings.Contains(text, engineWord) {
			t.Errorf("the report says %q, the engine's terms:\n%s", engineWord, text)
		}
	}
	if first.Failure.Detail != "" {
		t.Errorf("the answers differ, which the call's lines say; more: %q", first.Failure.Detail)
	}
}

// An answer that is not of its function's form is said to be so, in the
// lab's terms: the function, the answer, the form it must have.
func TestFailure_SaysWhyAnAnswerIsNotOfItsFunctionsForm(t *testing.T) {
	nativeonly.Python(t)
	student := variant(t, "        return cur.rowcount == 1\n    finally:\n        conn.close()\n\n\ndef complete(",
		"        return cur.rowcount\n    finally:\n        conn.close()\n\n\ndef complete(")
	f := timelineOn(t, student, grade.Fencing, "steps/5-renew.tl")
	if f == nil {
		t.Fatal("passed; want renew's 1 refused as no bool")
	}
	if f.Got != "1" || f.Detail != "renew returned 1, not a bool" {
		t.Errorf("yours %q, detail %q; want 1 and %q", f.Got, f.Detail, "renew returned 1, not a bool")
	}
}

// timelineOn plays the step timeline file of lab on the Python module
// student.
func timelineOn(t *testing.T, student, lab, file string) *grade.Failure {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	dir := tempDir(t)
	prog, err := grade.PythonLab(lab, student, dir)
	if err != nil {
		t.Fatal(err)
	}
	f, err := grade.Timeline(t.Context(), grade.Options{Program: prog, Dir: dir, LabName: lab}, file, string(src))
	if err != nil {
		t.Fatal(err)
	}
	return f
}
