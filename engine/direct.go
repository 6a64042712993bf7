package engine

import (
	"context"
)

// The direct path. An operation whose answer is a grant — a claim that
// takes the job, a renew, complete or release by the current holder — is
// written by one UPDATE whose WHERE holds every rule the grant needs,
// RETURNING what the caller gets back. SQLite runs a single statement as a
// write transaction of its own, so the check and the write are atomic,
// whatever the caller's DSN says about transactions. When the UPDATE
// matches no row, nothing changed, and the operation takes the
// read-then-write path (a BEGIN IMMEDIATE transaction, or a guarded retry
// WithoutTransactions), which finds the rule that refuses it, or quarantines
// the job, and says so.
//
// The direct path is taken only when nobody watches the statements: with an
// observer (the simulator's SQL panel, the timeline traces) every operation
// reads the row first and then writes it, the shape the lab teaches and
// the traces show. Both paths decide alike (the model-based
// tests run the direct one, the traces the other). A mutant store always
// takes the read-then-write path, where each mutant breaks its rule.

// direct reports whether an operation may take the direct path.
func (s *Store) direct() bool { return s.observe == nil && !s.mutated() }

// leaseEndSQL is min(now+ttl, deadline) over the row's deadline, with
// now+ttl as the two parameters before it.
const leaseEndSQL = `CASE WHEN deadline IS NOT NULL AND deadline < ? THEN deadline ELSE ? END`

// directClaim grants job id to owner at now if it can be taken at once:
// not final, not held, budget left. ok is false when it cannot (nothing
// changed).
func (s *Store) directClaim(ctx context.Context, id, owner string, now, ttl int64) (Lease, bool, error) {
	end, fits := addTTL(now, ttl)
	if !fits {
		return Lease{}, false, nil
	}
	const query = `UPDATE jobs SET owner = ?, lease_until = ` + leaseEndSQL + `,
token = token + 1, attempts = attempts + 1, status = 'leased'
WHERE id = ? AND status IN ('pending', 'leased') AND (owner IS NULL OR lease_until <= ?)
AND (max_attempts = 0 OR attempts < max_attempts) AND (deadline IS NULL OR ? < deadline)
RETURNING qty, token, attempts, lease_until`
	l := Lease{JobID: id, Owner: owner}
	ok, err := s.returning(ctx, query, []any{owner, end, end, id, s.freedAt(now), now}, &l.Qty, &l.Token, &l.Attempt, &l.LeaseUntil)
	return l, ok, err
}

// directClaimNext grants the oldest claimable job to owner at now if that
// job can be taken at once; ok is false when it cannot (its budget is used
// up, or no job is claimable): nothing changed.
func (s *Store) directClaimNext(ctx context.Context, owner string, now, ttl int64) (Lease, bool, error) {
	end, fits := addTTL(now, ttl)
	if !fits {
		return Lease{}, false, nil
	}
	query := `UPDATE jobs SET owner = ?, lease_until = ` + leaseEndSQL + `,
token = token + 1, attempts = attempts + 1, status = 'leased'
WHERE seq = ` + nextSeqSQL(`lease_until <= ?`) + `
AND (max_attempts = 0 OR attempts < max_attempts) AND (deadline IS NULL OR ? < deadline)
RETURNING id, qty, token, attempts, lease_until`
	l := Lease{Owner: owner}
	ok, err := s.returning(ctx, query, []any{owner, end, end, s.freedAt(now), now}, &l.JobID, &l.Qty, &l.Token, &l.Attempt, &l.LeaseUntil)
	return l, ok, err
}

// directRenew extends l to min(now+ttl, deadline) if l is the row's
// current, valid lease.
func (s *Store) directRenew(ctx context.Context, l Lease, now, ttl int64) (Lease, bool, error) {
	end, fits := addTTL(now, ttl)
	if !fits {
		return Lease{}, false, nil
	}
	const query = `UPDATE jobs SET lease_until = ` + leaseEndSQL + `
WHERE id = ? AND owner = ? AND token = ? AND status = 'leased' AND ? < lease_until AND (deadline IS NULL OR ? < deadline)
RETURNING qty, attempts, lease_until`
	out := Lease{JobID: l.JobID, Owner: l.Owner, Token: l.Token}
	ok, err := s.returning(ctx, query, []any{end, end, l.JobID, l.Owner, l.Token, now, now}, &out.Qty, &out.Attempt, &out.LeaseUntil)
	return out, ok, err
}

// directComplete marks the job done if l is the row's current, valid lease.
func (s *Store) directComplete(ctx context.Context, l Lease, now int64, result string) (bool, error) {
	const query = `UPDATE jobs SET status = 'done', result = ?
WHERE id = ? AND owner = ? AND token = ? AND status = 'leased' AND ? < lease_until AND (deadline IS NULL OR ? < deadline)`
	return s.affected(ctx, query, result, l.JobID, l.Owner, l.Token, now, now)
}

// directRelease gives l back if it is the row's current lease.
func (s *Store) directRelease(ctx context.Context, l Lease) (bool, error) {
	const query = `UPDATE jobs SET owner = NULL, lease_until = 0, status = 'pending'
WHERE id = ? AND owner = ? AND token = ? AND status = 'leased'`
	return s.affected(ctx, query, l.JobID, l.Owner, l.Token)
}

// returning runs an UPDATE ... RETURNING that changes at most one row and
// scans it into dst; ok is false when it changed none.
func (s *Store) returning(ctx context.Context, query string, args []any, dst ...any) (ok bool, err error) {
	err = s.on(ctx, s.db, func(q querier) error {
		ok, err = s.queryRow(ctx, q, query, args, dst...)
		return err
	})
	return ok, err
}

// affected runs an UPDATE that changes at most one row; ok is true when it
// changed one.
func (s *Store) affected(ctx context.Context, query string, args ...any) (bool, error) {
	var n int64
	err := s.on(ctx, s.db, func(q querier) (err error) {
		n, err = s.exec(ctx, q, "", "", query, args...)
		return err
	})
	return n == 1, err
}

// addTTL is now+ttl and whether it fits an int64 (the read-then-write path
// caps it otherwise).
func addTTL(now, ttl int64) (int64, bool) {
	end := now + ttl
	return end, end >= now
}
