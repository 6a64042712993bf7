package explore_test

import (
	"testing"

	"github.com/leaselab/leaselab/engine/check"
	"github.com/leaselab/leaselab/engine/internal/explore"
)

// BenchmarkSearch_Exhaustive searches every history of five steps of the
// default scope on the correct engine for a broken single-lease (there is
// none), and reports the states visited per second.
func BenchmarkSearch_Exhaustive(b *testing.B) {
	sc := explore.DefaultScope()
	sc.Steps = 5
	for b.Loop() {
		f, err := explore.Search(b.Context(), sc, explore.Goal{Property: check.SingleLease}, nil)
		if err != nil || f.Steps != nil {
			b.Fatalf("%v %v", err, f.Steps)
		}
		b.ReportMetric(float64(f.States)/f.Elapsed.Seconds(), "states/s")
		b.ReportMetric(float64(f.States), "states")
	}
}
