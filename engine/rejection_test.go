package engine_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/leaselab/leaselab/engine"
)

var reasons = []error{
	engine.ErrNotFound, engine.ErrDone, engine.ErrQuarantined,
	engine.ErrHeld, engine.ErrSuperseded, engine.ErrExpired,
	engine.ErrInvalid, engine.ErrEmpty,
}

// Every refusal is a *Rejection that errors.Is matches to its own sentinel
// and no other, whose fields hold the op, what was presented, the row as it
// stood and now, and whose Error shows them all.
func TestRejection_ShowsOpReasonPresentedCurrentNow(t *testing.T) {
	for _, tc := range []struct {
		name          string
		id            string
		run           func(t *testing.T, s *engine.Store) (engine.Lease, error) // presented, err
		op            string
		reason        error
		now           int64
		wantCurrentID string // "" : the row as read after the refusal
		want          string
	}{
		{"stale complete after a reclaim", "order-7", func(t *testing.T, s *engine.Store) (engine.Lease, error) {
			enqueueOK(t, s, engine.NewJob{ID: "order-7", Qty: 2})
			a := claimOK(t, s, "order-7", "A", 0, 1000)
			claimOK(t, s, "order-7", "B", 1000, 1000)
			return a, s.Complete(t.Context(), a, 1001, "A's")
		}, "complete", engine.ErrSuperseded, 1001, "",
			"complete refused (superseded): presented A#1, current B#2 until 2000, now 1001"},
		{"renew at lease_until", "j", func(t *testing.T, s *engine.Store) (engine.Lease, error) {
			enqueueOK(t, s, engine.NewJob{ID: "j"})
			a := claimOK(t, s, "j", "A", 0, 1000)
			_, err := s.Renew(t.Context(), a, 1000, 10)
			return a, err
		}, "renew", engine.ErrExpired, 1000, "",
			"renew refused (expired): presented A#1, current A#1 until 1000, now 1000"},
		{"claim of a held job", "j", func(t *testing.T, s *engine.Store) (engine.Lease, error) {
			enqueueOK(t, s, engine.NewJob{ID: "j"})
			claimOK(t, s, "j", "A", 0, 1000)
			_, err := s.Claim(t.Context(), "j", "B", 999, 1000)
			return engine.Lease{JobID: "j", Owner: "B"}, err
		}, "claim", engine.ErrHeld, 999, "",
			"claim refused (held): presented B for j, current A#1 until 1000, now 999"},
		{"claim of a missing job", "nope", func(t *testing.T, s *engine.Store) (engine.Lease, error) {
			_, err := s.Claim(t.Context(), "nope", "A", 5, 1000)
			return engine.Lease{JobID: "nope", Owner: "A"}, err
		}, "claim", engine.ErrNotFound, 5, "nope",
			`claim refused (not found): presented A for nope, no job "nope", now 5`},
		{"renew of a missing job", "gone", func(t *testing.T, s *engine.Store) (engine.Lease, error) {
			l := engine.Lease{JobID: "gone", Owner: "A", Token: 3, LeaseUntil: 50}
			_, err := s.Renew(t.Context(), l, 7, 1000)
			return l, err
		}, "renew", engine.ErrNotFound, 7, "gone",
			`renew refused (not found): presented A#3, no job "gone", now 7`},
		{"stale release", "j", func(t *testing.T, s *engine.Store) (engine.Lease, error) {
			enqueueOK(t, s, engine.NewJob{ID: "j"})
			a := claimOK(t, s, "j", "A", 0, 1000)
			claimOK(t, s, "j", "B", 1000, 1000)
			return a, s.Release(t.Context(), a)
		}, "release", engine.ErrSuperseded, 0, "",
			"release refused (superseded): presented A#1, current B#2 until 2000"},
		{"second complete", "j", func(t *testing.T, s *engine.Store) (engine.Lease, error) {
			enqueueOK(t, s, engine.NewJob{ID: "j"})
			a := claimOK(t, s, "j", "A", 0, 1000)
			if err := s.Complete(t.Context(), a, 500, "first"); err != nil {
				t.Fatal(err)
			}
			return a, s.Complete(t.Context(), a, 600, "second")
		}, "complete", engine.ErrDone, 600, "",
			"complete refused (done): presented A#1, current A#1 until 1000 done, now 600"},
		{"claim quarantines: attempts", "j", func(t *testing.T, s *engine.Store) (engine.Lease, error) {
			enqueueOK(t, s, engine.NewJob{ID: "j", MaxAttempts: 1})
			claimOK(t, s, "j", "A", 0, 1000)
			_, err := s.Claim(t.Context(), "j", "B", 1000, 1000)
			return engine.Lease{JobID: "j", Owner: "B"}, err
		}, "claim", engine.ErrQuarantined, 1000, "",
			"claim refused (quarantined): presented B for j, current A#1 until 1000 quarantined (attempts) attempts 1/1, now 1000"},
		{"claim quarantines: deadline", "j", func(t *testing.T, s *engine.Store) (engine.Lease, error) {
			enqueueOK(t, s, engine.NewJob{ID: "j", Deadline: 100})
			_, err := s.Claim(t.Context(), "j", "A", 100, 1000)
			return engine.Lease{JobID: "j", Owner: "A"}, err
		}, "claim", engine.ErrQuarantined, 100, "",
			"claim refused (quarantined): presented A for j, current nobody#0 until 0 quarantined (deadline) deadline 100, now 100"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := memStore(t)
			presented, err := tc.run(t, s)
			rej := wantRejected(t, err, tc.op, tc.reason)
			for _, r := range reasons {
				if got := errors.Is(err, r); got != (r == tc.reason) {
					t.Errorf("errors.Is(err, %v) = %v; want %v", r, got, r == tc.reason)
				}
			}
			if got := err.Error(); got != tc.want {
				t.Errorf("Error():\n got %s\nwant %s", got, tc.want)
			}
			if rej.Presented != presented {
				t.Errorf("Presented = %+v; want %+v", rej.Presented, presented)
			}
			if rej.Now != tc.now {
				t.Errorf("Now = %d; want %d", rej.Now, tc.now)
			}
			wantCurrent := engine.Job{ID: tc.wantCurrentID}
			if tc.wantCurrentID == "" {
				wantCurrent = rowOf(t, s, tc.id)
			} else if j, err := s.Get(t.Context(), tc.id); err != nil || j != nil {
				t.Fatalf("Get(%q) = %+v, %v; want nil, nil", tc.id, j, err)
			}
			if rej.Current != wantCurrent {
				t.Errorf("Current = %+v; want %+v", rej.Current, wantCurrent)
			}
		})
	}
}

// ErrEmpty and ErrInvalid are not refusals by a rule: they are not
// *Rejection values.
func TestRejection_NotForEmptyOrInvalid(t *testing.T) {
	s := memStore(t)
	var rej *engine.Rejection
	_, err := s.ClaimNext(t.Context(), "A", 0, 10)
	if !errors.Is(err, engine.ErrEmpty) || errors.As(err, &rej) {
		t.Fatalf("ClaimNext on an empty store = %v; want ErrEmpty, not a rejection", err)
	}
	_, err = s.Claim(t.Context(), "j", "A", 0, 0)
	if !errors.Is(err, engine.ErrInvalid) || errors.As(err, &rej) {
		t.Fatalf("Claim with ttl 0 = %v; want ErrInvalid, not a rejection", err)
	}
}

// The reasons are checked in the documented order — a claim: not found,
// done, quarantined, held; renew, complete and release: not found,
// superseded, done, quarantined, expired — so an operation that breaks two
// rules at once is refused by the first; and the refusal changes nothing.
func TestRejection_FirstBrokenRuleWins(t *testing.T) {
	complete := func(t *testing.T, s *engine.Store, l engine.Lease, now int64) {
		t.Helper()
		if err := s.Complete(t.Context(), l, now, "r"); err != nil {
			t.Fatal(err)
		}
	}
	// useUp gives j three leases to A (attempts 3/3), the last until 3000.
	useUp := func(t *testing.T, s *engine.Store) engine.Lease {
		a := claimOK(t, s, "j", "A", 0, 1000)
		claimOK(t, s, "j", "A", 1000, 1000)
		claimOK(t, s, "j", "A", 2000, 1000)
		return a
	}
	for _, tc := range []struct {
		name   string // the rules broken, the first one wins
		setup  func(t *testing.T, s *engine.Store) engine.Lease
		op     func(t *testing.T, s *engine.Store, l engine.Lease) error
		wantOp string
		reason error
	}{
		{"not found > superseded, expired",
			func(t *testing.T, s *engine.Store) engine.Lease {
				return engine.Lease{JobID: "nope", Owner: "A", Token: 9, LeaseUntil: 10}
			},
			func(t *testing.T, s *engine.Store, l engine.Lease) error { return s.Complete(t.Context(), l, 50, "r") },
			"complete", engine.ErrNotFound},
		{"superseded > done, expired (a stale token on a done job is named stale)",
			func(t *testing.T, s *engine.Store) engine.Lease {
				complete(t, s, claimOK(t, s, "j", "A", 0, 1000), 10)
				return engine.Lease{JobID: "j", Owner: "B", Token: 7}
			},
			func(t *testing.T, s *engine.Store, l engine.Lease) error {
				return s.Complete(t.Context(), l, 5000, "r2")
			},
			"complete", engine.ErrSuperseded},
		{"superseded > done (Kleppmann: token 1 wakes after token 2 wrote)",
			func(t *testing.T, s *engine.Store) engine.Lease {
				a := claimOK(t, s, "j", "A", 0, 1000)
				complete(t, s, claimOK(t, s, "j", "B", 1000, 1000), 1500)
				return a
			},
			func(t *testing.T, s *engine.Store, l engine.Lease) error {
				return s.Complete(t.Context(), l, 1600, "late")
			},
			"complete", engine.ErrSuperseded},
		{"done > expired (renew by the holder who completed)",
			func(t *testing.T, s *engine.Store) engine.Lease {
				a := claimOK(t, s, "j", "A", 0, 1000)
				complete(t, s, a, 10)
				return a
			},
			func(t *testing.T, s *engine.Store, l engine.Lease) error {
				_, err := s.Renew(t.Context(), l, 1000, 10)
				return err
			},
			"renew", engine.ErrDone},
		{"done (a second complete by the holder)",
			func(t *testing.T, s *engine.Store) engine.Lease {
				a := claimOK(t, s, "j", "A", 0, 1000)
				complete(t, s, a, 10)
				return a
			},
			func(t *testing.T, s *engine.Store, l engine.Lease) error {
				return s.Complete(t.Context(), l, 20, "again")
			},
			"complete", engine.ErrDone},
		{"superseded > done (release)",
			func(t *testing.T, s *engine.Store) engine.Lease {
				complete(t, s, claimOK(t, s, "j", "A", 0, 1000), 10)
				return engine.Lease{JobID: "j", Owner: "B", Token: 2}
			},
			func(t *testing.T, s *engine.Store, l engine.Lease) error { return s.Release(t.Context(), l) },
			"release", engine.ErrSuperseded},
		{"done (release by the holder who completed)",
			func(t *testing.T, s *engine.Store) engine.Lease {
				a := claimOK(t, s, "j", "A", 0, 1000)
				complete(t, s, a, 10)
				return a
			},
			func(t *testing.T, s *engine.Store, l engine.Lease) error { return s.Release(t.Context(), l) },
			"release", engine.ErrDone},
		{"done > held (claim within the done lease)",
			func(t *testing.T, s *engine.Store) engine.Lease {
				complete(t, s, claimOK(t, s, "j", "A", 0, 1000), 10)
				return engine.Lease{}
			},
			func(t *testing.T, s *engine.Store, _ engine.Lease) error {
				_, err := s.Claim(t.Context(), "j", "B", 20, 1000)
				return err
			},
			"claim", engine.ErrDone},
		{"quarantined > held (claim at an instant the old lease covers)",
			func(t *testing.T, s *engine.Store) engine.Lease {
				useUp(t, s)
				_, err := s.Claim(t.Context(), "j", "B", 3000, 1000)
				wantRejected(t, err, "claim", engine.ErrQuarantined)
				return engine.Lease{}
			},
			func(t *testing.T, s *engine.Store, _ engine.Lease) error {
				_, err := s.Claim(t.Context(), "j", "B", 2500, 1000)
				return err
			},
			"claim", engine.ErrQuarantined},
		{"superseded > quarantined, expired (renew with an older token)",
			func(t *testing.T, s *engine.Store) engine.Lease {
				a := useUp(t, s)
				_, err := s.Claim(t.Context(), "j", "B", 3000, 1000)
				wantRejected(t, err, "claim", engine.ErrQuarantined)
				return a
			},
			func(t *testing.T, s *engine.Store, l engine.Lease) error {
				_, err := s.Renew(t.Context(), l, 3500, 10)
				return err
			},
			"renew", engine.ErrSuperseded},
		{"quarantined > expired (renew by the last holder)",
			func(t *testing.T, s *engine.Store) engine.Lease {
				useUp(t, s)
				_, err := s.Claim(t.Context(), "j", "B", 3000, 1000)
				wantRejected(t, err, "claim", engine.ErrQuarantined)
				return engine.Lease{JobID: "j", Owner: "A", Token: 3}
			},
			func(t *testing.T, s *engine.Store, l engine.Lease) error {
				_, err := s.Renew(t.Context(), l, 3500, 10)
				return err
			},
			"renew", engine.ErrQuarantined},
		{"superseded > quarantined (release with an older token)",
			func(t *testing.T, s *engine.Store) engine.Lease {
				a := useUp(t, s)
				_, err := s.Claim(t.Context(), "j", "B", 3000, 1000)
				wantRejected(t, err, "claim", engine.ErrQuarantined)
				return a
			},
			func(t *testing.T, s *engine.Store, l engine.Lease) error { return s.Release(t.Context(), l) },
			"release", engine.ErrSuperseded},
		{"quarantined (release by the last holder)",
			func(t *testing.T, s *engine.Store) engine.Lease {
				useUp(t, s)
				_, err := s.Claim(t.Context(), "j", "B", 3000, 1000)
				wantRejected(t, err, "claim", engine.ErrQuarantined)
				return engine.Lease{JobID: "j", Owner: "A", Token: 3}
			},
			func(t *testing.T, s *engine.Store, l engine.Lease) error { return s.Release(t.Context(), l) },
			"release", engine.ErrQuarantined},
		{"held > attempts used up (claim)",
			func(t *testing.T, s *engine.Store) engine.Lease { useUp(t, s); return engine.Lease{} },
			func(t *testing.T, s *engine.Store, _ engine.Lease) error {
				_, err := s.Claim(t.Context(), "j", "B", 2999, 1000)
				return err
			},
			"claim", engine.ErrHeld},
		{"superseded > expired (stale token after every lease ended)",
			func(t *testing.T, s *engine.Store) engine.Lease {
				a := claimOK(t, s, "j", "A", 0, 1000)
				claimOK(t, s, "j", "B", 1000, 1000)
				return a
			},
			func(t *testing.T, s *engine.Store, l engine.Lease) error {
				return s.Complete(t.Context(), l, 5000, "late")
			},
			"complete", engine.ErrSuperseded},
		{"superseded > expired (current token, other owner)",
			func(t *testing.T, s *engine.Store) engine.Lease {
				claimOK(t, s, "j", "A", 0, 1000)
				return engine.Lease{JobID: "j", Owner: "B", Token: 1}
			},
			func(t *testing.T, s *engine.Store, l engine.Lease) error {
				_, err := s.Renew(t.Context(), l, 1000, 10)
				return err
			},
			"renew", engine.ErrSuperseded},
		{"expired (current lease at the deadline)",
			func(t *testing.T, s *engine.Store) engine.Lease {
				return claimOK(t, s, "d", "A", 0, 1000) // deadline 100: lease_until 100
			},
			func(t *testing.T, s *engine.Store, l engine.Lease) error {
				return s.Complete(t.Context(), l, 100, "late")
			},
			"complete", engine.ErrExpired},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := memStore(t)
			enqueueOK(t, s, engine.NewJob{ID: "j", MaxAttempts: 3})
			enqueueOK(t, s, engine.NewJob{ID: "d", Deadline: 100})
			l := tc.setup(t, s)
			before := rowsOf(t, s)
			rej := wantRejected(t, tc.op(t, s, l), tc.wantOp, tc.reason)
			if after := rowsOf(t, s); !reflect.DeepEqual(after, before) {
				t.Fatalf("refusal changed the rows:\n got %+v\nwant %+v", after, before)
			}
			if tc.reason != engine.ErrNotFound {
				if cur := rowOf(t, s, rej.Current.ID); cur != rej.Current {
					t.Fatalf("Current = %+v; the row is %+v", rej.Current, cur)
				}
			}
		})
	}
}
