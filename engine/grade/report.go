package grade

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/leaselab/leaselab/engine"
)

// words are the report's words in each language.
var words = map[string]map[string]string{
	"en": {
		"pass": "PASS", "fail": "FAIL", "skip": "SKIP",
		"first":    "First difference: %s (%s)",
		"call":     "call:",
		"contract": "contract:",
		"yours":    "yours:",
		"table":    "the table after the call (%s):",
		"broken":   "your program broke the protocol:",
		"missing":  "student.py does not define: %s",
		"repro":    "A timeline that reproduces it (leaselab check FILE replays it on the engine):",
		"summary":  "%d passed, %d failed, %d skipped in %.1fs",
		"none":     "(no rows)",
	},
	"ko": {
		"pass": "통과", "fail": "실패", "skip": "건너뜀",
		"first":    "첫 번째 차이: %s (%s)",
		"call":     "호출:",
		"contract": "계약:",
		"yours":    "제출:",
		"table":    "호출 뒤의 테이블 (%s):",
		"broken":   "프로그램이 프로토콜을 어겼습니다:",
		"missing":  "student.py에 정의되지 않은 함수: %s",
		"repro":    "이 차이를 재현하는 타임라인 (leaselab check FILE 로 엔진에서 재생됩니다):",
		"summary":  "통과 %d, 실패 %d, 건너뜀 %d (%.1f초)",
		"none":     "(행 없음)",
	},
}

// Langs are the languages WriteText speaks.
func Langs() []string { return []string{"en", "ko"} }

// WriteText writes the report for a person: each test's verdict, then the
// first difference in full, in lang ("en" or "ko").
func WriteText(w io.Writer, r *Report, lang string) {
	t := words[lang]
	if t == nil {
		t = words["en"]
	}
	if len(r.Missing) > 0 {
		fmt.Fprintf(w, t["missing"]+"\n", strings.Join(r.Missing, ", "))
	}
	pass, fail, skip := 0, 0, 0
	for _, test := range r.Tests {
		switch {
		case test.Skipped != "":
			skip++
			fmt.Fprintf(w, "%-4s  %s: %s\n", t["skip"], test.Name, test.Skipped)
		case test.Failure != nil:
			fail++
			fmt.Fprintf(w, "%-4s  %s\n", t["fail"], test.Name)
		default:
			pass++
			fmt.Fprintf(w, "%-4s  %s\n", t["pass"], test.Name)
		}
	}
	if first := r.First(); first != nil {
		fmt.Fprintln(w)
		fmt.Fprintf(w, t["first"]+"\n", first.Name, first.Failure.Where)
		io.WriteString(w, failureText(first.Failure, t))
	}
	fmt.Fprintf(w, "\n"+t["summary"]+"\n", pass, fail, skip, r.Elapsed.Seconds())
}

// FailureText is a failure in full, in English: the call, both answers,
// both tables and the timeline that reproduces it.
func FailureText(f *Failure) string { return failureText(f, words["en"]) }

func failureText(f *Failure, t map[string]string) string {
	var b strings.Builder
	if f.Broken != nil {
		fmt.Fprintf(&b, "  %s %s\n", t["broken"], indent(f.Broken.Error()))
	}
	if f.Call != "" {
		fmt.Fprintf(&b, "  %-9s %s\n", t["call"], f.Call)
		fmt.Fprintf(&b, "  %-9s %s\n", t["contract"], f.Want)
		fmt.Fprintf(&b, "  %-9s %s\n", t["yours"], indent(f.Got))
	}
	if f.Detail != "" {
		fmt.Fprintf(&b, "  %s\n", indent(f.Detail))
	}
	if f.WantRows != nil || f.GotRows != nil {
		row, cols := labRow, "id owner until fence result done"
		if f.Lab == Courier {
			row, cols = courierRowText, strings.ReplaceAll(courierColumns, ",", "")
		}
		fmt.Fprintf(&b, "  "+t["table"]+"\n", cols)
		fmt.Fprintf(&b, "    %s%s\n", t["contract"], rowsText(f.WantRows, t, row))
		fmt.Fprintf(&b, "    %s%s\n", t["yours"], rowsText(f.GotRows, t, row))
	}
	if f.Timeline != "" {
		fmt.Fprintf(&b, "  %s\n", t["repro"])
		for _, l := range strings.Split(strings.TrimRight(f.Timeline, "\n"), "\n") {
			fmt.Fprintf(&b, "    %s\n", l)
		}
	}
	return b.String()
}

func indent(s string) string { return strings.ReplaceAll(s, "\n", "\n    ") }

// rowsText is the rows in the lab's columns.
func rowsText(jobs []engine.Job, t map[string]string, row func(*engine.Job) string) string {
	if len(jobs) == 0 {
		return " " + t["none"]
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
// the score their sum; a failure's output is its full text.
func WriteGradescope(w io.Writer, r *Report) error {
	type test struct {
		Name       string  `json:"name"`
		Score      float64 `json:"score"`
		MaxScore   float64 `json:"max_score"`
		Output     string  `json:"output"`
		Visibility string  `json:"visibility"`
	}
	out := struct {
		Score float64 `json:"score"`
		Tests []test  `json:"tests"`
	}{Tests: []test{}}
	for _, t := range r.Tests {
		if t.Skipped != "" {
			continue
		}
		gt := test{Name: t.Name, MaxScore: 1, Visibility: "visible", Output: "passed"}
		if t.Failure == nil {
			gt.Score = 1
		} else {
			gt.Output = FailureText(t.Failure)
		}
		out.Score += gt.Score
		out.Tests = append(out.Tests, gt)
	}
	e := json.NewEncoder(w)
	e.SetIndent("", "  ")
	return e.Encode(out)
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
