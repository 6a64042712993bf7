package grade_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/leaselab/leaselab/engine/grade"
)

// A Go student grades their Lab from their own go test: each of Grade's
// tests is a subtest. goLab is this package's Lab of the exercise in Go.
func ExampleRun() {
	testMyLab := func(t *testing.T) {
		lab := &goLab{}
		t.Cleanup(lab.close)
		grade.Run(t, lab)
	}
	_ = testMyLab
}

// Grade returns the report: here a Lab whose claim counts a lease as still
// held at the instant it ends (until >= now instead of until > now) fails
// the claim step at the first call that shows it, a claim at 0 of a fresh
// job (until 0), in Go's terms.
func ExampleGrade() {
	dir, _ := os.MkdirTemp("", "grade-example")
	defer os.RemoveAll(dir)
	lab := &goLab{claimBoundary: true}
	defer lab.close()
	r, err := grade.Grade(context.Background(), grade.Options{Lab: lab, Dir: dir, FailFast: true})
	if err != nil {
		panic(err)
	}
	f := r.First()
	fmt.Println(f.Name)
	fmt.Println(f.Failure.Call)
	fmt.Println("want", f.Failure.Want, "got", f.Failure.Got)
	// Output:
	// step 4: claim
	// Claim(path, "j1", "A", 0, 1000)
	// want 1 got nil
}
