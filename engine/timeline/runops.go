package timeline

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/check"
)

// The operations of the steps, each on the engine as a worker calls it:
// at the worker's own now (the step's time plus its clock's offset).

// hold records l as the lease its owner now holds of its job.
func (r *runner) hold(l engine.Lease) {
	if l.JobID == "" || l.Owner == "" {
		return
	}
	m := r.leases[l.Owner]
	if m == nil {
		m = map[string]engine.Lease{}
		r.leases[l.Owner] = m
	}
	m[l.JobID] = l
}

// presented is the lease the step's actor presents: its own latest one of
// the job, with token= overriding the token; token 0 when it holds none.
func (r *runner) presented(s *StepLine) (engine.Lease, string) {
	if m, ok := r.inFlight[s.Line]; ok { // a message arriving: the lease it left with
		delete(r.inFlight, s.Line)
		return m.lease, m.from
	}
	actor := s.Actors[0]
	l, held := r.leases[actor][s.Job]
	if !held {
		l = engine.Lease{JobID: s.Job, Owner: actor, Qty: r.qtyOf(s.Job)}
	}
	switch {
	case s.HasToken:
		l.Token = s.Token
		return l, "token="
	case held:
		return l, "claim"
	}
	return l, "none"
}

func (r *runner) qtyOf(job string) int64 {
	if j, ok := r.table.get(job); ok {
		return j.Qty
	}
	return 1
}

func (r *runner) claim(s *StepLine, st *Step) []check.Op {
	actor, now := s.Actors[0], st.Now
	st.Args.TTL = s.TTL
	if r.tl.Takeover == TakeoverObserved {
		return r.claimObserved(s, st)
	}
	if r.tl.Nodes != 0 {
		return r.claimNodes(s, st)
	}
	var (
		l    engine.Lease
		err  error
		kind = engine.OpClaim
	)
	if s.Job == "" {
		kind = engine.OpClaimNext
		l, err = r.store.ClaimNext(r.ctx, actor, now, s.TTL)
	} else {
		l, err = r.store.Claim(r.ctx, s.Job, actor, now, s.TTL)
	}
	return r.answered(st, kind, actor, now, l, err)
}

// claimMany runs a concurrent claim. The contenders are admitted in the
// order written: the first one's claim goes to the database alone, then the
// others all at once through Store.ClaimManyOutcomes, each on its own
// connection, against the first one's result. So whoever wins is the same
// on every run and every platform, while the rest really do race; each
// loser's outcome carries the rule that refused it. The contenders claim
// at the first one's now.
func (r *runner) claimMany(s *StepLine, st *Step) []check.Op {
	st.Args.TTL = s.TTL
	first, rest, now := s.Actors[0], s.Actors[1:], st.Now
	l, err := r.store.Claim(r.ctx, s.Job, first, now, s.TTL)
	out, rej := outcomeOf(err)
	st.Contenders = append(st.Contenders, Contender{Actor: first, Outcome: out})
	ops := []check.Op{{Kind: engine.OpClaim, JobID: s.Job, Owner: first, Now: now, Accepted: err == nil, Lease: l}}
	if err == nil {
		r.hold(l)
		st.Lease = leaseOf(l)
		st.Contenders[0].Lease = leaseOf(l)
	}
	solo := r.takeSQL()
	outs, merr := r.store.ClaimManyOutcomes(r.ctx, s.Job, rest, now, s.TTL)
	if errors.Is(merr, engine.ErrPanicked) {
		r.failed = merr
	}
	st.SQL = append(solo, serialize(r.takeSQL())...)
	for i, a := range rest {
		c := r.contender(a, i, outs, merr)
		if c.Lease != nil {
			if st.Lease == nil {
				st.Lease = c.Lease
			}
			ops = append(ops, check.Op{Kind: engine.OpClaim, JobID: s.Job, Owner: a, Now: now, Accepted: true, Lease: outs[i].Lease})
		} else {
			ops = append(ops, check.Op{Kind: engine.OpClaim, JobID: s.Job, Owner: a, Now: now})
		}
		st.Contenders = append(st.Contenders, c)
	}
	st.Outcome = StepOutcome{Kind: string(engine.OutcomeOK)}
	for _, c := range st.Contenders {
		if c.Outcome.Kind == string(engine.OutcomeError) {
			st.Outcome = StepOutcome{Kind: c.Outcome.Kind, Error: c.Actor + ": " + c.Outcome.Error}
			return ops
		}
	}
	if len(winners(st)) == 0 {
		st.Outcome, st.Rejection = out, rej
	}
	return ops
}

// contender is the i-th racing contender's part of a concurrent claim.
func (r *runner) contender(actor string, i int, outs []engine.ClaimOutcome, merr error) Contender {
	c := Contender{Actor: actor}
	switch {
	case merr != nil:
		c.Outcome, _ = outcomeOf(merr)
	case i >= len(outs):
		c.Outcome = StepOutcome{Kind: string(engine.OutcomeError), Error: fmt.Sprintf("engine.ClaimManyOutcomes answered %d claims", len(outs))}
	case outs[i].Refusal != nil:
		c.Outcome, _ = outcomeOf(outs[i].Refusal)
	default:
		c.Outcome = StepOutcome{Kind: string(engine.OutcomeOK)}
		r.hold(outs[i].Lease)
		c.Lease = leaseOf(outs[i].Lease)
	}
	return c
}

// serialize puts the statements of concurrent transactions in the order the
// database ran them. Each transaction's BEGIN IMMEDIATE is observed before
// it waits for the write lock, so BEGINs interleave; everything after a
// BEGIN runs under the lock, so the bodies (up to COMMIT or ROLLBACK) do
// not. Each body gets one BEGIN back. Anything else is left as observed.
func serialize(stmts []Statement) []Statement {
	var begins, rest []Statement
	for _, s := range stmts {
		if s.SQL == "BEGIN IMMEDIATE" {
			begins = append(begins, s)
		} else {
			rest = append(rest, s)
		}
	}
	var out []Statement
	open := false
	for _, s := range rest {
		if !open {
			if len(begins) == 0 {
				return stmts
			}
			out = append(out, begins[0])
			begins = begins[1:]
			open = true
		}
		out = append(out, s)
		if s.SQL == "COMMIT" || s.SQL == "ROLLBACK" {
			open = false
		}
	}
	if open || len(begins) > 0 {
		return stmts
	}
	return out
}

// winners are the contenders of a concurrent claim who got the lease.
func winners(st *Step) []string {
	var w []string
	for _, c := range st.Contenders {
		if c.Outcome.Kind == string(engine.OutcomeOK) {
			w = append(w, c.Actor)
		}
	}
	return w
}

// write runs renew, complete or release with the actor's lease.
func (r *runner) write(s *StepLine, st *Step) []check.Op {
	if r.tl.Nodes != 0 && s.Verb == VerbRenew {
		return r.renewNodes(s, st)
	}
	if r.tl.Nodes != 0 && s.Verb == VerbRelease {
		return r.releaseNodes(s, st)
	}
	l, from := r.presented(s)
	st.Presented, st.Args.Token, st.Args.TokenFrom = leaseOf(l), l.Token, from
	now := st.Now
	op := check.Op{Kind: s.Op(), JobID: s.Job, Owner: l.Owner, Token: l.Token, Now: now}
	var err error
	switch s.Verb {
	case VerbRenew:
		st.Args.TTL = s.TTL
		var nl engine.Lease
		nl, err = r.store.Renew(r.ctx, l, now, s.TTL)
		if err == nil {
			r.hold(nl)
			st.Lease = leaseOf(nl)
			op.Lease = nl
		}
	case VerbComplete:
		st.Args.Result = s.Result
		err = r.store.Complete(r.ctx, l, now, s.Result)
	case VerbRelease:
		op.Now = 0
		err = r.store.Release(r.ctx, l)
	}
	st.Outcome, st.Rejection = outcomeOf(err)
	op.Accepted = err == nil
	return []check.Op{op}
}

// skewedClock is the clock a worker's operations are judged on: true time
// plus its offset as the run stands (a drifting service's, at each read).
type skewedClock struct {
	c      *engine.VirtualClock
	tl     *Timeline
	worker string
	before int
}

func (c skewedClock) Now() int64 { t := c.c.Now(); return t + c.tl.JudgeAt(c.worker, t, c.before) }

// send is the courier's Dispatch. The delivery lands at the step's time;
// the courier hears back took ms later, when Dispatch completes the job.
func (r *runner) send(s *StepLine, st *Step) []check.Op {
	actor := s.Actors[0]
	st.Args.TTL, st.Args.Took, st.Args.Fail = s.TTL, s.Took, s.Fail
	deliver := func(ctx context.Context, l engine.Lease) error {
		defer r.clock.Advance(s.Took)
		if s.Fail {
			return errSendFailed
		}
		rc, err := r.receive(ctx, l)
		st.Receipt = rc
		return err
	}
	clock := skewedClock{c: &r.clock, tl: r.tl, worker: actor, before: r.before}
	l, err := r.store.Dispatch(r.ctx, actor, clock, s.TTL, deliver)
	st.Outcome, st.Rejection = outcomeOf(err)
	if l.JobID == "" {
		return nil
	}
	r.hold(l)
	st.Job, st.Lease = l.JobID, leaseOf(l)
	ops := []check.Op{{Kind: engine.OpClaimNext, JobID: l.JobID, Owner: actor, Now: st.Now, Accepted: true, Lease: l}}
	ops = append(ops, deliveryOps(st.Receipt)...)
	w := check.Op{Kind: engine.OpComplete, JobID: l.JobID, Owner: actor, Token: l.Token, Now: s.End() + r.tl.JudgeAt(actor, s.End(), r.before), Accepted: err == nil}
	if st.Outcome.Kind == string(engine.OutcomeFailed) {
		w.Kind, w.Accepted = engine.OpRelease, true
	}
	return append(ops, w)
}

// sentSend is a split send between its two steps: the lease it claimed
// and what the receiver said.
type sentSend struct {
	lease   engine.Lease
	receipt *Receipt
}

// sendBegins is the first step of a split send: the courier claims the
// oldest claimable job and delivers it at the step's time (fail=true: the
// receiver does not answer); it hears back at a later step (heard), and
// other workers act in between.
func (r *runner) sendBegins(s *StepLine, st *Step) []check.Op {
	actor := s.Actors[0]
	st.Args.TTL, st.Args.Took, st.Args.Fail = s.TTL, s.Took, s.Fail
	l, err := r.store.ClaimNext(r.ctx, actor, st.Now, s.TTL)
	st.Outcome, st.Rejection = outcomeOf(err)
	if err != nil {
		return nil // nothing to hear back about
	}
	r.hold(l)
	st.Job, st.Lease = l.JobID, leaseOf(l)
	ops := []check.Op{{Kind: engine.OpClaimNext, JobID: l.JobID, Owner: actor, Now: st.Now, Accepted: true, Lease: l}}
	if !s.Fail {
		rc, err := r.receive(r.ctx, l)
		if err != nil {
			st.Outcome, _ = outcomeOf(err)
		}
		st.Receipt = rc
		ops = append(ops, deliveryOps(rc)...)
	}
	heard := s.End()
	st.Heard = &heard
	r.sending[s.Line] = sentSend{lease: l, receipt: st.Receipt}
	return ops
}

// heard is the second step of a split send, at its end: the courier
// completes the job (releases it, when the delivery failed), as Dispatch
// does, presenting the lease it claimed. The send line's expectation is
// judged here, on the whole send: its lease and receipt, and the outcome
// Dispatch would have returned. ok is false when the send claimed nothing.
func (r *runner) heard(i int, s *StepLine) (st Step, ok bool, err error) {
	snd, ok := r.sending[s.Line]
	if !ok {
		return Step{}, false, nil
	}
	delete(r.sending, s.Line)
	hs := *s
	hs.Time, hs.Took, hs.Note, hs.Expect = s.End(), 0, "", nil
	hs.Verb, hs.Job, hs.Result = VerbComplete, snd.lease.JobID, engine.ResultSent
	if s.Fail {
		hs.Verb = VerbRelease
	}
	r.splitting = false
	if st, err = r.step(i, &hs); err != nil {
		return st, false, err
	}
	st.Explain = strings.TrimSuffix(st.Explain, ".") + r.book.say(r.book.heardBack, s.Actors[0], s.Time, s.End()) + "."
	if s.Expect != nil {
		whole := st
		whole.Op, whole.Lease, whole.Receipt = string(engine.OpSend), leaseOf(snd.lease), snd.receipt
		if s.Fail {
			whole.Outcome, whole.Rejection = outcomeOf(errSendFailed)
		}
		st.Expect = r.judge(s, &whole)
	}
	return st, true, nil
}

// receive hands l to the receiver and reads its total and its row.
func (r *runner) receive(ctx context.Context, l engine.Lease) (*Receipt, error) {
	delivered, err := r.recv.Deliver(ctx, l)
	if err != nil {
		return nil, err
	}
	total, err := r.recv.Total(ctx)
	if err != nil {
		return nil, err
	}
	rc := &Receipt{Job: l.JobID, Qty: l.Qty, Owner: l.Owner, Token: l.Token, Delivered: delivered, Total: total}
	kept, err := r.recv.Receipts(ctx, l.JobID)
	if err != nil {
		return nil, err
	}
	if len(kept) == 1 {
		rc.Kept = ReceiptRow{Qty: kept[0].Qty, Owner: kept[0].Owner, Token: kept[0].Token}
	}
	return rc, nil
}

func (r *runner) deliver(s *StepLine, st *Step) []check.Op {
	l, from := r.presented(s)
	st.Presented, st.Args.Token, st.Args.TokenFrom = leaseOf(l), l.Token, from
	rc, err := r.receive(r.ctx, l)
	st.Receipt = rc
	st.Outcome, _ = outcomeOf(err)
	return deliveryOps(rc)
}

// deliveryOps is the receiver's part of a step for the checker: the
// delivery it made, applied or recognised as a resend; none without one.
func deliveryOps(rc *Receipt) []check.Op {
	if rc == nil {
		return nil
	}
	return []check.Op{{Kind: engine.OpDeliver, JobID: rc.Job, Owner: rc.Owner, Token: rc.Token, Accepted: rc.Delivered}}
}

func (r *runner) enqueue(s *StepLine, st *Step) ([]check.Op, map[string]bool) {
	st.Args.Qty, st.Args.Deadline, st.Args.MaxAttempts = s.Qty, s.Deadline, s.MaxAttempts
	_, existed := r.table.get(s.Job)
	created, err := r.store.Enqueue(r.ctx, engine.NewJob{ID: s.Job, Qty: s.Qty, Deadline: s.Deadline, MaxAttempts: s.MaxAttempts})
	st.Outcome, _ = outcomeOf(err)
	if err != nil {
		return nil, nil
	}
	st.Enqueued = &created
	ops := []check.Op{{Kind: engine.OpEnqueue, JobID: s.Job, Accepted: created}}
	if created && existed { // the row was deleted and inserted again
		return ops, map[string]bool{s.Job: true}
	}
	return ops, nil
}

func (r *runner) state(s *StepLine, st *Step) {
	j, err := r.store.Get(r.ctx, s.Job)
	st.Outcome, _ = outcomeOf(err)
	switch {
	case err == nil && j == nil:
		st.Outcome = StepOutcome{Kind: string(engine.OutcomeEmpty)}
	case err == nil:
		row := rowOf(*j)
		st.State = &row
	}
}

// store1 writes to the fenced storage with the actor's lease of the job.
func (r *runner) store1(s *StepLine, st *Step) []check.Op {
	l, from := r.presented(s)
	st.Presented, st.Args.Token, st.Args.TokenFrom = leaseOf(l), l.Token, from
	st.Args.Key, st.Args.Value = s.Key, s.Value
	var err error
	if r.tl.Storage == StorageSequencer {
		err = r.sequencer(s, l, st.Now)
	}
	if err == nil {
		err = r.stor.Write(r.ctx, s.Key, l, s.Value)
	}
	st.Outcome, st.Rejection = outcomeOf(err)
	if v, rerr := r.stor.All(r.ctx, s.Key); rerr == nil && len(v) == 1 {
		stored := Stored{Key: v[0].Key, Value: v[0].Value, Owner: v[0].Owner, Token: v[0].Token}
		r.storage[s.Key] = stored
		st.Stored = &stored
	}
	return []check.Op{{Kind: engine.OpWrite, JobID: s.Key, Owner: l.Owner, Token: l.Token, Accepted: err == nil,
		Lease: engine.Lease{JobID: l.JobID}}}
}

// sequencer is a sequencer storage's question to the lock service before
// a write: is the presented lease the job's current, live one at now? It
// answers as the queue answers a complete, with a *engine.Rejection, or
// nil.
func (r *runner) sequencer(s *StepLine, l engine.Lease, now int64) error {
	j, err := r.store.Get(r.ctx, s.Job)
	if err != nil {
		return err
	}
	refuse := func(reason error, cur engine.Job) error {
		return &engine.Rejection{Op: string(engine.OpWrite), Reason: reason,
			Presented: engine.Lease{JobID: s.Job, Owner: l.Owner, Token: l.Token}, Current: cur, Now: now}
	}
	switch {
	case j == nil:
		return refuse(engine.ErrNotFound, engine.Job{ID: s.Job})
	case j.Owner != l.Owner || j.Token != l.Token:
		return refuse(engine.ErrSuperseded, *j)
	case j.Status == engine.StatusDone:
		return refuse(engine.ErrDone, *j)
	case j.Status == engine.StatusQuarantined:
		return refuse(engine.ErrQuarantined, *j)
	case now >= j.LeaseUntil || (j.Deadline > 0 && now >= j.Deadline):
		return refuse(engine.ErrExpired, *j)
	}
	return nil
}

func (r *runner) read(s *StepLine, st *Step) {
	st.Args.Key = s.Key
	v, err := r.stor.Read(r.ctx, s.Key)
	st.Outcome, _ = outcomeOf(err)
	switch {
	case err == nil && v == nil:
		st.Outcome = StepOutcome{Kind: string(engine.OutcomeEmpty)}
	case err == nil:
		st.Stored = &Stored{Key: v.Key, Value: v.Value, Owner: v.Owner, Token: v.Token}
	}
}

// reopen opens the store over the same database again: init_db.
func (r *runner) reopen(st *Step) {
	err := r.open()
	if err == nil && r.tl.ServiceForgets {
		err = r.forget()
	}
	st.Outcome, _ = outcomeOf(err)
}

// forget is the restart of a lock service that kept its leases in memory:
// every job starts again, pending at token 0, with what it was enqueued
// with.
func (r *runner) forget() error {
	jobs := r.table.all()
	const del = "DELETE FROM jobs"
	if _, err := r.db.ExecContext(r.ctx, del); err != nil {
		return err
	}
	r.observe(engine.Statement{SQL: del})
	for _, j := range jobs {
		if _, err := r.store.Enqueue(r.ctx, engine.NewJob{ID: j.ID, Qty: j.Qty, Deadline: j.Deadline, MaxAttempts: j.MaxAttempts}); err != nil {
			return err
		}
	}
	return nil
}

// crash makes the actor forget every lease it held.
func (r *runner) crash(s *StepLine, st *Step) {
	actor := s.Actors[0]
	st.Outcome = StepOutcome{Kind: string(engine.OutcomeOK)}
	st.Forgot = []Lease{}
	for _, l := range r.leases[actor] {
		st.Forgot = append(st.Forgot, *leaseOf(l))
	}
	sort.Slice(st.Forgot, func(i, j int) bool { return st.Forgot[i].Job < st.Forgot[j].Job })
	for _, l := range st.Forgot { // a process gone believes nothing
		r.checker.Released(l.Job, actor)
	}
	delete(r.leases, actor)
}

// outcomeOf classifies an operation's error.
func outcomeOf(err error) (StepOutcome, *Rejection) {
	kind := engine.OutcomeOf(err)
	if errors.Is(err, errSendFailed) {
		kind = engine.OutcomeFailed
	}
	o := StepOutcome{Kind: string(kind)}
	var rej *engine.Rejection
	switch {
	case errors.As(err, &rej):
		o.Reason = string(rej.Refusal())
		return o, &Rejection{Op: rej.Op, Reason: o.Reason, Presented: *leaseOf(rej.Presented),
			Current: rowOf(rej.Current), Now: rej.Now, Message: rej.Error()}
	case kind == engine.OutcomeInvalid || kind == engine.OutcomeFailed || kind == engine.OutcomeError:
		o.Error = err.Error()
	}
	return o, nil
}

func leaseOf(l engine.Lease) *Lease {
	return &Lease{Job: l.JobID, Owner: l.Owner, Qty: l.Qty, Token: l.Token, Attempt: l.Attempt, LeaseUntil: l.LeaseUntil}
}

// leaderChange runs a `service leader-change`. With reset, the new leader
// renews every valid lease for the whole ttl its latest grant or renew
// asked for, at the step's instant on the clock its owner's operations are
// judged on, as a service that does not checkpoint its leases does when a
// new leader takes them over; the renewals are Store.Renew calls in the
// owner's name, judged as any renew. With keep, every lease keeps the time
// it had left, and nothing runs.
func (r *runner) leaderChange(s *StepLine, st *Step) []check.Op {
	st.Outcome = StepOutcome{Kind: string(engine.OutcomeOK)}
	st.Args.Leases = s.Leases
	if s.Leases != LeasesReset {
		return nil
	}
	var ops []check.Op
	for _, job := range slices.Sorted(maps.Keys(r.live)) {
		row, ok := r.table.get(job)
		ttl := cmp.Or(r.ttls[job], r.tl.Lease)
		if !ok || row.Status != engine.StatusLeased || row.Owner == "" || ttl <= 0 {
			continue
		}
		now := s.Time + r.judgeOff(row.Owner)
		r.resetFrom[job] = row.LeaseUntil
		l, err := r.store.Renew(r.ctx, engine.Lease{JobID: job, Owner: row.Owner, Token: row.Token}, now, ttl)
		var rej *engine.Rejection
		if err != nil && !errors.As(err, &rej) {
			r.failed = err
			return ops
		}
		ops = append(ops, check.Op{Kind: engine.OpRenew, JobID: job, Owner: row.Owner, Token: row.Token,
			Now: now, Accepted: err == nil, Lease: l})
		if err == nil {
			st.Renewed = append(st.Renewed, *leaseOf(l))
		}
	}
	return ops
}

// watch is a candidate's stopwatch on a job's record: the lease it saw
// there, the reading of its own clock and the true instant it first saw it.
type watch struct {
	seen      engine.Lease // only JobID, Owner, Token and LeaseUntil
	since, at int64
}

// claimObserved is a claim by id under `takeover observed`. The candidate
// reads the job's record (Store.Get); a job free or its own is claimed as
// usual. A job another holds is the candidate's to judge: it starts its
// stopwatch when the record differs from what it saw before, and until the
// record has stood unchanged for the ttl of the holder's latest claim or
// renew by that stopwatch, it writes nothing and hears held. Then it claims
// with a compare-and-swap on the record it saw (Store.ClaimSeen).
func (r *runner) claimObserved(s *StepLine, st *Step) []check.Op {
	actor, now := s.Actors[0], st.Now
	j, err := r.store.Get(r.ctx, s.Job)
	if err != nil {
		r.failed = err
		return nil
	}
	if j == nil || j.Owner == "" || j.Owner == actor || j.Status != engine.StatusLeased {
		l, err := r.store.Claim(r.ctx, s.Job, actor, now, s.TTL)
		return r.answered(st, engine.OpClaim, actor, now, l, err)
	}
	key := [2]string{actor, s.Job}
	seen := engine.Lease{JobID: s.Job, Owner: j.Owner, Token: j.Token, LeaseUntil: j.LeaseUntil}
	reading := s.Time + r.tl.ownOffset(actor, s.Time, r.before)
	w, ok := r.watches[key]
	if !ok || w.seen != seen {
		w = watch{seen: seen, since: reading, at: s.Time}
		r.watches[key] = w
	}
	wait := cmp.Or(r.ttls[s.Job], r.tl.Lease)
	st.Watch = &Watch{Holder: j.Owner, Token: j.Token, Since: w.at, Until: w.at + wait, Waited: reading - w.since, Wait: wait}
	if reading-w.since < wait {
		held := &engine.Rejection{Op: string(engine.OpClaim), Reason: engine.ErrHeld,
			Presented: engine.Lease{JobID: s.Job, Owner: actor}, Current: *j, Now: now}
		return r.answered(st, engine.OpClaim, actor, now, engine.Lease{}, held)
	}
	l, err := r.store.ClaimSeen(r.ctx, s.Job, actor, seen, now, s.TTL)
	return r.answered(st, engine.OpClaim, actor, now, l, err)
}

// answered records a claim's answer on the step and as the checker's op.
func (r *runner) answered(st *Step, kind engine.Op, actor string, now int64, l engine.Lease, err error) []check.Op {
	st.Outcome, st.Rejection = outcomeOf(err)
	if err == nil {
		r.hold(l)
		st.Lease = leaseOf(l)
		st.Job = l.JobID
	}
	return []check.Op{{Kind: kind, JobID: st.Job, Owner: actor, Now: now, Accepted: err == nil, Lease: l}}
}
