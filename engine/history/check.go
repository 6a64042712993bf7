package history

import (
	"slices"
	"time"

	"github.com/anishathalye/porcupine"

	"github.com/leaselab/leaselab/engine"
)

// Verdict is what a check decided.
type Verdict string

// The verdicts.
const (
	Linearizable    Verdict = "linearizable"
	NotLinearizable Verdict = "not linearizable"
	// Unknown: the time ran out before the check decided (no order was
	// found, and none was ruled out yet).
	Unknown Verdict = "unknown"
)

// DefaultTimeout bounds Check; shrinking a failure takes at most as long
// again.
const DefaultTimeout = 10 * time.Second

// Result is a check's verdict on a history and, when it is not
// linearizable, the smallest failing part of it that was found.
type Result struct {
	Verdict Verdict
	History History
	Failure *Failure // NotLinearizable only
	timeout time.Duration
}

// Failure is the part of a history that shows it is not linearizable: the
// calls of one job (of every job when the history has claim_next, whose
// calls span jobs), cut and shrunk while they still fail:
//
//   - cut: the calls invoked after the earliest instant by which the
//     failure shows are left out, and a call still in flight then is
//     taken as one that may answer anything, or not take effect;
//   - shrunk: calls that change nothing whatever they meet (a state read,
//     a refused renew, complete, finish or release, a claim refused held,
//     done or not found, an invalid call, an enqueue of an existing id)
//     are left out one by one while the rest still fails.
//
// Either way, when what is left cannot be linearized, neither can the
// whole history.
type Failure struct {
	// Job is the job whose calls cannot be linearized; "" when the calls
	// of every job were checked together.
	Job string
	// Jobs are every job whose calls cannot be linearized, Job first.
	Jobs []string
	// Calls are the failing part, in the order they were invoked.
	Calls []FailingCall
	// Rows are the model's rows after the longest order of the calls it
	// accepts, one of the orders that fail (nil when the time ran out
	// first).
	Rows []engine.Job
	// order is that order, by the calls' places in the history, and after
	// the model's rows after each of its calls.
	order []int
	after [][]engine.Job
}

// FailingCall is one call of a Failure.
type FailingCall struct {
	// Index is the call's place in the history (Result.History).
	Index int
	// InFlight: the call had not returned at the cut; the check took it as
	// answering anything.
	InFlight bool
	// Placed: the call is in the longest order the model accepts.
	Placed bool
	// Stuck: the first call that cannot be placed (the unplaced call that
	// returned first); Overlaps: its interval meets Stuck's (Stuck's own
	// included). These are the calls to look at first.
	Stuck, Overlaps bool
}

// Check checks h against the contract's reference model within
// DefaultTimeout: whether some order of its calls that keeps every call
// that returned before another was invoked first makes the model answer
// each call as it answered. It returns an error, and no result, for a
// history that Validate refuses.
func Check(h History) (*Result, error) { return CheckTimeout(h, DefaultTimeout) }

// CheckTimeout is Check within timeout (> 0).
func CheckTimeout(h History, timeout time.Duration) (*Result, error) {
	if err := h.Validate(); err != nil {
		return nil, err
	}
	r := &Result{Verdict: Linearizable, History: h, timeout: timeout}
	deadline := time.Now().Add(timeout)
	var failing [][]int
	for _, part := range partitions(h) {
		switch verdict(h, part, deadline) {
		case NotLinearizable:
			failing = append(failing, part)
		case Unknown:
			r.Verdict = Unknown
		}
	}
	if len(failing) > 0 {
		r.Verdict = NotLinearizable
		r.Failure = shrink(h, failing, time.Now().Add(timeout))
	}
	return r, nil
}

// partitions splits h's calls (their indexes) into histories checked
// apart: one per job, in the order of their first calls, unless h has a
// claim_next, which spans jobs.
func partitions(h History) [][]int {
	all := make([]int, len(h))
	for i := range h {
		all[i] = i
	}
	if slices.ContainsFunc(h, func(o Operation) bool { return o.Call == engine.OpClaimNext }) {
		return [][]int{all}
	}
	var out [][]int
	at := map[string]int{}
	for i, o := range h {
		p, ok := at[o.Args.Job]
		if !ok {
			p = len(out)
			at[o.Args.Job] = p
			out = append(out, nil)
		}
		out[p] = append(out[p], i)
	}
	return out
}

// verdict checks the calls idx of h as one history, until deadline.
func verdict(h History, idx []int, deadline time.Time) Verdict {
	left := time.Until(deadline)
	if left <= 0 {
		return Unknown
	}
	switch porcupine.CheckOperationsTimeout(porcupineModel(nil), operations(h, idx), left) {
	case porcupine.Ok:
		return Linearizable
	case porcupine.Illegal:
		return NotLinearizable
	}
	return Unknown
}

// operations are the calls idx of h as porcupine takes them. A call that
// answered error returns after every other: it may take effect at any
// time after it was invoked.
func operations(h History, idx []int) []porcupine.Operation {
	var end int64
	clients := map[string]int{}
	for _, o := range h {
		end = max(end, o.Return)
		if _, ok := clients[o.Client]; !ok {
			clients[o.Client] = len(clients)
		}
	}
	out := make([]porcupine.Operation, len(idx))
	for k, i := range idx {
		o := &h[i]
		ret := o.Return
		if o.Answer.Outcome == engine.OutcomeError {
			ret = end + 1
		}
		out[k] = porcupine.Operation{ClientId: clients[o.Client], Input: o, Call: o.Invoke, Return: ret}
	}
	return out
}
