package leasetest

import (
	"context"
	"testing"

	"github.com/leaselab/leaselab/engine/timeline"
)

// BenchmarkConformance is Run's work on leaselab's engine (every library
// timeline on a fresh in-memory database, then the random sequences and
// the concurrent rounds) once per iteration: what a user's go test pays
// for the suite.
func BenchmarkConformance(b *testing.B) {
	ctx := context.Background()
	var tls []*timeline.Timeline
	for _, name := range timeline.LibraryNames() {
		tl, err := timeline.LoadLibrary(name)
		if err != nil {
			b.Fatal(err)
		}
		tls = append(tls, tl)
	}
	newQueue := func() (Queue, error) { return newEngine() }
	for b.Loop() {
		for _, tl := range tls {
			q, err := newEngine()
			if err != nil {
				b.Fatal(err)
			}
			d, err := Timeline(ctx, tl, q)
			q.Close()
			if err != nil || d != nil {
				b.Fatal(d, err)
			}
		}
		if d, err := Sequences(ctx, newQueue, SequenceOptions{Seed: Seed}); err != nil || d != nil {
			b.Fatal(d, err)
		}
		if res, err := Concurrent(ctx, newQueue, ConcurrentOptions{Seed: Seed}); err != nil || res != nil {
			b.Fatal(res, err)
		}
	}
}
