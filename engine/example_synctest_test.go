// The pattern is a native service's: under GOOS=js the database is reached
// through JavaScript, outside any synctest bubble.

//go:build !js

package engine_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/sqlitedb"
)

// dispatched is one Dispatch of a worker of the pool: who ran it, the lease
// it claimed and how it ended.
type dispatched struct {
	worker string
	lease  engine.Lease
	err    error
}

// runWorker is a service's worker as it runs in production: it reads the
// wall clock, sleeps real time between polls, and stops when ctx ends. It
// drains on stop: a dispatch under way runs to its end on a context that
// is never cancelled, so no statement is interrupted halfway. Nothing in
// it knows it runs under a test.
func runWorker(ctx context.Context, store *engine.Store, name string, ttl, poll time.Duration,
	send func(context.Context, engine.Lease) error, record func(dispatched)) {
	for ctx.Err() == nil {
		l, err := store.Dispatch(context.WithoutCancel(ctx), name, engine.WallClock{}, ttl.Milliseconds(), send)
		if errors.Is(err, engine.ErrEmpty) {
			select {
			case <-ctx.Done():
			case <-time.After(poll):
			}
			continue
		}
		if ctx.Err() == nil {
			record(dispatched{name, l, err})
		}
	}
}

// The synctest pattern for a service: a worker pool written against
// time.Now, time.Sleep and engine.WallClock runs unchanged in a
// testing/synctest bubble, where time is virtual and moves only when every
// goroutine waits. The worker holding order-1 stalls for 15 s on a 10 s
// lease; another worker of the pool reclaims the job once the lease has
// ended and before the stalled one wakes, and the stalled worker's late
// complete is refused as superseded. Twenty seconds pass in the bubble and
// none in the test's real time.
func TestService_StalledWorkerIsReclaimedInVirtualTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		db, err := sqlitedb.Memory("synctest-worker-pool")
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		// One connection, as a service often gives SQLite: the workers queue
		// for it on a channel, where the bubble sees them blocked, and the
		// clock moves only by the sleeps below. With more, a write that
		// meets another's lock sleeps in SQLite's busy handler, which moves
		// the clock by a few milliseconds at random; and if that call's
		// context were cancelled, database/sql would wait on a mutex the
		// bubble cannot see through, so the sleep would never end.
		db.SetMaxOpenConns(1)
		store, err := engine.New(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		receiver, err := engine.NewReceiver(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		jobs := []string{"order-1", "order-2", "order-3"}
		for _, id := range jobs {
			if _, err := store.Enqueue(ctx, engine.NewJob{ID: id, Qty: 1}); err != nil {
				t.Fatal(err)
			}
		}

		const ttl, poll, stall = 10 * time.Second, time.Second, 15 * time.Second
		send := func(ctx context.Context, l engine.Lease) error {
			if _, err := receiver.Deliver(ctx, l); err != nil {
				return err
			}
			took := time.Second
			if l.JobID == "order-1" && l.Token == 1 {
				took = stall // a GC pause, a slow downstream
			}
			time.Sleep(took)
			return nil
		}
		var (
			mu   sync.Mutex
			seen []dispatched
			wg   sync.WaitGroup
		)
		record := func(d dispatched) { mu.Lock(); seen = append(seen, d); mu.Unlock() }
		start := time.Now()
		for _, w := range []string{"w1", "w2", "w3"} {
			wg.Go(func() { runWorker(ctx, store, w, ttl, poll, send, record) })
		}
		time.Sleep(20 * time.Second)
		cancel()
		wg.Wait()
		if elapsed := time.Since(start); elapsed != 20*time.Second {
			t.Fatalf("the bubble's clock moved %v; want exactly the 20s slept", elapsed)
		}

		var first, second *dispatched
		for i, d := range seen {
			if d.lease.JobID == "order-1" && d.lease.Token == 1 {
				first = &seen[i]
			}
			if d.lease.JobID == "order-1" && d.lease.Token == 2 {
				second = &seen[i]
			}
		}
		if first == nil || second == nil {
			t.Fatalf("order-1 was not claimed twice: %+v", seen)
		}
		if !errors.Is(first.err, engine.ErrSuperseded) {
			t.Errorf("the stalled worker's complete: %v; want refused superseded", first.err)
		}
		if second.err != nil || second.worker == first.worker {
			t.Errorf("the reclaim by %s after %s: %v; want another worker's success", second.worker, first.worker, second.err)
		}
		ended := time.UnixMilli(first.lease.LeaseUntil)
		reclaimed := time.UnixMilli(second.lease.LeaseUntil).Add(-ttl)
		woke := time.UnixMilli(first.lease.LeaseUntil).Add(-ttl).Add(stall)
		if reclaimed.Before(ended) || !reclaimed.Before(woke) {
			t.Errorf("order-1 reclaimed %v after the start; want in [%v, %v): after the lease ended, before its holder woke",
				reclaimed.Sub(start), ended.Sub(start), woke.Sub(start))
		}

		rows, err := store.Inspect(context.Background(), jobs...)
		if err != nil {
			t.Fatal(err)
		}
		for _, j := range rows {
			if j.Status != engine.StatusDone || j.Result != engine.ResultSent {
				t.Errorf("%s: %s %q; want done, sent", j.ID, j.Status, j.Result)
			}
		}
		if total, err := receiver.Total(context.Background()); err != nil || total != int64(len(jobs)) {
			t.Errorf("receiver total %d, %v; want %d: each job applied once, the resend of order-1 too", total, err, len(jobs))
		}
	})
}
