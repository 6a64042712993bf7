package engine

import (
	"context"
	"fmt"
	"time"

	"github.com/leaselab/leaselab/engine/limits"
)

// Time in the engine is an int64 of milliseconds. The bounds below refuse,
// as ErrInvalid, the values that are plainly in another unit, before they
// can make a lease of days or a clock of decades.
const (
	// MaxTTL is the longest lease a claim or renew takes, in ms: one ms
	// under the limit max_time (about 11.6 days), which is
	// int64(time.Second). A time.Duration passed as an int64 is
	// nanoseconds, a million times too long, and is refused from
	// int64(time.Second) on.
	MaxTTL = limits.DefaultMaxTime - 1
	// A now in (SecondsFrom, SecondsTo) ms is refused: it is Unix seconds
	// (2001 to 5138), not milliseconds. Below it are the virtual times of
	// tests and timelines (up to max_time, 11.6 days after 0); above it,
	// Unix milliseconds from 1973 on.
	SecondsFrom = limits.DefaultMaxTime
	SecondsTo   = 100_000_000_000
	// A now from MicrosFrom on is refused: as milliseconds it is past the
	// year 5138; it is Unix microseconds (from 1973 on), and from
	// NanosFrom on Unix nanoseconds (from 1973 on).
	MicrosFrom = 100_000_000_000_000
	NanosFrom  = 100_000_000_000_000_000
)

// checkNow refuses a negative now and one that is plainly seconds,
// microseconds or nanoseconds.
func checkNow(now int64) error {
	const hint = "leaselab's time is milliseconds (time.Now().UnixMilli(), or the ...At and ...For methods)"
	switch {
	case now < 0:
		return invalid("now %d < 0", now)
	case now > SecondsFrom && now < SecondsTo:
		return invalid("now %d looks like Unix seconds: %s", now, hint)
	case now >= NanosFrom:
		return invalid("now %d looks like Unix nanoseconds: %s", now, hint)
	case now >= MicrosFrom:
		return invalid("now %d looks like Unix microseconds: %s", now, hint)
	}
	return nil
}

// checkTTL refuses a ttl that is not positive and one that is plainly not
// milliseconds.
func checkTTL(ttl int64) error {
	switch {
	case ttl <= 0:
		return invalid("ttl %d <= 0", ttl)
	case ttl > MaxTTL:
		return invalid("ttl %d looks like nanoseconds (a time.Duration; int64(time.Second) is %d): leaselab's time is milliseconds, and the longest lease %d ms, 11.6 days (use ClaimFor, or ttl.Milliseconds())", ttl, int64(time.Second), int64(MaxTTL))
	}
	return nil
}

// millis converts a wall-clock instant and a duration to the engine's ms.
// A ttl that is not a whole number of milliseconds is ErrInvalid: rounding
// it would change when the lease ends.
func millis(now time.Time, ttl time.Duration) (int64, int64, error) {
	if ttl%time.Millisecond != 0 {
		return 0, 0, invalid("ttl %v is not a whole number of milliseconds", ttl)
	}
	return now.UnixMilli(), ttl.Milliseconds(), nil
}

// ClaimFor is Claim with the time types a service holds: now is an instant
// (its Unix milliseconds are passed on) and ttl a duration, a whole number
// of milliseconds. The lease's LeaseUntil stays in Unix milliseconds:
// time.UnixMilli(l.LeaseUntil) is the instant it ends.
func (s *Store) ClaimFor(ctx context.Context, id, owner string, now time.Time, ttl time.Duration) (Lease, error) {
	n, t, err := millis(now, ttl)
	if err != nil {
		return Lease{}, err
	}
	return s.Claim(ctx, id, owner, n, t)
}

// ClaimNextFor is ClaimNext with an instant and a duration (see ClaimFor).
func (s *Store) ClaimNextFor(ctx context.Context, owner string, now time.Time, ttl time.Duration) (Lease, error) {
	n, t, err := millis(now, ttl)
	if err != nil {
		return Lease{}, err
	}
	return s.ClaimNext(ctx, owner, n, t)
}

// RenewFor is Renew with an instant and a duration (see ClaimFor).
func (s *Store) RenewFor(ctx context.Context, l Lease, now time.Time, ttl time.Duration) (Lease, error) {
	n, t, err := millis(now, ttl)
	if err != nil {
		return Lease{}, err
	}
	return s.Renew(ctx, l, n, t)
}

// CompleteAt is Complete at an instant (its Unix milliseconds).
func (s *Store) CompleteAt(ctx context.Context, l Lease, now time.Time, result string) error {
	return s.Complete(ctx, l, now.UnixMilli(), result)
}

// WallClock is the Clock of a deployment: the system's wall clock in Unix
// milliseconds. Dispatch reads it at the claim and again at the complete.
// The engine itself never reads it; tests pass a VirtualClock instead.
type WallClock struct{}

// Now is time.Now().UnixMilli().
func (WallClock) Now() int64 { return time.Now().UnixMilli() }

// errZeroStore: a method was called on a Store that New did not make.
var errZeroStore = fmt.Errorf("%w: the Store is not open: make one with engine.New", ErrInvalid)

// open refuses a nil or zero Store, which has no database.
func (s *Store) open() error {
	if s == nil || s.db == nil {
		return errZeroStore
	}
	return nil
}
