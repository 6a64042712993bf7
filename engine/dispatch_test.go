package engine_test

import (
	"context"
	"database/sql"
	"errors"
	"sync"
	"testing"

	"github.com/ncruces/go-sqlite3"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/sqlitedb"
)

// sendNothing is a send that succeeds and delivers nowhere.
func sendNothing(context.Context, engine.Lease) error { return nil }

// newReceiver opens a receiver on db with the options every test store gets.
func newReceiver(t testing.TB, db *sql.DB) *engine.Receiver {
	t.Helper()
	r, err := engine.NewReceiver(t.Context(), db, testOptions(t)...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func wantTotal(t testing.TB, r *engine.Receiver, want int64) {
	t.Helper()
	got, err := r.Total(t.Context())
	if err != nil || got != want {
		t.Fatalf("Total = %d, %v; want %d", got, err, want)
	}
}

// impatientDB opens a second pool on the file at path whose one connection
// waits at most 100ms for another connection's write lock.
func impatientDB(t testing.TB, path string) *sql.DB {
	t.Helper()
	db, err := sqlitedb.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	db.SetMaxOpenConns(1)
	if _, err := db.ExecContext(t.Context(), `PRAGMA busy_timeout = 100`); err != nil {
		t.Fatal(err)
	}
	return db
}

// The claim has committed before send runs: inside send, a second pool on
// the same file with a 100ms busy timeout sees the claim and enqueues and
// claims another job. Were the claim's transaction still open, that pool
// would get SQLITE_BUSY, as the control shows.
func TestDispatch_ClaimCommittedBeforeSend(t *testing.T) {
	db, path := fileDB(t)
	s := newStore(t, db)
	other := newStore(t, impatientDB(t, path))
	enqueueOK(t, s, engine.NewJob{ID: "first", Qty: 3})

	t.Run("control: an open write transaction blocks the second pool", func(t *testing.T) {
		tx, err := db.BeginTx(t.Context(), &sql.TxOptions{Isolation: sql.LevelSerializable})
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback()
		if _, err := tx.ExecContext(t.Context(), `UPDATE jobs SET qty = qty WHERE id = 'first'`); err != nil {
			t.Fatal(err)
		}
		_, err = other.Enqueue(t.Context(), engine.NewJob{ID: "blocked"})
		if !errors.Is(err, sqlite3.BUSY) {
			t.Fatalf("Enqueue while a write transaction is open = %v; want SQLITE_BUSY", err)
		}
	})

	clock := new(engine.VirtualClock)
	clock.Set(1000)
	sent := 0
	l, err := s.Dispatch(t.Context(), "A", clock, 500, func(ctx context.Context, l engine.Lease) error {
		sent++
		seen, err := other.Get(ctx, l.JobID)
		if err != nil {
			return err
		}
		if seen == nil || seen.Owner != "A" || seen.Token != 1 || seen.Status != engine.StatusLeased {
			t.Errorf("second pool sees %+v during send; want the committed claim A#1", seen)
		}
		if _, err := other.Enqueue(ctx, engine.NewJob{ID: "second"}); err != nil {
			return err
		}
		_, err = other.Claim(ctx, "second", "B", clock.Now(), 500)
		return err
	})
	if err != nil {
		t.Fatalf("Dispatch: %v (a send that writes through another pool failed: was the claim still open?)", err)
	}
	if sent != 1 || l != (engine.Lease{JobID: "first", Owner: "A", Qty: 3, Token: 1, Attempt: 1, LeaseUntil: 1500}) {
		t.Fatalf("Dispatch = %+v after %d sends; want first A#1 until 1500, one send", l, sent)
	}
	if got := rowOf(t, s, "first"); got.Status != engine.StatusDone || got.Result != engine.ResultSent {
		t.Fatalf("first = %+v; want done, result %q", got, engine.ResultSent)
	}
	if got := rowOf(t, s, "second"); got.Owner != "B" || got.Token != 1 || got.Status != engine.StatusLeased {
		t.Fatalf("second = %+v; want leased by B#1", got)
	}
}

// The receiver applies a business id's quantity once: a resend, by anyone,
// adds nothing; reopening it keeps what it received.
func TestReceiver_AppliesBusinessIDOnce(t *testing.T) {
	db := memDB(t)
	r := newReceiver(t, db)
	for _, step := range []struct {
		l         engine.Lease
		wantFresh bool
		wantTotal int64
	}{
		{engine.Lease{JobID: "order-7", Owner: "A", Qty: 2, Token: 1}, true, 2},
		{engine.Lease{JobID: "order-7", Owner: "B", Qty: 2, Token: 2}, false, 2},
		{engine.Lease{JobID: "order-7", Owner: "A", Qty: 5, Token: 1}, false, 2},
		{engine.Lease{JobID: "order-8", Owner: "A", Qty: 3, Token: 1}, true, 5},
		{engine.Lease{JobID: "order-8", Owner: "C", Qty: 3, Token: 9}, false, 5},
	} {
		fresh, err := r.Deliver(t.Context(), step.l)
		if err != nil || fresh != step.wantFresh {
			t.Fatalf("Deliver(%+v) = %v, %v; want %v", step.l, fresh, err, step.wantFresh)
		}
		wantTotal(t, r, step.wantTotal)
	}
	for _, bad := range []engine.Lease{{Owner: "A", Qty: 1}, {JobID: "order-9", Owner: "A", Qty: -1}} {
		if _, err := r.Deliver(t.Context(), bad); !errors.Is(err, engine.ErrInvalid) {
			t.Fatalf("Deliver(%+v) = %v; want ErrInvalid", bad, err)
		}
	}
	wantTotal(t, newReceiver(t, db), 5)
}

// A failing send releases the lease and keeps the token, and Dispatch
// returns the send's error with the lease: the next dispatch gets token+1.
func TestDispatch_FailingSendReleasesLeaseKeepsToken(t *testing.T) {
	db := memDB(t)
	s := newStore(t, db)
	r := newReceiver(t, db)
	enqueueOK(t, s, engine.NewJob{ID: "j", Qty: 2})
	clock := new(engine.VirtualClock)
	errUnreachable := errors.New("receiver unreachable")
	l, err := s.Dispatch(t.Context(), "A", clock, 1000, func(context.Context, engine.Lease) error { return errUnreachable })
	var rej *engine.Rejection
	if !errors.Is(err, errUnreachable) || errors.As(err, &rej) {
		t.Fatalf("Dispatch with a failing send = %v; want the send's error", err)
	}
	if l.JobID != "j" || l.Owner != "A" || l.Token != 1 {
		t.Fatalf("Dispatch lease = %+v; want j A#1", l)
	}
	wantRow(t, s, engine.Job{ID: "j", Qty: 2, Token: 1, Attempts: 1, Status: engine.StatusPending})

	clock.Advance(10) // A's lease would still be valid: the release freed the job
	l2, err := s.Dispatch(t.Context(), "B", clock, 1000, deliverTo(t, r, true))
	if err != nil || l2.Token != 2 || l2.Owner != "B" {
		t.Fatalf("next Dispatch = %+v, %v; want B#2", l2, err)
	}
	wantRow(t, s, engine.Job{ID: "j", Qty: 2, Owner: "B", LeaseUntil: 1010, Token: 2, Attempts: 2,
		Status: engine.StatusDone, Result: engine.ResultSent})
	wantTotal(t, r, 2)
}

// A send that fails after its lease was taken over returns the send's error
// and leaves the new holder's lease alone.
func TestDispatch_FailingSendAfterTakeoverLeavesNewHolder(t *testing.T) {
	s := memStore(t)
	enqueueOK(t, s, engine.NewJob{ID: "j"})
	clock := new(engine.VirtualClock)
	errTimeout := errors.New("send timed out")
	var b engine.Lease
	_, err := s.Dispatch(t.Context(), "A", clock, 100, func(ctx context.Context, l engine.Lease) error {
		clock.Set(100)
		b = claimOK(t, s, "j", "B", clock.Now(), 100)
		return errTimeout
	})
	if !errors.Is(err, errTimeout) {
		t.Fatalf("Dispatch = %v; want the send's error", err)
	}
	wantRow(t, s, engine.Job{ID: "j", Qty: 1, Owner: "B", LeaseUntil: b.LeaseUntil, Token: 2, Attempts: 2,
		Status: engine.StatusLeased})
}

// deliverTo is a send that delivers to r and checks whether the delivery
// was the first for its business id.
func deliverTo(t testing.TB, r *engine.Receiver, wantFresh bool) func(context.Context, engine.Lease) error {
	return func(ctx context.Context, l engine.Lease) error {
		fresh, err := r.Deliver(ctx, l)
		if err == nil && fresh != wantFresh {
			t.Errorf("Deliver(%+v) fresh = %v; want %v", l, fresh, wantFresh)
		}
		return err
	}
}

// Complete runs at clock.Now() after the send: a send that ends one
// millisecond before lease_until completes the job; one that ends at or
// after it gets the complete's *Rejection (expired, or superseded if the
// job was reclaimed meanwhile), with the lease.
func TestDispatch_CompleteAfterSendAtClockNow(t *testing.T) {
	const ttl = 1000
	for _, tc := range []struct {
		name     string
		sendTook int64
		reclaim  bool
		reason   error // nil: completed
	}{
		{"send ends before lease_until", ttl - 1, false, nil},
		{"send ends at lease_until", ttl, false, engine.ErrExpired},
		{"send ends after lease_until", ttl + 1, false, engine.ErrExpired},
		{"job reclaimed during send", ttl + 1, true, engine.ErrSuperseded},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := memDB(t)
			s := newStore(t, db)
			r := newReceiver(t, db)
			enqueueOK(t, s, engine.NewJob{ID: "j", Qty: 4})
			clock := new(engine.VirtualClock)
			clock.Set(500)
			l, err := s.Dispatch(t.Context(), "A", clock, ttl, func(ctx context.Context, l engine.Lease) error {
				if err := deliverTo(t, r, true)(ctx, l); err != nil {
					return err
				}
				clock.Advance(tc.sendTook)
				if tc.reclaim {
					claimOK(t, s, "j", "B", ttl+500, ttl)
				}
				return nil
			})
			want := engine.Lease{JobID: "j", Owner: "A", Qty: 4, Token: 1, Attempt: 1, LeaseUntil: 500 + ttl}
			if l != want {
				t.Fatalf("Dispatch lease = %+v; want %+v", l, want)
			}
			wantTotal(t, r, 4)
			got := rowOf(t, s, "j")
			if tc.reason == nil {
				if err != nil {
					t.Fatalf("Dispatch: %v", err)
				}
				if got.Status != engine.StatusDone || got.Result != engine.ResultSent || got.Token != 1 {
					t.Fatalf("row = %+v; want done by A#1", got)
				}
				return
			}
			rej := wantRejected(t, err, "complete", tc.reason)
			if rej.Presented != want || rej.Now != 500+tc.sendTook || rej.Current != got {
				t.Fatalf("rejection %+v; want presented %+v, now %d, current %+v", rej, want, 500+tc.sendTook, got)
			}
			if got.Status == engine.StatusDone {
				t.Fatalf("row = %+v; a refused complete must not finish the job", got)
			}
		})
	}
}

// Dispatch with nothing to claim returns ErrEmpty and never sends.
func TestDispatch_NothingToClaimNeverSends(t *testing.T) {
	s := memStore(t)
	_, err := s.Dispatch(t.Context(), "A", new(engine.VirtualClock), 100, func(context.Context, engine.Lease) error {
		t.Error("send ran with nothing claimed")
		return nil
	})
	if !errors.Is(err, engine.ErrEmpty) {
		t.Fatalf("Dispatch on an empty queue = %v; want ErrEmpty", err)
	}
}

// The late courier, the whole story: courier A delivers order-7 and stalls
// past its lease inside send; B re-dispatches the order at A's lease_until
// and resends it; A's complete at 1001 is refused as superseded; B
// completes at 1200. The receiver counts the quantity once.
func TestDispatch_LateCourierCountedOnce(t *testing.T) {
	db := memDB(t)
	s := newStore(t, db)
	r := newReceiver(t, db)
	enqueueOK(t, s, engine.NewJob{ID: "order-7", Qty: 2})
	clock := new(engine.VirtualClock)

	type outcome struct {
		l   engine.Lease
		err error
	}
	bSent := make(chan struct{}) // closed once B has resent (or B's dispatch ended)
	aDone := make(chan struct{}) // closed once A's dispatch returned
	bDone := make(chan outcome, 1)
	var once sync.Once
	markSent := func() { once.Do(func() { close(bSent) }) }

	a, aErr := s.Dispatch(t.Context(), "A", clock, 1000, func(ctx context.Context, l engine.Lease) error {
		if err := deliverTo(t, r, true)(ctx, l); err != nil {
			return err
		}
		clock.Set(1000) // A stalls: its lease ends
		go func() {
			l, err := s.Dispatch(ctx, "B", clock, 1000, func(ctx context.Context, l engine.Lease) error {
				err := deliverTo(t, r, false)(ctx, l) // a resend
				markSent()
				<-aDone
				clock.Set(1200)
				return err
			})
			markSent()
			bDone <- outcome{l, err}
		}()
		<-bSent
		clock.Set(1001) // A comes back
		return nil
	})
	close(aDone)
	b := <-bDone

	if b.err != nil || b.l.Owner != "B" || b.l.Token != 2 || b.l.LeaseUntil != 2000 {
		t.Fatalf("B's Dispatch = %+v, %v; want B#2 until 2000", b.l, b.err)
	}
	rej := wantRejected(t, aErr, "complete", engine.ErrSuperseded)
	const want = "complete refused (superseded): presented A#1, current B#2 until 2000, now 1001"
	if rej.Error() != want || a.Token != 1 {
		t.Fatalf("A's Dispatch = A#%d, %q; want A#1, %q", a.Token, rej.Error(), want)
	}
	wantRow(t, s, engine.Job{ID: "order-7", Qty: 2, Owner: "B", LeaseUntil: 2000, Token: 2, Attempts: 2,
		Status: engine.StatusDone, Result: engine.ResultSent})
	wantTotal(t, r, 2)
}

// A VirtualClock starts at 0, moves only by Set and Advance, never
// backwards (that panics and leaves the time as it was), and is safe for
// concurrent use.
func TestVirtualClock_MovesOnlyForward(t *testing.T) {
	var c engine.VirtualClock
	var _ engine.Clock = &c
	if c.Now() != 0 {
		t.Fatalf("zero VirtualClock reads %d; want 0", c.Now())
	}
	c.Set(5)
	c.Set(5)
	c.Advance(0)
	c.Advance(3)
	if c.Now() != 8 {
		t.Fatalf("after Set(5), Set(5), Advance(0), Advance(3): %d; want 8", c.Now())
	}
	for name, move := range map[string]func(){
		"Set(7)":      func() { c.Set(7) },
		"Set(0)":      func() { c.Set(0) },
		"Advance(-1)": func() { c.Advance(-1) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s at 8 did not panic", name)
				}
			}()
			move()
		}()
		if c.Now() != 8 {
			t.Fatalf("after a refused %s the clock reads %d; want 8", name, c.Now())
		}
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				c.Advance(1)
				_ = c.Now()
			}
		}()
	}
	wg.Wait()
	if c.Now() != 808 {
		t.Fatalf("after 800 concurrent Advance(1): %d; want 808", c.Now())
	}
}
