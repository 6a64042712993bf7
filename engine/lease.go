package engine

import (
	"context"

	"github.com/leaselab/leaselab/engine/internal/mutant"
	"github.com/leaselab/leaselab/engine/limits"
)

func checkLease(l Lease) error {
	if err := checkName("job id", l.JobID); err != nil {
		return err
	}
	if err := checkName("owner", l.Owner); err != nil {
		return err
	}
	if l.Token < 0 {
		return invalid("token %d < 0", l.Token)
	}
	return nil
}

// checkHolder applies the rules every write by a lease holder shares, in the
// documented order: not found; superseded (owner or token differs from the
// row, whatever became of the job since: a stale token is named as such);
// done; quarantined; expired (now >= lease_until, or now >= deadline).
// inclusive makes validity now <= lease_until (a mutant only).
func (s *Store) checkHolder(op Op, cur *Job, l Lease, now int64, checkDone, inclusive bool) error {
	refuse := func(reason error, j Job) error {
		return &Rejection{Op: string(op), Reason: reason, Presented: l, Current: j, Now: now}
	}
	switch {
	case cur == nil:
		return refuse(ErrNotFound, Job{ID: l.JobID})
	case !s.holds(cur, l):
		return refuse(ErrSuperseded, *cur)
	case checkDone && cur.Status == StatusDone:
		return refuse(ErrDone, *cur)
	case cur.Status == StatusQuarantined:
		return refuse(ErrQuarantined, *cur)
	}
	if op == OpRelease {
		return nil
	}
	ended := now >= cur.LeaseUntil
	if inclusive {
		ended = now > cur.LeaseUntil
	}
	if ended || (cur.Deadline > 0 && now >= cur.Deadline) {
		return refuse(ErrExpired, *cur)
	}
	return nil
}

// holds reports whether l is the row's current generation: its owner and
// its token. The id-only mutant compares neither, as a queue that completes
// by job id alone does; owner-not-compared compares the token only.
func (s *Store) holds(cur *Job, l Lease) bool {
	switch {
	case s.mut(mutant.IDOnly):
		return true
	case cur.Token != l.Token:
		return false
	}
	return cur.Owner == l.Owner || s.mut(mutant.OwnerNotCompared)
}

// Renew extends the presented lease to min(now+ttl, deadline). It succeeds
// only if owner and token both match the current row, the job is neither
// done nor quarantined, and the lease is still valid (now < lease_until,
// now < deadline): an ended lease is never revived, since the job may
// already be someone else's. The token is unchanged.
func (s *Store) Renew(ctx context.Context, l Lease, now, ttl int64) (Lease, error) {
	if err := checkLease(l); err != nil {
		return Lease{}, err
	}
	if err := s.open(); err != nil {
		return Lease{}, err
	}
	if err := checkNow(now); err != nil {
		return Lease{}, err
	}
	if err := checkTTL(ttl); err != nil {
		return Lease{}, err
	}
	if s.direct() {
		if out, ok, err := s.directRenew(ctx, l, now, ttl); ok || err != nil {
			return out, err
		}
	}
	var out Lease
	err := s.atomic(ctx, s.db, func(q querier) error {
		cur, err := s.readJob(ctx, q, l.JobID)
		if err != nil {
			return err
		}
		if err := s.checkHolder(OpRenew, cur, l, now, true, s.mut(mutant.RenewBoundary)); err != nil {
			return err
		}
		until := s.leaseEnd(cur, now, ttl)
		if err := s.writeGuarded(ctx, q, `lease_until = ?`, []any{until}, cur); err != nil {
			return err
		}
		out = Lease{JobID: cur.ID, Owner: cur.Owner, Qty: cur.Qty, Token: cur.Token,
			Attempt: cur.Attempts, LeaseUntil: until}
		return nil
	})
	return out, err
}

// Complete marks the job done with result. It succeeds
// only under the same rule as Renew (owner and token match, not done or
// quarantined, now < lease_until and now < deadline); a refused complete
// leaves the stored result as it was. Done is final. A result longer than
// limits.Default.ResultBytes is ErrInvalid.
func (s *Store) Complete(ctx context.Context, l Lease, now int64, result string) error {
	if err := checkLease(l); err != nil {
		return err
	}
	if err := s.open(); err != nil {
		return err
	}
	if err := checkNow(now); err != nil {
		return err
	}
	if n := len(result); n > limits.Default.ResultBytes {
		return invalid("result of %d bytes over the limit %s", n, limits.Default.Row("result_bytes"))
	}
	if s.direct() {
		if ok, err := s.directComplete(ctx, l, now, result); ok || err != nil {
			return err
		}
	}
	return s.atomic(ctx, s.db, func(q querier) error {
		cur, err := s.readJob(ctx, q, l.JobID)
		if err != nil {
			return err
		}
		checkDone := !s.mut(mutant.CompleteDone)
		if err := s.checkHolder(OpComplete, cur, l, now, checkDone, s.mut(mutant.ValidityInclusive)); err != nil {
			return err
		}
		return s.writeGuarded(ctx, q, `status = 'done', result = ?`, []any{result}, cur)
	})
}

// Release gives the lease back: it clears the owner, sets lease_until = 0
// and status pending, and keeps the token, so the next claim gets a token
// number never used before. It succeeds only if owner and token match and
// the job is neither done nor quarantined; it takes no time, so a holder
// may release a lease that has ended as long as nobody reclaimed the job.
func (s *Store) Release(ctx context.Context, l Lease) error {
	if err := s.open(); err != nil {
		return err
	}
	if err := checkLease(l); err != nil {
		return err
	}
	if s.direct() {
		if ok, err := s.directRelease(ctx, l); ok || err != nil {
			return err
		}
	}
	return s.atomic(ctx, s.db, func(q querier) error {
		cur, err := s.readJob(ctx, q, l.JobID)
		if err != nil {
			return err
		}
		if err := s.checkHolder(OpRelease, cur, l, 0, true, false); err != nil {
			return err
		}
		set := `owner = NULL, lease_until = 0, status = 'pending'`
		if s.mut(mutant.ReleaseResetsToken) {
			set += `, token = 0`
		}
		return s.writeGuarded(ctx, q, set, nil, cur)
	})
}
