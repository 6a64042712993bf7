package engine_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/sqlitedb"
)

// A now that is plainly Unix seconds, or a ttl that is plainly not
// milliseconds, is refused and says milliseconds; the bounds are exact.
func TestUnits_SecondsAndNanosecondsAreRefusedAtTheirBounds(t *testing.T) {
	s := memStore(t)
	ctx := t.Context()
	realMillis := time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC).UnixMilli()
	for i, tc := range []struct {
		now, ttl int64
		ok       bool
	}{
		{-1, 1000, false},
		{0, 1000, true},
		{engine.SecondsFrom, 1000, true},
		{engine.SecondsFrom + 1, 1000, false},
		{time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC).Unix(), 1000, false}, // time.Now().Unix()
		{engine.SecondsTo - 1, 1000, false},
		{engine.SecondsTo, 1000, true},
		{realMillis, 1000, true},
		{0, 0, false},
		{0, 1, true},
		{0, engine.MaxTTL, true},
		{0, engine.MaxTTL + 1, false},
		{0, int64(2 * time.Second), false}, // a Duration passed as int64
	} {
		id := fmt.Sprintf("j%d", i)
		if _, err := s.Enqueue(ctx, engine.NewJob{ID: id}); err != nil {
			t.Fatal(err)
		}
		_, err := s.Claim(ctx, id, "A", tc.now, tc.ttl)
		if tc.ok != (err == nil) {
			t.Errorf("Claim(now=%d, ttl=%d): %v, want ok=%t", tc.now, tc.ttl, err, tc.ok)
			continue
		}
		if !tc.ok && (!errors.Is(err, engine.ErrInvalid) || (tc.now > engine.SecondsFrom || tc.ttl > engine.MaxTTL) && !strings.Contains(err.Error(), "milliseconds")) {
			t.Errorf("Claim(now=%d, ttl=%d): %v, want ErrInvalid saying milliseconds", tc.now, tc.ttl, err)
		}
		_, rerr := s.Renew(ctx, engine.Lease{JobID: id, Owner: "A", Token: 1}, tc.now, tc.ttl)
		if !tc.ok && !errors.Is(rerr, engine.ErrInvalid) {
			t.Errorf("Renew(now=%d, ttl=%d): %v, want ErrInvalid", tc.now, tc.ttl, rerr)
		}
	}
}

func TestClaimFor_TakesAnInstantAndAWholeMillisecondDuration(t *testing.T) {
	s := memStore(t)
	ctx := t.Context()
	s.Enqueue(ctx, engine.NewJob{ID: "a"})
	now := time.Date(2026, 12, 4, 9, 0, 0, 0, time.UTC)
	for _, ttl := range []time.Duration{0, time.Millisecond - 1, 1500 * time.Microsecond, -time.Second} {
		if _, err := s.ClaimFor(ctx, "a", "A", now, ttl); !errors.Is(err, engine.ErrInvalid) {
			t.Errorf("ClaimFor(ttl=%v): %v, want ErrInvalid", ttl, err)
		}
	}
	l, err := s.ClaimFor(ctx, "a", "A", now, 30*time.Second)
	if err != nil || !time.UnixMilli(l.LeaseUntil).Equal(now.Add(30*time.Second)) {
		t.Fatalf("ClaimFor: %+v, %v; want the lease to end 30 s after now", l, err)
	}
	if l, err = s.RenewFor(ctx, l, now.Add(10*time.Second), time.Minute); err != nil || l.LeaseUntil != now.Add(70*time.Second).UnixMilli() {
		t.Fatalf("RenewFor: %+v, %v", l, err)
	}
	if err := s.CompleteAt(ctx, l, now.Add(70*time.Second), "late"); !errors.Is(err, engine.ErrExpired) {
		t.Errorf("CompleteAt at lease_until: %v, want ErrExpired", err)
	}
	if err := s.CompleteAt(ctx, l, now.Add(70*time.Second-time.Millisecond), "ok"); err != nil {
		t.Errorf("CompleteAt 1 ms before lease_until: %v", err)
	}
	if _, err := s.ClaimNextFor(ctx, "B", now, time.Second); !errors.Is(err, engine.ErrEmpty) {
		t.Errorf("ClaimNextFor with nothing left: %v, want ErrEmpty", err)
	}
}

func TestWallClock_ReadsUnixMilliseconds(t *testing.T) {
	before := time.Now().UnixMilli()
	got := engine.WallClock{}.Now()
	after := time.Now().UnixMilli()
	if got < before || got > after {
		t.Fatalf("WallClock.Now() = %d, not within [%d, %d]", got, before, after)
	}
}

// A Store that New did not make answers ErrInvalid from every method, and
// does not panic.
func TestStore_ZeroOrNilIsAnErrorNotAPanic(t *testing.T) {
	ctx := context.Background()
	l := engine.Lease{JobID: "a", Owner: "A", Token: 1}
	for name, s := range map[string]*engine.Store{"zero": {}, "nil": nil} {
		calls := map[string]error{}
		_, calls["Enqueue"] = s.Enqueue(ctx, engine.NewJob{ID: "a"})
		_, calls["Get"] = s.Get(ctx, "a")
		_, calls["Claim"] = s.Claim(ctx, "a", "A", 0, 1000)
		_, calls["ClaimNext"] = s.ClaimNext(ctx, "A", 0, 1000)
		_, calls["ClaimMany"] = s.ClaimMany(ctx, "a", []string{"A", "B"}, 0, 1000)
		_, calls["Renew"] = s.Renew(ctx, l, 0, 1000)
		calls["Complete"] = s.Complete(ctx, l, 0, "r")
		calls["Release"] = s.Release(ctx, l)
		_, calls["Jobs"] = s.Jobs(ctx)
		_, calls["Inspect"] = s.Inspect(ctx, "a")
		_, _, calls["JobsAfter"] = s.JobsAfter(ctx, 0, 10)
		_, calls["Dispatch"] = s.Dispatch(ctx, "A", &engine.VirtualClock{}, 1000, func(context.Context, engine.Lease) error { return nil })
		for call, err := range calls {
			if !errors.Is(err, engine.ErrInvalid) || !strings.Contains(fmt.Sprint(err), "engine.New") {
				t.Errorf("%s Store: %s: %v, want ErrInvalid naming engine.New", name, call, err)
			}
		}
		if s.DB() != nil {
			t.Errorf("%s Store: DB() = %v", name, s.DB())
		}
	}
}

// A service holds time.Time and time.Duration: ClaimFor and CompleteAt
// take them; a lease ends at time.UnixMilli(LeaseUntil).
func ExampleStore_ClaimFor() {
	ctx := context.Background()
	db, _ := sqlitedb.Memory("example-claim-for")
	defer db.Close()
	store, _ := engine.New(ctx, db)
	store.Enqueue(ctx, engine.NewJob{ID: "order-7"})

	now := time.Date(2026, 12, 4, 9, 0, 0, 0, time.UTC) // in a service: time.Now()
	l, _ := store.ClaimFor(ctx, "order-7", "worker-1", now, 30*time.Second)
	fmt.Println("lease ends", time.UnixMilli(l.LeaseUntil).UTC().Format(time.TimeOnly))

	err := store.CompleteAt(ctx, l, now.Add(31*time.Second), "late")
	fmt.Println(errors.Is(err, engine.ErrExpired))
	// Output:
	// lease ends 09:00:30
	// true
}
