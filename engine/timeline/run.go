package timeline

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/check"
)

// Options choose the engine and the language of a run. The zero value is the
// correct engine, explained in English.
type Options struct {
	// Mutant names one of the engine's broken variants (engine.WithMutant),
	// to play a timeline on it beside the correct engine; "" is the correct
	// engine. Only builds with the "mutants" tag have any.
	Mutant string
	// Lang is the language of the step explanations: "en" (the default) or
	// "ko".
	Lang string
}

// errSendFailed is what a send with fail=true returns to Store.Dispatch.
var errSendFailed = errors.New("the receiver did not answer")

// Run plays tl on db, which must be fresh and empty: it creates the schema
// itself, enqueues the declared jobs and runs every step at its instant on a
// virtual clock. It returns the trace; failed expectations and invariant
// violations are in it (Trace.Summary), not in the error. The error is for
// what stops a run: ErrNotFresh, ErrLang, an unknown mutant, or the database
// failing to read its rows. A database error inside a step is that step's
// outcome ("error"), and the run goes on.
//
// Run imports no SQLite driver: db may come from any database/sql driver for
// SQLite (package engine/timeline/memrun opens a fresh in-memory one).
func Run(ctx context.Context, db *sql.DB, tl *Timeline, opts Options) (*Trace, error) {
	lang := opts.Lang
	if lang == "" {
		lang = "en"
	}
	book := phrasebooks[lang]
	if book == nil {
		return nil, fmt.Errorf("%w %q (have %s)", ErrLang, lang, strings.Join(Langs(), ", "))
	}
	if err := runnable(tl); err != nil {
		return nil, err
	}
	r := &runner{
		ctx: ctx, tl: tl, book: book, checker: check.New(),
		leases: map[string]map[string]engine.Lease{}, granted: map[string]int64{},
		live: map[string]Expiry{}, ended: map[string]Expiry{},
	}
	store, err := engine.New(ctx, db, engine.WithMutant(opts.Mutant), engine.WithObserver(r.observe))
	if err != nil {
		return nil, err
	}
	recv, err := engine.NewReceiver(ctx, db, engine.WithMutant(opts.Mutant), engine.WithObserver(r.observe))
	if err != nil {
		return nil, err
	}
	r.store, r.recv = store, recv
	tr := &Trace{
		Format: FormatVersion, Name: tl.Name, Title: tl.Title, Lang: lang, Mutant: opts.Mutant,
		Lease: tl.Lease, Jobs: append([]JobDecl{}, tl.Jobs...), Actors: append([]string{}, tl.Actors...),
		Steps: []Step{}, Later: []Expiry{},
	}
	schema := r.takeSQL()
	if err := r.fresh(); err != nil {
		return nil, err
	}
	r.takeSQL() // fresh's own reads are not the timeline's
	var setupOps []check.Op
	for _, j := range tl.Jobs {
		created, err := store.Enqueue(ctx, engine.NewJob{ID: j.ID, Qty: j.Qty, Deadline: j.Deadline, MaxAttempts: j.Attempts})
		if err != nil {
			return nil, fmt.Errorf("%s:%d: enqueue %s: %w", tl.Name, j.Line, j.ID, err)
		}
		setupOps = append(setupOps, check.Op{Kind: engine.OpEnqueue, JobID: j.ID, Accepted: created})
	}
	tr.Setup = append(schema, r.takeSQL()...)
	if r.jobs, err = store.Jobs(ctx); err != nil {
		return nil, err
	}
	tr.Start = rowsOf(r.jobs)
	for _, v := range r.checker.Observe(setupOps, r.jobs) {
		if !v.OK {
			tr.Summary.Violations++
		}
	}
	for i := range tl.Steps {
		st, err := r.step(i, &tl.Steps[i])
		if err != nil {
			return nil, err
		}
		tr.Steps = append(tr.Steps, st)
		tr.Summary.Steps++
		for _, v := range st.Verdicts {
			if !v.OK {
				tr.Summary.Violations++
			}
		}
		if st.Expect != nil {
			tr.Summary.Expectations++
			if !st.Expect.OK {
				tr.Summary.Failed++
				tr.Summary.Failures = append(tr.Summary.Failures, st.Expect.Message)
			}
		}
	}
	for _, e := range r.live {
		tr.Later = append(tr.Later, e)
	}
	sortExpiries(tr.Later)
	tr.Final = rowsOf(r.jobs)
	tr.Summary.Passed = tr.Summary.Failed == 0 && tr.Summary.Violations == 0
	if tr.Summary.Failures == nil {
		tr.Summary.Failures = []string{}
	}
	return tr, nil
}

// runnable checks what Run relies on in a timeline that did not come from
// Parse: every step has an actor and a known verb, and time never goes back.
func runnable(tl *Timeline) error {
	var end int64
	for _, s := range tl.Steps {
		_, known := argKeys[s.Verb]
		switch {
		case len(s.Actors) == 0 || !known:
			return &Error{Name: tl.Name, Line: s.Line, Col: 1, Msg: "not a step Parse could return: no actor or an unknown verb"}
		case s.Time < end || s.Took < 0:
			return &Error{Name: tl.Name, Line: s.Line, Col: 1, Msg: "not a step Parse could return: time goes backwards"}
		}
		end = s.End()
	}
	return nil
}

// runner is one run's state.
type runner struct {
	ctx     context.Context
	tl      *Timeline
	book    *phrasebook
	store   *engine.Store
	recv    *engine.Receiver
	checker *check.Checker
	clock   engine.VirtualClock

	mu  sync.Mutex
	sql []Statement // what the observer saw since the last takeSQL

	jobs    []engine.Job                       // the rows after the latest step
	leases  map[string]map[string]engine.Lease // actor -> job -> the lease it holds (its latest)
	granted map[string]int64                   // job -> the instant its current token was granted
	live    map[string]Expiry                  // job -> its valid lease, by its end
	ended   map[string]Expiry                  // job -> the latest lease reported ended
}

func (r *runner) fresh() error {
	jobs, err := r.store.Jobs(r.ctx)
	if err != nil {
		return err
	}
	total, err := r.recv.Total(r.ctx)
	if err != nil {
		return err
	}
	if len(jobs) > 0 || total != 0 {
		return fmt.Errorf("%w: it holds %d jobs and receipts of total %d", ErrNotFresh, len(jobs), total)
	}
	return nil
}

func (r *runner) observe(s engine.Statement) {
	args := make([]any, len(s.Args))
	for i, a := range s.Args {
		args[i] = jsonValue(a)
	}
	r.mu.Lock()
	r.sql = append(r.sql, Statement{SQL: s.SQL, Args: args})
	r.mu.Unlock()
}

// jsonValue turns an SQL argument into a value with one JSON form.
func jsonValue(a any) any {
	switch v := a.(type) {
	case nil, string, int64, bool:
		return v
	case int:
		return int64(v)
	case int32:
		return int64(v)
	case []byte:
		return string(v)
	case fmt.Stringer:
		return v.String()
	}
	return fmt.Sprint(a)
}

func (r *runner) takeSQL() []Statement {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.sql
	r.sql = nil
	if out == nil {
		out = []Statement{}
	}
	return out
}

// step runs one step line and builds its trace.
func (r *runner) step(i int, s *StepLine) (Step, error) {
	st := Step{Index: i, Line: s.Line, Source: s.Source, Time: s.Time, Actors: s.Actors, Op: s.Op(), Job: s.Job}
	r.clock.Set(s.Time)
	expired := r.expireAt(s.Time)
	r.takeSQL()
	before := r.jobs
	var ops []check.Op
	switch st.Op {
	case "claim", "claim-next":
		ops = r.claim(s, &st)
	case "claim-many":
		ops = r.claimMany(s, &st)
	case "renew", "complete", "release":
		ops = r.write(s, &st)
	case "send":
		ops = r.send(s, &st)
	case "deliver":
		r.deliver(s, &st)
	case "enqueue":
		ops = r.enqueue(s, &st)
	case "state":
		r.state(s, &st)
	}
	r.clock.Set(s.End())
	st.End = s.End()
	if st.SQL == nil {
		st.SQL = r.takeSQL()
	}
	if wrote(st.SQL) {
		jobs, err := r.store.Jobs(r.ctx)
		if err != nil {
			return st, fmt.Errorf("%s:%d: read the rows: %w", r.tl.Name, s.Line, err)
		}
		r.jobs = jobs
	}
	jobs := r.jobs
	st.Rows = rowsOf(jobs)
	st.Changed = changedCells(before, jobs)
	r.noteGrants(before, jobs, s.Time)
	st.Expired = append(expired, r.track(jobs, st.End)...)
	sortExpiries(st.Expired)
	for _, v := range r.checker.Observe(ops, jobs) {
		st.Verdicts = append(st.Verdicts, Verdict{Invariant: v.Invariant, OK: v.OK, Detail: v.Detail})
	}
	if st.Verdicts == nil {
		st.Verdicts = []Verdict{}
	}
	st.Explain = r.explain(s, &st, before)
	if s.Expect != nil {
		st.Expect = r.judge(s, &st)
	}
	return st, nil
}

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
	for _, j := range r.jobs {
		if j.ID == job {
			return j.Qty
		}
	}
	return 1
}

func (r *runner) claim(s *StepLine, st *Step) []check.Op {
	actor := s.Actors[0]
	st.Args.TTL = s.TTL
	var (
		l    engine.Lease
		err  error
		kind = engine.OpClaim
	)
	if s.Job == "" {
		kind = engine.OpClaimNext
		l, err = r.store.ClaimNext(r.ctx, actor, s.Time, s.TTL)
	} else {
		l, err = r.store.Claim(r.ctx, s.Job, actor, s.Time, s.TTL)
	}
	st.Outcome, st.Rejection = outcomeOf(err)
	if err == nil {
		r.hold(l)
		st.Lease = leaseOf(l)
		st.Job = l.JobID
	}
	return []check.Op{{Kind: kind, JobID: st.Job, Owner: actor, Now: s.Time, Accepted: err == nil, Lease: l}}
}

// claimMany runs a concurrent claim. The contenders are admitted in the
// order written: the first one's claim goes to the database alone, then the
// others all at once through Store.ClaimManyOutcomes, each on its own
// connection, against the first one's result. So whoever wins is the same
// on every run and every platform, while the rest really do race; each
// loser's outcome carries the rule that refused it.
func (r *runner) claimMany(s *StepLine, st *Step) []check.Op {
	st.Args.TTL = s.TTL
	first, rest := s.Actors[0], s.Actors[1:]
	l, err := r.store.Claim(r.ctx, s.Job, first, s.Time, s.TTL)
	out, rej := outcomeOf(err)
	st.Contenders = append(st.Contenders, Contender{Actor: first, Outcome: out})
	ops := []check.Op{{Kind: engine.OpClaim, JobID: s.Job, Owner: first, Now: s.Time, Accepted: err == nil, Lease: l}}
	if err == nil {
		r.hold(l)
		st.Lease = leaseOf(l)
		st.Contenders[0].Lease = leaseOf(l)
	}
	solo := r.takeSQL()
	outs, merr := r.store.ClaimManyOutcomes(r.ctx, s.Job, rest, s.Time, s.TTL)
	st.SQL = append(solo, serialize(r.takeSQL())...)
	for i, a := range rest {
		c := Contender{Actor: a}
		switch {
		case merr != nil:
			c.Outcome, _ = outcomeOf(merr)
		case i >= len(outs):
			c.Outcome = Outcome{Kind: "error", Error: fmt.Sprintf("engine.ClaimManyOutcomes answered %d of %d claims", len(outs), len(rest))}
		case outs[i].Refusal != nil:
			c.Outcome, _ = outcomeOf(outs[i].Refusal)
		default:
			won := outs[i].Lease
			c.Outcome = Outcome{Kind: "ok"}
			r.hold(won)
			c.Lease = leaseOf(won)
			if st.Lease == nil {
				st.Lease = c.Lease
			}
			ops = append(ops, check.Op{Kind: engine.OpClaim, JobID: s.Job, Owner: a, Now: s.Time, Accepted: true, Lease: won})
		}
		if c.Outcome.Kind != "ok" {
			ops = append(ops, check.Op{Kind: engine.OpClaim, JobID: s.Job, Owner: a, Now: s.Time})
		}
		st.Contenders = append(st.Contenders, c)
	}
	st.Outcome = Outcome{Kind: "ok"}
	for _, c := range st.Contenders {
		if c.Outcome.Kind == "error" {
			st.Outcome = Outcome{Kind: "error", Error: c.Actor + ": " + c.Outcome.Error}
			return ops
		}
	}
	if len(winners(st)) == 0 {
		st.Outcome, st.Rejection = out, rej
	}
	return ops
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
		if c.Outcome.Kind == "ok" {
			w = append(w, c.Actor)
		}
	}
	return w
}

func (r *runner) write(s *StepLine, st *Step) []check.Op {
	l, from := r.presented(s)
	st.Presented, st.Args.Token, st.Args.TokenFrom = leaseOf(l), l.Token, from
	op := check.Op{JobID: s.Job, Owner: l.Owner, Token: l.Token, Now: s.Time}
	var err error
	switch s.Verb {
	case VerbRenew:
		st.Args.TTL = s.TTL
		op.Kind = engine.OpRenew
		var nl engine.Lease
		nl, err = r.store.Renew(r.ctx, l, s.Time, s.TTL)
		if err == nil {
			r.hold(nl)
			st.Lease = leaseOf(nl)
			op.Lease = nl
		}
	case VerbComplete:
		st.Args.Result = s.Result
		op.Kind = engine.OpComplete
		err = r.store.Complete(r.ctx, l, s.Time, s.Result)
	case VerbRelease:
		op.Kind = engine.OpRelease
		err = r.store.Release(r.ctx, l)
	}
	st.Outcome, st.Rejection = outcomeOf(err)
	op.Accepted = err == nil
	return []check.Op{op}
}

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
	l, err := r.store.Dispatch(r.ctx, actor, &r.clock, s.TTL, deliver)
	st.Outcome, st.Rejection = outcomeOf(err)
	if errors.Is(err, errSendFailed) {
		st.Outcome = Outcome{Kind: "failed", Error: err.Error()}
	}
	if l.JobID == "" {
		return nil
	}
	r.hold(l)
	st.Job, st.Lease = l.JobID, leaseOf(l)
	ops := []check.Op{{Kind: engine.OpClaimNext, JobID: l.JobID, Owner: actor, Now: s.Time, Accepted: true, Lease: l}}
	w := check.Op{JobID: l.JobID, Owner: actor, Token: l.Token, Now: s.End()}
	switch st.Outcome.Kind {
	case "failed":
		w.Kind, w.Accepted = engine.OpRelease, true
	default:
		w.Kind, w.Accepted = engine.OpComplete, err == nil
	}
	return append(ops, w)
}

// receive hands l to the receiver and reads its total.
func (r *runner) receive(ctx context.Context, l engine.Lease) (*Receipt, error) {
	delivered, err := r.recv.Deliver(ctx, l)
	if err != nil {
		return nil, err
	}
	total, err := r.recv.Total(ctx)
	if err != nil {
		return nil, err
	}
	return &Receipt{Job: l.JobID, Qty: l.Qty, Owner: l.Owner, Token: l.Token, Delivered: delivered, Total: total}, nil
}

func (r *runner) deliver(s *StepLine, st *Step) {
	l, from := r.presented(s)
	st.Presented, st.Args.Token, st.Args.TokenFrom = leaseOf(l), l.Token, from
	rc, err := r.receive(r.ctx, l)
	st.Receipt = rc
	st.Outcome, _ = outcomeOf(err)
}

func (r *runner) enqueue(s *StepLine, st *Step) []check.Op {
	st.Args.Qty, st.Args.Deadline, st.Args.Attempts = s.Qty, s.Deadline, s.Attempts
	created, err := r.store.Enqueue(r.ctx, engine.NewJob{ID: s.Job, Qty: s.Qty, Deadline: s.Deadline, MaxAttempts: s.Attempts})
	st.Outcome, _ = outcomeOf(err)
	if err != nil {
		return nil
	}
	st.Enqueued = &created
	return []check.Op{{Kind: engine.OpEnqueue, JobID: s.Job, Accepted: created}}
}

func (r *runner) state(s *StepLine, st *Step) {
	j, err := r.store.Get(r.ctx, s.Job)
	st.Outcome, _ = outcomeOf(err)
	switch {
	case err == nil && j == nil:
		st.Outcome = Outcome{Kind: "empty"}
	case err == nil:
		row := rowOf(*j)
		st.State = &row
	}
}

// outcomeOf classifies an operation's error.
func outcomeOf(err error) (Outcome, *Rejection) {
	var rej *engine.Rejection
	switch {
	case err == nil:
		return Outcome{Kind: "ok"}, nil
	case errors.As(err, &rej):
		reason := reasonOf(rej.Reason)
		return Outcome{Kind: "refused", Reason: reason}, &Rejection{
			Op: rej.Op, Reason: reason, Presented: *leaseOf(rej.Presented), Current: rowOf(rej.Current),
			Now: rej.Now, Message: rej.Error(),
		}
	case errors.Is(err, engine.ErrEmpty):
		return Outcome{Kind: "empty"}, nil
	case errors.Is(err, engine.ErrInvalid):
		return Outcome{Kind: "invalid", Error: err.Error()}, nil
	case errors.Is(err, errSendFailed):
		return Outcome{Kind: "failed", Error: err.Error()}, nil
	}
	return Outcome{Kind: "error", Error: err.Error()}, nil
}

// reasonOf names a rejection's sentinel as the timeline language does.
func reasonOf(err error) string {
	for _, c := range []struct {
		sentinel error
		name     string
	}{
		{engine.ErrNotFound, "not-found"}, {engine.ErrDone, "done"}, {engine.ErrQuarantined, "quarantined"},
		{engine.ErrHeld, "held"}, {engine.ErrSuperseded, "superseded"}, {engine.ErrExpired, "expired"},
	} {
		if errors.Is(err, c.sentinel) {
			return c.name
		}
	}
	if err == nil {
		return ""
	}
	return err.Error()
}

func leaseOf(l engine.Lease) *Lease {
	return &Lease{Job: l.JobID, Owner: l.Owner, Qty: l.Qty, Token: l.Token, Attempt: l.Attempt, LeaseUntil: l.LeaseUntil}
}

func rowOf(j engine.Job) Row {
	return Row{ID: j.ID, Qty: j.Qty, Owner: j.Owner, LeaseUntil: j.LeaseUntil, Token: j.Token, Attempts: j.Attempts,
		MaxAttempts: j.MaxAttempts, Deadline: j.Deadline, Status: string(j.Status), Reason: j.Reason, Result: j.Result}
}

func rowsOf(jobs []engine.Job) []Row {
	out := make([]Row, len(jobs))
	for i, j := range jobs {
		out[i] = rowOf(j)
	}
	return out
}

// wrote reports whether stmts hold anything but reads and transaction
// control. The observer sees every statement the store runs, so a step
// without a write left the rows as they were and they need no reading.
func wrote(stmts []Statement) bool {
	for _, s := range stmts {
		switch {
		case s.SQL == "BEGIN IMMEDIATE", s.SQL == "COMMIT", s.SQL == "ROLLBACK":
		case strings.HasPrefix(s.SQL, "SELECT "):
		default:
			return true
		}
	}
	return false
}

// changedCells lists the cells of after that differ from before, in row
// order and then in Row's column order; a new row reports every column.
func changedCells(before, after []engine.Job) []Cell {
	prev := make(map[string]*engine.Job, len(before))
	for i := range before {
		prev[before[i].ID] = &before[i]
	}
	out := []Cell{}
	for i := range after {
		a := &after[i]
		p := prev[a.ID]
		if p == nil {
			p = &engine.Job{}
		}
		for _, c := range []struct {
			name    string
			changed bool
		}{
			{"id", p.ID != a.ID}, {"qty", p.Qty != a.Qty}, {"owner", p.Owner != a.Owner},
			{"lease_until", p.LeaseUntil != a.LeaseUntil}, {"token", p.Token != a.Token},
			{"attempts", p.Attempts != a.Attempts}, {"max_attempts", p.MaxAttempts != a.MaxAttempts},
			{"deadline", p.Deadline != a.Deadline}, {"status", p.Status != a.Status},
			{"reason", p.Reason != a.Reason}, {"result", p.Result != a.Result},
		} {
			if c.changed || prev[a.ID] == nil {
				out = append(out, Cell{Job: a.ID, Column: c.name})
			}
		}
	}
	return out
}

// noteGrants records when each job's current token was granted: at the
// step's time, for every row whose token changed in the step.
func (r *runner) noteGrants(before, after []engine.Job, at int64) {
	prev := map[string]int64{}
	for _, j := range before {
		prev[j.ID] = j.Token
	}
	for _, j := range after {
		if j.Token != prev[j.ID] {
			r.granted[j.ID] = at
		}
	}
}

// expireAt reports the valid leases that end at or before t, before a step
// at t runs: at now == lease_until a lease has ended.
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

// track updates the valid leases from the rows after a step that ended at
// end, and reports those that ended during the step (e.g. while a send took
// its time).
func (r *runner) track(jobs []engine.Job, end int64) []Expiry {
	var out []Expiry
	for _, j := range jobs {
		if j.Status != engine.StatusLeased || j.Owner == "" {
			delete(r.live, j.ID)
			continue
		}
		e := Expiry{At: j.LeaseUntil, Job: j.ID, Owner: j.Owner, Token: j.Token}
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
