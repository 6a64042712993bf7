package grade_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"
	"time"

	"github.com/leaselab/leaselab/engine/grade"
)

var sample = &grade.Report{Tests: []grade.Test{
	{Name: "step 1: init_db"},
	{Name: "step 4: claim", Failure: &grade.Failure{Where: "4-claim.tl:9", Call: `claim(path, "j1", "B", 1000, 500)`, Want: "2", Got: "None", Rule: "claim"}},
	{Name: "story: 01-late-courier.tl", Skipped: "not the lab's"},
}}

// junitCase is a JUnit testcase as the tests read it.
type junitCase struct {
	Name    string `xml:"name,attr"`
	Failure *struct {
		Message string `xml:"message,attr"`
	} `xml:"failure"`
}

func TestWriteJUnit_CountsFailuresAndSkipsAndNamesTheCall(t *testing.T) {
	var b bytes.Buffer
	if err := grade.WriteJUnit(&b, sample); err != nil {
		t.Fatal(err)
	}
	var s struct {
		Tests    int         `xml:"tests,attr"`
		Failures int         `xml:"failures,attr"`
		Skipped  int         `xml:"skipped,attr"`
		Cases    []junitCase `xml:"testcase"`
	}
	if err := xml.Unmarshal(b.Bytes(), &s); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if s.Tests != 3 || s.Failures != 1 || s.Skipped != 1 || len(s.Cases) != 3 {
		t.Fatalf("tests %d failures %d skipped %d cases %d; want 3 1 1 3", s.Tests, s.Failures, s.Skipped, len(s.Cases))
	}
	if f := s.Cases[1].Failure; f == nil || f.Message != `charged to claim: claim(path, "j1", "B", 1000, 500): want 2, got None` {
		t.Errorf("the failure's message does not name the rule, the call and the answers: %+v", f)
	}
	var p struct {
		Properties []struct {
			Name  string `xml:"name,attr"`
			Value string `xml:"value,attr"`
		} `xml:"properties>property"`
	}
	if err := xml.Unmarshal(b.Bytes(), &p); err != nil {
		t.Fatal(err)
	}
	props := map[string]string{}
	for _, x := range p.Properties {
		props[x.Name] = x.Value
	}
	if props["score"] != "75/100" || props["rule claim"] != "0/25" || props["rule renew"] != "15/15" || len(props) != 9 {
		t.Errorf("the suite's properties %v; want the score 75/100 and each of the 8 rules' points", props)
	}
}

// Gradescope's score is the rules': a test a rule carries its points, and
// each graded test is information, with a status and no score.
func TestWriteGradescope_EachRuleCarriesItsPointsAndEachTestInforms(t *testing.T) {
	var b bytes.Buffer
	if err := grade.WriteGradescope(&b, sample); err != nil {
		t.Fatal(err)
	}
	var r struct {
		Score      float64
		Visibility string
		Tests      []struct {
			Name       string
			Score      *float64
			MaxScore   *float64 `json:"max_score"`
			Status     string
			Output     string
			Visibility string
		}
	}
	if err := json.Unmarshal(b.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if r.Score != 75 || r.Visibility != "visible" || len(r.Tests) != 8+2 {
		t.Fatalf("score %v, visibility %q, %d tests; want 75, visible, the 8 rules and the 2 tests that ran:\n%s", r.Score, r.Visibility, len(r.Tests), b.String())
	}
	sum := 0.0
	for i, x := range r.Tests {
		if x.Visibility != "visible" {
			t.Errorf("%s: visibility %q; want visible", x.Name, x.Visibility)
		}
		if i >= 8 {
			if x.Score != nil || x.MaxScore != nil {
				t.Errorf("%s: score %v of %v; want a test as information, without a score", x.Name, x.Score, x.MaxScore)
			}
			continue
		}
		if x.Score == nil || x.MaxScore == nil || !strings.HasPrefix(x.Name, "rule: ") {
			t.Fatalf("test %d %+v; want a rule with its score", i, x)
		}
		sum += *x.MaxScore
		if lost := *x.Score != *x.MaxScore; lost != (x.Name == "rule: claim") || lost != (x.Status == "failed") {
			t.Errorf("%s: %v/%v %s; want only claim's points lost, and failed", x.Name, *x.Score, *x.MaxScore, x.Status)
		}
	}
	if claim := r.Tests[3]; claim.Name != "rule: claim" || !strings.Contains(claim.Output, "step 4: claim") {
		t.Errorf("%+v; want the rule claim naming the test charged to it", claim)
	}
	if f := r.Tests[9]; f.Status != "failed" || !strings.HasPrefix(f.Output, "charged to the rule claim\n") || !strings.Contains(f.Output, "contract: 2") {
		t.Errorf("the failed test %+v; want its rule and its full text", f)
	}
	if sum != 100 {
		t.Errorf("the rules' max_score sum to %v; want 100", sum)
	}
}

// Each test says passed or failed (Gradescope colours it by that), the run
// its time in seconds, and the top-level output names the functions the
// module does not define.
func TestWriteGradescope_EachTestHasAStatusAndTheRunItsTime(t *testing.T) {
	r := *sample
	r.Missing, r.Elapsed = []string{"claim_many"}, 2500*time.Millisecond
	var b bytes.Buffer
	if err := grade.WriteGradescope(&b, &r); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Score         float64
		ExecutionTime *float64 `json:"execution_time"`
		Output        string
		Tests         []struct{ Status string }
	}
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Tests) != 8+2 || got.Tests[8].Status != "passed" || got.Tests[9].Status != "failed" {
		t.Errorf("statuses %+v; want the rules', then passed, failed", got.Tests)
	}
	if got.ExecutionTime == nil || *got.ExecutionTime != 3 {
		t.Errorf("execution_time %v; want 3 (seconds, rounded up)", got.ExecutionTime)
	}
	if !strings.Contains(got.Output, "claim_many") || !strings.Contains(got.Output, "1 passed, 1 failed") || !strings.Contains(got.Output, "Score by rule: 75/100") {
		t.Errorf("output %q; want the counts, the score and the missing function", got.Output)
	}
}
