package history

import (
	"cmp"
	"math"
	"slices"
	"time"

	"github.com/anishathalye/porcupine"

	"github.com/leaselab/leaselab/engine"
)

// Drawing is what a picture of a checked history needs (the simulator
// page's history view draws one): the verdict, each call as an interval
// on its client's lane, the calls to look at first, and the model's
// one-at-a-time order with its rows after each call. Its JSON is the
// page's input; a field is always written, an empty list as [].
type Drawing struct {
	Verdict Verdict `json:"verdict"`
	// Clients are the lanes: every client, in the order of its first call
	// in the history.
	Clients []string `json:"clients"`
	// Calls are every call of the history, in the history's order.
	Calls []DrawnCall `json:"calls"`
	// Failing are the numbers (DrawnCall.N) of the calls to look at first
	// when the history is not linearizable, in the order they were
	// invoked: the first call no order can place and the calls whose
	// intervals meet it. Empty for any other verdict.
	Failing []int `json:"failing"`
	// Order is the one-at-a-time order the model accepts that the check
	// found: every call, for a linearizable history (each job's calls as
	// checked, merged by the instants they may take effect at); the
	// longest order of the failing part's calls (Failure), for one that is
	// not; empty when the check ran out of time.
	Order []Step `json:"order"`
	// Report is the text report, Result.String.
	Report string `json:"report"`
}

// DrawnCall is one call of a Drawing.
type DrawnCall struct {
	// N is the call's number in the history, from 1 (a JSON lines file's
	// line).
	N      int    `json:"n"`
	Client string `json:"client"`
	// Call and Answer are the call with its arguments and its answer, as
	// the text report writes them: "claim a by B now=1000 ttl=1000",
	// "ok token=2 lease_until=2000".
	Call   string `json:"call"`
	Answer string `json:"answer"`
	// Invoke and Return are the call's interval less the history's first
	// invocation: on the history's clock (the Recorder's nanoseconds)
	// since its first call was invoked.
	Invoke int64 `json:"invoke"`
	Return int64 `json:"return"`
	// Stuck, Overlaps and InFlight are the call's FailingCall marks (false
	// for a call outside the failing part, and for every call of a history
	// that is not found failing).
	Stuck    bool `json:"stuck"`
	Overlaps bool `json:"overlaps"`
	InFlight bool `json:"in_flight"`
}

// Step is one call of the model's order: the call's number (DrawnCall.N)
// and the model's rows after it, a row a string as the text report writes
// one.
type Step struct {
	N    int      `json:"n"`
	Rows []string `json:"rows"`
}

// Drawing is the result as a picture draws it. For a linearizable history
// it checks each job's calls again (within the timeout the result was
// checked in) to find an order; Order is empty when that runs out of time.
func (r *Result) Drawing() *Drawing {
	d := &Drawing{Verdict: r.Verdict, Clients: []string{}, Calls: make([]DrawnCall, len(r.History)), Failing: []int{},
		Order: []Step{}, Report: r.String()}
	var first int64
	if len(r.History) > 0 {
		first = slices.MinFunc(r.History, func(a, b Operation) int { return cmp.Compare(a.Invoke, b.Invoke) }).Invoke
	}
	for i := range r.History {
		o := &r.History[i]
		if !slices.Contains(d.Clients, o.Client) {
			d.Clients = append(d.Clients, o.Client)
		}
		d.Calls[i] = DrawnCall{N: i + 1, Client: o.Client, Call: describeCall(o), Answer: describeAnswer(o),
			Invoke: o.Invoke - first, Return: o.Return - first}
	}
	order, after := r.order()
	if f := r.Failure; f != nil {
		for _, c := range f.Calls {
			dc := &d.Calls[c.Index]
			dc.Stuck, dc.Overlaps, dc.InFlight = c.Stuck, c.Overlaps, c.InFlight
			if c.Stuck || c.Overlaps {
				d.Failing = append(d.Failing, c.Index+1)
			}
		}
	}
	for k, i := range order {
		s := Step{N: i + 1, Rows: make([]string, len(after[k]))}
		for j := range after[k] {
			s.Rows[j] = describeRow(&after[k][j])
		}
		d.Order = append(d.Order, s)
	}
	return d
}

// order is the one-at-a-time order Drawing shows, by the calls' places in
// the history, and the model's rows after each call of it.
func (r *Result) order() ([]int, [][]engine.Job) {
	switch {
	case r.Failure != nil:
		return r.Failure.order, r.Failure.after
	case r.Verdict != Linearizable:
		return nil, nil
	}
	deadline := time.Now().Add(max(r.timeout, time.Millisecond))
	// Each job's order, its calls placed at the earliest instants that
	// keep it (each at its invocation or its predecessor's instant), merged
	// by those instants: a call that returned before another was invoked
	// still comes first.
	type placed struct {
		at int64
		i  int
	}
	var all []placed
	for _, idx := range partitions(r.History) {
		ops := operations(r.History, idx)
		res, info := porcupine.CheckOperationsVerbose(porcupineModel(nil), ops, max(time.Until(deadline), time.Millisecond))
		if res != porcupine.Ok {
			return nil, nil
		}
		at := int64(math.MinInt64)
		for _, k := range longestOrder(info.PartialLinearizations()) {
			at = max(at, ops[k].Call)
			all = append(all, placed{at, idx[k]})
		}
	}
	slices.SortStableFunc(all, func(a, b placed) int { return cmp.Compare(a.at, b.at) })
	order := make([]int, len(all))
	for k, p := range all {
		order[k] = p.i
	}
	after := replay(r.History, order)
	if after == nil {
		return nil, nil
	}
	return order, after
}
