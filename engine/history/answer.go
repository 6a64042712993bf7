package history

import (
	"errors"

	"github.com/leaselab/leaselab/engine"
)

// ErrAnswer is the answer of a call that returns only an error (complete,
// finish, release): ok for nil; refused for an error that matches a
// refusal's sentinel (errors.Is, as engine.RefusalOf names it); empty for
// engine.ErrEmpty; invalid for engine.ErrInvalid; error, with its message,
// for anything else.
func ErrAnswer(err error) Answer {
	switch {
	case err == nil:
		return Answer{Outcome: engine.OutcomeOK}
	case engine.RefusalOf(err) != "":
		return Answer{Outcome: engine.OutcomeRefused, Refusal: engine.RefusalOf(err)}
	case errors.Is(err, engine.ErrEmpty):
		return Answer{Outcome: engine.OutcomeEmpty}
	case errors.Is(err, engine.ErrInvalid):
		return Answer{Outcome: engine.OutcomeInvalid}
	}
	return Answer{Outcome: engine.OutcomeError, Error: err.Error()}
}

// LeaseAnswer is the answer of a claim, claim_next or renew: ErrAnswer's,
// and for ok the lease's job, token and lease_until.
func LeaseAnswer(l engine.Lease, err error) Answer {
	a := ErrAnswer(err)
	if a.Outcome == engine.OutcomeOK {
		a.Job, a.Token, a.LeaseUntil = l.JobID, l.Token, l.LeaseUntil
	}
	return a
}

// EnqueueAnswer is the answer of an enqueue: ErrAnswer's, and for ok
// whether it added the job.
func EnqueueAnswer(created bool, err error) Answer {
	a := ErrAnswer(err)
	a.Created = a.Outcome == engine.OutcomeOK && created
	return a
}

// StateAnswer is the answer of a state read: ok with a copy of the row,
// empty for no row (nil, nil), else ErrAnswer's.
func StateAnswer(j *engine.Job, err error) Answer {
	if err != nil {
		return ErrAnswer(err)
	}
	if j == nil {
		return Answer{Outcome: engine.OutcomeEmpty}
	}
	row := *j
	return Answer{Outcome: engine.OutcomeOK, Row: &row}
}
