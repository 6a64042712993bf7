package grade_test

import (
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/grade"
)

// Observe hears each call the grader makes, with the contract's answer
// and its table after the call: step 4's first claim takes the fresh
// job, so the contract's table shows A holding it with fence 1.
func TestGrade_ObserveHearsEachCallWithTheContractsTable(t *testing.T) {
	lab := &goLab{}
	t.Cleanup(lab.close)
	var heard []grade.Observed
	test := ""
	_, err := grade.Grade(t.Context(), grade.Options{Lab: lab, Dir: tempDir(t), Sequences: 1, Rounds: 1,
		Progress: func(name string) { test = name },
		Observe: func(o grade.Observed) {
			if test == "step 4: claim" {
				heard = append(heard, o)
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range heard {
		if o.Call != `Claim(path, "j1", "A", 0, 1000)` { // a Lab is heard in Go's terms
			continue
		}
		if o.Want != "1" || o.Got != "1" || len(o.WantRows) == 0 || o.WantRows[0].Owner != "A" || o.WantRows[0].Token != 1 {
			t.Fatalf("heard %+v; want the answer 1 and A holding j1 with fence 1", o)
		}
		return
	}
	var calls []string
	for _, o := range heard {
		calls = append(calls, o.Call)
	}
	t.Fatalf("step 4's first claim was not heard; heard:\n%s", strings.Join(calls, "\n"))
}
