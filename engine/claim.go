package engine

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/leaselab/leaselab/engine/internal/mutant"
)

func checkClaimArgs(id, owner string, now, ttl int64) error {
	if err := checkName("job id", id); err != nil {
		return err
	}
	return checkClaimantArgs(owner, now, ttl)
}

// checkClaimantArgs checks what every claim takes, with or without an id.
func checkClaimantArgs(owner string, now, ttl int64) error {
	if err := checkName("owner", owner); err != nil {
		return err
	}
	if err := checkNow(now); err != nil {
		return err
	}
	return checkTTL(ttl)
}

// Claim takes job id for owner at now for ttl milliseconds. It succeeds iff
// the job exists, is neither done nor quarantined, is not held by a valid
// lease (unowned, or lease_until <= now: the instant a lease ends the job
// can be reclaimed; lease_until + d <= now with WithLockDelay(d)) and has
// budget left. It then increments attempts and
// token by exactly one, stores owner and sets lease_until = min(now+ttl,
// deadline).
//
// A job that could be taken but whose budget is used up (max_attempts > 0
// and attempts >= max_attempts; or now >= deadline) is quarantined instead,
// and the quarantine is committed although the claim is refused with
// ErrQuarantined. A held job is neither handed over nor quarantined.
//
// The read and the update are one BEGIN IMMEDIATE transaction.
func (s *Store) Claim(ctx context.Context, id, owner string, now, ttl int64) (Lease, error) {
	if err := s.open(); err != nil {
		return Lease{}, err
	}
	if err := checkClaimArgs(id, owner, now, ttl); err != nil {
		return Lease{}, err
	}
	if s.direct() {
		if l, ok, err := s.directClaim(ctx, id, owner, now, ttl); ok || err != nil {
			return l, err
		}
	}
	return s.claimOn(ctx, s.db, id, owner, now, ttl)
}

func (s *Store) claimOn(ctx context.Context, b beginner, id, owner string, now, ttl int64) (Lease, error) {
	var l Lease
	err := s.atomic(ctx, b, func(q querier) error {
		cur, err := s.readJob(ctx, q, id)
		if err != nil {
			return err
		}
		l, err = s.claimRow(ctx, q, cur, id, owner, now, ttl)
		return err
	})
	return l, err
}

// ClaimSeen takes job id for owner at now for ttl milliseconds if the lease
// on it is still the one the caller saw: the same owner, token and
// lease_until. It does not judge whether that lease has ended — the caller
// has, on its own stopwatch, as client-go's leader election and the
// DynamoDB lock client do — so it is a compare-and-swap on the lease's
// version: a renew, a release or a newer claim since refuses it held, with
// the row as it now stands. Otherwise it is Claim: it refuses a missing,
// done or quarantined job, quarantines one whose budget is used up, and
// grants the next token with lease_until = min(now+ttl, deadline). A job
// with no owner is free whatever seen says, and Claim's rules judge it.
func (s *Store) ClaimSeen(ctx context.Context, id, owner string, seen Lease, now, ttl int64) (Lease, error) {
	if err := s.open(); err != nil {
		return Lease{}, err
	}
	if err := checkClaimArgs(id, owner, now, ttl); err != nil {
		return Lease{}, err
	}
	var l Lease
	err := s.atomic(ctx, s.db, func(q querier) error {
		cur, err := s.readJob(ctx, q, id)
		if err != nil {
			return err
		}
		l, err = s.claimRowSeen(ctx, q, cur, id, owner, now, ttl, &seen)
		return err
	})
	return l, err
}

// claimRow decides a claim of cur (nil: no such job) and writes it.
func (s *Store) claimRow(ctx context.Context, q querier, cur *Job, id, owner string, now, ttl int64) (Lease, error) {
	return s.claimRowSeen(ctx, q, cur, id, owner, now, ttl, nil)
}

// claimRowSeen is claimRow judged as ClaimSeen when seen is not nil: a
// lease stands on the job when it differs from seen, whatever now is.
func (s *Store) claimRowSeen(ctx context.Context, q querier, cur *Job, id, owner string, now, ttl int64, seen *Lease) (Lease, error) {
	refuse := func(reason error, j Job) (Lease, error) {
		return Lease{}, &Rejection{Op: string(OpClaim), Reason: reason,
			Presented: Lease{JobID: id, Owner: owner}, Current: j, Now: now}
	}
	switch {
	case cur == nil:
		return refuse(ErrNotFound, Job{ID: id})
	case cur.Status == StatusDone:
		return refuse(ErrDone, *cur)
	case cur.Status == StatusQuarantined:
		return refuse(ErrQuarantined, *cur)
	case seen == nil && s.held(cur, now),
		seen != nil && cur.Owner != "" && (cur.Owner != seen.Owner || cur.Token != seen.Token || cur.LeaseUntil != seen.LeaseUntil):
		return refuse(ErrHeld, *cur)
	}
	if reason := s.budgetUsedUp(cur, now); reason != "" {
		if err := s.writeGuarded(ctx, q, `status = 'quarantined', reason = ?`, []any{reason}, cur); err != nil {
			return Lease{}, err
		}
		j := *cur
		j.Status, j.Reason = StatusQuarantined, reason
		return refuse(ErrQuarantined, j)
	}
	until := s.leaseEnd(cur, now, ttl)
	if err := s.writeGuarded(ctx, q,
		`owner = ?, lease_until = ?, token = token + 1, attempts = attempts + 1, status = 'leased'`,
		[]any{owner, until}, cur); err != nil {
		return Lease{}, err
	}
	return Lease{JobID: cur.ID, Owner: owner, Qty: cur.Qty,
		Token: cur.Token + 1, Attempt: cur.Attempts + 1, LeaseUntil: until}, nil
}

// held: a valid lease stands on the job at now (now < lease_until), or
// one that ran out is still in its lock-delay (now < lease_until + delay).
func (s *Store) held(j *Job, now int64) bool {
	if s.mut(mutant.ClaimBoundary) {
		return j.Owner != "" && s.freedAt(now) <= j.LeaseUntil
	}
	return j.heldAt(s.freedAt(now))
}

// freedAt is the latest lease_until a lease may have for its job to be
// claimable at now: now less the lock-delay. Every claim compares
// lease_until with it, in Go and in SQL (lease_until <= freedAt).
func (s *Store) freedAt(now int64) int64 { return now - s.lockDelay }

// budgetUsedUp returns the quarantine reason for a job that may not be
// claimed again, or "".
func (s *Store) budgetUsedUp(j *Job, now int64) string {
	if j.MaxAttempts > 0 {
		used := j.Attempts >= j.MaxAttempts
		if s.mut(mutant.AttemptsOffByOne) {
			used = j.Attempts > j.MaxAttempts
		}
		if used {
			return ReasonAttempts
		}
	}
	if j.Deadline > 0 && now >= j.Deadline {
		return ReasonDeadline
	}
	return ""
}

// leaseEnd is min(now+ttl, deadline).
func (s *Store) leaseEnd(j *Job, now, ttl int64) int64 {
	until := now + ttl
	if until < now { // overflow
		until = 1<<63 - 1
	}
	if j.Deadline > 0 && until > j.Deadline && !s.mut(mutant.NoDeadlineCap) {
		until = j.Deadline
	}
	return until
}

// ClaimNext claims, for owner at now, the claimable job that was enqueued
// first (insertion order). On its way it quarantines every older job that
// could be taken but whose budget is used up; those quarantines are
// committed with the claim. Jobs held by a valid lease are skipped. It
// returns ErrEmpty when no job can be claimed.
func (s *Store) ClaimNext(ctx context.Context, owner string, now, ttl int64) (Lease, error) {
	if err := s.open(); err != nil {
		return Lease{}, err
	}
	if err := checkClaimantArgs(owner, now, ttl); err != nil {
		return Lease{}, err
	}
	if s.direct() {
		if l, ok, err := s.directClaimNext(ctx, owner, now, ttl); ok || err != nil {
			return l, err
		}
	}
	var l Lease
	err := s.atomic(ctx, s.db, func(q querier) error {
		for {
			cur, err := s.nextCandidate(ctx, q, now)
			if err != nil {
				return err
			}
			if cur == nil {
				return ErrEmpty
			}
			l, err = s.claimRow(ctx, q, cur, cur.ID, owner, now, ttl)
			if errors.Is(err, ErrQuarantined) {
				continue // quarantined on the way; look further
			}
			return err
		}
	})
	if errors.Is(err, ErrEmpty) {
		return Lease{}, ErrEmpty
	}
	return l, err
}

// nextCandidate reads the oldest job that is neither final nor held at now
// (nextSeqSQL).
func (s *Store) nextCandidate(ctx context.Context, q querier, now int64) (*Job, error) {
	ended := `lease_until <= ?`
	if s.mut(mutant.ClaimBoundary) {
		ended = `lease_until < ?`
	}
	return s.readOne(ctx, q, `SELECT `+jobColumns+` FROM jobs WHERE seq = `+nextSeqSQL(ended), s.freedAt(now))
}

// ClaimMany runs one claim of job id per owner, all at once, each in its own
// goroutine on its own connection (a pool limited to fewer connections runs
// as many at once as it allows; keep SetMaxIdleConns at least len(owners) to
// reuse them), and returns the tokens in input order: 0
// for every owner who did not get the lease, whatever the reason. Of any
// number of owners at most one wins. An error comes only from the database
// (or ErrInvalid for bad arguments, before anything runs).
func (s *Store) ClaimMany(ctx context.Context, id string, owners []string, now, ttl int64) ([]int64, error) {
	outcomes, err := s.ClaimManyOutcomes(ctx, id, owners, now, ttl)
	if err != nil {
		return nil, err
	}
	tokens := make([]int64, len(outcomes))
	for i, o := range outcomes {
		tokens[i] = o.Lease.Token
	}
	return tokens, nil
}

// ClaimOutcome is one owner's answer in a concurrent claim: the lease it
// won, or the rule that refused it.
type ClaimOutcome struct {
	Lease   Lease      // the lease won; the zero Lease when refused
	Refusal *Rejection // why the claim was refused; nil for the winner
}

// ClaimManyOutcomes is ClaimMany with every owner's whole answer, in input
// order: the winner's lease, and for each of the others the Rejection a
// Claim at that moment gets (held by the winner, done, quarantined, not
// found). At most one outcome has a nil Refusal. An error comes only from
// the database (or ErrInvalid for bad arguments, before anything runs), or
// is ErrPanicked: a contender's goroutine panicked (in the driver, say),
// and the call answers that instead of the process dying.
func (s *Store) ClaimManyOutcomes(ctx context.Context, id string, owners []string, now, ttl int64) ([]ClaimOutcome, error) {
	if err := s.open(); err != nil {
		return nil, err
	}
	for _, o := range owners {
		if err := checkClaimArgs(id, o, now, ttl); err != nil {
			return nil, err
		}
	}
	if s.mut(mutant.ClaimManyFirstOnly) && len(owners) > 0 {
		l, err := s.Claim(ctx, id, owners[0], now, ttl)
		var rej *Rejection
		if errors.As(err, &rej) {
			return []ClaimOutcome{{Refusal: rej}}, nil
		}
		return []ClaimOutcome{{Lease: l}}, err
	}
	outcomes := make([]ClaimOutcome, len(owners))
	errs := make([]error, len(owners))
	// The claims start together once every goroutine holds a connection —
	// or as many as the pool allows: a pool smaller than owners would
	// otherwise never fill the barrier.
	together := len(owners)
	if m := s.db.Stats().MaxOpenConnections; m > 0 && m < together {
		together = m
	}
	var (
		wg      sync.WaitGroup
		ready   sync.WaitGroup
		arrived atomic.Int64
		start   = make(chan struct{})
	)
	ready.Add(together)
	for i, owner := range owners {
		wg.Add(1)
		go func() {
			defer wg.Done()
			waited := false // this goroutine has counted itself at the barrier
			arrive := func() {
				if !waited && arrived.Add(1) <= int64(together) {
					ready.Done()
				}
				waited = true
			}
			defer func() {
				if p := recover(); p != nil {
					errs[i] = fmt.Errorf("%w: the claim of %q by %q: %v", ErrPanicked, id, owner, p)
					arrive() // a panic before the barrier must not leave the others waiting
				}
			}()
			conn, err := s.db.Conn(ctx)
			arrive()
			if err != nil {
				errs[i] = err
				return
			}
			defer conn.Close()
			<-start
			l, err := s.claimOn(ctx, conn, id, owner, now, ttl)
			var rej *Rejection
			switch {
			case err == nil:
				outcomes[i].Lease = l
			case errors.As(err, &rej):
				outcomes[i].Refusal = rej
			default:
				errs[i] = err
			}
		}()
	}
	ready.Wait() // every goroutine holds its connection: release them together
	close(start)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return outcomes, nil
}

var _ beginner = (*sql.Conn)(nil)
