package grade

import (
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/internal/lang"
)

// Langs are the languages WriteText speaks.
func Langs() []string { return []string{"en", "ko"} }

// WriteText writes the report for a person: each test's verdict, then the
// first difference in full, in lang ("en" or "ko").
func WriteText(w io.Writer, r *Report, l string) {
	if len(r.Missing) > 0 {
		fmt.Fprintln(w, lang.P("your code does not define: %s", strings.Join(r.Missing, ", ")).In(l))
	}
	verdict := func(v string) string { return lang.Word(v).In(l) }
	first := r.First()
	pass, fail, skip := 0, 0, 0
	for i, test := range r.Tests {
		switch {
		case test.Skipped != "":
			skip++
			fmt.Fprintf(w, "%-4s  %s: %s\n", verdict("SKIP"), test.titleIn(l), pick(test.why, test.Skipped, l))
		case test.Failure != nil && &r.Tests[i] != first && test.Failure.Broken != nil && test.Failure.Call == "":
			// A failure without a call (the test never ran, or the program
			// never started) has nothing else to show: its reason, on its line.
			fail++
			fmt.Fprintf(w, "%-4s  %s: %s\n", verdict("FAIL"), test.titleIn(l), test.Failure.Broken.in(l))
		case test.Failure != nil:
			fail++
			fmt.Fprintf(w, "%-4s  %s\n", verdict("FAIL"), test.titleIn(l))
		default:
			pass++
			fmt.Fprintf(w, "%-4s  %s\n", verdict("PASS"), test.titleIn(l))
		}
	}
	if first != nil {
		fmt.Fprintln(w)
		fmt.Fprintln(w, lang.P("First difference: %s (%s)", first.titleIn(l), pick(first.Failure.where, first.Failure.Where, l)).In(l))
		io.WriteString(w, failureText(first.Failure, l))
		sim := r.Simulator
		if sim == "" {
			sim = DefaultSimulator
		}
		if link := first.Failure.Link(sim, l); link != "" {
			fmt.Fprintf(w, "  %s\n", lang.P("Open it in the simulator, at the step that differs: %s", link).In(l))
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, lang.P("%d passed, %d failed, %d skipped in %.1fs", pass, fail, skip, r.Elapsed.Seconds()).In(l))
}

// titleIn is the test's name in language l.
func (t *Test) titleIn(l string) string { return pick(t.title, t.Name, l) }

// pick is p in language l, or s when the grader wrote no phrase.
func pick(p lang.Phrase, s, l string) string {
	if p.Format() == "" {
		return s
	}
	return p.In(l)
}

// FailureText is a failure in full, in English: the call, both answers,
// both tables and the timeline that reproduces it.
func FailureText(f *Failure) string { return failureText(f, "en") }

func failureText(f *Failure, l string) string {
	t := func(s string) string { return lang.Word(s).In(l) }
	var b strings.Builder
	// A program that broke the protocol answering the call has that for its
	// answer; otherwise what broke comes first, on its own.
	got := f.Got
	switch {
	case f.Broken != nil && f.Call != "" && f.Broken.Call == f.Call:
		got = t("your program broke the protocol:") + " " + f.Broken.msgIn(l)
	case f.Broken != nil:
		fmt.Fprintf(&b, "  %s %s\n", t("your program broke the protocol:"), indent(f.Broken.in(l)))
	}
	if f.Call != "" {
		fmt.Fprintf(&b, "  %s %s\n", pad(t("call:"), 9), pick(f.call, f.Call, l))
		fmt.Fprintf(&b, "  %s %s\n", pad(t("contract:"), 9), pick(f.want, f.Want, l))
		fmt.Fprintf(&b, "  %s %s\n", pad(t("yours:"), 9), indent(got))
	}
	if d := pick(f.detail, f.Detail, l); d != "" {
		fmt.Fprintf(&b, "  %s\n", indent(d))
	}
	if f.WantRows != nil || f.GotRows != nil {
		row, cols := labRow, "id owner until fence result done"
		if f.Lab == Courier {
			row, cols = courierRowText, strings.ReplaceAll(courierColumns, ",", "")
		}
		fmt.Fprintf(&b, "  %s\n", lang.P("the table after the call (%s):", cols).In(l))
		fmt.Fprintf(&b, "    %s%s\n", t("contract:"), rowsText(f.WantRows, t("(no rows)"), row))
		fmt.Fprintf(&b, "    %s%s\n", t("yours:"), rowsText(f.GotRows, t("(no rows)"), row))
	}
	if f.Timeline != "" {
		fmt.Fprintf(&b, "  %s\n", t("A timeline that reproduces it (leaselab check FILE replays it on the engine):"))
		for _, line := range strings.Split(strings.TrimRight(f.Timeline, "\n"), "\n") {
			fmt.Fprintf(&b, "    %s\n", line)
		}
	}
	return b.String()
}

// pad is s and spaces to n characters (runes, so Korean lines up too).
func pad(s string, n int) string {
	if k := utf8.RuneCountInString(s); k < n {
		return s + strings.Repeat(" ", n-k)
	}
	return s
}

func indent(s string) string { return strings.ReplaceAll(s, "\n", "\n    ") }

// rowsText is the rows in the lab's columns.
func rowsText(jobs []engine.Job, none string, row func(*engine.Job) string) string {
	if len(jobs) == 0 {
		return " " + none
	}
	var b strings.Builder
	for _, j := range jobs {
		b.WriteString("\n      " + row(&j))
	}
	return b.String()
}

// labRow is a row as the lab's table holds it.
func labRow(j *engine.Job) string {
	owner, result, done := "NULL", "NULL", 0
	if j.Owner != "" {
		owner = j.Owner
	}
	if j.Result != "" || j.Status == engine.StatusDone {
		result = fmt.Sprintf("%q", j.Result)
	}
	if j.Status == engine.StatusDone {
		done = 1
	}
	return fmt.Sprintf("%-6s %-6s %6d %3d %-8s %d", j.ID, owner, j.LeaseUntil, j.Token, result, done)
}

// WriteGradescope writes Gradescope's results.json: one test a point,
// each test's status passed or failed, the score their sum (skipped tests
// are left out), execution_time the run's seconds rounded up, and the
// top-level output the counts and the functions the code does not define;
// a failure's output is its full text.
func WriteGradescope(w io.Writer, r *Report) error {
	type test struct {
		Name       string  `json:"name"`
		Score      float64 `json:"score"`
		MaxScore   float64 `json:"max_score"`
		Status     string  `json:"status"`
		Output     string  `json:"output"`
		Visibility string  `json:"visibility"`
	}
	out := struct {
		Score         float64 `json:"score"`
		ExecutionTime int64   `json:"execution_time"`
		Output        string  `json:"output"`
		Tests         []test  `json:"tests"`
	}{Tests: []test{}, ExecutionTime: int64(math.Ceil(r.Elapsed.Seconds()))}
	failed, skipped := 0, 0
	for _, t := range r.Tests {
		if t.Skipped != "" {
			skipped++
			continue
		}
		gt := test{Name: t.Name, MaxScore: 1, Visibility: "visible", Status: "passed", Output: "passed"}
		if t.Failure == nil {
			gt.Score = 1
		} else {
			failed++
			gt.Status, gt.Output = "failed", FailureText(t.Failure)
		}
		out.Score += gt.Score
		out.Tests = append(out.Tests, gt)
	}
	out.Output = lang.P("%d passed, %d failed, %d skipped in %.1fs", len(out.Tests)-failed, failed, skipped, r.Elapsed.Seconds()).String()
	if len(r.Missing) > 0 {
		out.Output = lang.P("your code does not define: %s", strings.Join(r.Missing, ", ")).String() + "\n" + out.Output
	}
	e := json.NewEncoder(w)
	e.SetIndent("", "  ")
	return e.Encode(out)
}

// Unrun is the report of code that could not be run at all (a module that
// does not load, a program that does not start, a file not there): one
// failed test, "the student's code runs", whose failure is err. It is what
// the machine formats write then, so an autograder reading their file
// shows a score of 0 and why instead of finding no file.
func Unrun(lab string, err error) *Report {
	f := &Failure{Lab: lab}
	var b *Broken
	if errors.As(err, &b) {
		f.Broken = b
	} else {
		f.Detail = err.Error()
	}
	return &Report{Lab: lab, Tests: []Test{{Name: "the student's code runs", Failure: f}}}
}

// WriteJUnit writes the report as JUnit XML: one testsuite, a testcase a
// test, a failure's text as its body.
func WriteJUnit(w io.Writer, r *Report) error {
	type failure struct {
		Message string `xml:"message,attr"`
		Body    string `xml:",chardata"`
	}
	type skipped struct {
		Message string `xml:"message,attr"`
	}
	type testcase struct {
		Name      string   `xml:"name,attr"`
		Classname string   `xml:"classname,attr"`
		Time      string   `xml:"time,attr"`
		Failure   *failure `xml:"failure,omitempty"`
		Skipped   *skipped `xml:"skipped,omitempty"`
	}
	type suite struct {
		XMLName  xml.Name   `xml:"testsuite"`
		Name     string     `xml:"name,attr"`
		Tests    int        `xml:"tests,attr"`
		Failures int        `xml:"failures,attr"`
		Skipped  int        `xml:"skipped,attr"`
		Time     string     `xml:"time,attr"`
		Cases    []testcase `xml:"testcase"`
	}
	s := suite{Name: "leaselab grade", Tests: len(r.Tests), Time: fmt.Sprintf("%.3f", r.Elapsed.Seconds())}
	for _, t := range r.Tests {
		c := testcase{Name: t.Name, Classname: "leaselab.grade", Time: fmt.Sprintf("%.3f", t.Elapsed.Seconds())}
		switch {
		case t.Skipped != "":
			s.Skipped++
			c.Skipped = &skipped{Message: t.Skipped}
		case t.Failure != nil:
			s.Failures++
			msg := t.Failure.Call + ": want " + t.Failure.Want + ", got " + t.Failure.Got
			if t.Failure.Broken != nil {
				msg = t.Failure.Broken.Error()
			}
			c.Failure = &failure{Message: msg, Body: FailureText(t.Failure)}
		}
		s.Cases = append(s.Cases, c)
	}
	io.WriteString(w, xml.Header)
	e := xml.NewEncoder(w)
	e.Indent("", "  ")
	if err := e.Encode(s); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
