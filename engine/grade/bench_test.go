package grade_test

import (
	"testing"

	"github.com/leaselab/leaselab/engine/grade"
)

// BenchmarkGrade grades the correct Python implementation in full (goal:
// at most 10 s an operation, make bench).
func BenchmarkGrade(b *testing.B) {
	for b.Loop() {
		dir := tempDir(b)
		prog, err := grade.Python("testdata/correct.py", dir)
		if err != nil {
			b.Skip(err)
		}
		r, err := grade.Grade(b.Context(), grade.Options{Program: prog, Dir: dir})
		if err != nil || !r.Passed() {
			b.Fatalf("the correct implementation did not pass: %v", err)
		}
	}
}
