package history

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/limits"
)

// OpFinish is the courier lab's complete: it presents a lease and answers
// whether it took, not why it was refused. The model plays it as a
// complete.
const OpFinish engine.Op = "finish"

// Calls are the calls a history holds, each with the arguments it takes
// (Args' fields, by their names in the JSON lines format).
func Calls() []engine.Op {
	out := make([]engine.Op, len(calls))
	for i, c := range calls {
		out[i] = c.op
	}
	return out
}

// calls is the one table of the calls, their arguments and the fields of
// their ok answers. An argument's name in the JSON lines format is its
// name here.
var calls = []struct {
	op   engine.Op
	args []string // in the order the format writes them
	ok   []string // the ok answer's fields; "job" is optional but for claim_next
}{
	{engine.OpEnqueue, []string{"job", "qty", "deadline", "max_attempts"}, []string{"created"}},
	{engine.OpState, []string{"job"}, []string{"row"}},
	{engine.OpClaim, []string{"job", "owner", "now", "ttl"}, []string{"job", "token", "lease_until"}},
	{engine.OpClaimNext, []string{"owner", "now", "ttl"}, []string{"job", "token", "lease_until"}},
	{engine.OpRenew, []string{"job", "owner", "token", "now", "ttl"}, []string{"job", "token", "lease_until"}},
	{engine.OpComplete, []string{"job", "owner", "token", "now", "result"}, nil},
	{OpFinish, []string{"job", "owner", "token", "now", "result"}, nil},
	{engine.OpRelease, []string{"job", "owner", "token"}, nil},
}

// callSpec returns the table's row of op, and false for an op that is no
// call of a history.
func callSpec(op engine.Op) (args, ok []string, found bool) {
	for _, c := range calls {
		if c.op == op {
			return c.args, c.ok, true
		}
	}
	return nil, nil, false
}

// Args are a call's arguments; each call takes the ones Calls names, and
// the others are zero. Times are milliseconds, as the engine takes them.
type Args struct {
	Job   string // every call but claim_next: the job's id
	Owner string // claim, claim_next: the claimant; renew, complete, finish, release: the presented lease's owner
	Token int64  // renew, complete, finish, release: the presented lease's token
	Now   int64  // claim, claim_next, renew, complete, finish: the instant passed
	TTL   int64  // claim, claim_next, renew: the lease's length asked for
	// Result is what complete and finish store.
	Result string
	// Qty, Deadline and MaxAttempts are enqueue's (0: 1, none, unlimited).
	Qty, Deadline, MaxAttempts int64
}

// Lease is the lease a renew, complete, finish or release presents: the
// engine reads only its job, owner and token.
func (a Args) Lease() engine.Lease {
	return engine.Lease{JobID: a.Job, Owner: a.Owner, Token: a.Token}
}

// Answer is what a call answered, as the engine's vocabulary names it
// (engine.Outcome, engine.Refusal). Fields that do not belong to the call
// and outcome are zero.
type Answer struct {
	// Outcome is ok, refused (a rule refused it), empty (claim_next found
	// nothing to claim; state found no such job), invalid (an argument
	// out of its domain) or error (anything else: the call may or may not
	// have taken effect, at any time after it was invoked).
	Outcome engine.Outcome
	// Refusal is the rule that refused it; "" when the caller cannot tell
	// which (a courier's finish answers only false): then any rule fits.
	Refusal engine.Refusal
	// Job is the job a claim_next took; a claim's or renew's lease may
	// name it too ("" for not recorded).
	Job string
	// Token and LeaseUntil are the lease an ok claim, claim_next or renew
	// gave.
	Token, LeaseUntil int64
	// Created is an ok enqueue's: true when it added the job, false when a
	// job with that id existed (nothing changed).
	Created bool
	// Row is the row an ok state read.
	Row *engine.Job
	// Error is what the caller saw of an error.
	Error string
}

// Operation is one call of a history as its client saw it: invoked at
// Invoke and answered at Return, on one clock every client shares
// (nanoseconds of a monotonic clock, or any numbers that do not go down).
// Two calls whose intervals [Invoke, Return] meet or overlap may have
// taken effect in either order; a call that returned before another was
// invoked took effect first.
type Operation struct {
	Client string
	Call   engine.Op
	Args   Args
	Invoke int64
	Return int64
	Answer Answer
}

// History is a concurrent history: every call that several clients made
// on one queue that was empty before the first, in any order (Check orders
// them by their times). Its jobs come from its own enqueue calls.
type History []Operation

// maxTime is the latest Return a history may name: the checker gives a
// call that answered error the return maxTime+1.
const maxTime = math.MaxInt64 - 1

// Validate reports the first call of h that is malformed: an unknown call,
// an argument or answer field that does not belong to it, Return before
// Invoke, a name or result over its limit (limits.Default), an outcome or
// refusal that is not one of the engine's; or a history longer than
// limits.Default.HistoryCalls. The error names the call by its index.
func (h History) Validate() error {
	if n := limits.Default.HistoryCalls; len(h) > n {
		return fmt.Errorf("%d calls: over the limit %s", len(h), limits.Default.Row("history_calls"))
	}
	for i := range h {
		if err := h[i].validate(); err != nil {
			return fmt.Errorf("call %d: %w", i, err)
		}
	}
	return nil
}

func (o *Operation) validate() error {
	args, _, ok := callSpec(o.Call)
	switch {
	case !ok:
		return fmt.Errorf("unknown call %q", o.Call)
	case o.Client == "":
		return errors.New("no client")
	case o.Invoke < 0 || o.Return < o.Invoke || o.Return > maxTime:
		return fmt.Errorf("invoke %d, return %d: want 0 <= invoke <= return < 2^63-1", o.Invoke, o.Return)
	}
	for _, name := range argNames {
		if !slices.Contains(args, name) && !o.Args.zero(name) {
			return fmt.Errorf("%s takes no argument %s", o.Call, name)
		}
	}
	if err := o.Args.bounded(); err != nil {
		return err
	}
	return o.Answer.validate(o.Call)
}

// argNames are Args' fields by their names in the format.
var argNames = []string{"job", "owner", "token", "now", "ttl", "result", "qty", "deadline", "max_attempts"}

// zero reports whether the argument called name is its zero value.
func (a *Args) zero(name string) bool {
	switch name {
	case "job":
		return a.Job == ""
	case "owner":
		return a.Owner == ""
	case "result":
		return a.Result == ""
	}
	return *a.int(name) == 0
}

// int is the integer argument called name.
func (a *Args) int(name string) *int64 {
	switch name {
	case "token":
		return &a.Token
	case "now":
		return &a.Now
	case "ttl":
		return &a.TTL
	case "qty":
		return &a.Qty
	case "deadline":
		return &a.Deadline
	case "max_attempts":
		return &a.MaxAttempts
	}
	panic("history: no integer argument " + name)
}

// bounded refuses a name or result over its limit: the engine refuses
// them as invalid, and the model does not look.
func (a *Args) bounded() error {
	l := limits.Default
	for _, s := range []string{a.Job, a.Owner} {
		if len(s) > l.NameBytes {
			return fmt.Errorf("a name of %d bytes: over the limit %s", len(s), l.Row("name_bytes"))
		}
	}
	if len(a.Result) > l.ResultBytes {
		return fmt.Errorf("a result of %d bytes: over the limit %s", len(a.Result), l.Row("result_bytes"))
	}
	return nil
}

func (a *Answer) validate(call engine.Op) error {
	_, okFields, _ := callSpec(call)
	switch a.Outcome {
	case engine.OutcomeOK, engine.OutcomeEmpty, engine.OutcomeInvalid, engine.OutcomeError:
	case engine.OutcomeRefused:
		if a.Refusal != "" && !a.Refusal.Valid() {
			return fmt.Errorf("unknown refusal %q", a.Refusal)
		}
	default:
		return fmt.Errorf("unknown outcome %q", a.Outcome)
	}
	if a.Refusal != "" && a.Outcome != engine.OutcomeRefused {
		return fmt.Errorf("a refusal with the outcome %s", a.Outcome)
	}
	if a.Error != "" && a.Outcome != engine.OutcomeError {
		return fmt.Errorf("an error message with the outcome %s", a.Outcome)
	}
	if a.Outcome != engine.OutcomeOK {
		okFields = nil
	}
	for _, f := range []struct {
		name string
		zero bool
	}{
		{"job", a.Job == ""}, {"token", a.Token == 0}, {"lease_until", a.LeaseUntil == 0},
		{"created", !a.Created}, {"row", a.Row == nil},
	} {
		if !f.zero && !slices.Contains(okFields, f.name) {
			return fmt.Errorf("%s %s answers no %s", call, a.Outcome, f.name)
		}
	}
	if call == engine.OpState && a.Outcome == engine.OutcomeOK && a.Row == nil {
		return errors.New("state ok answers no row (a missing job is the outcome empty)")
	}
	return nil
}
