package timeline

import (
	"fmt"
	"sort"
	"strings"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/check"
)

// step runs one step line and builds its trace: the operation, then the
// rows it wrote (read back by id), the leases that ended, the checks, the
// sentence and the expectation.
func (r *runner) step(i int, s *StepLine) (Step, error) {
	st := Step{Index: i, Line: s.Line, Source: s.Source, Note: s.Note, Time: s.Time, Now: r.now(s),
		Actors: append([]string{}, s.Actors...), Op: string(s.Op()), Job: s.Job, Gone: []string{}}
	r.clock.Set(s.Time)
	expired := r.expireAt(s.Time)
	if s.Verb == VerbJump || s.Verb == VerbDrift {
		expired = append(expired, r.serviceChange(s, &st)...)
	}
	r.takeSQL()
	r.takeWritten()
	ops, moved := r.run(s, &st)
	if r.failed != nil {
		return st, fmt.Errorf("%s:%d: %w", r.tl.Name, s.Line, r.failed)
	}
	r.believe(st.Lease)
	for i := range st.Contenders {
		r.believe(st.Contenders[i].Lease)
	}
	for i := range st.Renewed {
		r.believe(&st.Renewed[i])
	}
	if st.Lease != nil && st.Args.TTL > 0 {
		r.ttls[st.Lease.Job] = st.Args.TTL
	}
	st.End = s.End()
	if r.splitting { // the courier hears back at a later step
		st.End = s.Time
	}
	r.clock.Set(st.End)
	if st.SQL == nil {
		st.SQL = r.takeSQL()
	}
	before, after, err := r.readBack(&st, moved, s.Verb == VerbReopen)
	if err != nil {
		return st, fmt.Errorf("%s:%d: read the rows: %w", r.tl.Name, s.Line, err)
	}
	st.Rows = rowsOf(after)
	st.Changed = changedCells(before, after)
	r.noteGrants(before, after, s.Time)
	st.Expired = append(expired, r.track(after, st.End)...)
	st.Expired = append(st.Expired, r.expireAt(st.End)...) // the leases that ended while the step took its time
	sortExpiries(st.Expired)
	r.syncClocks()
	st.Verdicts = r.verdicts(s, ops, after, s.Verb == VerbReopen)
	var prev *engine.Job
	if j, ok := before[st.Job]; ok {
		prev = &j
	}
	st.Explain = r.explain(s, &st, prev, before, after)
	if s.Expect != nil && !r.splitting { // a split send's is judged when it hears back
		st.Expect = r.judge(s, &st)
	}
	if s.Predict {
		st.Predict = prediction(s.Op(), r.tl.Storage, st.Outcome)
	}
	return st, nil
}

// now is the step's instant on the clock its actor's operations are
// judged on (the service's, after a service jump or drift).
func (r *runner) now(s *StepLine) int64 {
	if s.Verb == VerbJump || s.Verb == VerbDrift {
		return s.Time + r.tl.movedOffset(s.Node, s.Time, r.before)
	}
	if len(s.Actors) == 0 {
		return s.Time
	}
	return s.Time + r.judgeOff(s.Actors[0])
}

// believe notes, on a lease granted on the service's clock, until when its
// owner believes it valid by its own clock: the same length of time after
// the grant, which the service's clock, not the owner's, ends.
func (r *runner) believe(l *Lease) {
	if l == nil || r.tl.Service == nil {
		return
	}
	b := l.LeaseUntil - r.judgeOff(l.Owner) + r.tl.Offset(l.Owner)
	l.Believes = &b
}

// judgeOff is the offset of the clock worker's operations are judged on, at
// the event the run is at.
func (r *runner) judgeOff(worker string) int64 { return r.tl.JudgeAt(worker, r.at, r.before) }

// trueInstant is the true instant at which the clock owner's operations
// are judged on reads reading, as that clock runs at the run's event.
func (r *runner) trueInstant(owner string, reading int64) int64 {
	return r.tl.TrueInstant(owner, reading, r.at, r.before)
}

// rowEnd is the true instant at which the lease of row (owned by owner)
// with lease_until reading ends: when the clock that judges it reads
// reading — its node's under `service nodes`, else its owner's.
func (r *runner) rowEnd(owner, row string, reading int64) int64 {
	if r.tl.Nodes != 0 {
		if _, node, ok := strings.Cut(row, "@"); ok {
			return r.tl.NodeInstant(node, reading, r.at, r.before)
		}
	}
	return r.trueInstant(owner, reading)
}

// serviceChange runs a service jump or drift: from this step the
// service's clock reads differently, and every valid lease ends when it
// reads that lease's lease_until; a lease a jump ahead ends, ends at the
// jump.
func (r *runner) serviceChange(s *StepLine, st *Step) []Expiry {
	r.before++ // this step's change counts from here on
	st.Now = r.now(s)
	st.Outcome = StepOutcome{Kind: string(engine.OutcomeOK)}
	var ended []Expiry
	for job, e := range r.live {
		row, _ := r.table.get(job)
		e.At = max(r.rowEnd(e.Owner, job, row.LeaseUntil), s.Time)
		if e.At <= s.Time {
			ended = append(ended, e)
			r.ended[job] = e
			delete(r.live, job)
			continue
		}
		r.live[job] = e
	}
	return ended
}

// syncClocks tells the checker where a service clock that jumps or
// drifts stands at the run's event, so it judges every lease on the
// service's clock as the engine did.
func (r *runner) syncClocks() {
	if !r.moving {
		return
	}
	for _, a := range r.tl.Actors {
		r.checker.SetClock(a, r.judgeOff(a))
	}
}

// run runs the step's operation. moved names the rows an enqueue replaced
// (a broken engine's INSERT OR REPLACE), which go to the end of the table.
func (r *runner) run(s *StepLine, st *Step) (ops []check.Op, moved map[string]bool) {
	switch s.Op() {
	case engine.OpClaim, engine.OpClaimNext:
		ops = r.claim(s, st)
	case engine.OpClaimMany:
		ops = r.claimMany(s, st)
	case engine.OpRenew, engine.OpComplete, engine.OpRelease:
		ops = r.write(s, st)
	case engine.OpSend:
		if r.splitting {
			ops = r.sendBegins(s, st)
		} else {
			ops = r.send(s, st)
		}
	case engine.OpDeliver:
		ops = r.deliver(s, st)
	case engine.OpEnqueue:
		ops, moved = r.enqueue(s, st)
	case engine.OpState:
		r.state(s, st)
	case engine.OpWrite:
		ops = r.store1(s, st)
	case engine.OpRead:
		r.read(s, st)
	case engine.OpReopen:
		r.reopen(st)
	case OpPause:
		st.Args.For = s.For
		st.Outcome = StepOutcome{Kind: string(engine.OutcomeOK)}
	case OpCrash:
		r.crash(s, st)
	case OpLeaderChange:
		ops = r.leaderChange(s, st)
	case OpJump, OpDrift: // serviceChange ran before the step
	default: // wait
		st.Outcome = StepOutcome{Kind: string(engine.OutcomeOK)}
	}
	return ops, moved
}

// readBack reads the rows the step wrote and applies them to the mirror;
// after a reopen, or a statement over a whole table, it reads every row.
// It returns the changed rows as they stood before and as they stand now.
func (r *runner) readBack(st *Step, moved map[string]bool, reopened bool) (map[string]engine.Job, []engine.Job, error) {
	ids, whole := r.takeWritten()
	before := make(map[string]engine.Job, len(ids))
	if whole || reopened {
		jobs, err := r.store.Jobs(r.ctx)
		if err != nil {
			return nil, nil, err
		}
		old := r.table.all()
		for _, j := range old {
			before[j.ID] = j
		}
		st.Gone = append(st.Gone, r.table.reset(jobs)...)
		return before, changedRows(before, jobs), nil
	}
	for _, id := range ids {
		if j, ok := r.table.get(id); ok && !moved[id] {
			before[id] = j
		}
	}
	after, err := r.store.Inspect(r.ctx, ids...)
	if err != nil {
		return nil, nil, err
	}
	for id := range moved {
		st.Gone = append(st.Gone, id)
	}
	sort.Strings(st.Gone)
	r.table.apply(after, moved)
	return before, changedRows(before, after), nil
}

// changedRows are the rows of after that differ from before (all of them
// that before does not hold).
func changedRows(before map[string]engine.Job, after []engine.Job) []engine.Job {
	out := make([]engine.Job, 0, len(after))
	for _, j := range after {
		if b, ok := before[j.ID]; !ok || b != j {
			out = append(out, j)
		}
	}
	return out
}

// verdicts runs the checker on the step and marks the violations the
// step's expectation announced.
func (r *runner) verdicts(s *StepLine, ops []check.Op, changed []engine.Job, whole bool) []StepVerdict {
	var vs []check.Verdict
	if whole {
		vs = r.checker.Observe(ops, r.table.all())
	} else {
		vs = r.checker.ObserveChanged(ops, changed)
	}
	out := make([]StepVerdict, 0, len(vs))
	for _, v := range vs {
		out = append(out, StepVerdict{Invariant: v.Invariant, OK: v.OK, Detail: v.DetailIn(r.lang),
			Expected: !v.OK && s.Expect != nil && containsString(s.Expect.Violates, v.Invariant)})
	}
	return out
}

// noteGrants records when each job's current token was granted: at the
// step's time, for every row whose token changed in the step.
func (r *runner) noteGrants(before map[string]engine.Job, after []engine.Job, at int64) {
	for _, j := range after {
		if j.Token != before[j.ID].Token {
			r.granted[j.ID] = at
		}
	}
}

// expireAt reports the valid leases that end at or before t (true time),
// before a step at t runs: at now == lease_until a lease has ended.
func (r *runner) expireAt(t int64) []Expiry {
	out := []Expiry{}
	for job, e := range r.live {
		if e.At <= t {
			out = append(out, e)
			r.ended[job] = e
			delete(r.live, job)
		}
	}
	return out
}

// track updates the valid leases from the rows a step changed (it ended
// at end) and reports those that ended during the step (e.g. while a send
// took its time). A lease ends when its holder's clock reads lease_until.
func (r *runner) track(jobs []engine.Job, end int64) []Expiry {
	var out []Expiry
	for _, j := range jobs {
		if j.Status != engine.StatusLeased || j.Owner == "" {
			delete(r.live, j.ID)
			continue
		}
		e := Expiry{At: r.rowEnd(j.Owner, j.ID, j.LeaseUntil), Job: j.ID, Owner: j.Owner, Token: j.Token}
		if r.ended[j.ID] == e {
			continue // reported already; the row still shows the ended lease
		}
		if e.At <= end {
			out = append(out, e)
			r.ended[j.ID] = e
			delete(r.live, j.ID)
			continue
		}
		r.live[j.ID] = e
	}
	return out
}

func sortExpiries(es []Expiry) {
	sort.Slice(es, func(i, j int) bool {
		a, b := es[i], es[j]
		if a.At != b.At {
			return a.At < b.At
		}
		if a.Job != b.Job {
			return a.Job < b.Job
		}
		return a.Token < b.Token
	})
}

// storageRows is the storage as it stands, in key order.
func (r *runner) storageRows() []Stored {
	out := make([]Stored, 0, len(r.storage))
	for _, v := range r.storage {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}
