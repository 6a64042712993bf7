//go:build js && wasm

package pylab

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"syscall/js"
	"time"

	"github.com/leaselab/leaselab/engine/grade"
)

// Options bound a grading run; the zero value is engine/grade's defaults.
type Options struct {
	Lab  string // grade.Fencing (the default) or grade.Courier
	Lang string // "en" or "ko": the report's text
	// Simulator is the simulator page's URL, which the first
	// difference's link opens (First.Link); "" for no link.
	Simulator   string
	Sequences   int // how many random call sequences the search tries
	Rounds      int // how many rounds each race runs
	CallTimeout time.Duration
	// OnCall, when set, hears each of the student's calls before it
	// runs: the test's name and the call, in Python's terms.
	OnCall func(test, call string)
	// OnTest, when set, hears each test's verdict as the test ends.
	OnTest func(Test)
}

// Report is a grading run as the page reads it: each test's verdict; at
// the first difference the call, both answers and both tables (rows in
// Columns' order); the calls of that test up to it, each with the SQL
// the student's code ran and both tables after it; and the report
// leaselab grade prints, in Lang.
type Report struct {
	// CannotRun says why the module could not be loaded at all (a
	// syntax error, an exception at its top level); Line is where, when
	// Python said (1-based; 0 when not). Nothing else is set then.
	CannotRun string   `json:"cannot_run,omitempty"`
	Line      int      `json:"line,omitempty"`
	Lab       string   `json:"lab"`
	Columns   []string `json:"columns"`
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
	Test     string  `json:"test"`
	Where    string  `json:"where"`
	Call     string  `json:"call"`
	Want     string  `json:"want"`
	Got      string  `json:"got"`
	Detail   string  `json:"detail,omitempty"`
	Broken   string  `json:"broken,omitempty"`
	WantRows [][]any `json:"want_rows"`
	GotRows  [][]any `json:"got_rows"`
	Timeline string  `json:"timeline,omitempty"`
	// Link opens the difference in the simulator, at its step, the
	// student's run beside the engine's (grade.Failure.Link).
	Link  string `json:"link,omitempty"`
	Steps []Step `json:"steps"`
}

// Step is one call of the failing test: both answers, the SQL the
// student's code ran (as SQLite expanded it, the parameters in place),
// and both tables after it (RowsError when the student's could not be
// read).
type Step struct {
	Call      string      `json:"call"`
	Want      string      `json:"want"`
	Got       string      `json:"got"`
	SQL       []Statement `json:"sql"`
	WantRows  [][]any     `json:"want_rows"`
	GotRows   [][]any     `json:"got_rows"`
	RowsError string      `json:"rows_error,omitempty"`
	path      string
}

// Statement is one statement a call ran.
type Statement struct {
	SQL    string `json:"sql"`
	Params []any  `json:"params"`
}

// maxSteps is how many calls of the failing test the report keeps.
const maxSteps = 40

// Grade grades source, a Python module of the lab's functions, in py (a
// Pyodide instance), with engine/grade's tests; the report is JSON. Only
// a failure of the grader itself is an error: a module that does not
// load is a report that says so.
func Grade(ctx context.Context, py js.Value, source string, o Options) ([]byte, error) {
	began := time.Now()
	if o.Lab == "" {
		o.Lab = grade.Fencing
	}
	if o.CallTimeout <= 0 {
		o.CallTimeout = 5 * time.Second
	}
	s, err := newSpeaker(py, source)
	if err != nil {
		return nil, err
	}
	defer s.close()
	cols, _ := grade.LabRows(o.Lab, nil)
	out := Report{Lab: o.Lab, Columns: cols, Missing: []string{}, Tests: []Test{}}
	steps := map[string][]Step{}
	current := ""
	if o.OnCall != nil {
		s.onCall = func(call string) { o.OnCall(current, call) }
	}
	r, err := grade.Grade(ctx, grade.Options{Speaker: s, LabName: o.Lab, Dir: runDir, Sequences: o.Sequences, Rounds: o.Rounds,
		CallTimeout: o.CallTimeout, StopAtHang: true,
		Progress: func(name string) { current = name },
		Tested: func(t grade.Test) {
			if o.OnTest != nil {
				o.OnTest(verdict(t))
			}
		},
		Observe: func(ob grade.Observed) {
			steps[current] = observed(s, o.Lab, steps[current], ob)
		}})
	var b *grade.Broken
	if errors.As(err, &b) && (b.Kind == "import" || b.Kind == "hang") {
		out.CannotRun, out.Line = b.Message, syntaxLine(b.Message)
		return json.Marshal(out)
	}
	if err != nil {
		return nil, err
	}
	out.Passed = r.Passed()
	if r.Missing != nil {
		out.Missing = r.Missing
	}
	for _, t := range r.Tests {
		out.Tests = append(out.Tests, verdict(t))
	}
	if t := r.First(); t != nil {
		out.First = first(t, o.Lab, steps[t.Name])
		if o.Simulator != "" {
			out.First.Link = t.Failure.Link(o.Simulator, o.Lang)
		}
	}
	var text strings.Builder
	grade.WriteText(&text, r, o.Lang)
	out.Text = text.String()
	out.ElapsedMS = time.Since(began).Milliseconds()
	return json.Marshal(out)
}

// observed is list with the call ob appended: the SQL it ran and the
// student's table after it, read on the student's file. A call on
// another file starts the list afresh (the calls before were another
// sequence's); the list keeps the last maxSteps.
func observed(s *speaker, lab string, list []Step, ob grade.Observed) []Step {
	_, want := grade.LabRows(lab, ob.WantRows)
	st := Step{Call: ob.Call, Want: ob.Want, Got: ob.Got, SQL: []Statement{}, WantRows: want, GotRows: [][]any{}, path: s.path}
	for _, q := range s.statements() {
		st.SQL = append(st.SQL, Statement{SQL: q, Params: []any{}})
	}
	cols, _ := grade.LabRows(lab, nil)
	raw, err := s.Rows(s.path, "SELECT "+strings.Join(cols, ", ")+" FROM jobs ORDER BY rowid")
	var rows struct {
		Rows  [][]any `json:"rows"`
		Error string  `json:"error"`
	}
	switch {
	case err != nil:
		st.RowsError = err.Error()
	case json.Unmarshal(raw, &rows) != nil || rows.Error != "":
		st.RowsError = rows.Error
	default:
		st.GotRows = append(st.GotRows, rows.Rows...)
	}
	if len(list) > 0 && list[len(list)-1].path != st.path {
		list = nil
	}
	if len(list) == maxSteps {
		list = list[1:]
	}
	return append(list, st)
}

// first is the report's first difference, of test t.
func first(t *grade.Test, lab string, steps []Step) *First {
	f := t.Failure
	_, want := grade.LabRows(lab, f.WantRows)
	_, got := grade.LabRows(lab, f.GotRows)
	out := &First{Test: t.Name, Where: f.Where, Call: f.Call, Want: f.Want, Got: f.Got, Detail: f.Detail,
		WantRows: want, GotRows: got, Timeline: f.Timeline, Steps: steps}
	if f.Broken != nil {
		out.Broken = f.Broken.Error()
	}
	if out.Steps == nil {
		out.Steps = []Step{}
	}
	return out
}

// verdict is t's verdict.
func verdict(t grade.Test) Test {
	v := Test{Name: t.Name, Status: "pass"}
	switch {
	case t.Skipped != "":
		v.Status, v.Why = "skip", t.Skipped
	case t.Failure != nil:
		v.Status = "fail"
	}
	return v
}

// lineOf finds the line Python's traceback names in the student's file.
var lineOf = regexp.MustCompile(`"` + regexp.QuoteMeta(studentDir) + `/student\.py", line (\d+)`)

// syntaxLine is the line of the student's file a load error names, 0
// when none.
func syntaxLine(msg string) int {
	m := lineOf.FindAllStringSubmatch(msg, -1)
	if len(m) == 0 {
		return 0
	}
	n, _ := strconv.Atoi(m[len(m)-1][1])
	return n
}

// pythonCall is a call as the report writes it: claim(path, "j1", "A",
// 0, 1000); a call back argument by its name.
func pythonCall(fn string, args []json.RawMessage) string {
	parts := make([]string, len(args))
	for i, a := range args {
		if i == 0 {
			parts[i] = "path"
			continue
		}
		var v any
		json.Unmarshal(a, &v)
		parts[i] = pyValue(v)
	}
	return fn + "(" + strings.Join(parts, ", ") + ")"
}

// pyValue is a JSON value as Python writes it.
func pyValue(v any) string {
	switch v := v.(type) {
	case nil:
		return "None"
	case bool:
		if v {
			return "True"
		}
		return "False"
	case string:
		b, _ := json.Marshal(v)
		return string(b)
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = pyValue(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		if name, ok := v["callback"].(string); ok && len(v) == 1 {
			return name
		}
		b, _ := json.Marshal(v)
		return string(b)
	}
	b, _ := json.Marshal(v)
	return string(b)
}
