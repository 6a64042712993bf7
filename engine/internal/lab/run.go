package lab

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"strconv"
	"sync/atomic"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/limits"
	"github.com/leaselab/leaselab/engine/sqlitedb"
)

// The simulated workers of one run, as a discrete-event loop on a virtual
// clock (true time, int64 ms), each calling the real engine at its own now
// (true time plus its clock's drift):
//
//   - An idle worker claims the oldest claimable job (Store.ClaimNext),
//     then, finding nothing, tries again every poll. A try that the jobs'
//     state says must find nothing is not made (it would change nothing);
//     the run checks that view against the engine's answers and rows.
//   - A job's work (drawn once per job) runs on the worker's time: a GC
//     pause stops it, and every attempt redoes all of it.
//   - With a heartbeat, a working worker renews every heartbeat ms; a renew
//     the engine refuses makes it give the job up when it hears so.
//   - At the end of its work the worker, if it has a margin, gives up
//     unless its lease has more than margin ms left on its own clock;
//     otherwise it sends, together, a write to the storage (key: the job),
//     a delivery to the receiver and a complete.
//   - Renews, writes, deliveries and completes fly for a drawn delay; the
//     engine judges each at its arrival, on its sender's clock, with the
//     lease it left with. At an instant, the workers act first and the
//     messages due then arrive after them (the timeline's order), and a
//     worker acts on an answer from the next ms on.
//   - A claim overlaps the last holder's lease when, in true time, that
//     lease has not ended yet: the claimant's clock is ahead of the
//     holder's, so the engine judged the lease ended early (the invariant
//     single-lease of engine/check, which the lab's stories announce).
//   - A crash makes a worker forget its job; it comes back after restart.
//     A crash that falls in a pause happens as the pause ends.
//   - A worker draws the time to its next pause at the run's start, at
//     the end of each pause and at its restart after a crash; the time to
//     its next crash at the start and at each restart (see begin).

// stream kinds
const (
	sWork = iota
	sGCEvery
	sGCPause
	sCrash
	sRestart
	sDrift
	sDelay
)

const never = math.MaxInt64

var dbSeq atomic.Int64

type job struct {
	id       string
	work     int64
	deadline int64 // absolute, 0 none
	worked   int64 // ms of work done on it, all attempts
	// the engine's row, as the answers told it
	owner    int // worker index, -1 none
	token    int64
	until    int64
	attempts int64
	status   engine.Status
	// bookkeeping
	crashAt   int64 // true time its holder crashed, -1 none
	maxStored int64 // highest token the storage accepted for it, -1 none
	applied   int   // deliveries the receiver applied
}

type worker struct {
	idx                        int
	name                       string
	drift                      int64
	gcEvery, gcPause           rng
	crashEvery, restart, delay rng
	pauseUntil, downUntil      int64
	nextPause, nextCrash       int64
	job                        int // -1: idle
	token, believed            int64
	workLeft, lastResume       int64
	nextBeat, nextPoll         int64
	lost                       bool
	ver                        int // the version of its pending wake
}

type message struct {
	kind  string // renew, write, deliver, complete
	w     int
	job   int
	lease engine.Lease
	line  int // the recorded line, -1 when not recording
}

type event struct {
	at    int64
	class int // 0 a worker's wake, 1 a message's arrival
	seq   int
	w     int
	ver   int
	msg   *message
}

// events is a binary min-heap of events by (at, class, seq), a total
// order (seq is unique), so the events pop in one order whatever the
// heap's shape. It is container/heap's algorithm on the type itself: no
// event is boxed in an interface, which allocated one per push and pop.
type events []event

func (q events) less(i, j int) bool {
	a, b := &q[i], &q[j]
	if a.at != b.at {
		return a.at < b.at
	}
	if a.class != b.class {
		return a.class < b.class
	}
	return a.seq < b.seq
}

// push adds e.
func (q *events) push(e event) {
	*q = append(*q, e)
	h := *q
	for j := len(h) - 1; j > 0; {
		i := (j - 1) / 2
		if !h.less(j, i) {
			break
		}
		h[i], h[j] = h[j], h[i]
		j = i
	}
}

// pop removes and returns the least event; q is not empty.
func (q *events) pop() event {
	h := *q
	n := len(h) - 1
	h[0], h[n] = h[n], h[0]
	for i := 0; ; {
		j := 2*i + 1
		if j >= n {
			break
		}
		if r := j + 1; r < n && h.less(r, j) {
			j = r
		}
		if !h.less(j, i) {
			break
		}
		h[i], h[j] = h[j], h[i]
		i = j
	}
	e := h[n]
	*q = h[:n]
	return e
}

// sim is one run.
type sim struct {
	ctx      context.Context
	lab      *Lab
	pol      Policy
	wl       *Workload // the point's
	store    *engine.Store
	storage  *engine.Storage
	recv     *engine.Receiver
	start    int64
	horizon  int64
	jobs     []*job
	workers  []*worker
	q        events
	seq      int
	ops      int
	lastDone int64
	final    int
	finalBy  int           // jobs final (done or quarantined) by the horizon
	calls    *atomic.Int64 // the lab's calls, all runs; nil: a run alone
	rec      *recorder
	// counts
	staleRefused, staleLanded, lateWrites, overlaps, doubleApplied, cancelled, renews int
	stalls                                                                            []int64
}

// charge counts n calls of the lab's against the limit lab_calls.
func (s *sim) charge(n int64) error {
	if s.calls != nil && s.calls.Add(n) > int64(s.lab.Limits.LabCalls) {
		return &limits.ExceededError{Limit: s.lab.Limits.Row("lab_calls"), What: "the lab's runs, counted as they call the engine,"}
	}
	return nil
}

// ErrDiverged: the engine answered otherwise than the jobs' rows, as the
// run followed them, say it must; a bug in the engine or the lab.
var ErrDiverged = errors.New("lab: the engine's answer parted from the run's view of its rows")

// bench is the engine a runner's runs go on, one after another: one
// in-memory database, emptied before each run, with a Store, a Storage
// and a Receiver on it, of the lab's storage and receiver (which no sweep
// varies). A run on it answers as on a fresh database: the engine keeps
// nothing of a row but in its tables, and every table is empty when a run
// starts. Reusing it spares each run opening a database, creating the
// schema and preparing the statements.
type bench struct {
	db      *sql.DB
	store   *engine.Store
	storage *engine.Storage
	recv    *engine.Receiver
	used    bool // a run went on it: empty it first
}

// emptyTables empty the engine's tables, as Store, Storage and Receiver
// create them.
var emptyTables = []string{"DELETE FROM jobs", "DELETE FROM storage", "DELETE FROM receipts"}

// newBench opens a bench of pol's storage and receiver on a fresh
// in-memory database.
func newBench(ctx context.Context, pol Policy) (_ *bench, err error) {
	db, err := sqlitedb.Memory("leaselab-lab-" + strconv.FormatInt(dbSeq.Add(1), 10))
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			db.Close()
		}
	}()
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	b := &bench{db: db}
	if b.store, err = engine.New(ctx, db); err != nil {
		return nil, err
	}
	var opts []engine.Option
	if !pol.Fenced {
		opts = append(opts, engine.WithoutFencing())
	}
	if b.storage, err = engine.NewStorage(ctx, db, opts...); err != nil {
		return nil, err
	}
	var ropts []engine.Option
	if !pol.Idempotent {
		ropts = append(ropts, engine.WithoutIdempotence())
	}
	if b.recv, err = engine.NewReceiver(ctx, db, ropts...); err != nil {
		return nil, err
	}
	return b, nil
}

// Close closes b's database.
func (b *bench) Close() error { return b.db.Close() }

// empty empties b's tables when a run went on it.
func (b *bench) empty(ctx context.Context) error {
	if b.used {
		for _, q := range emptyTables {
			if _, err := b.db.ExecContext(ctx, q); err != nil {
				return err
			}
		}
	}
	b.used = true
	return nil
}

// runOne runs run number run of point pt on a bench of its own; rec, when
// not nil, records its timeline; calls, when not nil, counts the lab's
// calls against lab_calls.
func runOne(ctx context.Context, l *Lab, pt Point, run int, rec *recorder, calls *atomic.Int64) (measures, error) {
	b, err := newBench(ctx, pt.Policy)
	if err != nil {
		return measures{}, err
	}
	defer b.Close()
	return runOn(ctx, b, l, pt, run, rec, calls)
}

// runOn runs run number run of point pt on b, a bench of pt's storage and
// receiver (see runOne).
func runOn(ctx context.Context, b *bench, l *Lab, pt Point, run int, rec *recorder, calls *atomic.Int64) (measures, error) {
	pol := pt.Policy
	if err := b.empty(ctx); err != nil {
		return measures{}, err
	}
	s := &sim{ctx: ctx, lab: l, pol: pol, wl: &pt.Workload, store: b.store, storage: b.storage, recv: b.recv, rec: rec, calls: calls}
	if err := s.charge(runCharge + int64(s.wl.Jobs)); err != nil {
		return measures{}, err
	}
	if err := s.setUp(run); err != nil {
		return measures{}, err
	}
	if err := s.loop(); err != nil {
		return measures{}, err
	}
	if err := s.verify(); err != nil {
		return measures{}, err
	}
	return s.sample(), nil
}

func (s *sim) setUp(run int) error {
	wl := s.wl
	seed := s.lab.Seed
	for i := range wl.Workers {
		w := &worker{idx: i, name: workerName(i, wl.Workers), job: -1,
			gcEvery: stream(seed, run, sGCEvery, i), gcPause: stream(seed, run, sGCPause, i),
			crashEvery: stream(seed, run, sCrash, i), restart: stream(seed, run, sRestart, i),
			delay: stream(seed, run, sDelay, i), nextPause: never, nextCrash: never}
		if wl.Drift != nil {
			r := stream(seed, run, sDrift, i)
			w.drift = wl.Drift.draw(&r)
		}
		s.start = max(s.start, -w.drift)
		s.workers = append(s.workers, w)
	}
	s.horizon = s.start + wl.Horizon
	work := stream(seed, run, sWork, 0)
	width := len(strconv.Itoa(wl.Jobs))
	for i := range wl.Jobs {
		j := &job{id: fmt.Sprintf("j%0*d", width, i+1), work: max(0, wl.Work.draw(&work)), owner: -1,
			status: engine.StatusPending, crashAt: -1, maxStored: -1}
		if s.pol.Deadline > 0 {
			j.deadline = s.start + s.pol.Deadline
		}
		if _, err := s.store.Enqueue(s.ctx, engine.NewJob{ID: j.id, Deadline: j.deadline, MaxAttempts: s.pol.MaxAttempts}); err != nil {
			return err
		}
		s.jobs = append(s.jobs, j)
	}
	s.rec.header(s)
	for _, w := range s.workers {
		s.begin(w, s.start)
	}
	return nil
}

// begin starts w's process at t: its first claim then, its next pause
// and crash drawn from then.
func (s *sim) begin(w *worker, t int64) {
	wl := s.wl
	if wl.GCEvery != nil {
		w.nextPause = t + max(1, wl.GCEvery.draw(&w.gcEvery))
	}
	if wl.CrashEvery != nil {
		w.nextCrash = t + max(1, wl.CrashEvery.draw(&w.crashEvery))
	}
	w.nextPoll = t
	s.wake(w, t)
}

// workerName is A, B, ... for up to 26 workers, else W01, W02, ...
func workerName(i, n int) string {
	if n <= 26 {
		return string(rune('A' + i))
	}
	return fmt.Sprintf("W%0*d", len(strconv.Itoa(n)), i+1)
}

func (s *sim) own(w *worker, t int64) int64 { return t + w.drift }

func (s *sim) push(e event) {
	e.seq = s.seq
	s.seq++
	s.q.push(e)
}

// wake schedules w's next decision at t.
func (s *sim) wake(w *worker, t int64) {
	w.ver++
	if t != never {
		s.push(event{at: t, w: w.idx, ver: w.ver})
	}
}

// op counts one engine call, made at now on w's clock, against the
// limits lab_ops and lab_calls, and holds now to max_time: the engine
// refuses a later instant as Unix seconds, so a run whose drifts and
// delays reach past it stops with the limit instead.
func (s *sim) op(w *worker, now int64) error {
	s.ops++
	if s.ops > s.lab.Limits.LabOps {
		return &limits.ExceededError{Limit: s.lab.Limits.Row("lab_ops"), What: "a run of the lab"}
	}
	if err := s.charge(1); err != nil {
		return err
	}
	if now > limits.Default.MaxTime {
		return &limits.ExceededError{Limit: limits.Default.Row("max_time"), What: fmt.Sprintf("a run of the lab, at %d ms on %s's clock,", now, w.name)}
	}
	return nil
}

func (s *sim) loop() error {
	for len(s.q) > 0 {
		if err := s.ctx.Err(); err != nil {
			return err
		}
		e := s.q.pop()
		if e.msg != nil {
			if err := s.arrive(e.at, e.msg); err != nil {
				return err
			}
			continue
		}
		w := s.workers[e.w]
		if e.ver != w.ver || e.at > s.horizon {
			continue
		}
		if err := s.act(w, e.at); err != nil {
			return err
		}
	}
	return nil
}

// accrue counts w's work up to t.
func (s *sim) accrue(w *worker, t int64) {
	if w.job < 0 || t <= w.lastResume {
		return
	}
	d := min(t-w.lastResume, w.workLeft)
	w.workLeft -= d
	s.jobs[w.job].worked += d
	w.lastResume = t
}

// act is w's decisions at t, in order: a crash, a pause, giving up a job
// whose renew was refused, the end of its work, a heartbeat, a claim.
func (s *sim) act(w *worker, t int64) error {
	wl := s.wl
	s.accrue(w, t)
	if t >= w.nextCrash {
		if s.rec != nil {
			s.rec.step(t, w.name+" crash", "")
		}
		if w.job >= 0 {
			if j := s.jobs[w.job]; j.owner == w.idx && j.token == w.token && j.status == engine.StatusLeased {
				j.crashAt = t
			}
		}
		w.job, w.lost = -1, false
		w.downUntil = t + max(0, wl.Restart.draw(&w.restart))
		s.begin(w, w.downUntil)
		return nil
	}
	if t >= w.nextPause {
		d := max(1, wl.GCPause.draw(&w.gcPause))
		if s.rec != nil {
			s.rec.step(t, fmt.Sprintf("%s pause %dms", w.name, d), "")
		}
		w.pauseUntil = t + d
		w.lastResume = w.pauseUntil
		w.nextPause = w.pauseUntil + max(1, wl.GCEvery.draw(&w.gcEvery))
		w.nextCrash = max(w.nextCrash, w.pauseUntil)
		w.nextBeat = max(w.nextBeat, w.pauseUntil)
		w.nextPoll = max(w.nextPoll, w.pauseUntil)
		s.wake(w, w.pauseUntil)
		return nil
	}
	for {
		if w.job >= 0 && w.lost {
			s.cancel(w, t)
		}
		if w.job >= 0 && w.workLeft == 0 {
			if err := s.finish(w, t); err != nil {
				return err
			}
		}
		if w.job >= 0 && s.pol.Heartbeat > 0 && t >= w.nextBeat {
			w.nextBeat = t + s.pol.Heartbeat
			if err := s.send(w, t, "renew"); err != nil {
				return err
			}
			if w.lost {
				continue // refused at once: give the job up now
			}
		}
		break
	}
	if w.job < 0 && t >= w.nextPoll {
		if err := s.poll(w, t); err != nil {
			return err
		}
	}
	next := min(w.nextCrash, w.nextPause)
	if w.job >= 0 {
		next = min(next, w.lastResume+w.workLeft)
		if s.pol.Heartbeat > 0 {
			next = min(next, w.nextBeat)
		}
	} else {
		next = min(next, w.nextPoll)
	}
	s.wake(w, next)
	return nil
}

func (s *sim) cancel(w *worker, t int64) {
	s.cancelled++
	w.job, w.lost = -1, false
	w.nextPoll = t
}

// finish ends w's work at t: with a margin it may give up; else it sends
// the write, the delivery and the complete.
func (s *sim) finish(w *worker, t int64) error {
	if s.pol.Margin >= 0 && s.own(w, t)+s.pol.Margin >= w.believed {
		s.rec.note(fmt.Sprintf("%s gives %s up: its lease has %d ms left, not more than the margin", w.name, s.jobs[w.job].id, w.believed-s.own(w, t)))
		s.cancel(w, t)
		return nil
	}
	d := int64(0)
	if s.wl.Delay != nil {
		d = max(0, s.wl.Delay.draw(&w.delay))
	}
	for _, kind := range []string{"write", "deliver", "complete"} {
		if err := s.sendAt(w, t, kind, d); err != nil {
			return err
		}
	}
	w.job = -1
	w.nextPoll = t
	return nil
}

// send sends a message of w's about its job at t, with a drawn delay.
func (s *sim) send(w *worker, t int64, kind string) error {
	d := int64(0)
	if s.wl.Delay != nil {
		d = max(0, s.wl.Delay.draw(&w.delay))
	}
	return s.sendAt(w, t, kind, d)
}

func (s *sim) sendAt(w *worker, t int64, kind string, d int64) error {
	j := s.jobs[w.job]
	m := &message{kind: kind, w: w.idx, job: w.job, line: -1,
		lease: engine.Lease{JobID: j.id, Owner: w.name, Qty: 1, Token: w.token, LeaseUntil: w.believed}}
	if s.rec != nil {
		text := w.name + " " + kind + " " + j.id
		if d > 0 {
			text = fmt.Sprintf("%s arrives=%dms", text, t+d)
		}
		m.line = s.rec.step(t, text, "")
	}
	if d == 0 {
		return s.arrive(t, m)
	}
	s.push(event{at: t + d, class: 1, msg: m})
	return nil
}

// poll is an idle w's claim at t, if the rows say one can succeed.
func (s *sim) poll(w *worker, t int64) error {
	now := s.own(w, t)
	if !s.claimableOrWait(w, t, now) {
		return nil
	}
	if err := s.op(w, now); err != nil {
		return err
	}
	l, err := s.store.ClaimNext(s.ctx, w.name, now, s.pol.Lease)
	if err != nil && !errors.Is(err, engine.ErrEmpty) {
		return err
	}
	// The rows as the engine must have walked them: quarantines on its way.
	want := -1
	for i, j := range s.jobs {
		if j.status == engine.StatusDone || j.status == engine.StatusQuarantined || (j.owner >= 0 && j.until > now) {
			continue
		}
		if (s.pol.MaxAttempts > 0 && j.attempts >= s.pol.MaxAttempts) || (j.deadline > 0 && now >= j.deadline) {
			j.status = engine.StatusQuarantined
			s.becameFinal(t)
			if j.crashAt >= 0 {
				s.stalls = append(s.stalls, t-j.crashAt)
				j.crashAt = -1
			}
			continue
		}
		want = i
		break
	}
	if want < 0 {
		if err == nil {
			return fmt.Errorf("%w: %s claimed %s at %d ms; the rows held none claimable", ErrDiverged, w.name, l.JobID, now)
		}
		if s.rec != nil {
			s.rec.step(t, w.name+" claim", "empty")
		}
		w.nextPoll = t + s.wl.Poll
		return nil
	}
	j := s.jobs[want]
	if err != nil || l.JobID != j.id || l.Token != j.token+1 {
		return fmt.Errorf("%w: %s's claim at %d ms got %+v, %v; the rows say %s with token %d", ErrDiverged, w.name, now, l, err, j.id, j.token+1)
	}
	overlap := false
	if p := j.owner; p >= 0 && j.status == engine.StatusLeased && t < j.until-s.workers[p].drift {
		s.overlaps++
		overlap = true
	}
	if s.rec != nil { // the text only a recording reads
		expect := fmt.Sprintf("ok job=%s token=%d", j.id, l.Token)
		if p := j.owner; overlap {
			expect += " violates=single-lease"
			s.rec.note(fmt.Sprintf("%s's lease of %s runs %d ms more in true time: %s's clock is ahead of %s's", s.workers[p].name, j.id, j.until-s.workers[p].drift-t, w.name, s.workers[p].name))
		}
		s.rec.step(t, w.name+" claim", expect)
	}
	if j.crashAt >= 0 {
		s.stalls = append(s.stalls, t-j.crashAt)
		j.crashAt = -1
	}
	j.owner, j.token, j.until, j.attempts, j.status = w.idx, l.Token, l.LeaseUntil, j.attempts+1, engine.StatusLeased
	w.job, w.token, w.believed, w.lost = want, l.Token, l.LeaseUntil, false
	w.workLeft, w.lastResume, w.nextBeat = j.work, t, t+s.pol.Heartbeat
	return nil
}

// claimableOrWait reports whether a job can be claimed at now on w's
// clock; when none can, it sets w's next poll to the first poll at or
// after the soonest lease's end (never, when no job is left).
func (s *sim) claimableOrWait(w *worker, t, now int64) bool {
	soonest := int64(never)
	for _, j := range s.jobs {
		if j.status == engine.StatusDone || j.status == engine.StatusQuarantined {
			continue
		}
		if j.owner < 0 || j.until <= now {
			return true
		}
		soonest = min(soonest, j.until)
	}
	if soonest == never {
		w.nextPoll = never
		return false
	}
	at := soonest - w.drift // true time its lease ends, on w's clock
	p := s.wl.Poll
	w.nextPoll = t + (at-t+p-1)/p*p
	return false
}

func (s *sim) becameFinal(t int64) {
	s.final++
	if t <= s.horizon {
		s.finalBy++
	}
	if s.final == len(s.jobs) {
		s.lastDone = t
	}
}

// holds reports whether the rows say lease l is current and live at now:
// what a renew or a complete needs.
func (s *sim) holds(j *job, l engine.Lease, now int64) bool {
	return j.status == engine.StatusLeased && j.owner >= 0 && s.workers[j.owner].name == l.Owner &&
		j.token == l.Token && now < j.until && (j.deadline == 0 || now < j.deadline)
}

// arrive is message m taking effect at t.
func (s *sim) arrive(t int64, m *message) error {
	w, j := s.workers[m.w], s.jobs[m.job]
	now := s.own(w, t)
	if err := s.op(w, now); err != nil {
		return err
	}
	switch m.kind {
	case "renew":
		s.renews++
		ok := s.holds(j, m.lease, now)
		l, err := s.store.Renew(s.ctx, m.lease, now, s.pol.Lease)
		if err := s.agree(ok, err, m, now); err != nil {
			return err
		}
		current := w.job == m.job && w.token == m.lease.Token
		if ok {
			j.until = l.LeaseUntil
			if current {
				w.believed = l.LeaseUntil
			}
			s.rec.expect(m.line, "ok")
			return nil
		}
		s.rec.expect(m.line, "refused "+string(engine.RefusalOf(err)))
		if current {
			w.lost = true
			s.wake(w, max(t+1, w.pauseUntil, w.downUntil))
		}
	case "write":
		err := s.storage.Write(s.ctx, j.id, m.lease, w.name)
		switch {
		case errors.Is(err, engine.ErrFenced):
			s.staleRefused++
			s.rec.expect(m.line, "refused fenced")
		case err != nil:
			return err
		case m.lease.Token < j.maxStored:
			s.staleLanded++
			s.rec.expect(m.line, "ok violates=storage-fenced")
		case m.lease.Token < j.token:
			s.lateWrites++
			s.rec.expect(m.line, "ok violates=no-stale-write")
		default:
			s.rec.expect(m.line, "ok")
		}
		if err == nil {
			j.maxStored = max(j.maxStored, m.lease.Token)
		}
	case "deliver":
		applied, err := s.recv.Deliver(s.ctx, m.lease)
		if err != nil {
			return err
		}
		switch {
		case applied && j.applied > 0:
			s.doubleApplied++
			s.rec.expect(m.line, "ok violates=applied-once")
		default:
			s.rec.expect(m.line, "ok")
		}
		if applied {
			j.applied++
		}
	case "complete":
		ok := s.holds(j, m.lease, now)
		err := s.store.Complete(s.ctx, m.lease, now, w.name)
		if err := s.agree(ok, err, m, now); err != nil {
			return err
		}
		if !ok {
			s.rec.expect(m.line, "refused "+string(engine.RefusalOf(err)))
			return nil
		}
		s.rec.expect(m.line, "ok")
		j.status = engine.StatusDone
		s.becameFinal(t)
	}
	return nil
}

// agree checks the engine's answer against the rows' verdict ok.
func (s *sim) agree(ok bool, err error, m *message, now int64) error {
	if ok && err == nil || !ok && engine.RefusalOf(err) != "" {
		return nil
	}
	if err != nil && engine.RefusalOf(err) == "" {
		return err
	}
	return fmt.Errorf("%w: %s's %s of %s at %d ms: the engine said %v, the rows say accepted=%v", ErrDiverged, m.lease.Owner, m.kind, m.lease.JobID, now, err, ok)
}

// verify compares every row's status with the run's view of it.
func (s *sim) verify() error {
	rows, err := s.store.Jobs(s.ctx)
	if err != nil {
		return err
	}
	for i, r := range rows {
		if j := s.jobs[i]; r.ID != j.id || r.Status != j.status || r.Token != j.token {
			return fmt.Errorf("%w: row %s is %s with token %d; the run says %s with token %d", ErrDiverged, r.ID, r.Status, r.Token, j.status, j.token)
		}
	}
	return nil
}

// sample is the run's measures.
func (s *sim) sample() measures {
	var out measures
	var dup int64
	dupJobs, done, quarantined := 0, 0, 0
	for _, j := range s.jobs {
		if j.worked > j.work {
			dup += j.worked - j.work
			dupJobs++
		}
		switch j.status {
		case engine.StatusDone:
			done++
		case engine.StatusQuarantined:
			quarantined++
		}
	}
	out.set("dup_ms", float64(dup))
	out.set("dup_jobs", float64(dupJobs))
	for _, j := range s.jobs {
		if j.crashAt >= 0 { // never reclaimed: idle to the run's end
			s.stalls = append(s.stalls, s.horizon-j.crashAt)
		}
	}
	if len(s.stalls) > 0 {
		var sum int64
		for _, v := range s.stalls {
			sum += v
		}
		out.set("stall_ms", float64(sum)/float64(len(s.stalls)))
	}
	out.set("stale_refused", float64(s.staleRefused))
	out.set("stale_landed", float64(s.staleLanded))
	out.set("late_writes", float64(s.lateWrites))
	out.set("overlaps", float64(s.overlaps))
	out.set("quarantined", float64(quarantined))
	out.set("unfinished", float64(len(s.jobs)-s.finalBy))
	out.set("double_applied", float64(s.doubleApplied))
	out.set("cancelled", float64(s.cancelled))
	out.set("renews", float64(s.renews)/float64(len(s.jobs)))
	end := s.horizon
	if s.final == len(s.jobs) {
		end = s.lastDone
	}
	if end > s.start {
		out.set("jobs_per_s", float64(done)*1000/float64(end-s.start))
	} else {
		out.set("jobs_per_s", 0)
	}
	return out
}
