package history

import (
	"cmp"
	"slices"
	"time"

	"github.com/anishathalye/porcupine"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/model"
)

// part is a failing part of a history: its calls (those in flight at the
// cut answering error), each with its index in the history.
type part struct {
	h        History
	idx      []int
	inFlight []bool
}

// all is every index of p.h.
func (p *part) all() []int {
	out := make([]int, len(p.h))
	for i := range out {
		out[i] = i
	}
	return out
}

func (p *part) fails(deadline time.Time) bool {
	return verdict(p.h, p.all(), deadline) == NotLinearizable
}

// without is p less its call k.
func (p *part) without(k int) *part {
	return &part{h: slices.Delete(slices.Clone(p.h), k, k+1), idx: slices.Delete(slices.Clone(p.idx), k, k+1),
		inFlight: slices.Delete(slices.Clone(p.inFlight), k, k+1)}
}

// cut is the calls idx of h invoked at or before t; those that had not
// returned by t answer error. When it cannot be linearized, neither can the
// calls idx: every call left out was invoked after every call kept with
// its answer had returned, so it can only have taken effect after them,
// and the calls it could precede may answer anything.
func cut(h History, idx []int, t int64) *part {
	p := &part{}
	for _, i := range idx {
		o := h[i]
		if o.Invoke > t {
			continue
		}
		flight := o.Return > t && o.Answer.Outcome != engine.OutcomeError
		if flight {
			o.Answer = Answer{Outcome: engine.OutcomeError, Error: "in flight at the cut"}
		}
		p.h, p.idx, p.inFlight = append(p.h, o), append(p.idx, i), append(p.inFlight, flight)
	}
	return p
}

// inert reports whether o's answer says it changed nothing, whatever the
// state it met: leaving it out of a history removes a constraint and
// nothing else.
func inert(o *Operation) bool {
	a := &o.Answer
	switch a.Outcome {
	case engine.OutcomeInvalid:
		return true
	case engine.OutcomeEmpty:
		return o.Call == engine.OpState
	case engine.OutcomeOK:
		return o.Call == engine.OpState || (o.Call == engine.OpEnqueue && !a.Created)
	case engine.OutcomeRefused:
		switch o.Call {
		case engine.OpRenew, engine.OpComplete, OpFinish, engine.OpRelease:
			return true
		case engine.OpClaim:
			return a.Refusal == engine.RefusedHeld || a.Refusal == engine.RefusedDone || a.Refusal == engine.RefusedNotFound
		}
	}
	return false
}

// shrink makes the Failure of h, whose partitions failing cannot be
// linearized, from the first of them: cut at the earliest return at which
// it still fails (the failure is monotone in the cut: a search), then less
// each inert call whose absence keeps it failing, until deadline.
func shrink(h History, failing [][]int, deadline time.Time) *Failure {
	f := &Failure{}
	for _, idx := range failing {
		if len(failing) == 1 && len(idx) == len(h) && slices.ContainsFunc(h, isClaimNext) {
			f.Jobs = append(f.Jobs, "")
			continue
		}
		f.Jobs = append(f.Jobs, h[idx[0]].Args.Job)
	}
	f.Job = f.Jobs[0]
	idx := failing[0]
	var times []int64
	for _, i := range idx {
		times = append(times, h[i].Return)
	}
	slices.Sort(times)
	times = slices.Compact(times)
	best := cut(h, idx, times[len(times)-1]) // the whole partition, known to fail
	lo, hi := 0, len(times)-1
	for lo < hi {
		mid := (lo + hi) / 2
		if p := cut(h, idx, times[mid]); p.fails(deadline) {
			best, hi = p, mid
		} else {
			lo = mid + 1
		}
	}
	for k := len(best.h) - 1; k >= 0; k-- {
		if best.inFlight[k] || !inert(&best.h[k]) {
			continue
		}
		if p := best.without(k); p.fails(deadline) {
			best = p
		}
	}
	explain(f, best, deadline)
	return f
}

func isClaimNext(o Operation) bool { return o.Call == engine.OpClaimNext }

// earlier reports whether order a places calls invoked earlier than order
// b does, of two of one length: the first differing call of their sorted
// sets is a's. Porcupine finds its longest orders in no fixed order; the
// report takes the one that keeps the earliest calls, always the same.
func earlier(a, b []int) bool {
	a, b = slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b))
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// explain fills f's calls from p, in the order they were invoked: which
// the longest order the model accepts places, the first that cannot be
// placed and those that overlap it; and the model's rows after that order.
func explain(f *Failure, p *part, deadline time.Time) {
	ops := operations(p.h, p.all())
	left := max(time.Until(deadline), time.Millisecond)
	_, info := porcupine.CheckOperationsVerbose(porcupineModel(nil), ops, left)
	order := longestOrder(info.PartialLinearizations())
	calls := make([]FailingCall, len(p.h))
	for k := range p.h {
		calls[k] = FailingCall{Index: p.idx[k], InFlight: p.inFlight[k]}
	}
	for _, k := range order {
		calls[k].Placed = true
	}
	stuck := -1
	for k := range ops {
		if !calls[k].Placed && p.h[k].Answer.Outcome != engine.OutcomeError &&
			(stuck < 0 || ops[k].Return < ops[stuck].Return) {
			stuck = k
		}
	}
	if stuck >= 0 {
		calls[stuck].Stuck = true
		for k := range ops {
			calls[k].Overlaps = ops[k].Call <= ops[stuck].Return && ops[stuck].Call <= ops[k].Return
		}
	}
	byInvoke := p.all()
	slices.SortStableFunc(byInvoke, func(a, b int) int { return cmp.Compare(p.h[a].Invoke, p.h[b].Invoke) })
	for _, k := range byInvoke {
		f.Calls = append(f.Calls, calls[k])
	}
	f.after = replay(p.h, order)
	if f.after != nil {
		f.Rows = model.New().Jobs()
		if len(order) > 0 {
			f.Rows = f.after[len(order)-1]
		}
	}
	for _, k := range order {
		f.order = append(f.order, p.idx[k])
	}
}

// longestOrder is the longest of the orders porcupine found (of every
// partition), the one that keeps the earliest calls of those as long.
func longestOrder(found [][][]int) []int {
	var order []int
	for _, parts := range found {
		for _, seq := range parts {
			if len(seq) > len(order) || (len(seq) == len(order) && earlier(seq, order)) {
				order = seq
			}
		}
	}
	return order
}

// replay plays the calls order of h on the model and returns its rows
// after each of them (the first of its states, when calls that answered
// error leave several); nil when the model cannot answer one as it was
// answered.
func replay(h History, order []int) [][]engine.Job {
	states := []any{model.New()}
	after := make([][]engine.Job, 0, len(order))
	for _, k := range order {
		var nexts []any
		for _, s := range states {
			nexts = append(nexts, next(s.(*model.Model), &h[k])...)
		}
		if len(nexts) == 0 {
			return nil
		}
		states = nexts
		after = append(after, states[0].(*model.Model).Jobs())
	}
	return after
}
