package timeline

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/check"
	"github.com/leaselab/leaselab/engine/limits"
)

// Options choose the engine and the language of a run. The zero value is the
// correct engine, explained in English.
type Options struct {
	// Mutant names one of the engine's deliberately broken variants, to
	// play a timeline on it beside the correct engine; "" is the correct
	// engine. Only builds with the "mutants" tag have any: any other build
	// refuses every name with ErrInvalid.
	Mutant string
	// Lang is the language of the step explanations: "en" (the default) or
	// "ko".
	Lang string
	// TraceBytes is the most bytes the trace's JSON may take; 0 is
	// limits.Default's trace_bytes. Each step is counted as it is made, and
	// the step that takes the trace past it stops the run.
	TraceBytes int
}

// errSendFailed is what a send with fail=true returns to Store.Dispatch.
var errSendFailed = errors.New("the receiver did not answer")

// Run plays tl on db, which must be fresh and empty: it creates the schema
// itself, enqueues the declared jobs and runs every step at its instant on a
// virtual clock. It returns the trace; failed expectations and invariant
// violations are in it (Trace.Summary), not in the error. The error is for
// what stops a run: ErrNotFresh, ErrLang, an unknown mutant, ctx ending
// (checked before every step: a run nobody waits for stops), the database
// failing to read its rows, or a panic in a goroutine of the engine
// (engine.ErrPanicked: the server failed, not the timeline). A database
// error inside a step is that step's outcome ("error"), and the run goes
// on.
//
// Run imports no SQLite driver: db may come from any database/sql driver for
// SQLite (package engine/timeline/memrun opens a fresh in-memory one).
func Run(ctx context.Context, db *sql.DB, tl *Timeline, opts Options) (*Trace, error) {
	r, err := newRunner(ctx, db, tl, opts)
	if err != nil {
		return nil, err
	}
	tr, err := r.setup()
	if err != nil {
		return nil, err
	}
	tr.maxBytes = r.maxBytes
	if r.scratch, err = tr.appendJSON(ctx, r.scratch[:0]); err != nil {
		if errors.Is(err, limits.ErrExceeded) {
			return nil, r.overLimit(1, "its start") // the jobs' table alone
		}
		return nil, err
	}
	r.traceBytes = len(r.scratch)
	for _, ev := range tl.schedule() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		s := tl.Steps[ev.step]
		r.at, r.before = ev.at, ev.before
		if ev.leave { // the message leaves with the lease its actor holds now
			l, from := r.presented(&s)
			r.inFlight[s.Line] = sentLease{l, from}
			continue
		}
		if ev.heard { // a split send's courier hears back
			st, ok, err := r.heard(len(tr.Steps), &s)
			if err != nil {
				return nil, err
			}
			if ok {
				if err := r.count(&st); err != nil {
					return nil, err
				}
				tr.Steps = append(tr.Steps, st)
				tr.Summary.add(&st)
			}
			continue
		}
		r.splitting = ev.split
		sent := s.Time
		if s.Arrives != 0 {
			s.Time, s.Arrives = s.Arrives, 0
		}
		st, err := r.step(len(tr.Steps), &s)
		if err != nil {
			return nil, err
		}
		if s.Time != sent {
			st.Sent = &sent
			st.Explain = strings.TrimSuffix(st.Explain, ".") + r.book.say(r.book.inFlight, sent, s.Time-sent) + "."
		}
		if err := r.count(&st); err != nil {
			return nil, err
		}
		tr.Steps = append(tr.Steps, st)
		tr.Summary.add(&st)
	}
	return r.finish(tr)
}

// sentLease is a message's lease as it left its sender, and where its
// token came from (Args.TokenFrom).
type sentLease struct {
	lease engine.Lease
	from  string
}

// event is one thing a run does at an instant: a step, or a message in
// flight leaving its sender (its arrival is a step of its own).
type event struct {
	at    int64
	step  int // in Timeline.Steps
	leave bool
	// before counts the steps written before the event takes effect: the
	// service's jumps and drifts among them have moved its clock.
	before int
	// split marks a send whose courier hears back at a later event, heard
	// that event: other events come between its claim and its complete.
	split, heard bool
}

// schedule is the order a run takes the steps in: as written, each message
// in flight leaving at its step's time and arriving, as a step, at its
// arrives= instant, after the steps written at that instant. A slow send
// (took=) that other events fall inside is split: its courier claims and
// delivers at its time, and hears back (the complete) at its end, before
// the steps written at that instant; one that nothing falls inside stays
// one step.
func (tl *Timeline) schedule() []event {
	var out, later []event
	for i, s := range tl.Steps {
		if s.Arrives != 0 {
			out = append(out, event{at: s.Time, step: i, leave: true, before: i})
			after := sort.Search(len(tl.Steps), func(j int) bool { return tl.Steps[j].Time > s.Arrives })
			later = append(later, event{at: s.Arrives, step: i, before: after})
			continue
		}
		ev := event{at: s.Time, step: i, before: i, split: tl.splits(i)}
		out = append(out, ev)
		if ev.split {
			end := s.End()
			before := sort.Search(len(tl.Steps), func(j int) bool { return tl.Steps[j].Time >= end })
			later = append(later, event{at: end, step: i, heard: true, before: before})
		}
	}
	order := func(e event) int { // among events at one instant: hearing back, as written, arrivals
		switch {
		case e.heard:
			return 0
		case e.leave || tl.Steps[e.step].Arrives == 0:
			return 1
		}
		return 2
	}
	out = append(out, later...)
	sort.SliceStable(out, func(a, b int) bool {
		if out[a].at != out[b].at {
			return out[a].at < out[b].at
		}
		return order(out[a]) < order(out[b])
	})
	return out
}

// splits reports whether step i is a send that another event falls
// inside, between its claim at its time and its complete at its end: a
// step written after it before its end, a message arriving in that
// interval, or another split send hearing back strictly inside it.
func (tl *Timeline) splits(i int) bool {
	s := tl.Steps[i]
	if s.Verb != VerbSend || s.Took <= 0 {
		return false
	}
	end := s.End()
	for j, o := range tl.Steps {
		switch {
		case j > i && o.Time < end,
			j != i && o.Arrives != 0 && o.Arrives >= s.Time && o.Arrives < end,
			j < i && o.Verb == VerbSend && o.Took > 0 && o.End() > s.Time && o.End() < end:
			return true
		}
	}
	return false
}

// count adds st's bytes in the trace's JSON to the run's total, and stops
// the run with an error at st's line once the total passes the limit
// trace_bytes: a timeline whose trace would be too large is refused at the
// step where it becomes so, before the rest of it runs.
func (r *runner) count(st *Step) error {
	var n int
	r.scratch, n = stepBytes(r.scratch, st)
	r.traceBytes += n
	if r.traceBytes <= r.maxBytes {
		return nil
	}
	return r.overLimit(st.Line, "this step")
}

// overLimit is the error of a trace that passes its limit at line, at
// where (a step, or its start).
func (r *runner) overLimit(line int, where string) error {
	row := limits.Default.Row("trace_bytes")
	row.Value = int64(r.maxBytes)
	return ErrorList{&Error{Name: r.tl.Name, Line: line, Col: 1,
		Msg: fmt.Sprintf("the trace passes the limit %s at %s; nothing of it is given", row, where),
		Err: traceExceeded(row)}}
}

func newRunner(ctx context.Context, db *sql.DB, tl *Timeline, opts Options) (*runner, error) {
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
		ctx: ctx, db: db, tl: tl, lang: lang, book: book, checker: check.New(), mutant: opts.Mutant,
		table: newTable(), storage: map[string]Stored{},
		leases: map[string]map[string]engine.Lease{}, granted: map[string]int64{}, inFlight: map[int]sentLease{}, sending: map[int]sentSend{},
		live: map[string]Expiry{}, ended: map[string]Expiry{}, ttls: map[string]int64{}, watches: map[[2]string]watch{}, resetFrom: map[string]int64{},
		maxBytes: cmp.Or(opts.TraceBytes, limits.Default.TraceBytes),
	}
	for _, c := range tl.Clocks {
		if tl.Nodes == 0 { // with nodes, every operation is on its node's clock
			r.checker.SetClock(c.Worker, c.Offset)
		}
	}
	r.checker.SetLockDelay(tl.LockDelay)
	if tl.Service != nil { // every lease is on the service's clock
		for _, a := range tl.Actors {
			r.checker.SetClock(a, tl.Service.Offset)
		}
	}
	r.moving = tl.Nodes == 0 && slices.ContainsFunc(tl.Steps, func(s StepLine) bool { return s.Verb == VerbJump || s.Verb == VerbDrift })
	return r, r.open()
}

// open opens the store on the run's database, and the receiver and the
// storage if the timeline uses them: init_db, at the start and at every
// reopen. A timeline that never sends, delivers, writes or reads neither
// creates nor shows their tables: its trace's setup is the jobs' schema,
// and SQLite parses and runs less before the first step (see
// engine/DECISIONS.md, "Tables a timeline does not use").
func (r *runner) open() error {
	opts := []engine.Option{engine.WithObserver(r.observe)}
	if r.mutant != "" {
		mut, err := withMutant(r.mutant)
		if err != nil {
			return err
		}
		opts = append(opts, mut)
	}
	storeOpts := opts
	if r.tl.LockDelay > 0 {
		storeOpts = append(append([]engine.Option{}, opts...), engine.WithLockDelay(r.tl.LockDelay))
	}
	store, err := engine.New(r.ctx, r.db, storeOpts...)
	if err != nil {
		return err
	}
	r.store = store
	if usesReceiver(r.tl) {
		ropts := opts
		if r.tl.ReceiverNotIdempotent {
			ropts = append(append([]engine.Option{}, opts...), engine.WithoutIdempotence())
		}
		if r.recv, err = engine.NewReceiver(r.ctx, r.db, ropts...); err != nil {
			return err
		}
	}
	if usesStorage(r.tl) {
		sopts := opts
		if r.tl.Storage == StorageUnfenced {
			sopts = append(append([]engine.Option{}, opts...), engine.WithoutFencing())
		}
		if r.stor, err = engine.NewStorage(r.ctx, r.db, sopts...); err != nil {
			return err
		}
	}
	return nil
}

// usesReceiver reports whether a step of tl hands a lease to the receiver.
func usesReceiver(tl *Timeline) bool {
	return slices.ContainsFunc(tl.Steps, func(s StepLine) bool { return s.Verb == VerbSend || s.Verb == VerbDeliver })
}

// usesStorage reports whether a step of tl writes to or reads the fenced
// storage.
func usesStorage(tl *Timeline) bool {
	return slices.ContainsFunc(tl.Steps, func(s StepLine) bool { return s.Verb == VerbWrite || s.Verb == VerbRead })
}

// setup checks the database is fresh, enqueues the declared jobs and starts
// the trace with the table as it stands before the first step.
func (r *runner) setup() (*Trace, error) {
	tl := r.tl
	tr := &Trace{
		Format: FormatVersion, Name: tl.Name, Title: tl.Title, Lang: r.lang, Mutant: r.mutant,
		Lease: tl.Lease, Jobs: append([]JobDecl{}, tl.Jobs...), Actors: append([]string{}, tl.Actors...),
		Clocks: append([]ClockDecl{}, tl.Clocks...), Service: tl.Service, LockDelay: tl.LockDelay, Takeover: tl.Takeover, Nodes: tl.Nodes, Steps: make([]Step, 0, len(tl.Steps)), Later: []Expiry{},
	}
	for _, w := range tl.Warnings {
		tr.Warnings = append(tr.Warnings, w.In(r.lang))
	}
	schema := r.takeSQL()
	if err := r.fresh(); err != nil {
		return nil, err
	}
	r.takeSQL() // fresh's own reads are not the timeline's
	var ops []check.Op
	for _, j := range tl.Jobs {
		for _, id := range tl.rowsOf(j.ID) {
			created, err := r.store.Enqueue(r.ctx, engine.NewJob{ID: id, Qty: j.Qty, Deadline: j.Deadline, MaxAttempts: j.MaxAttempts})
			if err != nil {
				return nil, fmt.Errorf("%s:%d: enqueue %s: %w", tl.Name, j.Line, id, err)
			}
			ops = append(ops, check.Op{Kind: engine.OpEnqueue, JobID: id, Accepted: created})
		}
	}
	tr.Setup = append(schema, r.takeSQL()...)
	r.takeWritten()
	jobs, err := r.store.Jobs(r.ctx)
	if err != nil {
		return nil, err
	}
	r.table.reset(jobs)
	tr.Start = rowsOf(jobs)
	for _, v := range r.checker.Observe(ops, jobs) {
		if !v.OK {
			tr.Summary.Violations++
		}
	}
	return tr, nil
}

// finish closes the trace: the leases still valid, the final table and
// storage, the verdict.
func (r *runner) finish(tr *Trace) (*Trace, error) {
	for _, e := range r.live {
		tr.Later = append(tr.Later, e)
	}
	sortExpiries(tr.Later)
	tr.Final = rowsOf(r.table.all())
	tr.Storage = r.storageRows()
	tr.Summary.Passed = tr.Summary.Failed == 0 && tr.Summary.Violations == 0
	if tr.Summary.Failures == nil {
		tr.Summary.Failures = []string{}
	}
	return tr, nil
}

// add counts one step into the summary.
func (s *Summary) add(st *Step) {
	s.Steps++
	for _, v := range st.Verdicts {
		switch {
		case v.OK:
		case v.Expected:
			s.Announced++
		default:
			s.Violations++
		}
	}
	if st.Expect != nil {
		s.Expectations++
		if !st.Expect.OK {
			s.Failed++
			s.Failures = append(s.Failures, st.Expect.Message)
		}
	}
}

// runnable checks what Run relies on in a timeline that did not come from
// Parse: every step but a wait has an actor and every step a known verb,
// time never goes back, and the limits that bound a run's work hold.
func runnable(tl *Timeline) error {
	bad := func(s StepLine, msg string) error {
		return &Error{Name: tl.Name, Line: s.Line, Col: 1, Msg: "not a step Parse could return: " + msg}
	}
	if len(tl.Steps) > limits.Default.Steps || len(tl.Jobs) > limits.Default.Jobs {
		return &Error{Name: tl.Name, Line: 1, Col: 1, Msg: "over the limits steps or jobs"}
	}
	for _, j := range tl.Jobs {
		if len(j.ID) > limits.Default.NameBytes {
			return &Error{Name: tl.Name, Line: j.Line, Col: 1, Msg: "not a job Parse could return: over the limit name_bytes"}
		}
	}
	var end int64
	for _, s := range tl.Steps {
		_, known := verbArgs[s.Verb]
		if s.Verb == VerbJump || s.Verb == VerbDrift {
			known = tl.Service != nil || (tl.Nodes != 0 && tl.isNode(s.Node)) || (s.Node != "" && len(s.Actors) == 1)
		}
		if s.Verb == VerbLeaderChange {
			known = s.Leases == LeasesReset || s.Leases == LeasesKeep
		}
		switch {
		case len(s.Job) > limits.Default.NameBytes || slices.ContainsFunc(s.Actors, func(a string) bool { return len(a) > limits.Default.NameBytes }):
			return bad(s, "over the limit name_bytes")
		case !known || ((len(s.Actors) == 0) != s.Verb.Actorless() && !(s.Node != "" && len(s.Actors) == 1 && s.Actors[0] == s.Node)):
			return bad(s, "no actor or an unknown verb")
		case len(s.Actors) > limits.Default.Contenders:
			return bad(s, "over the limit contenders")
		case s.Time < end || s.Took < 0 || s.For < 0:
			return bad(s, "time goes backwards")
		}
		end = s.Time
	}
	return nil
}

// runner is one run's state.
type runner struct {
	ctx     context.Context
	db      *sql.DB
	tl      *Timeline
	lang    string
	mutant  string
	book    *phrasebook
	store   *engine.Store
	recv    *engine.Receiver // nil unless the timeline sends or delivers (usesReceiver)
	stor    *engine.Storage  // nil unless the timeline writes or reads (usesStorage)
	checker *check.Checker
	clock   engine.VirtualClock // true time
	moving  bool                // the service's clock jumps or drifts at a step
	// splitting is set while the first half of a split send runs; sending
	// holds each such send's lease and receipt, by line, until it hears back.
	splitting bool
	sending   map[int]sentSend
	at        int64 // the true instant of the event the run is at
	before    int   // the steps written before that event (Timeline.JudgeAt)
	failed    error // a failure that stops the run (engine.ErrPanicked), set by a step

	mu      sync.Mutex
	sql     []Statement                // what the observer saw since the last takeSQL
	written map[string]map[string]bool // table -> keys written since the last takeWritten
	dropped bool                       // a statement over a whole table wrote since the last takeWritten

	table   *table                             // the jobs as they stand, mirrored from the rows each step wrote
	storage map[string]Stored                  // the fenced storage as it stands
	leases  map[string]map[string]engine.Lease // actor -> job -> the lease it holds (its latest)
	// inFlight are the messages sent and not yet arrived, by line: the
	// lease each presents, as its actor held it when it sent it.
	inFlight map[int]sentLease
	granted  map[string]int64    // job -> the instant its current token was granted
	live     map[string]Expiry   // job -> its valid lease, by its end
	ended    map[string]Expiry   // job -> the latest lease reported ended
	ttls     map[string]int64    // job -> the ttl its latest grant or renew asked for
	watches  map[[2]string]watch // (candidate, job) -> its stopwatch on the job's record (takeover observed)
	// resetFrom is, for each lease a leader change renewed, its lease_until
	// before (for the sentence).
	resetFrom map[string]int64

	maxBytes   int    // the limit trace_bytes of this run
	traceBytes int    // the steps' bytes in the trace's JSON so far
	scratch    []byte // where count writes a step's JSON to count it
}

// fresh checks the database holds no job, and no receipt or stored value
// where the timeline meets them (a timeline that never sends, delivers,
// writes or reads does not look at those tables: it never opens them).
func (r *runner) fresh() error {
	jobs, err := r.store.Jobs(r.ctx)
	if err != nil {
		return err
	}
	var total int64
	if r.recv != nil {
		if total, err = r.recv.Total(r.ctx); err != nil {
			return err
		}
	}
	var stored []engine.Stored
	if r.stor != nil {
		if stored, err = r.stor.All(r.ctx); err != nil {
			return err
		}
	}
	if len(jobs) > 0 || total != 0 || len(stored) > 0 {
		return fmt.Errorf("%w: it holds %d jobs, receipts of total %d and %d stored values", ErrNotFresh, len(jobs), total, len(stored))
	}
	return nil
}

// observe records a statement the engine ran, and the row it wrote.
func (r *runner) observe(s engine.Statement) {
	args := make([]any, len(s.Args))
	for i, a := range s.Args {
		args[i] = jsonValue(a)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sql = append(r.sql, Statement{SQL: s.SQL, Args: args})
	switch {
	case s.Table != "":
		if r.written == nil {
			r.written = map[string]map[string]bool{}
		}
		if r.written[s.Table] == nil {
			r.written[s.Table] = map[string]bool{}
		}
		r.written[s.Table][s.Key] = true
	case strings.HasPrefix(s.SQL, "DROP "), strings.HasPrefix(s.SQL, "DELETE "):
		r.dropped = true
	}
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

// takeWritten returns the job ids written since the last call (in order),
// and whether a statement over a whole table ran.
func (r *runner) takeWritten() (ids []string, whole bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	ids = sortedKeys(r.written["jobs"])
	whole = r.dropped
	r.written, r.dropped = nil, false
	return ids, whole
}
