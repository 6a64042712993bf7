package timeline

import (
	"strings"

	"github.com/leaselab/leaselab/engine"
)

// explain says in one sentence what the step did and why, in the run's
// language; prev is the step's job as it stood before the step (nil: none).
func (r *runner) explain(s *StepLine, st *Step, prev *engine.Job, before map[string]engine.Job, after []engine.Job) string {
	text := r.explainStep(s, st, prev)
	return text + r.sideEffects(st, before, after)
}

// sideEffects names, after the step's sentence, every row other than the
// step's job that the step changed (a claim-next that quarantines the job
// it passes over); "" when there is none.
func (r *runner) sideEffects(st *Step, before map[string]engine.Job, after []engine.Job) string {
	if st.Op == string(engine.OpReopen) || st.Op == string(engine.OpEnqueue) || st.Op == string(OpLeaderChange) || len(st.Nodes) > 0 {
		return ""
	}
	var out strings.Builder
	for _, j := range after {
		if j.ID == st.Job {
			continue
		}
		if old, ok := before[j.ID]; ok && old.Status == j.Status && old.Owner == j.Owner && old.Token == j.Token {
			continue
		}
		out.WriteString(" " + r.book.say(r.book.alsoChanged, j.ID, r.describe(rowOf(j), st.Now)))
	}
	return out.String()
}

// explainStep is the sentence about the step's own job.
func (r *runner) explainStep(s *StepLine, st *Step, prev *engine.Job) string {
	b := r.book
	actor := ""
	if len(s.Actors) > 0 {
		actor = s.Actors[0]
	}
	op := b.ops[st.Op]
	switch st.Outcome.Kind {
	case string(engine.OutcomeInvalid):
		return b.say(b.invalid, actor, op, st.Outcome.Error)
	case string(engine.OutcomeError):
		who := actor
		if st.Op == string(engine.OpClaimMany) {
			who = b.list(s.Actors)
		}
		return b.say(b.failed, who, op, st.Outcome.Error)
	}
	var text string
	switch engine.Op(st.Op) {
	case engine.OpClaim, engine.OpClaimNext, engine.OpClaimMany, engine.OpRenew, engine.OpComplete, engine.OpRelease:
		text = r.explainLease(s, st, prev, actor)
	case engine.OpSend, engine.OpDeliver:
		text = r.explainCourier(st, prev, actor)
	default:
		text = r.explainOther(s, st, actor)
	}
	if note := r.clockNote(actor, st); note != "" {
		text = strings.TrimSuffix(text, ".") + note + "."
	}
	return text
}

// explainLease explains the operations on a lease.
func (r *runner) explainLease(s *StepLine, st *Step, prev *engine.Job, actor string) string {
	b := r.book
	if r.tl.Nodes != 0 && (s.Verb == VerbClaim || s.Verb == VerbRenew || s.Verb == VerbRelease) {
		return r.explainNodes(s, st, actor)
	}
	switch engine.Op(st.Op) {
	case engine.OpClaim, engine.OpClaimNext:
		switch st.Outcome.Kind {
		case string(engine.OutcomeEmpty):
			return b.say(b.noJob, actor)
		case string(engine.OutcomeRefused):
			if w := st.Watch; w != nil && w.Waited < w.Wait {
				return r.watching(actor, st)
			}
			return r.refusedClaim(actor, st.Job, st.Rejection, prev)
		}
		if w := st.Watch; w != nil {
			return r.claimed(s, st, actor, prev) + b.say(b.tookOver, actor, w.Holder, w.Token, w.Waited)
		}
		return r.claimed(s, st, actor, prev)
	case engine.OpClaimMany:
		return r.explainRace(s, st, prev)
	}
	if st.Outcome.Kind == string(engine.OutcomeRefused) {
		return b.say(b.writeRefused, actor, b.ops[st.Op], st.Presented.Token, r.why(actor, st.Rejection))
	}
	switch engine.Op(st.Op) {
	case engine.OpRenew:
		return b.say(b.renewed, actor, st.Job, st.Lease.Token, st.Lease.LeaseUntil, r.capNote(st.Lease.LeaseUntil, s, st))
	case engine.OpComplete:
		return b.say(b.completed, actor, st.Job, st.Presented.Token, s.Result)
	}
	return b.say(b.released, actor, st.Job, st.Presented.Token, st.Presented.Token+1)
}

func (r *runner) explainRace(s *StepLine, st *Step, prev *engine.Job) string {
	b := r.book
	names := b.list(s.Actors)
	w := winners(st)
	switch {
	case len(w) == 1:
		return b.say(b.manyWon, names, st.Job, w[0], st.Lease.Token, st.Lease.LeaseUntil)
	case len(w) > 1:
		return b.say(b.manyOdd, names, st.Job, b.list(w))
	case st.Rejection != nil:
		return b.say(b.manyNone, names, st.Job, r.why(s.Actors[0], st.Rejection))
	}
	return b.say(b.failed, names, b.ops[st.Op], outcomeText(st.Contenders[0].Outcome))
}

// explainCourier explains a send and a delivery.
func (r *runner) explainCourier(st *Step, prev *engine.Job, actor string) string {
	b := r.book
	rc := st.Receipt
	if st.Heard != nil { // a split send's first step: the complete comes later
		text := b.say(b.sendBegins, actor, st.Job, st.Lease.Token, *st.Heard)
		switch {
		case rc == nil:
			return text + " " + b.finish(b.noAnswer)
		case rc.Delivered && rc.Kept.Qty > rc.Qty:
			return text + " " + b.say(b.appliedAgain, actor, rc.Job, rc.Qty, rc.Token, rc.Total)
		case rc.Delivered:
			return text + " " + b.say(b.delivered, actor, rc.Job, rc.Qty, rc.Token, rc.Total)
		}
		return text + " " + b.say(b.redelivered, actor, rc.Job, rc.Qty, rc.Token, rc.Total)
	}
	if rc != nil && rc.Delivered && rc.Kept.Qty > rc.Qty { // applied on top of an earlier application
		return b.say(b.appliedAgain, actor, rc.Job, rc.Qty, rc.Token, rc.Total)
	}
	if st.Op == string(engine.OpDeliver) {
		if rc.Delivered {
			return b.say(b.delivered, actor, rc.Job, rc.Qty, rc.Token, rc.Total)
		}
		return b.say(b.redelivered, actor, rc.Job, rc.Qty, rc.Token, rc.Total)
	}
	switch st.Outcome.Kind {
	case string(engine.OutcomeEmpty):
		return b.say(b.sentNothing, actor)
	case string(engine.OutcomeFailed):
		return b.say(b.sendFailed, actor, st.Job, st.Lease.Token, st.End)
	case string(engine.OutcomeRefused):
		return b.say(b.sentLate, actor, st.Job, st.End, r.why(actor, st.Rejection))
	}
	if rc == nil {
		return b.say(b.failed, actor, b.ops[st.Op], "no receipt")
	}
	if rc.Delivered {
		return b.say(b.sent, actor, st.Job, rc.Token, rc.Qty, st.End)
	}
	return b.say(b.sentAgain, actor, st.Job, rc.Token, rc.Qty, st.End)
}

// explainOther explains the steps that are not about a lease: enqueue,
// state, the storage, pauses, crashes, waits and reopening.
func (r *runner) explainOther(s *StepLine, st *Step, actor string) string {
	b := r.book
	switch st.Op {
	case string(engine.OpEnqueue):
		if *st.Enqueued {
			return b.say(b.enqueued, actor, st.Job, max(s.Qty, 1))
		}
		return b.say(b.enqueueExists, actor, st.Job)
	case string(engine.OpState):
		if st.State == nil {
			return b.say(b.stateMissing, actor, st.Job)
		}
		return b.say(b.stateRead, actor, st.Job, r.describe(*st.State, st.Now))
	case string(engine.OpWrite):
		if st.Outcome.Kind == string(engine.OutcomeRefused) && st.Rejection.Reason != string(engine.RefusedFenced) {
			return b.say(b.wroteChecked, actor, s.Key, st.Presented.Token, r.why(actor, st.Rejection))
		}
		if st.Outcome.Kind == string(engine.OutcomeRefused) {
			return b.say(b.wroteFenced, actor, s.Key, st.Presented.Token, st.Rejection.Current.Owner, st.Rejection.Current.Token)
		}
		return r.wrote(s, st, actor)
	case string(engine.OpRead):
		if st.Stored == nil {
			return b.say(b.readMissing, actor, s.Key)
		}
		return b.say(b.readValue, actor, s.Key, st.Stored.Value, st.Stored.Owner, st.Stored.Token)
	case string(engine.OpReopen):
		if len(st.Gone) > 0 {
			return b.say(b.reopenedLost, actor, b.list(st.Gone))
		}
		if r.tl.ServiceForgets {
			return b.say(b.reopenedForgot, actor)
		}
		return b.say(b.reopened, actor)
	case string(OpJump), string(OpDrift):
		return r.explainService(s, st)
	case string(OpLeaderChange):
		return r.explainLeaderChange(s, st)
	case string(OpPause):
		return b.say(b.paused, actor, s.Time, s.Time+s.For)
	case string(OpCrash):
		if len(st.Forgot) == 0 {
			return b.say(b.crashedEmpty, actor)
		}
		var held []string
		for _, l := range st.Forgot {
			held = append(held, sentence("%s#%d", l.Job, l.Token))
		}
		return b.say(b.crashed, actor, b.list(held))
	}
	return b.say(b.waited, st.Time)
}

// wrote explains a write the storage accepted, and says so when the
// writer's lease is no longer the job's live one: the storage accepts a
// stale token it has not yet seen beaten.
func (r *runner) wrote(s *StepLine, st *Step, actor string) string {
	b := r.book
	tok := st.Presented.Token
	switch r.tl.Storage {
	case StorageUnfenced:
		return b.say(b.wroteUnfenced, actor, s.Key, tok, s.Value)
	case StorageSequencer:
		return b.say(b.wroteSequenced, actor, s.Key, tok, s.Value)
	}
	row, ok := r.table.get(st.Job)
	switch {
	case !ok || tok == 0:
	case row.Token > tok && row.Owner != "":
		return b.say(b.wroteStale, actor, s.Key, tok, s.Value, row.Owner, row.Token)
	case row.Token == tok && row.Owner == actor && row.Status == engine.StatusLeased && st.Now >= row.LeaseUntil:
		return b.say(b.wroteEnded, actor, s.Key, tok, s.Value, row.LeaseUntil)
	}
	return b.say(b.wrote, actor, s.Key, tok, s.Value)
}

// explainService says how a service jump or drift moves the service's
// clock, in true time and on that clock, and when each lease it judges
// ends now: those that end at once, then those still valid, by job.
func (r *runner) explainService(s *StepLine, st *Step) string {
	if s.Node != "" {
		return r.explainNodeClock(s, st)
	}
	b := r.book
	off := r.judgeOff("")
	var text string
	switch {
	case s.Verb == VerbJump && s.Jump > 0:
		text = b.say(b.jumped, s.Time, sentence(b.forward, s.Jump), st.Now-s.Jump, st.Now, r.offsetWords(off))
	case s.Verb == VerbJump:
		text = b.say(b.jumped, s.Time, sentence(b.back, -s.Jump), st.Now-s.Jump, st.Now, r.offsetWords(off))
	case s.Drift > 0:
		text = b.say(b.drifted, s.Time, sentence(b.gains, s.Drift), st.Now, r.offsetWords(off))
	case s.Drift < 0:
		text = b.say(b.drifted, s.Time, sentence(b.loses, -s.Drift), st.Now, r.offsetWords(off))
	default:
		text = b.say(b.steady, s.Time, st.Now, r.offsetWords(off))
	}
	for _, e := range st.Expired {
		if row, ok := r.table.get(e.Job); ok {
			text += b.say(b.leaseEnds, e.Owner, e.Job, e.Token, row.LeaseUntil, s.Time+r.tl.Offset(e.Owner))
		}
	}
	for _, e := range sortedLive(r.live) {
		if row, ok := r.table.get(e.Job); ok {
			text += b.say(b.leaseMoves, e.Owner, e.Job, e.Token, row.LeaseUntil, e.At)
		}
	}
	return text
}

// watching says what a candidate under `takeover observed` saw in a held
// job's record, and until when its stopwatch runs.
func (r *runner) watching(actor string, st *Step) string {
	b, w := r.book, st.Watch
	if w.Waited == 0 {
		return b.say(b.watchStarts, actor, w.Holder, st.Job, w.Token, st.Rejection.Current.LeaseUntil, w.Wait, w.Until)
	}
	return b.say(b.watchWaits, actor, w.Holder, st.Job, w.Waited, w.Wait, w.Until)
}

// explainLeaderChange says what a new leader did to each valid lease: with
// reset, until when it runs now and until when it ran before; with keep,
// when each still ends.
func (r *runner) explainLeaderChange(s *StepLine, st *Step) string {
	b := r.book
	if s.Leases == LeasesKeep {
		text := b.say(b.leaderKeeps, s.Time)
		for _, e := range sortedLive(r.live) {
			if row, ok := r.table.get(e.Job); ok {
				text += b.say(b.leaseKept, e.Owner, e.Job, e.Token, row.LeaseUntil)
			}
		}
		return text
	}
	text := b.say(b.leaderResets, s.Time)
	if len(st.Renewed) == 0 {
		return text + b.say("%s", b.noLeaseReset)
	}
	for _, l := range st.Renewed {
		text += b.say(b.leaseReset, l.Owner, l.Job, l.Token, r.resetFrom[l.Job], l.LeaseUntil)
	}
	return text
}

// sortedLive is the valid leases in the order expiries are told.
func sortedLive(live map[string]Expiry) []Expiry {
	out := make([]Expiry, 0, len(live))
	for _, e := range live {
		out = append(out, e)
	}
	sortExpiries(out)
	return out
}

// clockNote is what the clock of a worker whose clock is off read, to go
// before the sentence's full stop; "" for a worker whose clock is right.
//
// With a service clock, the instant is the service's, and a worker whose
// own clock differs is told what it believes its new lease runs until.
func (r *runner) clockNote(actor string, st *Step) string {
	if actor == "" || st.Op == string(OpPause) || st.Op == string(OpCrash) {
		return ""
	}
	b := r.book
	if r.tl.Service != nil {
		note := ""
		svc := r.judgeOff(actor) // the service's offset at this step
		if svc != 0 {
			note = b.say(b.serviceClock, st.Now, r.offsetWords(svc))
		}
		own := r.tl.Offset(actor)
		granted := st.Op == string(engine.OpClaim) || st.Op == string(engine.OpClaimNext) || st.Op == string(engine.OpRenew)
		if own != svc && granted && st.Lease != nil && st.Outcome.Kind == string(engine.OutcomeOK) {
			note += b.say(b.believes, actor, st.Time+own, st.Lease.LeaseUntil-svc+own)
		}
		return note
	}
	off := r.tl.Offset(actor)
	if off == 0 {
		return ""
	}
	return b.say(b.ownClock, actor, st.Now, r.offsetWords(off))
}

// offsetWords is a clock's offset in words: "300 ms ahead".
func (r *runner) offsetWords(off int64) string {
	if off < 0 {
		return sentence(r.book.behind, -off)
	}
	return sentence(r.book.ahead, off)
}

func (r *runner) claimed(s *StepLine, st *Step, actor string, prev *engine.Job) string {
	b := r.book
	l := st.Lease
	capped := r.capNote(l.LeaseUntil, s, st)
	if prev != nil && prev.Owner != "" && prev.Status == engine.StatusLeased && prev.LeaseUntil <= st.Now {
		format := b.reclaimed
		trueUntil := prev.LeaseUntil - r.judgeOff(prev.Owner)
		switch {
		case prev.Owner == actor:
			format = b.reclaimedSelf
		case r.judgeOff(prev.Owner) == r.judgeOff(actor):
		case trueUntil > st.Time:
			format = b.reclaimedEarly
		default:
			format = b.reclaimedClock
		}
		return b.say(format, actor, l.Job, l.Token, l.LeaseUntil, capped, prev.Owner, prev.Token, prev.LeaseUntil, trueUntil)
	}
	format := b.claimed
	if st.Op == string(engine.OpClaimNext) {
		format = b.claimedNext
	}
	return b.say(format, actor, l.Job, l.Token, l.LeaseUntil, capped)
}

// capNote is the note for a lease cut to its job's deadline.
func (r *runner) capNote(until int64, s *StepLine, st *Step) string {
	row, ok := r.table.get(st.Job)
	if ok && row.Deadline > 0 && until == row.Deadline && until < st.Now+s.TTL {
		return r.book.capNote
	}
	return ""
}

func (r *runner) refusedClaim(actor, job string, rej *Rejection, prev *engine.Job) string {
	b := r.book
	if rej.Reason == string(engine.RefusedQuarantined) && prev != nil && prev.Status != engine.StatusQuarantined {
		why := sentence(b.nowDeadline, rej.Current.Deadline)
		if rej.Current.Reason == engine.ReasonAttempts {
			why = sentence(b.nowAttempts, rej.Current.MaxAttempts)
		}
		return b.say(b.quarantinedBy, actor, job, why)
	}
	return b.say(b.claimRefused, actor, job, r.why(actor, rej))
}

// why is the clause that says why an operation was refused.
func (r *runner) why(actor string, rej *Rejection) string {
	b := r.book
	cur := rej.Current
	job := rej.Presented.Job
	switch engine.Refusal(rej.Reason) {
	case engine.RefusedNotFound:
		return sentence(b.notFound, job)
	case engine.RefusedDone:
		return sentence(b.isDone, job)
	case engine.RefusedQuarantined:
		if cur.Reason == engine.ReasonAttempts {
			return sentence(b.quarantinedAttempts, job, cur.MaxAttempts)
		}
		return sentence(b.quarantinedDeadline, job, cur.Deadline)
	case engine.RefusedHeld:
		if r.tl.LockDelay > 0 && rej.Now >= cur.LeaseUntil { // the lease ran out: the lock-delay keeps the job
			return sentence(b.heldDelay, cur.Owner, cur.Token, cur.LeaseUntil, cur.LeaseUntil+r.tl.LockDelay)
		}
		return sentence(b.held, cur.Owner, cur.Token, cur.LeaseUntil) + r.onClock(cur.Owner, actor, cur.LeaseUntil)
	case engine.RefusedSuperseded:
		return r.whySuperseded(actor, rej)
	case engine.RefusedExpired:
		if rej.Now >= cur.LeaseUntil {
			return sentence(b.expired, cur.LeaseUntil)
		}
		return sentence(b.deadlinePassed, cur.Deadline)
	}
	return rej.Message
}

// whySuperseded says who holds the job now that the presented token is
// stale: a newer holder (who may have written already), the actor's own
// newer claim, or nobody (the lease was given back).
func (r *runner) whySuperseded(actor string, rej *Rejection) string {
	b := r.book
	cur := rej.Current
	since := r.granted[rej.Presented.Job]
	note := "" // since is true time; said so when the actor's instants are on a clock that is off
	if r.judgeOff(actor) != 0 {
		note = b.trueTime
	}
	switch {
	case rej.Presented.Token == 0 && cur.Owner != actor:
		return sentence(b.neverHeld, actor)
	case cur.Owner == "":
		return sentence(b.supersededFree, cur.Token)
	case cur.Owner == actor:
		return sentence(b.supersededSelf, cur.Owner, cur.Token, since) + note
	case cur.Status == string(engine.StatusDone):
		return sentence(b.supersededDone, cur.Owner, cur.Token, since) + note
	}
	return sentence(b.superseded, cur.Owner, cur.Token, since) + note
}

// onClock says, after an instant t read on owner's judging clock, whose
// clock it is and the true time, when actor's judging clock differs; "".
func (r *runner) onClock(owner, actor string, t int64) string {
	off := r.judgeOff(owner)
	if off == r.judgeOff(actor) {
		return ""
	}
	return sentence(r.book.onClock, owner, t-off)
}

// describe puts a row in words, as it stands at now.
func (r *runner) describe(row Row, now int64) string {
	b := r.book
	switch row.Status {
	case string(engine.StatusDone):
		return sentence(b.rowDone, row.Owner, row.Token, row.Result)
	case string(engine.StatusQuarantined):
		return sentence(b.rowQuarantined, b.reasons[row.Reason], row.Token)
	case string(engine.StatusLeased):
		if now >= row.LeaseUntil {
			return sentence(b.rowLeaseEnded, row.Owner, row.Token, row.LeaseUntil)
		}
		return sentence(b.rowLeased, row.Owner, row.Token, row.LeaseUntil)
	}
	return sentence(b.rowPending, row.Token)
}
