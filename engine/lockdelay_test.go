package engine_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/leaselab/leaselab/engine"
)

// claimModes are the store's paths a claim can take: the one-statement
// fast path, the transaction, and the compare-and-swap of a database
// without transactions.
var claimModes = []struct {
	name string
	opts []engine.Option
}{
	{"default", nil},
	{"without transactions", []engine.Option{engine.WithoutTransactions()}},
}

// claimKinds claim job "a" for owner at now, by id, as the next job, or as
// the only contender of ClaimManyOutcomes.
var claimKinds = []struct {
	name  string
	claim func(t *testing.T, s *engine.Store, owner string, now int64) error
}{
	{"claim", func(t *testing.T, s *engine.Store, owner string, now int64) error {
		_, err := s.Claim(t.Context(), "a", owner, now, 1000)
		return err
	}},
	{"claim_next", func(t *testing.T, s *engine.Store, owner string, now int64) error {
		_, err := s.ClaimNext(t.Context(), owner, now, 1000)
		return err
	}},
	{"claim_many", func(t *testing.T, s *engine.Store, owner string, now int64) error {
		out, err := s.ClaimManyOutcomes(t.Context(), "a", []string{owner}, now, 1000)
		if err != nil {
			return err
		}
		if r := out[0].Refusal; r != nil {
			return r
		}
		return nil
	}},
}

func TestLockDelay_AJobWhoseLeaseRanOutIsHeldUntilLeaseUntilPlusTheDelay(t *testing.T) {
	// A's lease of a ends at 1000; the store keeps the job 500 ms more.
	cases := []struct {
		at   int64
		want error // nil: granted
	}{
		{999, engine.ErrHeld},  // A's lease is valid
		{1000, engine.ErrHeld}, // it ended, the delay begins
		{1499, engine.ErrHeld}, // the delay's last instant
		{1500, nil},            // the delay is over
		{1501, nil},
	}
	for _, m := range claimModes {
		for _, k := range claimKinds {
			for _, c := range cases {
				t.Run(fmt.Sprintf("%s/%s/at %d", m.name, k.name, c.at), func(t *testing.T) {
					s := memStore(t, append([]engine.Option{engine.WithLockDelay(500)}, m.opts...)...)
					enqueueOK(t, s, engine.NewJob{ID: "a"})
					claimOK(t, s, "a", "A", 0, 1000)
					err := k.claim(t, s, "B", c.at)
					if c.want == nil {
						if err != nil {
							t.Fatalf("B's claim at %d: %v; want it granted", c.at, err)
						}
						if r := rowOf(t, s, "a"); r.Owner != "B" || r.Token != 2 {
							t.Fatalf("row after B's claim: %+v; want B with token 2", r)
						}
						return
					}
					if k.name == "claim_next" {
						if !errors.Is(err, engine.ErrEmpty) {
							t.Fatalf("B's claim_next at %d: %v; want ErrEmpty (a is kept)", c.at, err)
						}
					} else {
						wantRejected(t, err, string(engine.OpClaim), c.want)
					}
					if r := rowOf(t, s, "a"); r.Owner != "A" || r.Token != 1 || r.Status != engine.StatusLeased {
						t.Fatalf("row after the refused claim: %+v; want A's lease untouched", r)
					}
				})
			}
		}
	}
}

func TestLockDelay_AReleaseFreesTheJobAtOnce(t *testing.T) {
	for _, m := range claimModes {
		t.Run(m.name, func(t *testing.T) {
			s := memStore(t, append([]engine.Option{engine.WithLockDelay(500)}, m.opts...)...)
			enqueueOK(t, s, engine.NewJob{ID: "a"})
			l := claimOK(t, s, "a", "A", 0, 1000)
			if err := s.Release(t.Context(), l); err != nil {
				t.Fatal(err)
			}
			if got := claimOK(t, s, "a", "B", 200, 1000); got.Token != 2 {
				t.Fatalf("B's claim after A's release: token %d; want 2", got.Token)
			}
		})
	}
}

func TestLockDelay_TheLapsedHolderCannotRenewOrCompleteInTheDelay(t *testing.T) {
	s := memStore(t, engine.WithLockDelay(500))
	enqueueOK(t, s, engine.NewJob{ID: "a"})
	l := claimOK(t, s, "a", "A", 0, 1000)
	_, err := s.Renew(t.Context(), l, 1000, 1000)
	wantRejected(t, err, string(engine.OpRenew), engine.ErrExpired)
	err = s.Complete(t.Context(), l, 1200, "late")
	wantRejected(t, err, string(engine.OpComplete), engine.ErrExpired)
}

func TestLockDelay_IsRefusedOutsideZeroToMaxTTL(t *testing.T) {
	cases := []struct {
		d  int64
		ok bool
	}{
		{-1, false}, {0, true}, {engine.MaxTTL, true}, {engine.MaxTTL + 1, false},
	}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.d), func(t *testing.T) {
			_, err := engine.New(t.Context(), memDB(t), engine.WithLockDelay(c.d))
			if c.ok != (err == nil) || (err != nil && !errors.Is(err, engine.ErrInvalid)) {
				t.Fatalf("New with lock delay %d: %v; want ok=%v (ErrInvalid otherwise)", c.d, err, c.ok)
			}
		})
	}
}
