//go:build js && wasm

package jslab_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/leaselab/leaselab/wasm/jslab"
)

// quick bounds the search and the races, so that each grading here takes
// a few seconds under Node.
var quick = jslab.Options{Sequences: 20, Rounds: 5}

func gradeJS(t *testing.T, source string) jslab.Report {
	t.Helper()
	return gradeWith(t, source, quick)
}

// gradeWith grades source with the options o.
func gradeWith(t *testing.T, source string, o jslab.Options) jslab.Report {
	t.Helper()
	out, err := jslab.Grade(context.Background(), source, o)
	if err != nil {
		t.Fatal(err)
	}
	var r jslab.Report
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("the report is not JSON: %v\n%s", err, out)
	}
	return r
}

func readSource(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// edit is src with old replaced by new, which must be in it once.
func edit(t *testing.T, src, old, new string) string {
	t.Helper()
	if strings.Count(src, old) != 1 {
		t.Fatalf("%q is not in the source once", old)
	}
	return strings.Replace(src, old, new, 1)
}

func TestGrade_CorrectJSLabPassesEveryTest(t *testing.T) {
	r := gradeJS(t, readSource(t, "correct.js"))
	if !r.Passed || r.First != nil || r.CannotRun != "" {
		t.Fatalf("the correct lab did not pass: %s\n%s", r.String(), r.Text)
	}
	ran := 0
	for _, test := range r.Tests {
		if test.Status == "pass" {
			ran++
		}
	}
	if ran < 8 || r.Tests[0].Name != "step 1: initDb" || r.Tests[7].Name != "step 8: claimMany" {
		t.Fatalf("%d tests passed; the first %q, the eighth %q", ran, r.Tests[0].Name, r.Tests[7].Name)
	}
}

// skeleton is the starting code of the page's coding exercise (SKELETON in
// web/lease-exercise.js).
func skeleton(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../web/lease-exercise.js")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "export const SKELETON = `")
	src, _, ok2 := strings.Cut(rest, "`;")
	if !ok || !ok2 {
		t.Fatal("web/lease-exercise.js has no SKELETON")
	}
	return src
}

// The page's starting code runs, and fails at the step of the first
// function whose answer it leaves unwritten: its functions are there,
// their bodies are the learner's to write. (initDb answers nothing, so
// step 1 holds; enqueue's undefined is step 2's, where it is taught.)
func TestGrade_SkeletonRunsAndFailsAtTheFirstFunctionItLeavesUnwritten(t *testing.T) {
	r := gradeJS(t, skeleton(t))
	if r.CannotRun != "" || len(r.Missing) != 0 || r.First == nil || r.First.Test != "step 2: enqueue" {
		t.Fatalf("cannot run %q, missing %v, first difference %s", r.CannotRun, r.Missing, r.String())
	}
}

// Each wrong fragment fails at the step that introduces its function,
// naming the call in JavaScript's terms, with the SQL the learner's code
// ran at each call and both tables.
func TestGrade_WrongJSFailsAtItsStepNamingTheCall(t *testing.T) {
	correct := readSource(t, "correct.js")
	for _, tc := range []struct {
		name, old, new string
		test, call     string
		want, got      string
		sqlOfTheCall   string
	}{
		{name: "claim's boundary until >= now",
			old: "row.until > now", new: "row.until >= now",
			test: "step 4: claim", call: `claim(db, "j1", "A", 0, 1000)`, want: "1", got: "null",
			sqlOfTheCall: "SELECT until, fence, done FROM jobs WHERE id = ?"},
		{name: "complete without the fence",
			old:  "SET result = ?, done = 1 WHERE id = ? AND owner = ? AND fence = ? AND done = 0 AND until > ?',\n      result, jobId, owner, fence, now,",
			new:  "SET result = ?, done = 1 WHERE id = ? AND owner = ? AND done = 0 AND until > ?',\n      result, jobId, owner, now,",
			test: "step 6: complete", call: `complete(db, "j2", "A", 1, 3100, "A")`, want: "false", got: "true",
			sqlOfTheCall: "UPDATE jobs SET result = ?, done = 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := gradeJS(t, edit(t, correct, tc.old, tc.new))
			f := r.First
			if r.Passed || f == nil {
				t.Fatalf("the wrong lab passed:\n%s", r.Text)
			}
			if f.Test != tc.test || f.Call != tc.call || f.Want != tc.want || f.Got != tc.got {
				t.Fatalf("first difference %s; want %s at %s: want %s, got %s", r.String(), tc.test, tc.call, tc.want, tc.got)
			}
			for _, test := range r.Tests {
				if test.Name == tc.test {
					break
				}
				if test.Status != "pass" {
					t.Errorf("%s before %s: %s", test.Name, tc.test, test.Status)
				}
			}
			if len(f.Steps) == 0 {
				t.Fatal("no calls of the failing test in the report")
			}
			last := f.Steps[len(f.Steps)-1]
			sql, _ := json.Marshal(last.SQL)
			if last.Call != tc.call || !strings.Contains(string(sql), tc.sqlOfTheCall) {
				t.Fatalf("the last call %s ran %s; want %s running %q", last.Call, sql, tc.call, tc.sqlOfTheCall)
			}
			want, _ := json.Marshal(last.WantRows)
			got, _ := json.Marshal(last.GotRows)
			if len(last.GotRows) == 0 || len(last.WantRows) != len(last.GotRows) || string(want) == string(got) || len(f.GotRows) == 0 {
				t.Fatalf("the tables after the call: contract %s, learner's %s (the failure's %v)", want, got, f.GotRows)
			}
			if !strings.Contains(r.Text, "FAIL  "+tc.test) || !strings.Contains(r.Text, tc.call) {
				t.Fatalf("the text report lacks the step or the call:\n%s", r.Text)
			}
		})
	}
}

// Code that cannot run, or never returns from its statements, gets a
// verdict saying so, and the grader goes on.
func TestGrade_BrokenJSGetsAVerdict(t *testing.T) {
	correct := readSource(t, "correct.js")
	t.Run("syntax error", func(t *testing.T) {
		r := gradeJS(t, correct+"\nfunction (\n")
		if !strings.Contains(r.CannotRun, "SyntaxError") || len(r.Tests) != 0 {
			t.Fatalf("cannot run: %q, %d tests", r.CannotRun, len(r.Tests))
		}
	})
	t.Run("no lab function", func(t *testing.T) {
		r := gradeJS(t, "const x = 1;")
		if !strings.Contains(r.CannotRun, "none of the lab's functions") {
			t.Fatalf("cannot run: %q", r.CannotRun)
		}
	})
	t.Run("a missing function", func(t *testing.T) {
		r := gradeJS(t, edit(t, correct, "function claimMany(", "function claimAll("))
		if len(r.Missing) != 1 || r.Missing[0] != "claimMany" || r.First == nil || r.First.Test != "step 8: claimMany" ||
			!strings.Contains(r.First.Got, "ReferenceError: claimMany is not defined") {
			t.Fatalf("missing %v; first difference %s", r.Missing, r.String())
		}
	})
	t.Run("an endless loop of statements", func(t *testing.T) {
		// The statement budget is what this holds, so no call's clock may
		// end the loop first: 20,000 statements take seconds under Node on
		// a loaded machine, near the grader's 5 s a call.
		o := quick
		o.CallTimeout = time.Minute
		r := gradeWith(t, endlessRenew(t), o)
		if r.First == nil || r.First.Test != "step 5: renew" || !strings.Contains(r.First.Broken, "endless loop") || strings.Contains(r.First.Broken, "panic") {
			t.Fatalf("first difference %s, broken %q", r.String(), r.First.Broken)
		}
		for _, test := range r.Tests[5:] {
			if strings.HasPrefix(test.Name, "step") && test.Status == "pass" {
				return // the steps after it ran
			}
		}
		t.Fatalf("no step after renew passed: %+v", r.Tests)
	})
}

// A syntax error is reported with where it is in the learner's source:
// the line and column of the token it stands at, counted from the
// source's first line, in the text and as numbers.
func TestGrade_SyntaxErrorNamesItsLineAndColumn(t *testing.T) {
	correct := readSource(t, "correct.js")
	after := strings.Count(correct, "\n") + 2 // the line after correct.js and a blank one
	for _, tc := range []struct {
		name, source string
		line, col    int
	}{
		{"on the first line", "let a = 1 +* 2;\n" + correct, 1, 12},
		{"a name declared twice", "let a = 1;\nlet a = 2;\n", 2, 5},
		{"after the whole lab", correct + "\nfunction (\n", after, 10},
		{"a brace never closed", correct + "\nfunction late(db) {\n  return 1;\n", after, 19},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := gradeJS(t, tc.source)
			where := fmt.Sprintf("(line %d, column %d)", tc.line, tc.col)
			if !strings.HasPrefix(r.CannotRun, "SyntaxError: ") || !strings.HasSuffix(r.CannotRun, where) || r.Line != tc.line || r.Col != tc.col {
				t.Fatalf("cannot run %q at %d:%d; want a SyntaxError %s", r.CannotRun, r.Line, r.Col, where)
			}
		})
	}
	if r := gradeJS(t, "const x = ;"); r.Line != 1 || r.Col != 11 {
		t.Errorf("a one-line source: %q at %d:%d", r.CannotRun, r.Line, r.Col)
	}
	if r := gradeJS(t, "throw new TypeError('top');"); r.Line != 0 || strings.Contains(r.CannotRun, "line") {
		t.Errorf("an exception that is no syntax error has no place: %q at %d:%d", r.CannotRun, r.Line, r.Col)
	}
}

// endlessRenew is correct.js whose renew runs statements without end.
func endlessRenew(t *testing.T) string {
	t.Helper()
	return edit(t, readSource(t, "correct.js"), "function renew(db, jobId, owner, fence, now, ttl) {",
		"function renew(db, jobId, owner, fence, now, ttl) {\n  for (;;) db.get('SELECT 1');")
}

// OnCall hears each of the learner's calls before it runs: the last call
// a test heard is the one its code never came back from, in the report's
// terms.
func TestGrade_OnCallHearsTheCallBeforeItRuns(t *testing.T) {
	var heard [][2]string
	o := quick
	o.OnCall = func(test, call string) { heard = append(heard, [2]string{test, call}) }
	r := gradeWith(t, endlessRenew(t), o)
	if r.First == nil || r.First.Test != "step 5: renew" {
		t.Fatalf("first difference %s, want step 5: renew", r.String())
	}
	var last [2]string
	for _, h := range heard {
		if h[0] == r.First.Test {
			last = h
		}
	}
	if want := [2]string{r.First.Test, r.First.Call}; last != want {
		t.Fatalf("the last call heard in %s was %q, want %q (of %d heard)", r.First.Test, last, want, len(heard))
	}
}

// OnTest hears each test's verdict as the test ends, the report's own,
// in its order: a run that never ends keeps the steps that passed.
func TestGrade_OnTestHearsEachVerdictAsItsTestEnds(t *testing.T) {
	var heard []jslab.Test
	o := quick
	o.OnTest = func(v jslab.Test) { heard = append(heard, v) }
	r := gradeWith(t, endlessRenew(t), o)
	if len(heard) != len(r.Tests) {
		t.Fatalf("heard %d verdicts, the report has %d", len(heard), len(r.Tests))
	}
	for i, v := range heard {
		if v != r.Tests[i] {
			t.Errorf("verdict %d: heard %+v, the report's %+v", i, v, r.Tests[i])
		}
	}
	if heard[3] != (jslab.Test{Name: "step 4: claim", Status: "pass"}) || heard[4].Name != "step 5: renew" || heard[4].Status != "fail" {
		t.Errorf("steps 4 and 5 heard as %+v, %+v; want claim passed, renew failed", heard[3], heard[4])
	}
}

// A function declared async answers a Promise, not its value: the
// report says so, where JSON would show the Promise as {}.
func TestGrade_AsyncFunctionIsNamedAPromise(t *testing.T) {
	correct := readSource(t, "correct.js")
	for _, tc := range []struct{ fn, test string }{
		{"claim", "step 4: claim"}, // a wrong answer is its function's step's
		{"renew", "step 5: renew"},
		{"state", "step 3: state"},
		{"claimMany", "step 8: claimMany"},
	} {
		t.Run(tc.fn, func(t *testing.T) {
			r := gradeJS(t, edit(t, correct, "function "+tc.fn+"(", "async function "+tc.fn+"("))
			if r.First == nil || r.First.Test != tc.test || !strings.Contains(r.First.Got, "a Promise") {
				t.Fatalf("first difference %s; want %s, got naming a Promise", r.String(), tc.test)
			}
		})
	}
}

// The report speaks JavaScript: the functions' names, db for the path,
// null, true and false, a RangeError; a quoted None is the learner's.
func TestJSTerms(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`claim_many(path, "j1", ["A", "B"], 0, 1000)`, `claimMany(db, "j1", ["A", "B"], 0, 1000)`},
		{`init_db(path)`, `initDb(db)`},
		{`[None, 1]`, `[null, 1]`},
		{`True`, `true`},
		{`False`, `false`},
		{`raise ValueError: ttl`, `throw RangeError: ttl`},
		{`raise error: TypeError: x`, `throw TypeError: x`},
		{`complete(path, "None", "True", 1, 2, "False")`, `complete(db, "None", "True", 1, 2, "False")`},
		{`NoneSuch`, `NoneSuch`},
	} {
		if got := jslab.JSTerms(tc.in); got != tc.want {
			t.Errorf("JSTerms(%q) = %q; want %q", tc.in, got, tc.want)
		}
	}
}
