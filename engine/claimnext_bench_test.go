package engine_test

import (
	"strconv"
	"testing"

	"github.com/leaselab/leaselab/engine"
)

// heldJobs is how many jobs hold a valid lease ahead of the pending ones in
// BenchmarkClaimNext_PastHeldJobs.
const heldJobs = 30_000

// BenchmarkClaimNext_PastHeldJobs claims the next job where heldJobs jobs,
// enqueued first, are held by valid leases and a few pending jobs follow
// them; each op is a ClaimNext (which must take the oldest pending job)
// and the Release that gives it back. "direct" is the one-statement path
// a store without an observer takes, "observed" the read-then-write
// transaction an observer sees.
func BenchmarkClaimNext_PastHeldJobs(b *testing.B) {
	for _, tc := range []struct {
		name string
		opts []engine.Option
	}{
		{"direct", nil},
		{"observed", []engine.Option{engine.WithObserver(func(engine.Statement) {})}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			s := memStore(b, tc.opts...)
			ctx := b.Context()
			for i := range heldJobs {
				id := "held-" + strconv.Itoa(i)
				enqueueOK(b, s, engine.NewJob{ID: id})
				claimOK(b, s, id, "holder", 0, 1<<40)
			}
			for i := range 4 {
				enqueueOK(b, s, engine.NewJob{ID: "pending-" + strconv.Itoa(i)})
			}
			for b.Loop() {
				l, err := s.ClaimNext(ctx, "w", 1, 1000)
				if err != nil || l.JobID != "pending-0" {
					b.Fatalf("claim next: %s, %v; want pending-0", l.JobID, err)
				}
				if err := s.Release(ctx, l); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
