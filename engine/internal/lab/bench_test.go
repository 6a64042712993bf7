package lab_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/lab"
)

// BenchmarkLabSweep runs a 20-policy × 50-run sweep of 20 jobs each (goal:
// at most 5 s an operation natively, make bench).
func BenchmarkLabSweep(b *testing.B) {
	// The library's lease lab widened to 20 policies of 50 runs of 20
	// jobs; make bench-browser runs the same file in Chromium.
	text, err := os.ReadFile(filepath.Join("testdata", "bench.lab"))
	if err != nil {
		b.Fatal(err)
	}
	l, err := lab.Parse("bench.lab", string(text))
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
