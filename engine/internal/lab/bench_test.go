package lab_test

import (
	"context"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/lab"
)

// benchLab is the library's lease lab widened to 20 policies of 50 runs of
// 20 jobs (20,000 job-runs).
const benchLab = `# A 20-policy sweep
jobs 20
workers 4
work lognormal 500ms 0.5
gc every exponential 2s pause mixture 0.9 uniform 10ms 100ms | 0.1 uniform 1s 4s
crash every exponential 8s restart fixed 1s
delay uniform 1ms 10ms
horizon 30s
sweep lease 1s..20s step 1s
runs 50
seed 39
`

// BenchmarkLabSweep runs a 20-policy × 50-run sweep of 20 jobs each (goal:
// at most 5 s an operation natively, make bench).
func BenchmarkLabSweep(b *testing.B) {
	l, err := lab.Parse("bench.lab", benchLab)
	if err != nil {
		b.Fatal(err)
	}
	if n := len(l.Points()) * l.Runs * l.Workload.Jobs; n != 20*50*20 {
		b.Fatalf("%d job-runs", n)
	}
	for b.Loop() {
		if _, err := lab.Run(context.Background(), l, lab.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
