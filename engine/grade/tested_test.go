package grade_test

import (
	"testing"

	"github.com/leaselab/leaselab/engine/grade"
)

// Tested hears each test as it ends, in order, with the verdict the
// report gives it: a run stopped mid-way keeps what it heard.
func TestGrade_TestedHearsEachVerdictAsItsTestEnds(t *testing.T) {
	lab := &goLab{claimBoundary: true}
	t.Cleanup(lab.close)
	var heard []grade.Test
	started := 0
	r, err := grade.Grade(t.Context(), grade.Options{Lab: lab, Dir: tempDir(t), FailFast: true,
		Progress: func(string) {
			if started != len(heard) {
				t.Errorf("test %d started before test %d was heard", started+1, started)
			}
			started++
		},
		Tested: func(test grade.Test) { heard = append(heard, test) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(heard) != 4 || len(r.Tests) != 4 {
		t.Fatalf("heard %d tests, the report has %d; want steps 1 to 4", len(heard), len(r.Tests))
	}
	for i, h := range heard {
		if h.Name != r.Tests[i].Name || h.Failure != r.Tests[i].Failure {
			t.Errorf("heard %q (failure %v), the report's %q (failure %v)", h.Name, h.Failure, r.Tests[i].Name, r.Tests[i].Failure)
		}
	}
	if heard[3].Failure == nil || heard[2].Failure != nil {
		t.Errorf("step 3 failed: %v, step 4 failed: %v; want only step 4", heard[2].Failure != nil, heard[3].Failure != nil)
	}
}
