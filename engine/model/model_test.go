package model_test

import (
	"errors"
	"testing"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/model"
)

func mustEnqueue(t *testing.T, m *model.Model, j engine.NewJob) {
	t.Helper()
	if ok, err := m.Enqueue(j); !ok || err != nil {
		t.Fatalf("enqueue %+v: %v %v", j, ok, err)
	}
}

func mustClaim(t *testing.T, m *model.Model, id, owner string, now, ttl int64) engine.Lease {
	t.Helper()
	l, err := m.Claim(id, owner, now, ttl)
	if err != nil {
		t.Fatalf("claim %s by %s at %d: %v", id, owner, now, err)
	}
	return l
}

func reason(err error) error {
	var rej *engine.Rejection
	if errors.As(err, &rej) {
		return rej.Reason
	}
	return err
}

// A reclaim is refused before lease_until and granted at and after it.
func TestClaim_ReclaimFromLeaseUntilOn(t *testing.T) {
	for _, tc := range []struct {
		now   int64
		want  error
		token int64
	}{{999, engine.ErrHeld, 0}, {1000, nil, 2}, {1001, nil, 2}} {
		m := model.New()
		mustEnqueue(t, m, engine.NewJob{ID: "a"})
		mustClaim(t, m, "a", "A", 0, 1000)
		l, err := m.Claim("a", "B", tc.now, 1000)
		if reason(err) != tc.want || l.Token != tc.token {
			t.Errorf("claim at %d: token %d, %v; want %d, %v", tc.now, l.Token, err, tc.token, tc.want)
		}
	}
}

// lease_until = min(now+ttl, deadline), on claim and on renew.
func TestClaimAndRenew_LeaseCappedAtDeadline(t *testing.T) {
	for _, tc := range []struct{ ttl, until int64 }{{99, 99}, {100, 100}, {101, 100}, {1000, 100}} {
		m := model.New()
		mustEnqueue(t, m, engine.NewJob{ID: "a", Deadline: 100})
		l := mustClaim(t, m, "a", "A", 0, tc.ttl)
		if l.LeaseUntil != tc.until {
			t.Errorf("claim ttl %d: lease_until %d, want %d", tc.ttl, l.LeaseUntil, tc.until)
		}
		r, err := m.Renew(l, 10, tc.ttl)
		want := min(10+tc.ttl, 100)
		if err != nil || r.LeaseUntil != want {
			t.Errorf("renew ttl %d: %+v %v, want lease_until %d", tc.ttl, r, err, want)
		}
	}
}

// A claim quarantines a job whose attempts are used up (attempts >=
// max_attempts) or whose deadline has passed (now >= deadline), and says why.
func TestClaim_QuarantinesAtTheBudgetBoundary(t *testing.T) {
	for _, tc := range []struct {
		name     string
		job      engine.NewJob
		claims   int   // granted-and-ended claims before the one tested
		now      int64 // of the claim tested
		wantWhy  string
		wantErr  error
		wantStat engine.Status
	}{
		{"attempts below max", engine.NewJob{ID: "a", MaxAttempts: 2}, 1, 5000, "", nil, engine.StatusLeased},
		{"attempts at max", engine.NewJob{ID: "a", MaxAttempts: 2}, 2, 5000, engine.ReasonAttempts, engine.ErrQuarantined, engine.StatusQuarantined},
		{"before deadline", engine.NewJob{ID: "a", Deadline: 100}, 0, 99, "", nil, engine.StatusLeased},
		{"at deadline", engine.NewJob{ID: "a", Deadline: 100}, 0, 100, engine.ReasonDeadline, engine.ErrQuarantined, engine.StatusQuarantined},
		{"after deadline", engine.NewJob{ID: "a", Deadline: 100}, 0, 101, engine.ReasonDeadline, engine.ErrQuarantined, engine.StatusQuarantined},
		{"attempts are checked before the deadline", engine.NewJob{ID: "a", Deadline: 100, MaxAttempts: 1}, 1, 100, engine.ReasonAttempts, engine.ErrQuarantined, engine.StatusQuarantined},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := model.New()
			mustEnqueue(t, m, tc.job)
			for i := range tc.claims {
				mustClaim(t, m, "a", "W", int64(i)*10, 10)
			}
			_, err := m.Claim("a", "B", tc.now, 10)
			j, _ := m.Get("a")
			if reason(err) != tc.wantErr || j.Reason != tc.wantWhy || j.Status != tc.wantStat {
				t.Fatalf("got %v, row %+v; want %v, reason %q, status %s", err, j, tc.wantErr, tc.wantWhy, tc.wantStat)
			}
			var rej *engine.Rejection
			if errors.As(err, &rej) && rej.Current != *j {
				t.Fatalf("Rejection.Current %+v, want the row after the quarantine %+v", rej.Current, *j)
			}
		})
	}
}

// A held job is neither handed over nor quarantined, even with its budget used up.
func TestClaim_HeldJobIsNotQuarantined(t *testing.T) {
	m := model.New()
	mustEnqueue(t, m, engine.NewJob{ID: "a", MaxAttempts: 1, Deadline: 50})
	mustClaim(t, m, "a", "A", 0, 1000)
	if _, err := m.Claim("a", "B", 49, 10); reason(err) != engine.ErrHeld {
		t.Fatalf("claim of a held job: %v, want held", err)
	}
	if j, _ := m.Get("a"); j.Status != engine.StatusLeased || j.Token != 1 {
		t.Fatalf("row changed: %+v", j)
	}
}

// Refusals come in the documented order: not found, superseded, done,
// quarantined, expired.
func TestWrites_RejectionOrder(t *testing.T) {
	m := model.New()
	mustEnqueue(t, m, engine.NewJob{ID: "a"})
	a := mustClaim(t, m, "a", "A", 0, 100)
	b := mustClaim(t, m, "a", "B", 100, 100)

	missing := engine.Lease{JobID: "zz", Owner: "A", Token: 1}
	if err := m.Complete(missing, 0, "r"); reason(err) != engine.ErrNotFound {
		t.Fatalf("missing job: %v", err)
	}
	// A's token is superseded and ended: superseded comes first.
	if err := m.Complete(a, 300, "r"); reason(err) != engine.ErrSuperseded {
		t.Fatalf("stale and ended: %v, want superseded", err)
	}
	if _, err := m.Renew(b, 200, 10); reason(err) != engine.ErrExpired {
		t.Fatalf("renew at lease_until: %v, want expired", err)
	}
	if _, err := m.Renew(b, 199, 10); err != nil {
		t.Fatalf("renew before lease_until: %v", err)
	}
	if err := m.Complete(b, 208, "B's"); err != nil {
		t.Fatalf("complete: %v", err)
	}
	// Superseded comes before done: the stale token is named first.
	if err := m.Complete(a, 208, "A's"); reason(err) != engine.ErrSuperseded {
		t.Fatalf("stale complete of a done job: %v, want superseded", err)
	}
	// The holder who completed hears done.
	if err := m.Complete(b, 208, "again"); reason(err) != engine.ErrDone {
		t.Fatalf("second complete by the holder: %v, want done", err)
	}
	if j, _ := m.Get("a"); j.Result != "B's" {
		t.Fatalf("result %q overwritten", j.Result)
	}
}

// Release keeps the token, so the next claim gets a number never used.
func TestRelease_KeepsTheToken(t *testing.T) {
	m := model.New()
	mustEnqueue(t, m, engine.NewJob{ID: "a"})
	l := mustClaim(t, m, "a", "A", 0, 100)
	if err := m.Release(l); err != nil {
		t.Fatal(err)
	}
	if err := m.Release(l); reason(err) != engine.ErrSuperseded {
		t.Fatalf("second release: %v, want superseded", err)
	}
	j, _ := m.Get("a")
	if j.Token != 1 || j.Owner != "" || j.LeaseUntil != 0 || j.Status != engine.StatusPending {
		t.Fatalf("released row %+v", j)
	}
	if l2 := mustClaim(t, m, "a", "A", 1, 100); l2.Token != 2 {
		t.Fatalf("token after release %d, want 2", l2.Token)
	}
}

// ClaimNext takes the oldest claimable job and quarantines used-up ones on its way.
func TestClaimNext_OldestClaimableQuarantiningOnTheWay(t *testing.T) {
	m := model.New()
	mustEnqueue(t, m, engine.NewJob{ID: "held"})
	mustEnqueue(t, m, engine.NewJob{ID: "late", Deadline: 10})
	mustEnqueue(t, m, engine.NewJob{ID: "next"})
	mustEnqueue(t, m, engine.NewJob{ID: "last"})
	mustClaim(t, m, "held", "A", 0, 1000)
	l, err := m.ClaimNext("B", 10, 100)
	if err != nil || l.JobID != "next" {
		t.Fatalf("claim-next: %+v %v, want next", l, err)
	}
	if j, _ := m.Get("late"); j.Status != engine.StatusQuarantined || j.Reason != engine.ReasonDeadline {
		t.Fatalf("late: %+v", j)
	}
	mustClaim(t, m, "last", "C", 10, 100)
	if _, err := m.ClaimNext("B", 10, 100); err != engine.ErrEmpty {
		t.Fatalf("nothing claimable: %v, want ErrEmpty", err)
	}
}

// Enqueueing an existing id changes nothing; invalid arguments change nothing.
func TestEnqueueAndInvalid_ChangeNothing(t *testing.T) {
	m := model.New()
	mustEnqueue(t, m, engine.NewJob{ID: "a", Qty: 3})
	l := mustClaim(t, m, "a", "A", 0, 100)
	before := m.Jobs()
	if ok, err := m.Enqueue(engine.NewJob{ID: "a", Qty: 5}); ok || err != nil {
		t.Fatalf("re-enqueue: %v %v", ok, err)
	}
	for _, err := range []error{
		func() error { _, err := m.Claim("a", "B", 100, 0); return err }(),
		func() error { _, err := m.Claim("a", "", 100, 10); return err }(),
		func() error { _, err := m.Claim("a", "B", -1, 10); return err }(),
		func() error { _, err := m.Renew(l, 5, -1); return err }(),
		func() error { _, err := m.Enqueue(engine.NewJob{ID: "b", Qty: -1}); return err }(),
		func() error { _, err := m.ClaimNext("B", 100, 0); return err }(),
	} {
		if !errors.Is(err, engine.ErrInvalid) {
			t.Errorf("got %v, want ErrInvalid", err)
		}
	}
	after := m.Jobs()
	if len(after) != 1 || after[0] != before[0] {
		t.Fatalf("rows changed: %+v -> %+v", before, after)
	}
}

// The receiver applies a business id's quantity once.
func TestReceiver_ResendAddsNothing(t *testing.T) {
	r := model.NewReceiver()
	l := engine.Lease{JobID: "a", Owner: "A", Qty: 3, Token: 1}
	if ok, err := r.Deliver(l); !ok || err != nil {
		t.Fatalf("first delivery: %v %v", ok, err)
	}
	l.Owner, l.Token = "B", 2
	if ok, err := r.Deliver(l); ok || err != nil {
		t.Fatalf("resend: %v %v", ok, err)
	}
	if r.Total() != 3 {
		t.Fatalf("total %d, want 3", r.Total())
	}
}

// ClaimSeen grants by the lease's version, not its end: before lease_until
// when the lease is the one seen, never once it was renewed.
func TestClaimSeen_GrantsByTheVersionSeen(t *testing.T) {
	seen := engine.Lease{JobID: "a", Owner: "A", Token: 1, LeaseUntil: 1000}
	for _, tc := range []struct {
		name  string
		renew bool
		at    int64
		want  error
	}{
		{"seen, before lease_until", false, 500, nil},
		{"seen, after lease_until", false, 5000, nil},
		{"renewed since", true, 500, engine.ErrHeld},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := model.New()
			mustEnqueue(t, m, engine.NewJob{ID: "a"})
			l := mustClaim(t, m, "a", "A", 0, 1000)
			if tc.renew {
				if _, err := m.Renew(l, 400, 1000); err != nil {
					t.Fatal(err)
				}
			}
			got, err := m.ClaimSeen("a", "B", seen, tc.at, 1000)
			if reason(err) != tc.want {
				t.Fatalf("ClaimSeen at %d: %v; want %v", tc.at, err, tc.want)
			}
			if tc.want == nil && (got.Token != 2 || got.Owner != "B") {
				t.Fatalf("lease %+v; want B with token 2", got)
			}
		})
	}
}
