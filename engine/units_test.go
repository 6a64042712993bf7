package engine_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/model"
	"github.com/leaselab/leaselab/engine/sqlitedb"
)

// A now that is plainly Unix seconds, microseconds or nanoseconds, or a
// ttl that is plainly a time.Duration's nanoseconds, is refused by the
// engine and by the model alike, naming the unit it looks like and saying
// that time is milliseconds; each bound is exact.
func TestUnits_SecondsMicrosAndNanosAreRefusedAtTheirBounds(t *testing.T) {
	s := memStore(t)
	m := model.New()
	ctx := t.Context()
	day := time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC)
	for i, tc := range []struct {
		now, ttl int64
		unit     string // "": taken; else the unit the refusal names
	}{
		{-1, 1000, "invalid"},
		{0, 1000, ""},
		{engine.SecondsFrom, 1000, ""},
		{engine.SecondsFrom + 1, 1000, "seconds"},
		{day.Unix(), 1000, "seconds"}, // time.Now().Unix()
		{engine.SecondsTo - 1, 1000, "seconds"},
		{engine.SecondsTo, 1000, ""},
		{day.UnixMilli(), 1000, ""},
		{engine.MicrosFrom - 1, 1000, ""},
		{engine.MicrosFrom, 1000, "microseconds"},
		{engine.MicrosFrom + 1, 1000, "microseconds"},
		{day.UnixMicro(), 1000, "microseconds"}, // time.Now().UnixMicro()
		{engine.NanosFrom - 1, 1000, "microseconds"},
		{engine.NanosFrom, 1000, "nanoseconds"},
		{engine.NanosFrom + 1, 1000, "nanoseconds"},
		{day.UnixNano(), 1000, "nanoseconds"}, // time.Now().UnixNano()
		{math.MaxInt64, 1000, "nanoseconds"},
		{0, 0, "invalid"},
		{0, 1, ""},
		{0, engine.MaxTTL - 1, ""},
		{0, engine.MaxTTL, ""},
		{0, engine.MaxTTL + 1, "nanoseconds"},
		{0, int64(time.Second), "nanoseconds"}, // a Duration passed as int64
		{0, int64(2 * time.Second), "nanoseconds"},
	} {
		id := fmt.Sprintf("j%d", i)
		if _, err := s.Enqueue(ctx, engine.NewJob{ID: id}); err != nil {
			t.Fatal(err)
		}
		if _, err := m.Enqueue(engine.NewJob{ID: id}); err != nil {
			t.Fatal(err)
		}
		lease := engine.Lease{JobID: id, Owner: "A", Token: 1}
		for side, err := range map[string]error{
			"engine Claim": second(s.Claim(ctx, id, "A", tc.now, tc.ttl)),
			"engine Renew": second(s.Renew(ctx, lease, tc.now, tc.ttl)),
			"model Claim":  second(m.Claim(id, "A", tc.now, tc.ttl)),
			"model Renew":  second(m.Renew(lease, tc.now, tc.ttl)),
		} {
			refused := errors.Is(err, engine.ErrInvalid)
			switch {
			case tc.unit == "" && refused:
				t.Errorf("%s(now=%d, ttl=%d): %v, want it taken", side, tc.now, tc.ttl, err)
			case tc.unit != "" && !refused:
				t.Errorf("%s(now=%d, ttl=%d): %v, want ErrInvalid", side, tc.now, tc.ttl, err)
			case tc.unit != "" && tc.unit != "invalid" && (!strings.Contains(err.Error(), " "+tc.unit) || !strings.Contains(err.Error(), "milliseconds")):
				t.Errorf("%s(now=%d, ttl=%d): %v, want it to name %s and say milliseconds", side, tc.now, tc.ttl, err, tc.unit)
			}
		}
	}
}

// second is the error of a call that returns a value and an error.
func second[T any](_ T, err error) error { return err }

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
