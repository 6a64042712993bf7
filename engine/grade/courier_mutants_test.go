//go:build mutants

package grade_test

import (
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/grade"
	"github.com/leaselab/leaselab/engine/internal/mutant"
	"github.com/leaselab/leaselab/engine/internal/testkit/nativeonly"
)

// courierMutants are the mutants the courier's functions can show.
var courierMutants = []string{mutant.SchemaReset, mutant.EnqueueReplace, mutant.StateEmptyRow, mutant.ClaimBoundary,
	mutant.CompleteDone, mutant.NoDeadlineCap, mutant.AttemptsOffByOne, mutant.ValidityInclusive, mutant.IDOnly}

// A correct courier passes every mutant's timeline its functions can
// play; the others are skipped, each saying why.
func TestCourier_PassesEveryMutantsTimeline(t *testing.T) {
	nativeonly.Python(t)
	t.Parallel() // waits on its own Python processes
	r := gradeCourier(t, "testdata/courier.py", grade.Options{})
	if first := r.First(); first != nil {
		t.Fatalf("%s failed:\n%s", first.Name, grade.FailureText(first.Failure))
	}
	tests := map[string]grade.Test{}
	for _, test := range r.Tests {
		tests[test.Name] = test
	}
	for _, name := range courierMutants {
		if test, ok := tests["mutant: "+name]; !ok || test.Skipped != "" {
			t.Errorf("mutant: %s did not run (%q)", name, test.Skipped)
		}
	}
	for name, why := range map[string]string{
		mutant.OwnerNotCompared:      "another worker's current token",
		mutant.ReceiverNotIdempotent: "the receive step",
		mutant.RenewBoundary:         "no function for",
		mutant.ClaimManyFirstOnly:    "no function for",
	} {
		if test := tests["mutant: "+name]; !strings.Contains(test.Skipped, why) {
			t.Errorf("mutant: %s skipped %q; want it skipped saying …%s…", name, test.Skipped, why)
		}
	}
}
