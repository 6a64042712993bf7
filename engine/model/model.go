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
	"fmt"

	"github.com/leaselab/leaselab/engine"
)

// Model is a queue of jobs in insertion order. The zero value is not usable;
// call New.
type Model struct {
	jobs  map[string]*engine.Job
	order []string // ids in insertion order
}

// New returns an empty model.
func New() *Model { return &Model{jobs: make(map[string]*engine.Job)} }

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
	if _, ok := m.jobs[j.ID]; ok {
		return false, nil
	}
	qty := j.Qty
	if qty == 0 {
		qty = 1
	}
	m.jobs[j.ID] = &engine.Job{ID: j.ID, Qty: qty, Deadline: j.Deadline,
		MaxAttempts: j.MaxAttempts, Status: engine.StatusPending}
	m.order = append(m.order, j.ID)
	return true, nil
}

// Get returns a copy of job id, or nil, nil when there is none.
func (m *Model) Get(id string) (*engine.Job, error) {
	if id == "" {
		return nil, invalid("empty job id")
	}
	j, ok := m.jobs[id]
	if !ok {
		return nil, nil
	}
	c := *j
	return &c, nil
}

// Jobs returns a copy of every job in insertion order.
func (m *Model) Jobs() []engine.Job {
	out := make([]engine.Job, 0, len(m.order))
	for _, id := range m.order {
		out = append(out, *m.jobs[id])
	}
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
	j, ok := m.jobs[id]
	if !ok {
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
	for _, id := range m.order {
		j := m.jobs[id]
		if final(j) || validAt(j, now) {
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
	case now < 0:
		return invalid("now %d < 0", now)
	case ttl <= 0:
		return invalid("ttl %d <= 0", ttl)
	}
	return nil
}

func (m *Model) claimJob(j *engine.Job, owner string, now, ttl int64) (engine.Lease, error) {
	switch {
	case j.Status == engine.StatusDone:
		return engine.Lease{}, claimRefused(engine.ErrDone, j.ID, owner, *j, now)
	case j.Status == engine.StatusQuarantined:
		return engine.Lease{}, claimRefused(engine.ErrQuarantined, j.ID, owner, *j, now)
	case validAt(j, now):
		return engine.Lease{}, claimRefused(engine.ErrHeld, j.ID, owner, *j, now)
	}
	if j.MaxAttempts > 0 && j.Attempts >= j.MaxAttempts {
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
	j.LeaseUntil = leaseEnd(j, now, ttl)
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
	if now < 0 {
		return engine.Lease{}, invalid("now %d < 0", now)
	}
	if ttl <= 0 {
		return engine.Lease{}, invalid("ttl %d <= 0", ttl)
	}
	j, err := m.holder(engine.OpRenew, l, now, true)
	if err != nil {
		return engine.Lease{}, err
	}
	j.LeaseUntil = leaseEnd(j, now, ttl)
	return leaseOf(j), nil
}

// Complete marks the job done with result under the same rules as Renew.
func (m *Model) Complete(l engine.Lease, now int64, result string) error {
	if err := leaseArgs(l); err != nil {
		return err
	}
	if now < 0 {
		return invalid("now %d < 0", now)
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
	return nil
}

// leaseArgs: a presented lease needs a job id and an owner. The contract
// does not list a negative token; the model takes it as invalid, since no
// claim ever hands one out.
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
	j, ok := m.jobs[l.JobID]
	switch {
	case !ok:
		return nil, refuse(engine.ErrNotFound, engine.Job{ID: l.JobID})
	case j.Owner != l.Owner || j.Token != l.Token:
		return nil, refuse(engine.ErrSuperseded, *j)
	case j.Status == engine.StatusDone:
		return nil, refuse(engine.ErrDone, *j)
	case j.Status == engine.StatusQuarantined:
		return nil, refuse(engine.ErrQuarantined, *j)
	case timed && (now >= j.LeaseUntil || (j.Deadline > 0 && now >= j.Deadline)):
		return nil, refuse(engine.ErrExpired, *j)
	}
	return j, nil
}

// validAt: a lease stands on j at now.
func validAt(j *engine.Job, now int64) bool { return j.Owner != "" && now < j.LeaseUntil }

func final(j *engine.Job) bool {
	return j.Status == engine.StatusDone || j.Status == engine.StatusQuarantined
}

// leaseEnd is min(now+ttl, deadline); now+ttl past the int64 range is the
// largest int64.
func leaseEnd(j *engine.Job, now, ttl int64) int64 {
	end := now + ttl
	if end < now {
		end = 1<<63 - 1
	}
	if j.Deadline > 0 {
		end = min(end, j.Deadline)
	}
	return end
}

func leaseOf(j *engine.Job) engine.Lease {
	return engine.Lease{JobID: j.ID, Owner: j.Owner, Qty: j.Qty, Token: j.Token,
		Attempt: j.Attempts, LeaseUntil: j.LeaseUntil}
}
