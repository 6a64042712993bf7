//go:build !mutants

package mutant_test

import (
	"testing"

	"github.com/leaselab/leaselab/engine/internal/mutant"
)

// A build without the mutants tag has no mutant, knows no name and words
// no rule.
func TestAll_ANormalBuildHasNone(t *testing.T) {
	if ms := mutant.All(); len(ms) != 0 {
		t.Errorf("All() = %v in a normal build, want none", ms)
	}
	if mutant.Known(mutant.ClaimBoundary) || mutant.Rule("en", mutant.ClaimBoundary) != "" {
		t.Errorf("a normal build knows %s", mutant.ClaimBoundary)
	}
}
