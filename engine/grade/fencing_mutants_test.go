//go:build mutants

package grade_test

import (
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/grade"
	"github.com/leaselab/leaselab/engine/internal/mutant"
)

// A fencing lab whose renew, complete and release check the presenter as a
// mutant does fails that mutant's test: the mutants' timelines tell the
// contract apart by what the lab's functions answer and leave in the
// table, never by a refusal's reason, which the lab cannot give.
func TestFencingMutants_EachHolderCheckFailsItsMutantsTest(t *testing.T) {
	for _, tc := range []struct{ holder, mutant string }{
		{"fence", mutant.OwnerNotCompared},
		{"none", mutant.IDOnly},
	} {
		t.Run(tc.mutant, func(t *testing.T) {
			lab := &goLab{holder: tc.holder}
			t.Cleanup(lab.close)
			r, err := grade.Grade(t.Context(), grade.Options{Lab: lab, Dir: tempDir(t)})
			if err != nil {
				t.Fatal(err)
			}
			for _, test := range r.Tests {
				if test.Name != "mutant: "+tc.mutant {
					continue
				}
				if test.Skipped != "" || test.Failure == nil {
					t.Fatalf("%s: skipped %q, failure %v; want it failed", test.Name, test.Skipped, test.Failure)
				}
				// The rule is said in the lab's columns: its fence, not the engine's token.
				if d := test.Failure.Detail; !strings.Contains(d, "owner and the fence") && !strings.Contains(d, "owner and fence") || strings.Contains(d, "token") {
					t.Errorf("%s: the rule is not in the lab's terms: %q", test.Name, d)
				}
				return
			}
			t.Fatalf("no test mutant: %s", tc.mutant)
		})
	}
}
