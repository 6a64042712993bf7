package engine_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/sqlitedb"
)

// enqueueOK enqueues j and fails t unless it was new.
func enqueueOK(t testing.TB, s *engine.Store, j engine.NewJob) {
	t.Helper()
	ok, err := s.Enqueue(t.Context(), j)
	if err != nil || !ok {
		t.Fatalf("Enqueue(%+v) = %v, %v; want true, nil", j, ok, err)
	}
}

// claimOK claims id and fails t unless the claim was granted.
func claimOK(t testing.TB, s *engine.Store, id, owner string, now, ttl int64) engine.Lease {
	t.Helper()
	l, err := s.Claim(t.Context(), id, owner, now, ttl)
	if err != nil {
		t.Fatalf("Claim(%q, %q, now=%d, ttl=%d): %v", id, owner, now, ttl, err)
	}
	return l
}

// rowOf reads job id and fails t if it is missing.
func rowOf(t testing.TB, s *engine.Store, id string) engine.Job {
	t.Helper()
	j, err := s.Get(t.Context(), id)
	if err != nil || j == nil {
		t.Fatalf("Get(%q) = %v, %v; want the row", id, j, err)
	}
	return *j
}

// rowsOf reads every job in insertion order.
func rowsOf(t testing.TB, s *engine.Store) []engine.Job {
	t.Helper()
	js, err := s.Jobs(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return js
}

// wantRejected fails t unless err is a *engine.Rejection by op for reason.
func wantRejected(t testing.TB, err error, op string, reason error) *engine.Rejection {
	t.Helper()
	var rej *engine.Rejection
	if !errors.As(err, &rej) {
		t.Fatalf("err = %v; want a *engine.Rejection (%s refused: %v)", err, op, reason)
	}
	if rej.Op != op || rej.Reason != reason || !errors.Is(err, reason) {
		t.Fatalf("rejection = %v (op %q, reason %v); want op %q, reason %v", err, rej.Op, rej.Reason, op, reason)
	}
	return rej
}

// wantRow fails t unless job id reads exactly want.
func wantRow(t testing.TB, s *engine.Store, want engine.Job) {
	t.Helper()
	if got := rowOf(t, s, want.ID); got != want {
		t.Fatalf("row %s:\n got %+v\nwant %+v", want.ID, got, want)
	}
}

func TestGet_MissingJobIsNil(t *testing.T) {
	s := memStore(t)
	enqueueOK(t, s, engine.NewJob{ID: "present"})
	j, err := s.Get(t.Context(), "absent")
	if err != nil || j != nil {
		t.Fatalf("Get(absent) = %+v, %v; want nil, nil", j, err)
	}
}

// A new job is pending with its defaults, the row NewJob.Row says.
func TestEnqueue_NewJobIsPendingWithDefaults(t *testing.T) {
	s := memStore(t)
	a, b := engine.NewJob{ID: "a"}, engine.NewJob{ID: "b", Qty: 3, Deadline: 100, MaxAttempts: 2}
	enqueueOK(t, s, a)
	enqueueOK(t, s, b)
	wantRow(t, s, engine.Job{ID: "a", Qty: 1, Status: engine.StatusPending})
	wantRow(t, s, engine.Job{ID: "b", Qty: 3, Deadline: 100, MaxAttempts: 2, Status: engine.StatusPending})
	wantRow(t, s, a.Row())
	wantRow(t, s, b.Row())
}

// A lease is valid iff now < lease_until: renew and complete succeed one
// millisecond before lease_until and are refused as expired at and after it.
func TestLease_ValidIffNowBeforeLeaseUntil(t *testing.T) {
	const ttl = 1000 // claimed at 0: lease_until 1000
	for _, tc := range []struct {
		name  string
		now   int64
		valid bool
	}{
		{"before lease_until", 999, true},
		{"at lease_until", 1000, false},
		{"after lease_until", 1001, false},
	} {
		t.Run("renew/"+tc.name, func(t *testing.T) {
			s := memStore(t)
			enqueueOK(t, s, engine.NewJob{ID: "j"})
			a := claimOK(t, s, "j", "A", 0, ttl)
			before := rowOf(t, s, "j")
			got, err := s.Renew(t.Context(), a, tc.now, 500)
			if !tc.valid {
				wantRejected(t, err, "renew", engine.ErrExpired)
				wantRow(t, s, before)
				return
			}
			if err != nil {
				t.Fatalf("Renew at %d: %v", tc.now, err)
			}
			want := a
			want.LeaseUntil = tc.now + 500
			if got != want {
				t.Fatalf("Renew = %+v; want %+v", got, want)
			}
			after := before
			after.LeaseUntil = tc.now + 500
			wantRow(t, s, after)
		})
		t.Run("complete/"+tc.name, func(t *testing.T) {
			s := memStore(t)
			enqueueOK(t, s, engine.NewJob{ID: "j"})
			a := claimOK(t, s, "j", "A", 0, ttl)
			before := rowOf(t, s, "j")
			err := s.Complete(t.Context(), a, tc.now, "r")
			if !tc.valid {
				wantRejected(t, err, "complete", engine.ErrExpired)
				wantRow(t, s, before)
				return
			}
			if err != nil {
				t.Fatalf("Complete at %d: %v", tc.now, err)
			}
			after := before
			after.Status, after.Result = engine.StatusDone, "r"
			wantRow(t, s, after)
		})
	}
}

// A job can be reclaimed once lease_until <= now: a claim one millisecond
// before lease_until meets a held job, at and after it takes the job.
func TestClaim_ReclaimIffLeaseUntilReached(t *testing.T) {
	for _, tc := range []struct {
		name string
		now  int64
		ok   bool
	}{
		{"before lease_until", 999, false},
		{"at lease_until", 1000, true},
		{"after lease_until", 1001, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := memStore(t)
			enqueueOK(t, s, engine.NewJob{ID: "j", Qty: 2})
			claimOK(t, s, "j", "A", 0, 1000)
			before := rowOf(t, s, "j")
			got, err := s.Claim(t.Context(), "j", "B", tc.now, 1000)
			if !tc.ok {
				wantRejected(t, err, "claim", engine.ErrHeld)
				wantRow(t, s, before)
				return
			}
			if err != nil {
				t.Fatalf("Claim at %d: %v", tc.now, err)
			}
			want := engine.Lease{JobID: "j", Owner: "B", Qty: 2, Token: 2, Attempt: 2, LeaseUntil: tc.now + 1000}
			if got != want {
				t.Fatalf("Claim = %+v; want %+v", got, want)
			}
			wantRow(t, s, engine.Job{ID: "j", Owner: "B", Qty: 2, LeaseUntil: tc.now + 1000,
				Token: 2, Attempts: 2, Status: engine.StatusLeased})
		})
	}
}

// lease_until = min(now+ttl, deadline) on claim: below, at and above the
// deadline, and a ttl far past the deadline (deadline 100, now 0, ttl 1000
// gives 100).
func TestClaim_LeaseUntilIsMinOfNowPlusTTLAndDeadline(t *testing.T) {
	for _, tc := range []struct {
		name               string
		deadline, now, ttl int64
		wantLeaseUntil     int64
	}{
		{"ttl far past deadline: deadline 100 now 0 ttl 1000", 100, 0, 1000, 100},
		{"now+ttl below deadline", 100, 0, 99, 99},
		{"now+ttl at deadline", 100, 0, 100, 100},
		{"now+ttl above deadline", 100, 0, 101, 100},
		{"now one before deadline", 100, 99, 1000, 100},
		{"no deadline", 0, 0, 1000, 1000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := memStore(t)
			enqueueOK(t, s, engine.NewJob{ID: "j", Deadline: tc.deadline})
			l := claimOK(t, s, "j", "A", tc.now, tc.ttl)
			if l.LeaseUntil != tc.wantLeaseUntil {
				t.Fatalf("lease_until = %d; want %d", l.LeaseUntil, tc.wantLeaseUntil)
			}
			wantRow(t, s, engine.Job{ID: "j", Owner: "A", Qty: 1, LeaseUntil: tc.wantLeaseUntil,
				Token: 1, Attempts: 1, Deadline: tc.deadline, Status: engine.StatusLeased})
		})
	}
}

// lease_until = min(now+ttl, deadline) on renew as well.
func TestRenew_LeaseUntilIsMinOfNowPlusTTLAndDeadline(t *testing.T) {
	for _, tc := range []struct {
		name                string
		deadline, now, ttl  int64
		wantLeaseUntil      int64
		claimNow, claimTTL  int64
		wantClaimLeaseUntil int64
	}{
		{"now+ttl below deadline", 100, 5, 94, 99, 0, 10, 10},
		{"now+ttl at deadline", 100, 5, 95, 100, 0, 10, 10},
		{"now+ttl above deadline", 100, 5, 96, 100, 0, 10, 10},
		{"far above deadline", 100, 5, 1000, 100, 0, 10, 10},
		{"one before deadline", 100, 99, 1000, 100, 90, 50, 100},
		{"no deadline", 0, 5, 1000, 1005, 0, 10, 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := memStore(t)
			enqueueOK(t, s, engine.NewJob{ID: "j", Deadline: tc.deadline})
			a := claimOK(t, s, "j", "A", tc.claimNow, tc.claimTTL)
			if a.LeaseUntil != tc.wantClaimLeaseUntil {
				t.Fatalf("claim lease_until = %d; want %d", a.LeaseUntil, tc.wantClaimLeaseUntil)
			}
			l, err := s.Renew(t.Context(), a, tc.now, tc.ttl)
			if err != nil {
				t.Fatalf("Renew: %v", err)
			}
			if l.LeaseUntil != tc.wantLeaseUntil {
				t.Fatalf("renewed lease_until = %d; want %d", l.LeaseUntil, tc.wantLeaseUntil)
			}
			if got := rowOf(t, s, "j").LeaseUntil; got != tc.wantLeaseUntil {
				t.Fatalf("stored lease_until = %d; want %d", got, tc.wantLeaseUntil)
			}
		})
	}
}

// Renew and complete after the deadline are refused as expired, since a
// lease never outlives the deadline; one millisecond before it they succeed.
func TestLease_RefusedExpiredFromDeadlineOn(t *testing.T) {
	for _, tc := range []struct {
		name  string
		now   int64
		valid bool
	}{
		{"before deadline", 99, true},
		{"at deadline", 100, false},
		{"after deadline", 101, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := memStore(t)
			enqueueOK(t, s, engine.NewJob{ID: "j", Deadline: 100})
			a := claimOK(t, s, "j", "A", 0, 1000) // lease_until 100
			before := rowOf(t, s, "j")
			_, rerr := s.Renew(t.Context(), a, tc.now, 10)
			if !tc.valid {
				wantRejected(t, rerr, "renew", engine.ErrExpired)
				cerr := s.Complete(t.Context(), a, tc.now, "late")
				wantRejected(t, cerr, "complete", engine.ErrExpired)
				wantRow(t, s, before)
				return
			}
			if rerr != nil {
				t.Fatalf("Renew: %v", rerr)
			}
			if err := s.Complete(t.Context(), a, tc.now, "on time"); err != nil {
				t.Fatalf("Complete: %v", err)
			}
			if got := rowOf(t, s, "j"); got.Status != engine.StatusDone || got.Result != "on time" {
				t.Fatalf("row = %+v; want done with result %q", got, "on time")
			}
		})
	}
}

// A claim that finds the attempts used up (max_attempts > 0 and attempts >=
// max_attempts) quarantines the job with reason "attempts", grants no token,
// and commits the quarantine. max_attempts 0 is unlimited.
func TestClaim_UsedUpAttemptsQuarantineWithoutToken(t *testing.T) {
	const ttl = 10
	for _, tc := range []struct {
		name        string
		maxAttempts int64
		prior       int64 // claims before the one under test, each taken as the previous lease ends
		quarantine  bool
	}{
		{"attempts max-2", 3, 1, false},
		{"attempts max-1", 3, 2, false},
		{"attempts max", 3, 3, true},
		{"max 1, never claimed", 1, 0, false},
		{"max 1, claimed once", 1, 1, true},
		{"unlimited after 20 claims", 0, 20, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := memStore(t)
			enqueueOK(t, s, engine.NewJob{ID: "j", MaxAttempts: tc.maxAttempts})
			for k := int64(0); k < tc.prior; k++ {
				claimOK(t, s, "j", "W", k*ttl, ttl)
			}
			now := tc.prior * ttl // the last lease has just ended
			before := rowOf(t, s, "j")
			l, err := s.Claim(t.Context(), "j", "B", now, ttl)
			if !tc.quarantine {
				if err != nil {
					t.Fatalf("Claim with %d/%d attempts: %v", tc.prior, tc.maxAttempts, err)
				}
				if l.Token != tc.prior+1 || l.Attempt != tc.prior+1 {
					t.Fatalf("lease = %+v; want token and attempt %d", l, tc.prior+1)
				}
				return
			}
			rej := wantRejected(t, err, "claim", engine.ErrQuarantined)
			if l != (engine.Lease{}) {
				t.Fatalf("refused claim returned lease %+v; want none", l)
			}
			want := before
			want.Status, want.Reason = engine.StatusQuarantined, engine.ReasonAttempts
			if rej.Current != want {
				t.Fatalf("Rejection.Current = %+v; want %+v", rej.Current, want)
			}
			wantRow(t, s, want) // committed, token and attempts untouched
			_, err = s.Claim(t.Context(), "j", "C", now+ttl, ttl)
			wantRejected(t, err, "claim", engine.ErrQuarantined)
			wantRow(t, s, want)
		})
	}
}

// A claim at or after the deadline quarantines the job with reason
// "deadline", grants no token and commits the quarantine; one millisecond
// before the deadline the claim is granted.
func TestClaim_PassedDeadlineQuarantinesWithoutToken(t *testing.T) {
	for _, tc := range []struct {
		name       string
		now        int64
		quarantine bool
	}{
		{"before deadline", 99, false},
		{"at deadline", 100, true},
		{"after deadline", 101, true},
	} {
		t.Run("pending/"+tc.name, func(t *testing.T) {
			s := memStore(t)
			enqueueOK(t, s, engine.NewJob{ID: "j", Deadline: 100})
			l, err := s.Claim(t.Context(), "j", "A", tc.now, 1000)
			if !tc.quarantine {
				if err != nil {
					t.Fatalf("Claim: %v", err)
				}
				if l.Token != 1 || l.LeaseUntil != 100 {
					t.Fatalf("lease = %+v; want token 1 until 100", l)
				}
				return
			}
			wantRejected(t, err, "claim", engine.ErrQuarantined)
			wantRow(t, s, engine.Job{ID: "j", Qty: 1, Deadline: 100,
				Status: engine.StatusQuarantined, Reason: engine.ReasonDeadline})
		})
		t.Run("reclaim/"+tc.name, func(t *testing.T) {
			s := memStore(t)
			enqueueOK(t, s, engine.NewJob{ID: "j", Deadline: 100})
			claimOK(t, s, "j", "A", 0, 50) // lease_until 50
			before := rowOf(t, s, "j")
			l, err := s.Claim(t.Context(), "j", "B", tc.now, 1000)
			if !tc.quarantine {
				if err != nil {
					t.Fatalf("Claim: %v", err)
				}
				if l.Token != 2 || l.LeaseUntil != 100 {
					t.Fatalf("lease = %+v; want token 2 until 100", l)
				}
				return
			}
			wantRejected(t, err, "claim", engine.ErrQuarantined)
			want := before
			want.Status, want.Reason = engine.StatusQuarantined, engine.ReasonDeadline
			wantRow(t, s, want)
		})
	}
}

// Quarantined and done are final: no claim, renew, complete or release
// changes the row afterwards, and ClaimNext does not offer the job.
func TestQuarantineAndDone_AreFinal(t *testing.T) {
	for _, tc := range []struct {
		name   string
		reason error
		status engine.Status
		setup  func(t *testing.T, s *engine.Store) engine.Lease // returns the last lease granted
	}{
		{"quarantined by attempts", engine.ErrQuarantined, engine.StatusQuarantined,
			func(t *testing.T, s *engine.Store) engine.Lease {
				enqueueOK(t, s, engine.NewJob{ID: "j", MaxAttempts: 1})
				a := claimOK(t, s, "j", "A", 0, 100)
				_, err := s.Claim(t.Context(), "j", "B", 100, 100)
				wantRejected(t, err, "claim", engine.ErrQuarantined)
				return a
			}},
		{"quarantined by deadline", engine.ErrQuarantined, engine.StatusQuarantined,
			func(t *testing.T, s *engine.Store) engine.Lease {
				enqueueOK(t, s, engine.NewJob{ID: "j", Deadline: 100})
				a := claimOK(t, s, "j", "A", 0, 1000)
				_, err := s.Claim(t.Context(), "j", "B", 100, 100)
				wantRejected(t, err, "claim", engine.ErrQuarantined)
				return a
			}},
		{"done", engine.ErrDone, engine.StatusDone,
			func(t *testing.T, s *engine.Store) engine.Lease {
				enqueueOK(t, s, engine.NewJob{ID: "j"})
				a := claimOK(t, s, "j", "A", 0, 1000)
				if err := s.Complete(t.Context(), a, 10, "first"); err != nil {
					t.Fatal(err)
				}
				return a
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := memStore(t)
			a := tc.setup(t, s)
			final := rowOf(t, s, "j")
			if final.Status != tc.status {
				t.Fatalf("status = %q; want %q", final.Status, tc.status)
			}
			ctx := t.Context()
			for _, now := range []int64{20, 99, 100, 5000} {
				_, err := s.Claim(ctx, "j", "C", now, 100)
				wantRejected(t, err, "claim", tc.reason)
				_, err = s.Claim(ctx, "j", "A", now, 100)
				wantRejected(t, err, "claim", tc.reason)
				_, err = s.Renew(ctx, a, now, 100)
				wantRejected(t, err, "renew", tc.reason)
				err = s.Complete(ctx, a, now, "second")
				wantRejected(t, err, "complete", tc.reason)
				if _, err := s.ClaimNext(ctx, "C", now, 100); !errors.Is(err, engine.ErrEmpty) {
					t.Fatalf("ClaimNext at %d = %v; want ErrEmpty", now, err)
				}
			}
			wantRejected(t, s.Release(ctx, a), "release", tc.reason)
			wantRow(t, s, final)
		})
	}
}

// A job held by a valid lease is neither handed over nor quarantined by
// repeated claims, even when its attempts are used up; at lease_until the
// used-up job is quarantined.
func TestClaim_HeldJobNeitherHandedOverNorQuarantined(t *testing.T) {
	s := memStore(t)
	ctx := t.Context()
	enqueueOK(t, s, engine.NewJob{ID: "j", MaxAttempts: 1})
	claimOK(t, s, "j", "A", 0, 1000) // attempts 1/1, held until 1000
	held := rowOf(t, s, "j")
	for _, c := range []struct {
		owner string
		now   int64
	}{{"B", 0}, {"B", 1}, {"C", 500}, {"B", 999}, {"B", 999}, {"A", 999}} {
		_, err := s.Claim(ctx, "j", c.owner, c.now, 1000)
		wantRejected(t, err, "claim", engine.ErrHeld)
		if _, err := s.ClaimNext(ctx, c.owner, c.now, 1000); !errors.Is(err, engine.ErrEmpty) {
			t.Fatalf("ClaimNext by %s at %d = %v; want ErrEmpty", c.owner, c.now, err)
		}
		wantRow(t, s, held)
	}
	if toks, err := s.ClaimMany(ctx, "j", []string{"B", "C", "D"}, 999, 1000); err != nil || !reflect.DeepEqual(toks, []int64{0, 0, 0}) {
		t.Fatalf("ClaimMany on a held job = %v, %v; want [0 0 0]", toks, err)
	}
	wantRow(t, s, held)
	_, err := s.Claim(ctx, "j", "B", 1000, 1000)
	wantRejected(t, err, "claim", engine.ErrQuarantined)
	want := held
	want.Status, want.Reason = engine.StatusQuarantined, engine.ReasonAttempts
	wantRow(t, s, want)
}

// Release clears the owner and lease and keeps the token: the next claim,
// even one before the old lease_until, gets token+1.
func TestRelease_KeepsToken(t *testing.T) {
	for _, tc := range []struct {
		name      string
		releaseOf func(t *testing.T, s *engine.Store) engine.Lease
		wantToken int64
	}{
		{"first lease", func(t *testing.T, s *engine.Store) engine.Lease {
			return claimOK(t, s, "j", "A", 0, 1000)
		}, 2},
		{"third lease", func(t *testing.T, s *engine.Store) engine.Lease {
			claimOK(t, s, "j", "A", 0, 10)
			claimOK(t, s, "j", "B", 10, 10)
			return claimOK(t, s, "j", "A", 20, 1000)
		}, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := memStore(t)
			enqueueOK(t, s, engine.NewJob{ID: "j"})
			l := tc.releaseOf(t, s)
			if err := s.Release(t.Context(), l); err != nil {
				t.Fatalf("Release: %v", err)
			}
			wantRow(t, s, engine.Job{ID: "j", Qty: 1, Token: l.Token, Attempts: l.Attempt, Status: engine.StatusPending})
			wantRejected(t, s.Release(t.Context(), l), "release", engine.ErrSuperseded)
			next := claimOK(t, s, "j", "C", l.LeaseUntil-1, 100)
			if next.Token != tc.wantToken {
				t.Fatalf("claim after release got token %d; want %d", next.Token, tc.wantToken)
			}
			err := s.Complete(t.Context(), l, l.LeaseUntil-1, "stale")
			wantRejected(t, err, "complete", engine.ErrSuperseded)
		})
	}
}

// Release takes no time: a holder may give back a lease that has ended as
// long as nobody reclaimed the job; once someone has, it is superseded.
func TestRelease_EndedLeaseUntilReclaimed(t *testing.T) {
	s := memStore(t)
	enqueueOK(t, s, engine.NewJob{ID: "j"})
	a := claimOK(t, s, "j", "A", 0, 10)
	if err := s.Release(t.Context(), a); err != nil {
		t.Fatalf("Release of an ended, unclaimed lease: %v", err)
	}
	a2 := claimOK(t, s, "j", "A", 20, 10)
	claimOK(t, s, "j", "B", 30, 10)
	wantRejected(t, s.Release(t.Context(), a2), "release", engine.ErrSuperseded)
	if got := rowOf(t, s, "j"); got.Owner != "B" || got.Token != 3 {
		t.Fatalf("row = %+v; want B#3", got)
	}
}

// Enqueueing an existing id returns false and changes nothing, whatever the
// job's state, the insertion order included.
func TestEnqueue_ExistingIDChangesNothing(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, s *engine.Store)
	}{
		{"pending", func(t *testing.T, s *engine.Store) {}},
		{"leased", func(t *testing.T, s *engine.Store) {
			claimOK(t, s, "j", "A", 0, 1000)
		}},
		{"leased, lease ended", func(t *testing.T, s *engine.Store) {
			claimOK(t, s, "j", "A", 0, 10)
		}},
		{"released", func(t *testing.T, s *engine.Store) {
			if err := s.Release(t.Context(), claimOK(t, s, "j", "A", 0, 10)); err != nil {
				t.Fatal(err)
			}
		}},
		{"done", func(t *testing.T, s *engine.Store) {
			if err := s.Complete(t.Context(), claimOK(t, s, "j", "A", 0, 1000), 5, "r"); err != nil {
				t.Fatal(err)
			}
		}},
		{"quarantined", func(t *testing.T, s *engine.Store) {
			claimOK(t, s, "j", "A", 0, 1000)
			_, err := s.Claim(t.Context(), "j", "B", 2000, 10) // deadline 2000 passed
			wantRejected(t, err, "claim", engine.ErrQuarantined)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := memStore(t)
			enqueueOK(t, s, engine.NewJob{ID: "j", Qty: 2, Deadline: 2000, MaxAttempts: 5})
			enqueueOK(t, s, engine.NewJob{ID: "k"})
			tc.setup(t, s)
			before := rowsOf(t, s)
			for _, again := range []engine.NewJob{
				{ID: "j", Qty: 2, Deadline: 2000, MaxAttempts: 5},
				{ID: "j"},
				{ID: "j", Qty: 9, Deadline: 9000, MaxAttempts: 1},
			} {
				ok, err := s.Enqueue(t.Context(), again)
				if err != nil || ok {
					t.Fatalf("Enqueue(%+v) again = %v, %v; want false, nil", again, ok, err)
				}
			}
			if after := rowsOf(t, s); !reflect.DeepEqual(after, before) {
				t.Fatalf("re-enqueue changed the rows:\n got %+v\nwant %+v", after, before)
			}
			if tc.name == "pending" {
				if l, err := s.ClaimNext(t.Context(), "B", 0, 10); err != nil || l.JobID != "j" {
					t.Fatalf("ClaimNext = %+v, %v; want j, still first in line", l, err)
				}
			}
		})
	}
}

// A re-claim under the same worker name is a new generation: A#1 expires,
// A claims again and gets A#2, and everything A#1 presents is superseded.
func TestClaim_SameWorkerReclaimMakesOldTokenStale(t *testing.T) {
	s := memStore(t)
	ctx := t.Context()
	enqueueOK(t, s, engine.NewJob{ID: "j"})
	a1 := claimOK(t, s, "j", "A", 0, 1000)
	a2 := claimOK(t, s, "j", "A", 1000, 1000)
	if a1.Token != 1 || a2.Token != 2 || a2.Owner != "A" {
		t.Fatalf("tokens = A#%d, %s#%d; want A#1, A#2", a1.Token, a2.Owner, a2.Token)
	}
	current := rowOf(t, s, "j")
	rej := wantRejected(t, s.Complete(ctx, a1, 1001, "stale"), "complete", engine.ErrSuperseded)
	if rej.Presented != a1 || rej.Current != current || rej.Now != 1001 {
		t.Fatalf("rejection = %+v; want presented %+v, current %+v, now 1001", rej, a1, current)
	}
	_, err := s.Renew(ctx, a1, 1001, 1000)
	wantRejected(t, err, "renew", engine.ErrSuperseded)
	wantRejected(t, s.Release(ctx, a1), "release", engine.ErrSuperseded)
	wantRow(t, s, current)
	if err := s.Complete(ctx, a2, 1001, "fresh"); err != nil {
		t.Fatalf("Complete A#2: %v", err)
	}
	if got := rowOf(t, s, "j"); got.Result != "fresh" || got.Token != 2 {
		t.Fatalf("row = %+v; want A#2's result", got)
	}
}

// A lease presented under another owner's name is superseded even when its
// token is the current one: owner and token must both match.
func TestLease_OwnerAndTokenMustBothMatch(t *testing.T) {
	s := memStore(t)
	ctx := t.Context()
	enqueueOK(t, s, engine.NewJob{ID: "j"})
	claimOK(t, s, "j", "A", 0, 10)
	b := claimOK(t, s, "j", "B", 10, 1000)
	impostor := b
	impostor.Owner = "A"
	current := rowOf(t, s, "j")
	_, err := s.Renew(ctx, impostor, 11, 1000)
	wantRejected(t, err, "renew", engine.ErrSuperseded)
	wantRejected(t, s.Complete(ctx, impostor, 11, "A's"), "complete", engine.ErrSuperseded)
	wantRejected(t, s.Release(ctx, impostor), "release", engine.ErrSuperseded)
	wantRow(t, s, current)
}

// Invalid arguments return an error matching ErrInvalid that is not a
// rejection, and change no row; the valid side of each boundary (ttl 1,
// now 0, qty/deadline/max_attempts 0) is accepted.
func TestInvalidArguments_ReturnErrInvalidAndChangeNothing(t *testing.T) {
	held := engine.Lease{JobID: "h", Owner: "A", Qty: 1, Token: 1, Attempt: 1, LeaseUntil: 110}
	with := func(f func(*engine.Lease)) engine.Lease { l := held; f(&l); return l }
	clock := new(engine.VirtualClock)
	for _, tc := range []struct {
		name    string
		op      func(t *testing.T, s *engine.Store) error
		invalid bool
	}{
		{"claim ttl -1", func(t *testing.T, s *engine.Store) error {
			_, err := s.Claim(t.Context(), "p", "B", 10, -1)
			return err
		}, true},
		{"claim ttl 0", func(t *testing.T, s *engine.Store) error { _, err := s.Claim(t.Context(), "p", "B", 10, 0); return err }, true},
		{"claim ttl 1", func(t *testing.T, s *engine.Store) error { _, err := s.Claim(t.Context(), "p", "B", 10, 1); return err }, false},
		{"claim now -1", func(t *testing.T, s *engine.Store) error {
			_, err := s.Claim(t.Context(), "p", "B", -1, 10)
			return err
		}, true},
		{"claim now 0", func(t *testing.T, s *engine.Store) error { _, err := s.Claim(t.Context(), "p", "B", 0, 10); return err }, false},
		{"claim empty id", func(t *testing.T, s *engine.Store) error { _, err := s.Claim(t.Context(), "", "B", 10, 10); return err }, true},
		{"claim empty owner", func(t *testing.T, s *engine.Store) error { _, err := s.Claim(t.Context(), "p", "", 10, 10); return err }, true},
		{"claim-next ttl 0", func(t *testing.T, s *engine.Store) error { _, err := s.ClaimNext(t.Context(), "B", 10, 0); return err }, true},
		{"claim-next ttl 1", func(t *testing.T, s *engine.Store) error { _, err := s.ClaimNext(t.Context(), "B", 10, 1); return err }, false},
		{"claim-next now -1", func(t *testing.T, s *engine.Store) error { _, err := s.ClaimNext(t.Context(), "B", -1, 10); return err }, true},
		{"claim-next empty owner", func(t *testing.T, s *engine.Store) error { _, err := s.ClaimNext(t.Context(), "", 10, 10); return err }, true},
		{"claim-many ttl 0", func(t *testing.T, s *engine.Store) error {
			_, err := s.ClaimMany(t.Context(), "p", []string{"B", "C"}, 10, 0)
			return err
		}, true},
		{"claim-many now -1", func(t *testing.T, s *engine.Store) error {
			_, err := s.ClaimMany(t.Context(), "p", []string{"B", "C"}, -1, 10)
			return err
		}, true},
		{"claim-many one empty owner", func(t *testing.T, s *engine.Store) error {
			_, err := s.ClaimMany(t.Context(), "p", []string{"B", ""}, 10, 10)
			return err
		}, true},
		{"claim-many empty id", func(t *testing.T, s *engine.Store) error {
			_, err := s.ClaimMany(t.Context(), "", []string{"B", "C"}, 10, 10)
			return err
		}, true},
		{"renew ttl -1", func(t *testing.T, s *engine.Store) error { _, err := s.Renew(t.Context(), held, 20, -1); return err }, true},
		{"renew ttl 0", func(t *testing.T, s *engine.Store) error { _, err := s.Renew(t.Context(), held, 20, 0); return err }, true},
		{"renew ttl 1", func(t *testing.T, s *engine.Store) error { _, err := s.Renew(t.Context(), held, 20, 1); return err }, false},
		{"renew now -1", func(t *testing.T, s *engine.Store) error { _, err := s.Renew(t.Context(), held, -1, 10); return err }, true},
		{"renew now 0", func(t *testing.T, s *engine.Store) error { _, err := s.Renew(t.Context(), held, 0, 10); return err }, false},
		{"renew empty owner", func(t *testing.T, s *engine.Store) error {
			_, err := s.Renew(t.Context(), with(func(l *engine.Lease) { l.Owner = "" }), 20, 10)
			return err
		}, true},
		{"renew empty id", func(t *testing.T, s *engine.Store) error {
			_, err := s.Renew(t.Context(), with(func(l *engine.Lease) { l.JobID = "" }), 20, 10)
			return err
		}, true},
		{"complete now -1", func(t *testing.T, s *engine.Store) error { return s.Complete(t.Context(), held, -1, "r") }, true},
		{"complete now 0", func(t *testing.T, s *engine.Store) error { return s.Complete(t.Context(), held, 0, "r") }, false},
		{"complete empty owner", func(t *testing.T, s *engine.Store) error {
			return s.Complete(t.Context(), with(func(l *engine.Lease) { l.Owner = "" }), 20, "r")
		}, true},
		{"complete empty id", func(t *testing.T, s *engine.Store) error {
			return s.Complete(t.Context(), with(func(l *engine.Lease) { l.JobID = "" }), 20, "r")
		}, true},
		{"release empty owner", func(t *testing.T, s *engine.Store) error {
			return s.Release(t.Context(), with(func(l *engine.Lease) { l.Owner = "" }))
		}, true},
		{"release empty id", func(t *testing.T, s *engine.Store) error {
			return s.Release(t.Context(), with(func(l *engine.Lease) { l.JobID = "" }))
		}, true},
		{"enqueue empty id", func(t *testing.T, s *engine.Store) error {
			_, err := s.Enqueue(t.Context(), engine.NewJob{})
			return err
		}, true},
		{"enqueue qty -1", func(t *testing.T, s *engine.Store) error {
			_, err := s.Enqueue(t.Context(), engine.NewJob{ID: "n", Qty: -1})
			return err
		}, true},
		{"enqueue qty 0", func(t *testing.T, s *engine.Store) error {
			_, err := s.Enqueue(t.Context(), engine.NewJob{ID: "n", Qty: 0})
			return err
		}, false},
		{"enqueue deadline -1", func(t *testing.T, s *engine.Store) error {
			_, err := s.Enqueue(t.Context(), engine.NewJob{ID: "n", Deadline: -1})
			return err
		}, true},
		{"enqueue max_attempts -1", func(t *testing.T, s *engine.Store) error {
			_, err := s.Enqueue(t.Context(), engine.NewJob{ID: "n", MaxAttempts: -1})
			return err
		}, true},
		{"dispatch ttl 0", func(t *testing.T, s *engine.Store) error {
			_, err := s.Dispatch(t.Context(), "B", clock, 0, sendNothing)
			return err
		}, true},
		{"dispatch empty owner", func(t *testing.T, s *engine.Store) error {
			_, err := s.Dispatch(t.Context(), "", clock, 10, sendNothing)
			return err
		}, true},
		{"dispatch nil clock", func(t *testing.T, s *engine.Store) error {
			_, err := s.Dispatch(t.Context(), "B", nil, 10, sendNothing)
			return err
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := memStore(t)
			enqueueOK(t, s, engine.NewJob{ID: "p", Qty: 2, Deadline: 5000, MaxAttempts: 3})
			enqueueOK(t, s, engine.NewJob{ID: "h"})
			if l := claimOK(t, s, "h", "A", 10, 100); l != held {
				t.Fatalf("setup lease = %+v; want %+v", l, held)
			}
			before := rowsOf(t, s)
			err := tc.op(t, s)
			if !tc.invalid {
				if err != nil {
					t.Fatalf("valid side of the boundary refused: %v", err)
				}
				return
			}
			var rej *engine.Rejection
			if !errors.Is(err, engine.ErrInvalid) || errors.As(err, &rej) {
				t.Fatalf("err = %v; want ErrInvalid, not a rejection", err)
			}
			if after := rowsOf(t, s); !reflect.DeepEqual(after, before) {
				t.Fatalf("invalid call changed the rows:\n got %+v\nwant %+v", after, before)
			}
		})
	}
}

// ClaimNext takes the claimable job enqueued first (insertion order, not id
// order), skips jobs held by a valid lease and done jobs, reclaims a job at
// its lease_until, and returns ErrEmpty when nothing is claimable.
func TestClaimNext_OldestClaimableFirst(t *testing.T) {
	s := memStore(t)
	ctx := t.Context()
	for _, id := range []string{"z", "a", "m", "b"} {
		enqueueOK(t, s, engine.NewJob{ID: id})
	}
	z := claimOK(t, s, "z", "A", 0, 100) // held until 100
	if err := s.Complete(ctx, claimOK(t, s, "m", "A", 0, 100), 1, "r"); err != nil {
		t.Fatal(err)
	}
	next := func(owner string, now int64) string {
		t.Helper()
		l, err := s.ClaimNext(ctx, owner, now, 100)
		if errors.Is(err, engine.ErrEmpty) {
			return ""
		}
		if err != nil {
			t.Fatalf("ClaimNext(%s, %d): %v", owner, now, err)
		}
		if l.Owner != owner {
			t.Fatalf("ClaimNext lease = %+v; want owner %s", l, owner)
		}
		return l.JobID
	}
	if got := next("B", 10); got != "a" {
		t.Fatalf("first ClaimNext = %q; want a (z held, insertion order)", got)
	}
	if got := next("B", 20); got != "b" {
		t.Fatalf("second ClaimNext = %q; want b (m done)", got)
	}
	if got := next("B", 99); got != "" {
		t.Fatalf("ClaimNext with z held until 100 = %q; want ErrEmpty", got)
	}
	if got := next("C", 100); got != "z" {
		t.Fatalf("ClaimNext at z's lease_until = %q; want z", got)
	}
	if got := rowOf(t, s, "z"); got.Owner != "C" || got.Token != z.Token+1 {
		t.Fatalf("z = %+v; want C#%d", got, z.Token+1)
	}
	if got := next("C", 101); got != "" {
		t.Fatalf("ClaimNext with everything held or done = %q; want ErrEmpty", got)
	}
}

// ClaimNext quarantines, on its way, every older job whose budget is used
// up, and commits those quarantines both when it then claims a younger job
// and when it finds nothing and returns ErrEmpty.
func TestClaimNext_QuarantinesUsedUpJobsOnItsWay(t *testing.T) {
	setup := func(t *testing.T) *engine.Store {
		s := memStore(t)
		enqueueOK(t, s, engine.NewJob{ID: "spent", MaxAttempts: 1})
		enqueueOK(t, s, engine.NewJob{ID: "late", Deadline: 50})
		claimOK(t, s, "spent", "A", 0, 10)
		return s
	}
	wantQuarantined := func(t *testing.T, s *engine.Store) {
		t.Helper()
		spent, late := rowOf(t, s, "spent"), rowOf(t, s, "late")
		if spent.Status != engine.StatusQuarantined || spent.Reason != engine.ReasonAttempts || spent.Token != 1 {
			t.Fatalf("spent = %+v; want quarantined (attempts) at token 1", spent)
		}
		if late.Status != engine.StatusQuarantined || late.Reason != engine.ReasonDeadline || late.Token != 0 {
			t.Fatalf("late = %+v; want quarantined (deadline) at token 0", late)
		}
	}
	t.Run("then claims a younger job", func(t *testing.T) {
		s := setup(t)
		enqueueOK(t, s, engine.NewJob{ID: "fresh"})
		l, err := s.ClaimNext(t.Context(), "B", 50, 10)
		if err != nil || l.JobID != "fresh" || l.Token != 1 {
			t.Fatalf("ClaimNext = %+v, %v; want fresh#1", l, err)
		}
		wantQuarantined(t, s)
	})
	t.Run("then finds nothing", func(t *testing.T) {
		s := setup(t)
		if _, err := s.ClaimNext(t.Context(), "B", 50, 10); !errors.Is(err, engine.ErrEmpty) {
			t.Fatalf("ClaimNext = %v; want ErrEmpty", err)
		}
		wantQuarantined(t, s)
	})
	t.Run("one before the budget ends", func(t *testing.T) {
		s := setup(t)
		// spent is still held at 9; late's deadline is ahead at 49.
		l, err := s.ClaimNext(t.Context(), "B", 9, 10)
		if err != nil || l.JobID != "late" || l.LeaseUntil != 19 {
			t.Fatalf("ClaimNext = %+v, %v; want late until 19", l, err)
		}
		if got := rowOf(t, s, "spent"); got.Status != engine.StatusLeased {
			t.Fatalf("held spent = %+v; want leased, not quarantined", got)
		}
	})
}

// Opening a store again, on the same database or by reopening the file,
// keeps every row and token: the next claim continues the token sequence.
func TestNew_ReopenKeepsEveryRowAndToken(t *testing.T) {
	populate := func(t *testing.T, s *engine.Store) {
		enqueueOK(t, s, engine.NewJob{ID: "pending", Qty: 4, Deadline: 9000, MaxAttempts: 9})
		enqueueOK(t, s, engine.NewJob{ID: "leased"})
		enqueueOK(t, s, engine.NewJob{ID: "done"})
		claimOK(t, s, "leased", "A", 0, 10)
		claimOK(t, s, "leased", "B", 10, 10)
		if err := s.Complete(t.Context(), claimOK(t, s, "done", "A", 0, 100), 1, "r"); err != nil {
			t.Fatal(err)
		}
	}
	check := func(t *testing.T, before []engine.Job, s *engine.Store) {
		if after := rowsOf(t, s); !reflect.DeepEqual(after, before) {
			t.Fatalf("reopen changed the rows:\n got %+v\nwant %+v", after, before)
		}
		if l := claimOK(t, s, "leased", "C", 20, 10); l.Token != 3 {
			t.Fatalf("claim after reopen got token %d; want 3", l.Token)
		}
	}
	t.Run("same db", func(t *testing.T) {
		db := memDB(t)
		s := newStore(t, db)
		populate(t, s)
		before := rowsOf(t, s)
		check(t, before, newStore(t, db))
	})
	t.Run("reopened file", func(t *testing.T) {
		db, path := fileDB(t)
		s := newStore(t, db)
		populate(t, s)
		before := rowsOf(t, s)
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		db2, err := sqlitedb.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db2.Close() })
		check(t, before, newStore(t, db2))
	})
}

// Opening a store made before claim-next's indexes (its one index was
// jobs_open) keeps every row and token, and leaves it with the indexes a
// new store has.
func TestNew_ReopenOfAnOlderSchemaKeepsRowsAndTakesTheNewIndexes(t *testing.T) {
	db := memDB(t)
	s := newStore(t, db)
	indexes := func() []string {
		rows, err := db.Query(`SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'jobs_%' ORDER BY name`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var names []string
		for rows.Next() {
			var n string
			if err := rows.Scan(&n); err != nil {
				t.Fatal(err)
			}
			names = append(names, n)
		}
		return names
	}
	want := indexes()
	for _, q := range []string{`DROP INDEX jobs_free`, `DROP INDEX jobs_expiry`,
		`CREATE INDEX jobs_open ON jobs (seq) WHERE status IN ('pending', 'leased')`} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	enqueueOK(t, s, engine.NewJob{ID: "held"})
	enqueueOK(t, s, engine.NewJob{ID: "free"})
	claimOK(t, s, "held", "A", 0, 100)
	before := rowsOf(t, s)

	s = newStore(t, db)
	if after := rowsOf(t, s); !reflect.DeepEqual(after, before) {
		t.Fatalf("reopen changed the rows:\n got %+v\nwant %+v", after, before)
	}
	if got := indexes(); !reflect.DeepEqual(got, want) || len(want) != 2 {
		t.Fatalf("indexes after reopen %q; want %q, a new store's two", got, want)
	}
	if l, err := s.ClaimNext(t.Context(), "B", 50, 10); err != nil || l.JobID != "free" {
		t.Fatalf("claim next after reopen: %+v, %v; want free", l, err)
	}
}

// ClaimNext takes, of the unowned jobs and the jobs whose lease has ended,
// whichever was enqueued first, on the direct path and on the
// read-then-write one alike; a job held at now is never taken.
func TestClaimNext_FreeAndEndedLeasesTakenInInsertionOrder(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []engine.Option
	}{
		{"direct", nil},
		{"observed", []engine.Option{engine.WithObserver(func(engine.Statement) {})}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := memStore(t, tc.opts...)
			for _, id := range []string{"ended-1", "free-1", "held", "ended-2", "free-2"} {
				enqueueOK(t, s, engine.NewJob{ID: id})
			}
			claimOK(t, s, "ended-1", "A", 0, 10)
			claimOK(t, s, "held", "A", 0, 1000)
			claimOK(t, s, "ended-2", "A", 0, 10)
			var got []string
			for {
				l, err := s.ClaimNext(t.Context(), "B", 10, 5000)
				if errors.Is(err, engine.ErrEmpty) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, l.JobID)
			}
			if want := "ended-1 free-1 ended-2 free-2"; strings.Join(got, " ") != want {
				t.Fatalf("ClaimNext took %q; want %q", strings.Join(got, " "), want)
			}
		})
	}
}
