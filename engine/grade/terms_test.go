package grade_test

import (
	"os"
	"path/filepath"
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

// A Go Lab's failures are in Go's terms: its method called as Go calls
// it, nil, true and false.
func TestGrade_ReportsAGoLabInGoTerms(t *testing.T) {
	cases := []struct {
		lab             *goLab
		step, call      string
		want, got, text string
	}{
		{&goLab{claimBoundary: true}, "step 4: claim", `Claim(path, "j1", "A", 0, 1000)`, "1", "nil", `Claim(path, "j1", "A", 0, 1000)`},
		{&goLab{holder: "fence"}, "step 5: renew", `Renew(path, "j1", "B", 1, 1500, 1000)`, "false", "true", "contract: false"},
	}
	for _, tc := range cases {
		t.Cleanup(tc.lab.close)
		first := firstFailed(t, tc.lab)
		if first == nil {
			t.Fatalf("%s: passed; want a failure", tc.step)
		}
		f := first.Failure
		if first.Name != tc.step || f.Call != tc.call || f.Want != tc.want || f.Got != tc.got {
			t.Errorf("%s %s: want %q got %q; want %s %s: want %q got %q", first.Name, f.Call, f.Want, f.Got, tc.step, tc.call, tc.want, tc.got)
		}
		if text := grade.FailureText(f); !strings.Contains(text, tc.text) || strings.Contains(text, "None") || strings.Contains(text, "True") {
			t.Errorf("the report is not in Go's terms:\n%s", text)
		}
	}
}

// A program graded with -cmd may be in any language: its failures are in
// the protocol's JSON terms (null, true, false, an error's name), not
// Python's.
func TestTimeline_ReportsAProgramInJSONTerms(t *testing.T) {
	nativeonly.Python(t)
	loop, err := os.ReadFile("testdata/loop.py")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, old, new, file string
		call, want, got      string
	}{
		{"a claim at until", "row[2] or row[0] > now", "row[2] or row[0] >= now", "steps/4-claim.tl",
			`claim(path, "j1", "A", 0, 1000)`, "1", "null"},
		{"a claim with ttl 0", "    if ttl <= 0:\n        raise ValueError(\"ttl must be positive\")\n    conn = _connect(path)\n    try:\n        conn.execute(\"BEGIN IMMEDIATE\")",
			"    conn = _connect(path)\n    try:\n        conn.execute(\"BEGIN IMMEDIATE\")", "steps/4-claim.tl",
			`claim(path, "j1", "A", 0, 0)`, "error ValueError", "1"},
		{"an enqueue that replaces", "INSERT OR IGNORE", "INSERT OR REPLACE", "steps/2-enqueue.tl",
			`enqueue(path, "j1")`, "false", "true"},
		{"an empty dict for no row", "        if row is None:\n            return None\n", "        if not row:\n            return {}\n", "steps/3-state.tl",
			`state(path, "j2")`, "null", "{}"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // each waits on its own Python process
			dir := filepath.Dir(variant(t, tc.old, tc.new))
			os.Rename(filepath.Join(dir, "student.py"), filepath.Join(dir, "correct.py"))
			if err := os.WriteFile(filepath.Join(dir, "loop.py"), loop, 0o600); err != nil {
				t.Fatal(err)
			}
			src, err := os.ReadFile(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			prog := grade.Program{Command: "python3", Args: []string{filepath.Join(dir, "loop.py")}}
			f, err := grade.Timeline(t.Context(), grade.Options{Program: prog, Dir: tempDir(t)}, tc.file, string(src))
			if err != nil || f == nil {
				t.Fatalf("%v, %v; want a failure", f, err)
			}
			if f.Call != tc.call || f.Want != tc.want || f.Got != tc.got {
				t.Errorf("%s: want %q got %q; want %s: want %q got %q", f.Call, f.Want, f.Got, tc.call, tc.want, tc.got)
			}
		})
	}
}
