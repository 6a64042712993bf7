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
	{Name: "step 4: claim", Failure: &grade.Failure{Where: "4-claim.tl:9", Call: `claim(path, "j1", "B", 1000, 500)`, Want: "2", Got: "None"}},
	{Name: "story: 01-late-courier.tl", Skipped: "not the lab's"},
}}

func TestWriteJUnit_CountsFailuresAndSkipsAndNamesTheCall(t *testing.T) {
	var b bytes.Buffer
	if err := grade.WriteJUnit(&b, sample); err != nil {
		t.Fatal(err)
	}
	var s struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Skipped  int `xml:"skipped,attr"`
		Cases    []struct {
			Name    string `xml:"name,attr"`
			Failure *struct {
				Message string `xml:"message,attr"`
			} `xml:"failure"`
		} `xml:"testcase"`
	}
	if err := xml.Unmarshal(b.Bytes(), &s); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if s.Tests != 3 || s.Failures != 1 || s.Skipped != 1 || len(s.Cases) != 3 {
		t.Fatalf("tests %d failures %d skipped %d cases %d; want 3 1 1 3", s.Tests, s.Failures, s.Skipped, len(s.Cases))
	}
	if f := s.Cases[1].Failure; f == nil || !strings.Contains(f.Message, `claim(path, "j1", "B", 1000, 500): want 2, got None`) {
		t.Errorf("the failure's message does not name the call and answers: %+v", f)
	}
}

func TestWriteGradescope_ScoresThePassedAndLeavesOutTheSkipped(t *testing.T) {
	var b bytes.Buffer
	if err := grade.WriteGradescope(&b, sample); err != nil {
		t.Fatal(err)
	}
	var r struct {
		Score float64
		Tests []struct {
			Name     string
			Score    float64
			MaxScore float64 `json:"max_score"`
			Output   string
		}
	}
	if err := json.Unmarshal(b.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if r.Score != 1 || len(r.Tests) != 2 || r.Tests[1].Score != 0 || !strings.Contains(r.Tests[1].Output, "contract: 2") {
		t.Fatalf("got %+v; want score 1 of 2 tests, the failure's output naming the contract's answer", r)
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
	if len(got.Tests) != 2 || got.Tests[0].Status != "passed" || got.Tests[1].Status != "failed" {
		t.Errorf("statuses %+v; want passed, failed", got.Tests)
	}
	if got.ExecutionTime == nil || *got.ExecutionTime != 3 {
		t.Errorf("execution_time %v; want 3 (seconds, rounded up)", got.ExecutionTime)
	}
	if !strings.Contains(got.Output, "claim_many") || !strings.Contains(got.Output, "1 passed, 1 failed") {
		t.Errorf("output %q; want the counts and the missing function", got.Output)
	}
}
