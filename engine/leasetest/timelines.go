package leasetest

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/timeline"
)

// Timeline plays tl on q and on the reference model side by side, call by
// call, and returns the first Difference, or nil when q answered every call
// as the contract does, held the same rows after every step and broke no
// invariant the reference kept. q must be empty. The error is for a
// timeline that cannot be played (a Queue's failure is a Difference).
//
// Each step runs at the now of the clock its operations are judged on:
// the worker's own (the step's time plus the worker's clock offset), or
// the lock service's where tl declares one, as its jumps and drifts have
// moved it; each presents the worker's own latest lease of the job, as
// the timeline runner does. The steps map onto the Queue thus: a
// concurrent claim is its contenders' claims one after another in the
// order written (the order the database admits them); a send is ClaimNext,
// then Complete with result "sent" took ms later, or Release when the
// delivery fails; reopen calls Reopen when q is a Reopener. The receiver's
// and the fenced storage's steps (deliver, write, read) are not the
// queue's and are skipped, as are pause, wait and the service's jump and
// drift (only time, or the service's clock, moves); a
// crash makes its worker forget its leases.
func Timeline(ctx context.Context, tl *timeline.Timeline, q Queue) (*Difference, error) {
	return TimelineSteps(ctx, tl, q, nil)
}

// TimelineSteps is Timeline, calling played(k), when played is not nil,
// each time q has agreed with the contract through the first k steps of
// tl: played(0) once the jobs its header declares are enqueued, then
// played(k) after its k-th step. The sends that hear back before a step
// are that step's. It is never called for the step that differs.
func TimelineSteps(ctx context.Context, tl *timeline.Timeline, q Queue, played func(k int)) (*Difference, error) {
	p := newPair(Model(), q)
	for _, c := range tl.Clocks {
		p.refChk.SetClock(c.Worker, c.Offset)
		p.subChk.SetClock(c.Worker, c.Offset)
	}
	for _, j := range tl.Jobs {
		c := Call{Op: engine.OpEnqueue, New: engine.NewJob{ID: j.ID, Qty: j.Qty, Deadline: j.Deadline, MaxAttempts: j.MaxAttempts}}
		if d := p.step(ctx, []Call{c}); d != nil {
			d.Where = fmt.Sprintf("%s:%d", tl.Name, j.Line)
			return d, nil
		}
	}
	if played != nil {
		played(0)
	}
	for i := range tl.Steps {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		s := &tl.Steps[i]
		if d := p.hearBack(ctx, tl, s.Time); d != nil {
			return d, nil
		}
		for _, a := range tl.Actors { // the clock each worker's operations are judged on, as it stands now
			p.refChk.SetClock(a, tl.JudgeAt(a, s.Time, i))
			p.subChk.SetClock(a, tl.JudgeAt(a, s.Time, i))
		}
		if d := p.timelineStep(ctx, tl, s, i); d != nil {
			d.Where = fmt.Sprintf("%s:%d", tl.Name, s.Line)
			return d, nil
		}
		if played != nil {
			played(i + 1)
		}
	}
	return p.hearBack(ctx, tl, math.MaxInt64), nil
}

// stepsBefore counts the steps written for instants before t: a send
// hears back after them, and before those at t.
func stepsBefore(tl *timeline.Timeline, t int64) int {
	return sort.Search(len(tl.Steps), func(j int) bool { return tl.Steps[j].Time >= t })
}

// hearBack makes the completes of the sends that hear back at or before
// t, in the order of their ends: a step at a send's end comes after it.
func (p *pair) hearBack(ctx context.Context, tl *timeline.Timeline, t int64) *Difference {
	sort.SliceStable(p.hearing, func(a, b int) bool { return p.hearing[a].at < p.hearing[b].at })
	for len(p.hearing) > 0 && p.hearing[0].at <= t {
		h := p.hearing[0]
		p.hearing = p.hearing[1:]
		before := stepsBefore(tl, h.at)
		for _, a := range tl.Actors {
			p.refChk.SetClock(a, tl.JudgeAt(a, h.at, before))
			p.subChk.SetClock(a, tl.JudgeAt(a, h.at, before))
		}
		if d := p.step(ctx, []Call{h.call}); d != nil {
			d.Where = fmt.Sprintf("%s:%d", tl.Name, h.line)
			return d
		}
	}
	return nil
}

// step runs calls, each presenting what it says, then settles.
func (p *pair) step(ctx context.Context, calls []Call) *Difference {
	for _, c := range calls {
		if _, d := p.call(ctx, c); d != nil {
			return d
		}
	}
	return p.settle(ctx)
}

func (p *pair) timelineStep(ctx context.Context, tl *timeline.Timeline, s *timeline.StepLine, i int) *Difference {
	var actor string
	if len(s.Actors) > 0 {
		actor = s.Actors[0]
	}
	now := s.Time + tl.JudgeAt(actor, s.Time, i)
	presented := func() engine.Lease {
		l, _ := p.held(ctx, actor, s.Job)
		if s.HasToken {
			l.Token = s.Token
		}
		return l
	}
	switch s.Verb {
	case timeline.VerbClaim:
		var calls []Call
		for _, a := range s.Actors {
			c := Call{Op: engine.OpClaim, Job: s.Job, Owner: a, Now: now, TTL: s.TTL}
			if s.Job == "" {
				c.Op = engine.OpClaimNext
			}
			calls = append(calls, c)
		}
		return p.step(ctx, calls)
	case timeline.VerbRenew:
		return p.step(ctx, []Call{{Op: engine.OpRenew, Now: now, TTL: s.TTL, Lease: presented()}})
	case timeline.VerbComplete:
		return p.step(ctx, []Call{{Op: engine.OpComplete, Now: now, Lease: presented(), Result: s.Result}})
	case timeline.VerbRelease:
		return p.step(ctx, []Call{{Op: engine.OpRelease, Lease: presented()}})
	case timeline.VerbEnqueue:
		return p.step(ctx, []Call{{Op: engine.OpEnqueue,
			New: engine.NewJob{ID: s.Job, Qty: s.Qty, Deadline: s.Deadline, MaxAttempts: s.MaxAttempts}}})
	case timeline.VerbState:
		return p.step(ctx, []Call{{Op: engine.OpState, Job: s.Job}})
	case timeline.VerbSend:
		return p.send(ctx, actor, now, s.End()+tl.JudgeAt(actor, s.End(), max(i, stepsBefore(tl, s.End()))), s)
	case timeline.VerbReopen:
		if _, ok := p.sub.(Reopener); ok {
			return p.step(ctx, []Call{{Op: engine.OpReopen}})
		}
	case timeline.VerbCrash:
		p.forget(actor)
	}
	return nil
}

// send is Dispatch on the Queue: ClaimNext, then Complete took ms later
// (Release when the delivery fails), when its courier hears back: the
// steps of other workers in between come first (hearBack).
func (p *pair) send(ctx context.Context, actor string, now, heard int64, s *timeline.StepLine) *Difference {
	r, d := p.call(ctx, Call{Op: engine.OpClaimNext, Owner: actor, Now: now, TTL: s.TTL})
	if d != nil || !r.granted {
		if d != nil {
			return d
		}
		return p.settle(ctx)
	}
	c := Call{Op: engine.OpComplete, Now: heard, Lease: r.lease, Result: engine.ResultSent}
	if s.Fail {
		c = Call{Op: engine.OpRelease, Lease: r.lease}
	}
	p.hearing = append(p.hearing, hearing{at: s.End(), line: s.Line, call: c})
	return p.settle(ctx)
}
