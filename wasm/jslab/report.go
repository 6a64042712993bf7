//go:build js && wasm

package jslab

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/grade"
)

// Options bound a grading run; the zero value is engine/grade's defaults.
type Options struct {
	Lang        string // "en" or "ko": the report's text
	Sequences   int    // how many random call sequences the search tries
	Rounds      int    // how many rounds each race runs
	CallTimeout time.Duration
	// OnCall, when set, hears each of the learner's calls before it runs:
	// the test's name and the call, in the report's terms. The last one
	// heard is where code that never returns is stuck.
	OnCall func(test, call string)
	// OnTest, when set, hears each test's verdict as the test ends, as
	// the report gives it: a page whose run code that never returns ends
	// keeps the verdicts heard.
	OnTest func(Test)
}

// Report is a grading run as the page reads it: each test's verdict; at
// the first difference the call, both answers and both tables; the calls
// of that test up to it, each with the SQL the learner's code ran and
// both tables after it; and the report leaselab grade prints, in Lang.
type Report struct {
	// CannotRun says why the code could not be run at all (a syntax
	// error, an exception at its top level); nothing else is set then.
	CannotRun string `json:"cannot_run,omitempty"`
	// Line and Col are where in the source a syntax error is (1-based),
	// when CannotRun is one; 0 otherwise.
	Line      int      `json:"line,omitempty"`
	Col       int      `json:"col,omitempty"`
	Passed    bool     `json:"passed"`
	Missing   []string `json:"missing"`
	Tests     []Test   `json:"tests"`
	First     *First   `json:"first"`
	Text      string   `json:"text"`
	ElapsedMS int64    `json:"elapsed_ms"`
}

// Test is one test's verdict: pass, fail or skip (with why).
type Test struct {
	Name   string `json:"name"`
	Status string `json:"status"`
	Why    string `json:"why,omitempty"`
}

// First is the first difference.
type First struct {
	Test     string `json:"test"`
	Where    string `json:"where"`
	Call     string `json:"call"`
	Want     string `json:"want"`
	Got      string `json:"got"`
	Detail   string `json:"detail,omitempty"`
	Broken   string `json:"broken,omitempty"`
	WantRows []Row  `json:"want_rows"`
	GotRows  []Row  `json:"got_rows"`
	Timeline string `json:"timeline,omitempty"`
	// Steps are the test's calls up to the difference (at most maxSteps,
	// the last ones), on its last database.
	Steps []Step `json:"steps"`
}

// Step is one call of the failing test: the contract's answer and the
// learner's, the SQL the learner's code ran, and the table after it, the
// contract's and the learner's (RowsError when it could not be read).
type Step struct {
	Call      string      `json:"call"`
	Want      string      `json:"want"`
	Got       string      `json:"got"`
	SQL       []Statement `json:"sql"`
	WantRows  []Row       `json:"want_rows"`
	GotRows   []Row       `json:"got_rows"`
	RowsError string      `json:"rows_error,omitempty"`
	path      string
}

// maxSteps is how many calls of the failing test the report keeps.
const maxSteps = 40

// Grade compiles source and grades it with engine/grade's tests, in the
// lab's order; the report is JSON. Only a failure of the grader itself is
// an error: code that does not compile is a report that says so.
func Grade(ctx context.Context, source string, o Options) ([]byte, error) {
	began := time.Now()
	fns, missing, err := Compile(source)
	if err == nil && len(missing) == len(Names) {
		err = errNoLab
	}
	if err != nil {
		r := Report{CannotRun: err.Error(), Missing: missing, Tests: []Test{}}
		if t, ok := err.(*Thrown); ok {
			r.Line, r.Col = t.Line, t.Col
		}
		return json.Marshal(r)
	}
	lab := NewLab(fns, o.CallTimeout)
	if lab.callMax <= 0 {
		lab.callMax = 5 * time.Second
	}
	defer lab.Close()
	steps := map[string][]Step{}
	current := ""
	if o.OnCall != nil {
		lab.onCall = func(call string) { o.OnCall(jsTerms(current), call) }
	}
	// jsTerms rewrites the report from Python's terms.
	r, err := grade.Grade(ctx, grade.Options{Lab: lab, Terms: grade.PythonTerms, Sequences: o.Sequences, Rounds: o.Rounds, CallTimeout: lab.callMax,
		Progress: func(name string) { current = name },
		Tested: func(t grade.Test) {
			if o.OnTest != nil {
				o.OnTest(verdict(t))
			}
		},
		Observe: func(ob grade.Observed) {
			c := lab.last
			s := Step{Call: jsTerms(ob.Call), Want: jsTerms(ob.Want), Got: jsTerms(ob.Got), SQL: append([]Statement{}, c.sql...),
				WantRows: rowsOf(ob.WantRows), GotRows: append([]Row{}, c.rows...), RowsError: c.rowsErr, path: c.path}
			list := steps[current]
			if len(list) > 0 && list[len(list)-1].path != s.path {
				list = nil // a fresh database: the calls before are another sequence's
			}
			if len(list) == maxSteps {
				list = list[1:]
			}
			steps[current] = append(list, s)
		}})
	if err != nil {
		return nil, err
	}
	out := Report{Passed: r.Passed(), Missing: missing, Tests: []Test{}}
	if out.Missing == nil {
		out.Missing = []string{}
	}
	for _, t := range r.Tests {
		out.Tests = append(out.Tests, verdict(t))
	}
	if t := r.First(); t != nil {
		f := t.Failure
		out.First = &First{Test: jsTerms(t.Name), Where: f.Where, Call: jsTerms(f.Call), Want: jsTerms(f.Want), Got: jsTerms(f.Got),
			Detail: jsTerms(f.Detail), WantRows: rowsOf(f.WantRows), GotRows: rowsOf(f.GotRows), Timeline: f.Timeline,
			Steps: steps[t.Name]}
		if f.Broken != nil {
			out.First.Broken = jsTerms(f.Broken.Error())
		}
		if out.First.Steps == nil {
			out.First.Steps = []Step{}
		}
	}
	var text strings.Builder
	grade.WriteText(&text, r, o.Lang)
	out.Text = jsTerms(text.String())
	out.ElapsedMS = time.Since(began).Milliseconds()
	return json.Marshal(out)
}

// verdict is t's verdict, in JavaScript's terms.
func verdict(t grade.Test) Test {
	v := Test{Name: jsTerms(t.Name), Status: "pass"}
	switch {
	case t.Skipped != "":
		v.Status, v.Why = "skip", t.Skipped
	case t.Failure != nil:
		v.Status = "fail"
	}
	return v
}

// rowsOf is the engine's rows in the lab's columns.
func rowsOf(jobs []engine.Job) []Row {
	out := make([]Row, len(jobs))
	for i, j := range jobs {
		r := Row{ID: j.ID, Until: j.LeaseUntil, Fence: j.Token, Done: 0}
		if j.Owner != "" {
			r.Owner = j.Owner
		}
		if j.Result != "" || j.Status == engine.StatusDone {
			r.Result = j.Result
		}
		if j.Status == engine.StatusDone {
			r.Done = 1
		}
		out[i] = r
	}
	return out
}

var (
	// pyNames are the lab's Python names that differ in JavaScript.
	pyNames = strings.NewReplacer("init_db", "initDb", "claim_many", "claimMany", "(path)", "(db)", "(path,", "(db,",
		"raise ValueError", "throw RangeError", "raise error: ", "throw ", "raise ", "throw ")
	// quoted is a double-quoted string, or a word Python spells otherwise.
	pyWords = regexp.MustCompile(`"(?:[^"\\]|\\.)*"|\b(?:None|True|False)\b`)
)

// jsTerms is a line of engine/grade's report in JavaScript's terms:
// claimMany(db, …) for claim_many(path, …), null, true and false for
// None, True and False (outside quoted strings), throw RangeError for
// raise ValueError.
func jsTerms(s string) string {
	s = pyNames.Replace(s)
	return pyWords.ReplaceAllStringFunc(s, func(w string) string {
		switch w {
		case "None":
			return "null"
		case "True":
			return "true"
		case "False":
			return "false"
		}
		return w
	})
}

// String is the report's one line, for a test's message.
func (r *Report) String() string {
	if r.First == nil {
		return fmt.Sprintf("passed %v, %d tests", r.Passed, len(r.Tests))
	}
	return fmt.Sprintf("%s at %s: %s: want %s, got %s", r.First.Test, r.First.Where, r.First.Call, r.First.Want, r.First.Got)
}
