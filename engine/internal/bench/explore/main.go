//go:build mutants

// Command explorebench measures the explorer natively for make bench: for
// every mutant, the time to find the shortest timeline that tells it apart
// within the default scope (goal: at most 2 s each), and the states per
// second of an exhaustive search (every history of a few steps on the
// correct engine, which breaks nothing). Each figure is printed beside its
// goal, met or MISSED; a missed goal is a line, not a failure.
//
//	go run -tags mutants ./engine/internal/bench/explore
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/leaselab/leaselab/engine/check"
	"github.com/leaselab/leaselab/engine/internal/explore"
	"github.com/leaselab/leaselab/engine/internal/mutant"
)

func main() {
	goal := flag.Duration("goal", 2*time.Second, "the longest a mutant may take to be told apart")
	steps := flag.Int("exhaustive-steps", 5, "the depth of the exhaustive search whose rate is reported")
	flag.Parse()
	os.Exit(run(*goal, *steps))
}

func run(goal time.Duration, steps int) int {
	ctx := context.Background()
	fmt.Println("explorer, natively (default scope: 3 workers, jobs a and b, 8 steps, ttl 1000 ms)")
	fmt.Printf("  %-24s %6s %8s %10s %12s  %s\n", "MUTANT", "STEPS", "STATES", "TIME", "STATES/S", "GOAL")
	var total time.Duration
	for _, m := range mutant.All() {
		start := time.Now()
		r, err := explore.Explore(ctx, explore.DefaultScope(), explore.Goal{Mutant: m.Name}, nil)
		took := time.Since(start)
		total += took
		if err != nil || r.Timeline == "" {
			fmt.Printf("  %-24s not told apart (%v)  MISSED\n", m.Name, err)
			continue
		}
		fmt.Printf("  %-24s %6d %8d %10s %12.0f  <= %v %s\n", m.Name, len(r.Steps), r.States, took.Round(10*time.Microsecond),
			float64(r.States)/r.Elapsed.Seconds(), goal, verdict(took <= goal))
	}
	fmt.Printf("  explore -all, every mutant: %v\n", total.Round(time.Millisecond))
	sc := explore.DefaultScope()
	sc.Steps = steps
	f, err := explore.Search(ctx, sc, explore.Goal{Property: check.SingleLease}, nil)
	if err != nil {
		fmt.Println("  exhaustive search:", err)
		return 1
	}
	fmt.Printf("  exhaustive, every history of %d steps on the correct engine: %d states in %v, %.0f states/s\n",
		steps, f.States, f.Elapsed.Round(time.Millisecond), float64(f.States)/f.Elapsed.Seconds())
	return 0
}

func verdict(met bool) string {
	if met {
		return "met"
	}
	return "MISSED"
}
