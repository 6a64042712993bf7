package lab_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/lab"
)

// BenchmarkLabSweep runs a 20-policy × 50-run sweep of 20 jobs each (goal:
// at most 5 s an operation natively, make bench), and reports the engine
// calls it makes and the time each takes, which lab_calls is chosen by.
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
	calls := runCounting(b, l)
	b.ReportMetric(float64(calls)/float64(b.N), "calls/op")
}

// BenchmarkLabRunCost runs 100 runs of one job of 1 ms: what a run costs
// besides its calls (its database made ready, its one enqueue and its
// verification), beside BenchmarkLabCallCost's one call, which the
// estimate of lab_calls charges a run as a number of calls by.
func BenchmarkLabRunCost(b *testing.B) {
	benchCalls(b, "jobs 1\nworkers 1\nwork fixed 1ms\nruns 100\n", 100)
}

// BenchmarkLabCallCost runs 10 runs of one job renewed every ms for 10 s:
// 10,000 calls a run, what one engine call of a run costs.
func BenchmarkLabCallCost(b *testing.B) {
	benchCalls(b, "jobs 1\nworkers 1\nwork fixed 10s\nheartbeat 1ms\nruns 10\nhorizon 20s\n", 10)
}

// benchCalls runs the lab src of runs runs and reports its ns a run.
func benchCalls(b *testing.B, src string, runs int) {
	l, err := lab.Parse("b.lab", src)
	if err != nil {
		b.Fatal(err)
	}
	runCounting(b, l)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*runs), "ns/run")
}

// runCounting runs l for b, reports its ns a call (Result.Calls: as
// lab_calls counts them) and returns its calls, all operations together.
func runCounting(b *testing.B, l *lab.Lab) int64 {
	var calls int64
	for b.Loop() {
		res, err := lab.Run(context.Background(), l, lab.Options{})
		if err != nil {
			b.Fatal(err)
		}
		calls += res.Calls
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(calls), "ns/call")
	return calls
}
