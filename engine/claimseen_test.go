package engine_test

import (
	"testing"

	"github.com/leaselab/leaselab/engine"
)

func TestClaimSeen_GrantsOnlyWhileTheLeaseIsTheOneSeenWhateverTheTime(t *testing.T) {
	seenA := engine.Lease{JobID: "a", Owner: "A", Token: 1, LeaseUntil: 1000}
	cases := []struct {
		name  string
		setup func(t *testing.T, s *engine.Store, l engine.Lease)
		seen  engine.Lease
		at    int64
		want  error // nil: granted
	}{
		{"seen, before lease_until", nil, seenA, 500, nil},
		{"seen, after lease_until", nil, seenA, 5000, nil},
		{"renewed since", func(t *testing.T, s *engine.Store, l engine.Lease) {
			if _, err := s.Renew(t.Context(), l, 400, 1000); err != nil {
				t.Fatal(err)
			}
		}, seenA, 500, engine.ErrHeld},
		{"another token seen", nil, engine.Lease{JobID: "a", Owner: "A", Token: 2, LeaseUntil: 1000}, 500, engine.ErrHeld},
		{"another owner seen", nil, engine.Lease{JobID: "a", Owner: "C", Token: 1, LeaseUntil: 1000}, 500, engine.ErrHeld},
		{"released since: free", func(t *testing.T, s *engine.Store, l engine.Lease) {
			if err := s.Release(t.Context(), l); err != nil {
				t.Fatal(err)
			}
		}, seenA, 500, nil},
		{"completed since", func(t *testing.T, s *engine.Store, l engine.Lease) {
			if err := s.Complete(t.Context(), l, 400, "ok"); err != nil {
				t.Fatal(err)
			}
		}, seenA, 500, engine.ErrDone},
	}
	for _, m := range claimModes {
		for _, c := range cases {
			t.Run(m.name+"/"+c.name, func(t *testing.T) {
				s := memStore(t, m.opts...)
				enqueueOK(t, s, engine.NewJob{ID: "a"})
				l := claimOK(t, s, "a", "A", 0, 1000)
				if c.setup != nil {
					c.setup(t, s, l)
				}
				before := rowOf(t, s, "a")
				got, err := s.ClaimSeen(t.Context(), "a", "B", c.seen, c.at, 1000)
				if c.want != nil {
					wantRejected(t, err, string(engine.OpClaim), c.want)
					if r := rowOf(t, s, "a"); r != before {
						t.Fatalf("row after the refused claim: %+v; want it untouched (%+v)", r, before)
					}
					return
				}
				if err != nil {
					t.Fatalf("ClaimSeen at %d: %v; want it granted", c.at, err)
				}
				if got.Owner != "B" || got.Token != 2 || got.LeaseUntil != c.at+1000 {
					t.Fatalf("lease %+v; want B with token 2 until %d", got, c.at+1000)
				}
			})
		}
	}
}
