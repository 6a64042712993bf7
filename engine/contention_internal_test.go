package engine

import (
	"context"
	"errors"
	"testing"

	"github.com/leaselab/leaselab/engine/sqlitedb"
)

// Without transactions, an operation whose guarded write loses the race for
// its row starts over; it gives up with ErrContention after 1 + 64 attempts
// that all lost, never sooner: 64 lost races and a win is a success.
func TestAtomic_WithoutTransactionsGivesUpAfterSixtyFiveLostRaces(t *testing.T) {
	db, err := sqlitedb.Memory(t.Name())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	s, err := New(context.Background(), db, WithoutTransactions())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		lost     int // races lost before the write goes through
		want     error
		attempts int
	}{
		{lost: 0, want: nil, attempts: 1},
		{lost: maxConflictRetries - 1, want: nil, attempts: maxConflictRetries},
		{lost: maxConflictRetries, want: nil, attempts: maxConflictRetries + 1},
		{lost: maxConflictRetries + 1, want: ErrContention, attempts: maxConflictRetries + 1},
		{lost: 1000, want: ErrContention, attempts: maxConflictRetries + 1},
	} {
		attempts := 0
		err := s.atomic(t.Context(), s.db, func(querier) error {
			attempts++
			if attempts <= c.lost {
				return errConflict
			}
			return nil
		})
		if !errors.Is(err, c.want) || (c.want == nil && err != nil) || attempts != c.attempts {
			t.Errorf("%d lost races: %v after %d attempts; want %v after %d", c.lost, err, attempts, c.want, c.attempts)
		}
	}
	// Any other error ends the operation at once.
	boom := errors.New("boom")
	attempts := 0
	if err := s.atomic(t.Context(), s.db, func(querier) error { attempts++; return boom }); !errors.Is(err, boom) || attempts != 1 {
		t.Errorf("a failing write: %v after %d attempts; want boom after 1", err, attempts)
	}
}
