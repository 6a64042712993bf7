package grade_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/grade"
	"github.com/leaselab/leaselab/engine/internal/testkit/nativeonly"
)

// invalidClaim is a timeline whose first claim is refused as invalid (a
// ttl of 0): the lab's ValueError.
const invalidClaim = `lease 1000ms
job j1

0ms  A claim j1 ttl=0  -> invalid
0ms  A claim j1        -> ok token=1
`

// A program of the student's own may name the lab's ValueError as Python
// does or as JavaScript does (RangeError, which the page accepts); any
// other name is an exception the contract does not ask for.
func TestGrade_ACmdProgramMayNameTheValueErrorRangeError(t *testing.T) {
	nativeonly.Python(t)
	script, err := filepath.Abs("testdata/renamed.py")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		accepts bool
	}{
		{"ValueError", true},
		{"RangeError", true},
		{"TypeError", false},
		{"rangeerror", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := tempDir(t)
			o := grade.Options{Program: grade.Program{Command: "python3", Args: []string{"-u", script, tc.name}, Dir: dir}, Dir: dir}
			f, err := grade.Timeline(t.Context(), o, "invalid.tl", invalidClaim)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tc.accepts && f != nil:
				t.Fatalf("%s was not the lab's ValueError:\n%s", tc.name, grade.FailureText(f))
			case !tc.accepts && (f == nil || !strings.Contains(f.Got, "error "+tc.name)):
				t.Fatalf("%s was taken for the lab's ValueError: failure %+v", tc.name, f)
			}
		})
	}
}
