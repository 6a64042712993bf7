package engine_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine"
)

// A database that is full (SQLITE_FULL: PRAGMA max_page_count reached)
// refuses the enqueue that needs another page, whole, and the operations on
// the jobs it holds (claim, claim-next, renew, complete, release) go on
// working; with and without an observer.
func TestFaults_AFullDatabaseRefusesWholeAndGoesOn(t *testing.T) {
	ctx := context.Background()
	for _, observed := range []bool{false, true} {
		t.Run(fmt.Sprintf("observed=%v", observed), func(t *testing.T) {
			db, errFull := fullDB(t, 6)
			var opts []engine.Option
			if observed {
				opts = append(opts, engine.WithObserver(func(engine.Statement) {}))
			}
			s := newStore(t, db, opts...)
			var full error
			n := 0
			for ; n < 100000 && full == nil; n++ {
				_, full = s.Enqueue(ctx, engine.NewJob{ID: fmt.Sprintf("job-%06d-%s", n, strings.Repeat("x", 64))})
			}
			if !errors.Is(full, errFull) {
				t.Fatalf("after %d enqueues: %v, want SQLITE_FULL", n, full)
			}
			last := fmt.Sprintf("job-%06d-%s", n-1, strings.Repeat("x", 64))
			if j, err := s.Get(ctx, last); err != nil || j != nil {
				t.Fatalf("the refused enqueue: %v, %v; want no job", j, err)
			}
			first := fmt.Sprintf("job-%06d-%s", 0, strings.Repeat("x", 64))
			l, err := s.Claim(ctx, first, "w1", 100, 50)
			if err != nil {
				t.Fatalf("claim on a full database: %v", err)
			}
			next, err := s.ClaimNext(ctx, "w2", 100, 50)
			if err != nil {
				t.Fatalf("claim-next on a full database: %v", err)
			}
			if l, err = s.Renew(ctx, l, 110, 50); err != nil {
				t.Fatalf("renew on a full database: %v", err)
			}
			if err := s.Complete(ctx, l, 120, "ok"); err != nil {
				t.Fatalf("complete on a full database: %v", err)
			}
			if err := s.Release(ctx, next); err != nil {
				t.Fatalf("release on a full database: %v", err)
			}
			jobs, err := s.Jobs(ctx)
			if err != nil || len(jobs) != n-1 {
				t.Fatalf("%d jobs, %v; want %d", len(jobs), err, n-1)
			}
		})
	}
}
