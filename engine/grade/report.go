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
			fmt.Fprintf(w, "%-4s  %s%s: %s\n", verdict("FAIL"), test.titleIn(l), charged(test.Failure, l), test.Failure.Broken.in(l))
		case test.Failure != nil:
			fail++
			fmt.Fprintf(w, "%-4s  %s%s\n", verdict("FAIL"), test.titleIn(l), charged(test.Failure, l))
		default:
			pass++
			fmt.Fprintf(w, "%-4s  %s\n", verdict("PASS"), test.titleIn(l))
		}
	}
	if first != nil {
		fmt.Fprintln(w)
		fmt.Fprintln(w, lang.P("First difference: %s (%s)", first.titleIn(l), pick(first.Failure.where, first.Failure.Where, l)).In(l))
		io.WriteString(w, failureText(first.Failure, l)+r.linkText(first.Failure, l))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, lang.P("%d passed, %d failed, %d skipped in %.1fs", pass, fail, skip, r.Elapsed.Seconds()).In(l))
	writeScores(w, r, l)
}

// linkText is the line, in language l, that gives f's link to the
// simulator (Report.Simulator, or DefaultSimulator), indented as a
// failure's text is; "" when f has no link.
func (r *Report) linkText(f *Failure, l string) string {
	sim := r.Simulator
	if sim == "" {
		sim = DefaultSimulator
	}
	switch link := f.Link(sim, l); {
	case link == "":
		return ""
	case f.History != "":
		return "  " + lang.P("Open the round's calls in the simulator, drawn on one time axis: %s", link).In(l) + "\n"
	default:
		return "  " + lang.P("Open it in the simulator, at the step that differs: %s", link).In(l) + "\n"
	}
}

// writeScores writes the score by rule: the sum, then each rule's points
// of its maximum and the tests charged to it.
func writeScores(w io.Writer, r *Report, l string) {
	scores := r.Scores()
	got, most := r.Score()
	titles := map[string]string{}
	for i := range r.Tests {
		titles[r.Tests[i].Name] = r.Tests[i].titleIn(l)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, lang.P("Score by rule: %s/%s", points(got), points(most)).In(l))
	width := 0
	for _, s := range scores {
		width = max(width, len(s.Rule))
	}
	for _, s := range scores {
		line := fmt.Sprintf("  %-*s %5s", width, s.Rule, points(s.Points)+"/"+points(s.Max))
		if len(s.Failed) > 0 {
			names := make([]string, len(s.Failed))
			for i, n := range s.Failed {
				names[i] = titles[n]
			}
			line += "  " + lang.P("failed: %s", strings.Join(names, "; ")).In(l)
		}
		fmt.Fprintln(w, line)
	}
}

// charged is " (charged to RULE)" for a failure charged to a rule, in
// language l; "" for one charged to none.
func charged(f *Failure, l string) string {
	if f.Rule == "" {
		return ""
	}
	return " (" + lang.P("charged to %s", f.Rule).In(l) + ")"
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
	got := pick(f.got, f.Got, l)
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
		heading := lang.P("the table after the call (%s):", cols)
		if f.History != "" {
			heading = lang.P("the tables (%s): the contract's after the calls some order fits, yours after the round:", cols)
		}
		fmt.Fprintf(&b, "  %s\n", heading.In(l))
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

// WriteGradescope writes Gradescope's results.json, every test visible
// to the student: first a test for each rule (Report.Scores), named
// "rule: RULE", its score and max_score the rule's points, its output the
// tests charged to it; then each test the run graded, as information (a
// status, no score: the rules carry the points), a failure's output the
// rule it is charged to, its full text and its simulator link (skipped
// tests are left out).
// The top-level score is the rules' sum, execution_time the run's
// seconds rounded up, and the top-level output the counts, the score and
// the functions the code does not define.
func WriteGradescope(w io.Writer, r *Report) error {
	type test struct {
		Name       string   `json:"name"`
		Score      *float64 `json:"score,omitempty"`
		MaxScore   *float64 `json:"max_score,omitempty"`
		Status     string   `json:"status"`
		Output     string   `json:"output"`
		Visibility string   `json:"visibility"`
	}
	out := struct {
		Score         float64 `json:"score"`
		ExecutionTime int64   `json:"execution_time"`
		Output        string  `json:"output"`
		Visibility    string  `json:"visibility"`
		Tests         []test  `json:"tests"`
	}{Tests: []test{}, ExecutionTime: int64(math.Ceil(r.Elapsed.Seconds())), Visibility: "visible"}
	for _, s := range r.Scores() {
		gt := test{Name: "rule: " + s.Rule, Score: &s.Points, MaxScore: &s.Max, Visibility: "visible", Status: "passed",
			Output: "no test failed for this rule"}
		if len(s.Failed) > 0 {
			gt.Status, gt.Output = "failed", "the failures charged to this rule (each test's own output below says more):\n  "+strings.Join(s.Failed, "\n  ")
		}
		out.Tests = append(out.Tests, gt)
	}
	ran, failed, skipped := 0, 0, 0
	for _, t := range r.Tests {
		if t.Skipped != "" {
			skipped++
			continue
		}
		ran++
		gt := test{Name: t.Name, Visibility: "visible", Status: "passed", Output: "passed"}
		if t.Failure != nil {
			failed++
			gt.Status, gt.Output = "failed", FailureText(t.Failure)+r.linkText(t.Failure, "en")
			if t.Failure.Rule != "" {
				gt.Output = "charged to the rule " + t.Failure.Rule + "\n" + gt.Output
			}
		}
		out.Tests = append(out.Tests, gt)
	}
	got, most := r.Score()
	out.Score = got
	out.Output = lang.P("%d passed, %d failed, %d skipped in %.1fs", ran-failed, failed, skipped, r.Elapsed.Seconds()).String() + "\n" +
		lang.P("Score by rule: %s/%s", points(got), points(most)).String()
	if len(r.Missing) > 0 {
		out.Output = lang.P("your code does not define: %s", strings.Join(r.Missing, ", ")).String() + "\n" + out.Output
	}
	e := json.NewEncoder(w)
	e.SetIndent("", "  ")
	return e.Encode(out)
}

// Unrun is the report of code that could not be run at all (a module that
// does not load, a program that does not start, a file not there): one
// failed test, "the student's code runs", whose failure is err, and
// every rule's points lost (Scores). It is what the machine formats write
// then, so an autograder reading their file shows a score of 0 and why
// instead of finding no file.
func Unrun(lab string, err error) *Report {
	f := &Failure{Lab: lab}
	var b *Broken
	if errors.As(err, &b) {
		f.Broken = b
	} else {
		f.Detail = err.Error()
	}
	return &Report{Lab: lab, Tests: []Test{{Name: "the student's code runs", Failure: f}}, unrun: true}
}

// WriteJUnit writes the report as JUnit XML: one testsuite, a testcase a
// test, a failure's message naming the rule it is charged to and its
// text and simulator link as its body; the suite's properties are the score and each rule's
// points ("score" "75/100", "rule claim" "0/25").
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
	type property struct {
		Name  string `xml:"name,attr"`
		Value string `xml:"value,attr"`
	}
	type suite struct {
		XMLName    xml.Name   `xml:"testsuite"`
		Name       string     `xml:"name,attr"`
		Tests      int        `xml:"tests,attr"`
		Failures   int        `xml:"failures,attr"`
		Skipped    int        `xml:"skipped,attr"`
		Time       string     `xml:"time,attr"`
		Properties []property `xml:"properties>property"`
		Cases      []testcase `xml:"testcase"`
	}
	s := suite{Name: "leaselab grade", Tests: len(r.Tests), Time: fmt.Sprintf("%.3f", r.Elapsed.Seconds())}
	got, most := r.Score()
	s.Properties = append(s.Properties, property{"score", points(got) + "/" + points(most)})
	for _, rs := range r.Scores() {
		s.Properties = append(s.Properties, property{"rule " + rs.Rule, points(rs.Points) + "/" + points(rs.Max)})
	}
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
			if t.Failure.Rule != "" {
				msg = "charged to " + t.Failure.Rule + ": " + msg
			}
			c.Failure = &failure{Message: msg, Body: FailureText(t.Failure) + r.linkText(t.Failure, "en")}
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
