package engine

import "errors"

// The engine's vocabulary: the names of its operations, of the ways an
// operation ends and of the rules that refuse one. They are spelled one way
// everywhere — the HTTP API, the trace, the timeline language, the
// explanations and the exported Go tests all use these constants — and the
// spelling is the API's (snake_case: "not_found", "claim_next").

// Op names an operation.
type Op string

// The operations. Rejection.Op holds one of the first four as a string.
const (
	OpClaim     Op = "claim"      // Store.Claim
	OpRenew     Op = "renew"      // Store.Renew
	OpComplete  Op = "complete"   // Store.Complete
	OpRelease   Op = "release"    // Store.Release
	OpClaimNext Op = "claim_next" // Store.ClaimNext
	OpClaimMany Op = "claim_many" // Store.ClaimMany
	OpEnqueue   Op = "enqueue"    // Store.Enqueue
	OpState     Op = "state"      // Store.Get
	OpSend      Op = "send"       // Store.Dispatch
	OpDeliver   Op = "deliver"    // Receiver.Deliver
	OpWrite     Op = "write"      // Storage.Write
	OpRead      Op = "read"       // Storage.Read
	OpReopen    Op = "reopen"     // New again over the same database
)

// Outcome names how an operation ended.
type Outcome string

// The outcomes.
const (
	OutcomeOK      Outcome = "ok"      // accepted
	OutcomeRefused Outcome = "refused" // a rule refused it: a *Rejection, named by a Refusal
	OutcomeEmpty   Outcome = "empty"   // ClaimNext found no claimable job (ErrEmpty); a read found no row
	OutcomeInvalid Outcome = "invalid" // an argument was out of its domain (ErrInvalid); nothing changed
	OutcomeFailed  Outcome = "failed"  // a send's delivery failed; its lease was released
	OutcomeError   Outcome = "error"   // the database failed
)

// Refusal names the rule that refused an operation: the wire name of a
// Rejection's Reason.
type Refusal string

// The refusals, in the order the rules are checked (see Rejection).
const (
	RefusedNotFound    Refusal = "not_found"
	RefusedSuperseded  Refusal = "superseded"
	RefusedDone        Refusal = "done"
	RefusedQuarantined Refusal = "quarantined"
	RefusedHeld        Refusal = "held"
	RefusedExpired     Refusal = "expired"
	RefusedFenced      Refusal = "fenced"
)

// refusals is the one table from sentinel to name.
var refusals = []struct {
	name Refusal
	err  error
}{
	{RefusedNotFound, ErrNotFound},
	{RefusedSuperseded, ErrSuperseded},
	{RefusedDone, ErrDone},
	{RefusedQuarantined, ErrQuarantined},
	{RefusedHeld, ErrHeld},
	{RefusedExpired, ErrExpired},
	{RefusedFenced, ErrFenced},
}

// Refusals lists every refusal name.
func Refusals() []Refusal {
	out := make([]Refusal, len(refusals))
	for i, r := range refusals {
		out[i] = r.name
	}
	return out
}

// RefusalOf names the sentinel err matches (errors.Is), or returns "" when
// err matches none of them.
func RefusalOf(err error) Refusal {
	for _, r := range refusals {
		if errors.Is(err, r.err) {
			return r.name
		}
	}
	return ""
}

// Err returns the refusal's sentinel, or nil for a name that is not one.
func (r Refusal) Err() error {
	for _, x := range refusals {
		if x.name == r {
			return x.err
		}
	}
	return nil
}

// Valid reports whether r is one of the refusals.
func (r Refusal) Valid() bool { return r.Err() != nil }

// OutcomeOf classifies what an operation returned: ok for nil, refused for
// a *Rejection, empty for ErrEmpty, invalid for ErrInvalid and error for
// anything else (the database's failure, ErrContention, ErrBusy).
func OutcomeOf(err error) Outcome {
	var rej *Rejection
	switch {
	case err == nil:
		return OutcomeOK
	case errors.As(err, &rej):
		return OutcomeRefused
	case errors.Is(err, ErrEmpty):
		return OutcomeEmpty
	case errors.Is(err, ErrInvalid):
		return OutcomeInvalid
	}
	return OutcomeError
}
