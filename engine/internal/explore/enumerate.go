package explore

import (
	"slices"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/timeline"
)

// ops lists the steps a history may take from st, in a fixed order (the
// search is deterministic): at each instant that matters, every verb by
// every worker on every job, then the concurrent claims, the enqueues and
// the reopen.
func (a *applier) ops(st *state, out []op) []op {
	out = out[:0]
	if a.sc.NextOnly {
		return a.nextOnlyOps(st, out)
	}
	for _, t := range a.instants(st) {
		for _, w := range a.distinctWorkers(st) {
			one := a.singles[w]
			for j := range a.sc.Jobs {
				for _, v := range workerVerbs {
					out = append(out, op{at: t, verb: v, actors: one, job: j})
				}
			}
			out = append(out, op{at: t, verb: timeline.VerbClaim, actors: one, job: -1})
			if a.holdsAny(st, w) {
				out = append(out, op{at: t, verb: timeline.VerbCrash, actors: one, job: -1})
			}
		}
		for j := range a.sc.Jobs {
			for _, tuple := range a.tuples {
				out = append(out, op{at: t, verb: timeline.VerbClaim, actors: tuple, job: j})
			}
			out = append(out, op{at: t, verb: timeline.VerbEnqueue, job: j})
		}
		out = append(out, op{at: t, verb: timeline.VerbReopen, job: -1})
	}
	return out
}

// nextOnlyOps are ops for a NextOnly scope: at each instant that
// matters, every worker's claim of the next job, then its complete and
// state of every job, then the enqueues and the reopen.
func (a *applier) nextOnlyOps(st *state, out []op) []op {
	for _, t := range a.instants(st) {
		for _, w := range a.distinctWorkers(st) {
			one := a.singles[w]
			out = append(out, op{at: t, verb: timeline.VerbClaim, actors: one, job: -1})
			for j := range a.sc.Jobs {
				out = append(out, op{at: t, verb: timeline.VerbComplete, actors: one, job: j},
					op{at: t, verb: timeline.VerbState, actors: one, job: j})
			}
		}
		for j := range a.sc.Jobs {
			out = append(out, op{at: t, verb: timeline.VerbEnqueue, job: j})
		}
		out = append(out, op{at: t, verb: timeline.VerbReopen, job: -1})
	}
	return out
}

// workerVerbs are the verbs one worker does on one job.
var workerVerbs = []timeline.Verb{timeline.VerbClaim, timeline.VerbRenew, timeline.VerbComplete,
	timeline.VerbRelease, timeline.VerbDeliver, timeline.VerbWrite, timeline.VerbState}

// instants are the times a next step may take: now, and one before, at and
// one after every lease's end and every deadline still ahead.
func (a *applier) instants(st *state) []int64 {
	set := map[int64]bool{st.now: true}
	add := func(x int64) {
		for _, t := range []int64{x - 1, x, x + 1} {
			if t > st.now {
				set[t] = true
			}
		}
	}
	for _, j := range a.sc.Jobs {
		if j.Deadline > 0 {
			add(j.Deadline)
		}
		if row, _ := st.m.Get(j.ID); row != nil && row.Status == engine.StatusLeased {
			add(row.LeaseUntil)
		}
	}
	for _, l := range st.held {
		if l.Token > 0 {
			add(l.LeaseUntil)
		}
	}
	out := make([]int64, 0, len(set))
	for t := range set {
		out = append(out, t)
	}
	slices.Sort(out)
	return out
}

// distinctWorkers are the workers whose steps can lead to different
// states: of the workers that hold nothing and that no row, receipt or
// stored value names, only the first (the others are the same worker
// under another name).
func (a *applier) distinctWorkers(st *state) []int {
	var out []int
	idleSeen := false
	for w := range a.sc.Workers {
		if !a.holdsAny(st, w) && !a.named(st, w) {
			if idleSeen {
				continue
			}
			idleSeen = true
		}
		out = append(out, w)
	}
	return out
}

func (a *applier) holdsAny(st *state, w int) bool {
	for _, l := range st.held[w*a.jobs : (w+1)*a.jobs] {
		if l.Token > 0 {
			return true
		}
	}
	return false
}

// named reports whether any row or stored value names worker w.
func (a *applier) named(st *state, w int) bool {
	name := a.worker(w)
	for _, j := range st.m.Rows() {
		if j.Owner == name || j.Result == name {
			return true
		}
	}
	for _, j := range a.sc.Jobs {
		if v, ok := st.stor.Lookup(j.ID); ok && (v.Owner == name || v.Value == name) {
			return true
		}
	}
	return false
}

// races are the concurrent claims to try: every ordered choice of two or
// three distinct workers (the first claims alone, then the others race).
func (a *applier) races() [][]int {
	var out [][]int
	n := a.sc.Workers
	for x := range n {
		for y := range n {
			if y == x {
				continue
			}
			out = append(out, []int{x, y})
			for z := range n {
				if z != x && z != y {
					out = append(out, []int{x, y, z})
				}
			}
		}
	}
	return out
}
