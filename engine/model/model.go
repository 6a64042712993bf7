// Package model is a reference model of the lease contract: the same
// operations as engine.Store, on plain Go values, written from the contract
// and not from the engine's code. It takes and returns the engine's types
// and sentinels so that a test can compare the two result by result and row
// by row; it decides everything itself.
//
// The model has no concurrency and no database: an operation is a function
// of the jobs and its arguments. Where the contract leaves a detail open the
// model states its choice next to the rule.
package model

import (
	"errors"
	"fmt"
	"slices"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/internal/mutant"
)

// Model is a queue of jobs in insertion order. The zero value is not usable;
// call New.
type Model struct {
	jobs      []engine.Job // in insertion order; a queue of a lesson holds a few
	mutant    string       // the mutant whose rule it breaks; "" for the contract itself (mutants.go)
	lockDelay int64        // SetLockDelay
}

// New returns an empty model.
func New() *Model { return &Model{} }

// Clone returns an independent copy of m, for a caller that branches a
// history and plays each branch from the same past.
func (m *Model) Clone() *Model {
	return &Model{jobs: slices.Clone(m.jobs), mutant: m.mutant, lockDelay: m.lockDelay}
}

// SetLockDelay is engine.WithLockDelay: a job whose lease ran out (its
// holder neither released nor completed it) is held for d ms more, so a
// claim at now is refused held while now < lease_until + d. A negative d is
// ErrInvalid.
func (m *Model) SetLockDelay(d int64) error {
	if d < 0 || d > engine.MaxTTL {
		return invalid("lock delay %d ms: it is 0 (none) to %d ms", d, int64(engine.MaxTTL))
	}
	m.lockDelay = d
	return nil
}

// find returns the job called id, or nil; the pointer is good until the
// next Enqueue.
func (m *Model) find(id string) *engine.Job {
	for i := range m.jobs {
		if m.jobs[i].ID == id {
			return &m.jobs[i]
		}
	}
	return nil
}

// Reopen is the store opened again over the same jobs: the contract keeps every
// row and token (a schema-reset model drops them all).
func (m *Model) Reopen() {
	if m.mut(mutant.SchemaReset) {
		m.jobs = nil
	}
}

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{engine.ErrInvalid}, args...)...)
}

// Enqueue adds a pending job and returns true, or returns false and changes
// nothing when the id exists. Qty 0 means 1, Deadline 0 none, MaxAttempts 0
// unlimited; negative values and an empty id are invalid.
func (m *Model) Enqueue(j engine.NewJob) (bool, error) {
	if j.ID == "" || j.Qty < 0 || j.Deadline < 0 || j.MaxAttempts < 0 {
		return false, invalid("enqueue %+v", j)
	}
	if m.find(j.ID) != nil {
		if !m.mut(mutant.EnqueueReplace) {
			return false, nil
		}
		m.remove(j.ID) // INSERT OR REPLACE: the row goes, a new one comes at the end
	}
	qty := j.Qty
	if qty == 0 {
		qty = 1
	}
	m.jobs = append(m.jobs, engine.Job{ID: j.ID, Qty: qty, Deadline: j.Deadline,
		MaxAttempts: j.MaxAttempts, Status: engine.StatusPending})
	return true, nil
}

// Get returns a copy of job id, or nil, nil when there is none.
func (m *Model) Get(id string) (*engine.Job, error) {
	if id == "" {
		return nil, invalid("empty job id")
	}
	j := m.find(id)
	if j == nil {
		if m.mut(mutant.StateEmptyRow) {
			return &engine.Job{}, nil
		}
		return nil, nil
	}
	c := *j
	return &c, nil
}

// Jobs returns a copy of every job in insertion order.
func (m *Model) Jobs() []engine.Job {
	out := make([]engine.Job, len(m.jobs))
	copy(out, m.jobs)
	return out
}

// Claim takes job id for owner at now for ttl. The rules, in order: no such
// job (ErrNotFound); done (ErrDone); quarantined (ErrQuarantined); a valid
// lease stands, whoever holds it (ErrHeld); the budget is used up — attempts
// first, then the deadline — which quarantines the job and refuses with
// ErrQuarantined. Otherwise attempts and token go up by one and the lease
// runs to min(now+ttl, deadline).
//
// A refused claim's Current is the row after the refusal (so a quarantining
// claim shows the reason); for a missing job it is a row holding only the
// id.
func (m *Model) Claim(id, owner string, now, ttl int64) (engine.Lease, error) {
	if err := claimArgs(owner, now, ttl); err != nil {
		return engine.Lease{}, err
	}
	if id == "" {
		return engine.Lease{}, invalid("empty job id")
	}
	j := m.find(id)
	if j == nil {
		return engine.Lease{}, claimRefused(engine.ErrNotFound, id, owner, engine.Job{ID: id}, now)
	}
	return m.claimJob(j, owner, now, ttl)
}

// ClaimNext claims the claimable job enqueued first. On its way it
// quarantines every older job whose budget is used up (those quarantines
// stand whatever happens next) and skips the final and the held ones. With
// nothing left to claim it returns ErrEmpty (not a Rejection).
func (m *Model) ClaimNext(owner string, now, ttl int64) (engine.Lease, error) {
	if err := claimArgs(owner, now, ttl); err != nil {
		return engine.Lease{}, err
	}
	for i := range m.jobs {
		j := &m.jobs[i]
		if final(j) || m.held(j, now) {
			continue
		}
		l, err := m.claimJob(j, owner, now, ttl)
		if err != nil {
			continue // quarantined on the way
		}
		return l, nil
	}
	return engine.Lease{}, engine.ErrEmpty
}

func claimArgs(owner string, now, ttl int64) error {
	switch {
	case owner == "":
		return invalid("empty owner")
	}
	if err := nowArg(now); err != nil {
		return err
	}
	return ttlArg(ttl)
}

// nowArg refuses a now below 0, and one in the band of Unix seconds
// (engine.SecondsFrom, engine.SecondsTo), microseconds
// [engine.MicrosFrom, engine.NanosFrom) or nanoseconds (from
// engine.NanosFrom): the contract's time is ms.
func nowArg(now int64) error {
	const ms = "leaselab's time is milliseconds"
	switch {
	case now < 0:
		return invalid("now %d < 0", now)
	case now > engine.SecondsFrom && now < engine.SecondsTo:
		return invalid("now %d looks like Unix seconds: %s", now, ms)
	case now >= engine.NanosFrom:
		return invalid("now %d looks like Unix nanoseconds: %s", now, ms)
	case now >= engine.MicrosFrom:
		return invalid("now %d looks like Unix microseconds: %s", now, ms)
	}
	return nil
}

// ttlArg refuses a ttl that is not in (0, engine.MaxTTL]; one over it looks
// like a time.Duration's nanoseconds.
func ttlArg(ttl int64) error {
	switch {
	case ttl <= 0:
		return invalid("ttl %d <= 0", ttl)
	case ttl > engine.MaxTTL:
		return invalid("ttl %d looks like nanoseconds (a time.Duration): leaselab's time is milliseconds", ttl)
	}
	return nil
}

// ClaimSeen is engine.Store.ClaimSeen: Claim judged by the lease's version
// instead of its end. A lease stands on the job when its owner, token or
// lease_until differs from seen's, whatever now is; a job with no owner is
// free.
func (m *Model) ClaimSeen(id, owner string, seen engine.Lease, now, ttl int64) (engine.Lease, error) {
	if err := claimArgs(owner, now, ttl); err != nil {
		return engine.Lease{}, err
	}
	if id == "" {
		return engine.Lease{}, invalid("empty job id")
	}
	j := m.find(id)
	if j == nil {
		return engine.Lease{}, claimRefused(engine.ErrNotFound, id, owner, engine.Job{ID: id}, now)
	}
	return m.claimJobSeen(j, owner, now, ttl, &seen)
}

func (m *Model) claimJob(j *engine.Job, owner string, now, ttl int64) (engine.Lease, error) {
	return m.claimJobSeen(j, owner, now, ttl, nil)
}

// claimJobSeen is claimJob judged as ClaimSeen when seen is not nil.
func (m *Model) claimJobSeen(j *engine.Job, owner string, now, ttl int64, seen *engine.Lease) (engine.Lease, error) {
	changed := seen != nil && j.Owner != "" && (j.Owner != seen.Owner || j.Token != seen.Token || j.LeaseUntil != seen.LeaseUntil)
	switch {
	case j.Status == engine.StatusDone:
		return engine.Lease{}, claimRefused(engine.ErrDone, j.ID, owner, *j, now)
	case j.Status == engine.StatusQuarantined:
		return engine.Lease{}, claimRefused(engine.ErrQuarantined, j.ID, owner, *j, now)
	case seen == nil && m.held(j, now), changed:
		return engine.Lease{}, claimRefused(engine.ErrHeld, j.ID, owner, *j, now)
	}
	if m.attemptsUsedUp(j) {
		j.Status, j.Reason = engine.StatusQuarantined, engine.ReasonAttempts
		return engine.Lease{}, claimRefused(engine.ErrQuarantined, j.ID, owner, *j, now)
	}
	if j.Deadline > 0 && now >= j.Deadline {
		j.Status, j.Reason = engine.StatusQuarantined, engine.ReasonDeadline
		return engine.Lease{}, claimRefused(engine.ErrQuarantined, j.ID, owner, *j, now)
	}
	j.Attempts++
	j.Token++
	j.Owner = owner
	j.LeaseUntil = m.leaseEnd(j, now, ttl)
	j.Status = engine.StatusLeased
	return leaseOf(j), nil
}

func claimRefused(reason error, id, owner string, cur engine.Job, now int64) error {
	return &engine.Rejection{Op: string(engine.OpClaim), Reason: reason,
		Presented: engine.Lease{JobID: id, Owner: owner}, Current: cur, Now: now}
}

// Renew extends the presented lease to min(now+ttl, deadline). The rules, in
// order: ErrNotFound, ErrSuperseded (owner or token is not the row's,
// whatever became of the job since: the stale token is named first),
// ErrDone, ErrQuarantined, ErrExpired (now >= lease_until or now >=
// deadline).
func (m *Model) Renew(l engine.Lease, now, ttl int64) (engine.Lease, error) {
	if err := leaseArgs(l); err != nil {
		return engine.Lease{}, err
	}
	if err := nowArg(now); err != nil {
		return engine.Lease{}, err
	}
	if err := ttlArg(ttl); err != nil {
		return engine.Lease{}, err
	}
	j, err := m.holder(engine.OpRenew, l, now, true)
	if err != nil {
		return engine.Lease{}, err
	}
	j.LeaseUntil = m.leaseEnd(j, now, ttl)
	return leaseOf(j), nil
}

// Complete marks the job done with result under the same rules as Renew.
func (m *Model) Complete(l engine.Lease, now int64, result string) error {
	if err := leaseArgs(l); err != nil {
		return err
	}
	if err := nowArg(now); err != nil {
		return err
	}
	j, err := m.holder(engine.OpComplete, l, now, true)
	if err != nil {
		return err
	}
	j.Status, j.Result = engine.StatusDone, result
	return nil
}

// Release gives the lease back: owner cleared, lease_until 0, status
// pending, token kept. Its rules are Renew's without the time one (release
// takes no time; its Rejection's Now is 0).
func (m *Model) Release(l engine.Lease) error {
	if err := leaseArgs(l); err != nil {
		return err
	}
	j, err := m.holder(engine.OpRelease, l, 0, false)
	if err != nil {
		return err
	}
	j.Owner, j.LeaseUntil, j.Status = "", 0, engine.StatusPending
	if m.mut(mutant.ReleaseResetsToken) {
		j.Token = 0
	}
	return nil
}

// leaseArgs: a presented lease needs a job id, an owner and a token that
// is not negative (no claim ever hands one out).
func leaseArgs(l engine.Lease) error {
	switch {
	case l.JobID == "":
		return invalid("empty job id")
	case l.Owner == "":
		return invalid("empty owner")
	case l.Token < 0:
		return invalid("token %d < 0", l.Token)
	}
	return nil
}

// holder applies the rules of a write by the lease holder and returns the
// job it may change.
func (m *Model) holder(op engine.Op, l engine.Lease, now int64, timed bool) (*engine.Job, error) {
	refuse := func(reason error, cur engine.Job) error {
		return &engine.Rejection{Op: string(op), Reason: reason, Presented: l, Current: cur, Now: now}
	}
	j := m.find(l.JobID)
	switch {
	case j == nil:
		return nil, refuse(engine.ErrNotFound, engine.Job{ID: l.JobID})
	case !m.presents(j, l):
		return nil, refuse(engine.ErrSuperseded, *j)
	case j.Status == engine.StatusDone && !(op == engine.OpComplete && m.mut(mutant.CompleteDone)):
		return nil, refuse(engine.ErrDone, *j)
	case j.Status == engine.StatusQuarantined:
		return nil, refuse(engine.ErrQuarantined, *j)
	case timed && (m.ended(op, j, now) || (j.Deadline > 0 && now >= j.Deadline)):
		return nil, refuse(engine.ErrExpired, *j)
	}
	return j, nil
}

// presents: l is j's current generation, its owner and its token.
func (m *Model) presents(j *engine.Job, l engine.Lease) bool {
	switch {
	case m.mut(mutant.IDOnly):
		return true
	case m.mut(mutant.OwnerNotCompared):
		return j.Token == l.Token
	}
	return j.Owner == l.Owner && j.Token == l.Token
}

// ended: j's lease has ended at now, for a renew or complete (now >=
// lease_until).
func (m *Model) ended(op engine.Op, j *engine.Job, now int64) bool {
	if (op == engine.OpRenew && m.mut(mutant.RenewBoundary)) ||
		(op == engine.OpComplete && m.mut(mutant.ValidityInclusive)) {
		return now > j.LeaseUntil
	}
	return now >= j.LeaseUntil
}

// held: a valid lease stands on j at now (now < lease_until), or one that
// ran out is in its lock-delay (now < lease_until + delay: the model's
// choice is to read the delay as moving now back, so the boundary mutant
// moves with it).
func (m *Model) held(j *engine.Job, now int64) bool {
	now -= m.lockDelay
	if m.mut(mutant.ClaimBoundary) {
		return j.Owner != "" && now <= j.LeaseUntil
	}
	return j.Owner != "" && now < j.LeaseUntil
}

// attemptsUsedUp: max_attempts > 0 and attempts >= max_attempts.
func (m *Model) attemptsUsedUp(j *engine.Job) bool {
	if j.MaxAttempts == 0 {
		return false
	}
	if m.mut(mutant.AttemptsOffByOne) {
		return j.Attempts > j.MaxAttempts
	}
	return j.Attempts >= j.MaxAttempts
}

// remove takes job id out of the model.
func (m *Model) remove(id string) {
	m.jobs = slices.DeleteFunc(m.jobs, func(j engine.Job) bool { return j.ID == id })
}

func final(j *engine.Job) bool {
	return j.Status == engine.StatusDone || j.Status == engine.StatusQuarantined
}

// leaseEnd is min(now+ttl, deadline); now+ttl past the int64 range is the
// largest int64.
func (m *Model) leaseEnd(j *engine.Job, now, ttl int64) int64 {
	end := now + ttl
	if end < now {
		end = 1<<63 - 1
	}
	if j.Deadline > 0 && !m.mut(mutant.NoDeadlineCap) {
		end = min(end, j.Deadline)
	}
	return end
}

func leaseOf(j *engine.Job) engine.Lease {
	return engine.Lease{JobID: j.ID, Owner: j.Owner, Qty: j.Qty, Token: j.Token,
		Attempt: j.Attempts, LeaseUntil: j.LeaseUntil}
}

// ClaimMany is a concurrent claim of job id by owners at now: each owner's
// answer, in input order, as engine.Store.ClaimManyOutcomes gives it. The
// model serializes the claims in input order, which is one of the orders
// the database may pick, so at most one owner wins, the first that can.
func (m *Model) ClaimMany(id string, owners []string, now, ttl int64) ([]engine.ClaimOutcome, error) {
	// The claim-many-first mutant claims for owners[0] only and answers for
	// it alone.
	for _, o := range owners {
		if err := claimArgs(o, now, ttl); err != nil {
			return nil, err
		}
	}
	if id == "" {
		return nil, invalid("empty job id")
	}
	if m.mut(mutant.ClaimManyFirstOnly) && len(owners) > 0 {
		owners = owners[:1]
	}
	out := make([]engine.ClaimOutcome, len(owners))
	for i, o := range owners {
		l, err := m.Claim(id, o, now, ttl)
		var rej *engine.Rejection
		if errors.As(err, &rej) {
			out[i].Refusal = rej
			continue
		}
		out[i].Lease = l
	}
	return out, nil
}

// CopyFrom makes m a copy of src, reusing m's memory, for a caller that
// tries a step on a scratch copy before it keeps one.
func (m *Model) CopyFrom(src *Model) {
	m.jobs = append(m.jobs[:0], src.jobs...)
	m.mutant = src.mutant
	m.lockDelay = src.lockDelay
}

// Rows returns the jobs as the model holds them, in insertion order,
// without copying: the caller must not change them, and they are good
// until the model's next operation (Jobs returns a copy).
func (m *Model) Rows() []engine.Job { return m.jobs }
