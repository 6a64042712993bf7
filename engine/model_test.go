package engine_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/check"
	"github.com/leaselab/leaselab/engine/model"
	"github.com/leaselab/leaselab/engine/sqlitedb"
)

// Random operation sequences run against the engine (an in-memory store
// opened through newStore, so a mutants build runs the chosen mutant) and
// against the reference model. After every operation the results must be
// equal (lease fields, the rejection with its reason, presented lease,
// current row and now), the rows must be equal, and the invariant checker
// must hold on the engine's history and on the model's.
//
// The clock only moves forward, and mostly lands on the instants that
// matter: a lease's lease_until and a job's deadline, one before, at and
// one after. Workers present stale and forged leases on purpose.
func TestEngineMatchesModel_RandomSequencesAtEveryBoundary(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		h := newHarness(t, rt, rapidSource{rt})
		defer h.close()
		h.setLockDelay(rapid.SampledFrom([]int64{0, 0, 150}).Draw(rt, "lock_delay"))
		h.run(rapid.IntRange(1, 60).Draw(rt, "ops"))
	})
}

// fataler is what the harness reports to: a *testing.T or a *rapid.T.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

// source supplies the choices of a sequence.
type source interface {
	// pick returns a choice in [0, n).
	pick(n int, label string) int
	// exhausted reports whether the source has no more choices to give.
	exhausted() bool
}

type rapidSource struct{ t *rapid.T }

func (s rapidSource) pick(n int, label string) int { return rapid.IntRange(0, n-1).Draw(s.t, label) }
func (rapidSource) exhausted() bool                { return false }

// byteSource decodes a fuzzer's bytes: one byte per choice, 0 once they
// run out.
type byteSource struct{ b []byte }

func (s *byteSource) pick(n int, _ string) int {
	if len(s.b) == 0 {
		return 0
	}
	v := int(s.b[0]) % n
	s.b = s.b[1:]
	return v
}
func (s *byteSource) exhausted() bool { return len(s.b) == 0 }

// The jobs, workers and durations a sequence draws from.
var (
	seqJobIDs   = []string{"j0", "j1", "j2", "j3"}
	ghostJobID  = "ghost" // never enqueued
	seqOwners   = []string{"A", "B", "C"}
	seqTTLs     = []int64{100, 250, 1000, 1}
	badTTLs     = []int64{0, -1}
	seqDeadline = []int64{0, 300, 1000, 2500, 0}
	seqMaxAtt   = []int64{0, 1, 2, 3}
	seqQty      = []int64{0, 1, 2, 5}
)

var errSendFailed = errors.New("send failed")

// harness runs one sequence against a fresh engine store and a fresh model.
type harness struct {
	tb     fataler
	openTB testing.TB // newStore's test (it opens stores with the mutant)
	src    source
	ctx    context.Context

	db    *sql.DB
	store *engine.Store
	recv  *engine.Receiver
	stor  *engine.Storage
	mod   *model.Model
	mrecv *model.Receiver
	mstor *model.Storage
	echk  *check.Checker // judges the engine's history
	mchk  *check.Checker // judges the model's

	jobs      []engine.NewJob // the spec of each job, by index into seqJobIDs
	lockDelay int64           // the store's, the model's and the checkers' (setLockDelay)
	now       int64
	leases    []engine.Lease // every lease granted, oldest first
	log       []string
}

func newHarness(openTB testing.TB, tb fataler, src source) *harness {
	db, err := sqlitedb.Memory("model-" + strconv.FormatInt(memSeq.Add(1), 10))
	if err != nil {
		tb.Fatalf("open memdb: %v", err)
	}
	db.SetMaxIdleConns(4) // ClaimMany's connections stay open between operations
	h := &harness{tb: tb, openTB: openTB, src: src, ctx: context.Background(), db: db,
		mod: model.New(), mrecv: model.NewReceiver(), mstor: model.NewStorage(), echk: check.New(), mchk: check.New()}
	h.open()
	for _, id := range seqJobIDs {
		h.jobs = append(h.jobs, engine.NewJob{
			ID:          id,
			Qty:         seqQty[src.pick(len(seqQty), id+".qty")],
			Deadline:    seqDeadline[src.pick(len(seqDeadline), id+".deadline")],
			MaxAttempts: seqMaxAtt[src.pick(len(seqMaxAtt), id+".max_attempts")],
		})
	}
	return h
}

// open (re)opens the store and the receiver on the harness's database.
func (h *harness) open() {
	h.store = newStore(h.openTB, h.db, engine.WithLockDelay(h.lockDelay))
	r, err := engine.NewReceiver(h.ctx, h.db, testOptions(h.openTB)...)
	if err != nil {
		h.tb.Fatalf("open receiver: %v", err)
	}
	h.recv = r
	st, err := engine.NewStorage(h.ctx, h.db, testOptions(h.openTB)...)
	if err != nil {
		h.tb.Fatalf("open storage: %v", err)
	}
	h.stor = st
}

func (h *harness) close() { h.db.Close() }

// setLockDelay gives the store, the model and both checkers a lock-delay of
// d ms, before the first operation.
func (h *harness) setLockDelay(d int64) {
	h.lockDelay = d
	h.open()
	if err := h.mod.SetLockDelay(d); err != nil {
		h.tb.Fatalf("model lock delay: %v", err)
	}
	h.echk.SetLockDelay(d)
	h.mchk.SetLockDelay(d)
}

// run runs up to n operations, fewer if the source runs out.
// It starts by enqueueing the first one to four jobs.
func (h *harness) run(n int) {
	h.tb.Helper()
	for k := range 1 + h.src.pick(len(seqJobIDs), "jobs.initial") {
		h.compareRows(h.enqueueJob(h.jobs[k]))
	}
	for i := 0; i < n && !h.src.exhausted(); i++ {
		h.step(i)
	}
}

func (h *harness) fail(format string, args ...any) {
	h.tb.Helper()
	h.tb.Fatalf("%s\nhistory:\n  %s", fmt.Sprintf(format, args...), strings.Join(h.log, "\n  "))
}

func (h *harness) logf(format string, args ...any) {
	h.log = append(h.log, fmt.Sprintf("%5d  ", h.now)+fmt.Sprintf(format, args...))
}

// Operation kinds, the commonest first (rapid shrinks towards the first).
const (
	opTick = iota
	opClaim
	opComplete
	opEnqueue
	opRenew
	opRelease
	opClaimNext
	opGet
	opClaimMany
	opDispatch
	opReopen
	opProbe
	opRedeliver
	opWrite
	opKinds
)

// weights make ticks, claims and writes common and reopening rare.
var opWeights = [opKinds]int{opTick: 6, opClaim: 5, opComplete: 3, opEnqueue: 3, opRenew: 2,
	opRelease: 2, opClaimNext: 2, opGet: 2, opClaimMany: 1, opDispatch: 3, opReopen: 1,
	opProbe: 4, opRedeliver: 1, opWrite: 3}

func (h *harness) pickKind() int {
	total := 0
	for _, w := range opWeights {
		total += w
	}
	n := h.src.pick(total, "op")
	for k, w := range opWeights {
		if n < w {
			return k
		}
		n -= w
	}
	return opTick
}

func (h *harness) step(i int) {
	h.tb.Helper()
	var eops, mops []check.Op
	switch h.pickKind() {
	case opTick:
		h.tick()
	case opEnqueue:
		eops, mops = h.enqueue()
	case opClaim:
		eops, mops = h.claim()
	case opClaimNext:
		eops, mops = h.claimNext()
	case opRenew:
		eops, mops = h.renew()
	case opComplete:
		eops, mops = h.complete(i)
	case opRelease:
		eops, mops = h.release()
	case opGet:
		h.get()
	case opClaimMany:
		eops, mops = h.claimMany()
	case opDispatch:
		eops, mops = h.dispatch()
	case opReopen:
		h.logf("reopen the store")
		h.open()
	case opProbe:
		eops, mops = h.probe(i)
	case opRedeliver:
		h.redeliver()
	case opWrite:
		eops, mops = h.write(i)
	}
	h.compareRows(eops, mops)
}

// tick moves the clock forward, mostly onto a boundary: half the time onto
// the end of the latest lease (one before, at or one after it), else onto
// any job's lease_until or deadline (the same three), or by a random step.
func (h *harness) tick() {
	if j := h.latestJob(); j != nil && j.LeaseUntil > 0 && h.src.pick(2, "tick.latest") == 0 {
		if t := j.LeaseUntil - 1 + int64(h.src.pick(3, "tick.latest.at")); t >= h.now {
			h.now = t
			h.logf("tick")
			return
		}
	}
	cands := map[int64]bool{h.now: true, h.now + 1: true}
	for _, j := range h.mod.Jobs() {
		if j.LeaseUntil > 0 {
			cands[j.LeaseUntil-1], cands[j.LeaseUntil], cands[j.LeaseUntil+1] = true, true, true
		}
		if j.Deadline > 0 {
			cands[j.Deadline-1], cands[j.Deadline], cands[j.Deadline+1] = true, true, true
		}
	}
	var times []int64
	for c := range cands {
		if c >= h.now {
			times = append(times, c)
		}
	}
	sort.Slice(times, func(a, b int) bool { return times[a] < times[b] })
	if k := h.src.pick(len(times)+1, "tick"); k < len(times) {
		h.now = times[k]
	} else {
		h.now += 1 + int64(h.src.pick(600, "tick.by"))
	}
	h.logf("tick")
}

// latestJob is the model's row of the job of the latest grant, or nil.
func (h *harness) latestJob() *engine.Job {
	if len(h.leases) == 0 {
		return nil
	}
	j, _ := h.mod.Get(h.leases[len(h.leases)-1].JobID)
	return j
}

// jobID picks a job for an operation: half the time the job of the latest
// grant, else any job or the one never enqueued.
func (h *harness) jobID() string {
	if j := h.latestJob(); j != nil && h.src.pick(2, "job.latest") == 0 {
		return j.ID
	}
	k := h.src.pick(len(seqJobIDs)+1, "job")
	if k == len(seqJobIDs) {
		return ghostJobID
	}
	return seqJobIDs[k]
}

func (h *harness) owner() string {
	if h.src.pick(16, "owner.valid") == 0 {
		return "" // invalid
	}
	return seqOwners[h.src.pick(len(seqOwners), "owner")]
}

func (h *harness) ttl() int64 {
	if h.src.pick(16, "ttl.valid") == 0 {
		return badTTLs[h.src.pick(len(badTTLs), "ttl.bad")]
	}
	return seqTTLs[h.src.pick(len(seqTTLs), "ttl")]
}

// presented picks a lease for a renew, complete or release: one granted
// earlier (the latest or a stale one), or a forged one.
func (h *harness) presented() engine.Lease {
	k := h.src.pick(8, "lease.kind")
	if len(h.leases) > 0 && k < 4 {
		// 0 to 2: the latest grant; 3: any grant (stale ones too).
		if k < 3 {
			return h.leases[len(h.leases)-1]
		}
		return h.leases[h.src.pick(len(h.leases), "lease.index")]
	}
	base := engine.Lease{JobID: h.jobID(), Owner: seqOwners[h.src.pick(len(seqOwners), "lease.owner")]}
	if j, _ := h.mod.Get(base.JobID); j != nil {
		base.Token, base.Qty, base.Attempt, base.LeaseUntil = j.Token, j.Qty, j.Attempts, j.LeaseUntil
	}
	switch k {
	case 5:
		base.Token++ // a token from the future
	case 6:
		if h.src.pick(2, "lease.bad") == 0 {
			base.Owner = ""
		} else {
			base.Token = -1
		}
	}
	return base // 4, 7 (and 0-3 with no grant yet): the row's token under some owner
}

func (h *harness) enqueue() (eops, mops []check.Op) {
	k := h.src.pick(len(seqJobIDs), "enqueue.job")
	j := h.jobs[k]
	switch h.src.pick(8, "enqueue.variant") {
	case 0:
		j.Qty = 7 // a re-enqueue with other fields changes nothing either
		j.MaxAttempts = 0
	case 1:
		j.Qty = -1 // invalid
	}
	return h.enqueueJob(j)
}

func (h *harness) enqueueJob(j engine.NewJob) (eops, mops []check.Op) {
	eok, eerr := h.store.Enqueue(h.ctx, j)
	mok, merr := h.mod.Enqueue(j)
	h.logf("enqueue %+v -> %v %v", j, mok, merr)
	if eok != mok || !sameErr(eerr, merr) {
		h.fail("enqueue %+v: engine %v %v, model %v %v", j, eok, eerr, mok, merr)
	}
	return []check.Op{{Kind: engine.OpEnqueue, JobID: j.ID, Accepted: eok}},
		[]check.Op{{Kind: engine.OpEnqueue, JobID: j.ID, Accepted: mok}}
}

func claimOp(kind engine.Op, id, owner string, now int64, l engine.Lease, err error) check.Op {
	return check.Op{Kind: kind, JobID: id, Owner: owner, Now: now, Accepted: err == nil, Lease: l}
}

func (h *harness) granted(l engine.Lease, err error) {
	if err == nil {
		h.leases = append(h.leases, l)
	}
}

func (h *harness) claim() (eops, mops []check.Op) {
	return h.claimOf(h.jobID(), h.owner(), h.ttl())
}

func (h *harness) claimOf(id, owner string, ttl int64) (eops, mops []check.Op) {
	el, eerr := h.store.Claim(h.ctx, id, owner, h.now, ttl)
	ml, merr := h.mod.Claim(id, owner, h.now, ttl)
	h.logf("claim %s by %q ttl %d -> %+v %v", id, owner, ttl, ml, merr)
	if el != ml || !sameErr(eerr, merr) {
		h.fail("claim %s by %q at %d ttl %d:\n engine %+v %v\n model  %+v %v", id, owner, h.now, ttl, el, eerr, ml, merr)
	}
	h.granted(el, eerr)
	return []check.Op{claimOp(engine.OpClaim, id, owner, h.now, el, eerr)},
		[]check.Op{claimOp(engine.OpClaim, id, owner, h.now, ml, merr)}
}

func (h *harness) claimNext() (eops, mops []check.Op) {
	owner, ttl := h.owner(), h.ttl()
	el, eerr := h.store.ClaimNext(h.ctx, owner, h.now, ttl)
	ml, merr := h.mod.ClaimNext(owner, h.now, ttl)
	h.logf("claim-next by %q ttl %d -> %+v %v", owner, ttl, ml, merr)
	if el != ml || !sameErr(eerr, merr) {
		h.fail("claim-next by %q at %d ttl %d:\n engine %+v %v\n model  %+v %v", owner, h.now, ttl, el, eerr, ml, merr)
	}
	h.granted(el, eerr)
	return []check.Op{claimOp(engine.OpClaimNext, "", owner, h.now, el, eerr)},
		[]check.Op{claimOp(engine.OpClaimNext, "", owner, h.now, ml, merr)}
}

func writeOp(kind engine.Op, l engine.Lease, now int64, renewed engine.Lease, err error) check.Op {
	return check.Op{Kind: kind, JobID: l.JobID, Owner: l.Owner, Token: l.Token, Now: now,
		Accepted: err == nil, Lease: renewed}
}

func (h *harness) renew() (eops, mops []check.Op) {
	return h.renewOf(h.presented(), h.ttl())
}

func (h *harness) renewOf(l engine.Lease, ttl int64) (eops, mops []check.Op) {
	el, eerr := h.store.Renew(h.ctx, l, h.now, ttl)
	ml, merr := h.mod.Renew(l, h.now, ttl)
	h.logf("renew %s#%d of %s ttl %d -> %+v %v", l.Owner, l.Token, l.JobID, ttl, ml, merr)
	if el != ml || !sameErr(eerr, merr) {
		h.fail("renew %+v at %d ttl %d:\n engine %+v %v\n model  %+v %v", l, h.now, ttl, el, eerr, ml, merr)
	}
	return []check.Op{writeOp(engine.OpRenew, l, h.now, el, eerr)},
		[]check.Op{writeOp(engine.OpRenew, l, h.now, ml, merr)}
}

func (h *harness) complete(i int) (eops, mops []check.Op) {
	l := h.presented()
	return h.completeOf(l, "r"+strconv.Itoa(i)+"-"+l.Owner)
}

func (h *harness) completeOf(l engine.Lease, result string) (eops, mops []check.Op) {
	eerr := h.store.Complete(h.ctx, l, h.now, result)
	merr := h.mod.Complete(l, h.now, result)
	h.logf("complete %s#%d of %s with %q -> %v", l.Owner, l.Token, l.JobID, result, merr)
	if !sameErr(eerr, merr) {
		h.fail("complete %+v at %d:\n engine %v\n model  %v", l, h.now, eerr, merr)
	}
	return []check.Op{writeOp(engine.OpComplete, l, h.now, engine.Lease{}, eerr)},
		[]check.Op{writeOp(engine.OpComplete, l, h.now, engine.Lease{}, merr)}
}

func (h *harness) release() (eops, mops []check.Op) {
	return h.releaseOf(h.presented())
}

func (h *harness) releaseOf(l engine.Lease) (eops, mops []check.Op) {
	eerr := h.store.Release(h.ctx, l)
	merr := h.mod.Release(l)
	h.logf("release %s#%d of %s -> %v", l.Owner, l.Token, l.JobID, merr)
	if !sameErr(eerr, merr) {
		h.fail("release %+v:\n engine %v\n model  %v", l, eerr, merr)
	}
	return []check.Op{writeOp(engine.OpRelease, l, h.now, engine.Lease{}, eerr)},
		[]check.Op{writeOp(engine.OpRelease, l, h.now, engine.Lease{}, merr)}
}

func (h *harness) get() {
	id := h.jobID()
	if h.src.pick(16, "get.valid") == 0 {
		id = "" // invalid
	}
	ej, eerr := h.store.Get(h.ctx, id)
	mj, merr := h.mod.Get(id)
	h.logf("get %q -> %+v %v", id, mj, merr)
	if !reflect.DeepEqual(ej, mj) || !sameErr(eerr, merr) {
		h.fail("get %q:\n engine %+v %v\n model  %+v %v", id, ej, eerr, mj, merr)
	}
}

// claimMany races 2 or 3 owners for one job. Which one wins is the
// database's choice; the model then replays the winner's claim (or, with no
// winner, the first owner's, which must be refused).
func (h *harness) claimMany() (eops, mops []check.Op) {
	id, ttl := h.jobID(), h.ttl()
	owners := make([]string, 2+h.src.pick(2, "claim-many.n"))
	for i := range owners {
		owners[i] = seqOwners[h.src.pick(len(seqOwners), "claim-many.owner")]
	}
	tokens, eerr := h.store.ClaimMany(h.ctx, id, owners, h.now, ttl)
	h.logf("claim-many %s by %v ttl %d -> %v %v", id, owners, ttl, tokens, eerr)
	if eerr != nil {
		_, merr := h.mod.Claim(id, owners[0], h.now, ttl)
		if !errors.Is(merr, engine.ErrInvalid) || !errors.Is(eerr, engine.ErrInvalid) {
			h.fail("claim-many %s by %v at %d ttl %d: engine %v, model's claim %v", id, owners, h.now, ttl, eerr, merr)
		}
		return nil, nil
	}
	if len(tokens) != len(owners) {
		h.fail("claim-many %s by %v: %d tokens for %d owners: %v", id, owners, len(tokens), len(owners), tokens)
	}
	winner := -1
	for i, tok := range tokens {
		if tok == 0 {
			continue
		}
		if winner >= 0 {
			h.fail("claim-many %s by %v: two winners: %v", id, owners, tokens)
		}
		winner = i
	}
	replay := 0
	if winner >= 0 {
		replay = winner
	}
	ml, merr := h.mod.Claim(id, owners[replay], h.now, ttl)
	switch {
	case winner >= 0 && (merr != nil || ml.Token != tokens[winner]):
		h.fail("claim-many %s by %v: %s won token %d; the model's claim: %+v %v", id, owners, owners[winner], tokens[winner], ml, merr)
	case winner < 0 && merr == nil:
		h.fail("claim-many %s by %v: nobody won; the model grants %+v", id, owners, ml)
	}
	for i, o := range owners {
		var el engine.Lease
		if i == winner {
			el = ml // the token matched; the rows comparison checks the rest
			h.leases = append(h.leases, el)
		}
		eops = append(eops, check.Op{Kind: engine.OpClaim, JobID: id, Owner: o, Now: h.now, Accepted: i == winner, Lease: el})
	}
	return eops, eops
}

// dispatch runs the courier's send: claim-next, send outside the
// transaction (it delivers to the receiver, or not, lets time pass, maybe
// onto the lease's end, and succeeds or fails), then complete.
func (h *harness) dispatch() (eops, mops []check.Op) {
	owner, ttl := h.owner(), h.ttl()
	deliver := h.src.pick(3, "send.deliver") > 0 // mostly the send reaches the receiver
	fails := h.src.pick(3, "send.fails") == 0    // a lost acknowledgement when it delivered
	lateBy := []int64{0, -1, 0, 1, 5}[h.src.pick(5, "send.late")]
	start := h.now

	var clock engine.VirtualClock
	clock.Set(start)
	var eDelivered, mDelivered bool
	var sendErr error
	end := func(l engine.Lease) int64 { // the instant the send returns
		if lateBy == 0 || l.LeaseUntil+lateBy < start {
			return start + 10
		}
		return l.LeaseUntil + lateBy
	}
	if fails {
		sendErr = errSendFailed
	}
	send := func(ctx context.Context, l engine.Lease) error {
		if deliver {
			ok, err := h.recv.Deliver(ctx, l)
			if err != nil {
				return err
			}
			eDelivered = ok
		}
		clock.Set(end(l))
		return sendErr
	}
	el, eerr := h.store.Dispatch(h.ctx, owner, &clock, ttl, send)

	// The model: claim-next, deliver, time passes, release or complete.
	ml, merr := h.mod.ClaimNext(owner, start, ttl)
	if merr == nil {
		h.leases = append(h.leases, ml)
		if deliver {
			mDelivered, _ = h.mrecv.Deliver(ml)
		}
		h.now = end(ml)
		if fails {
			if err := h.mod.Release(ml); err != nil {
				h.fail("model: release after a failed send: %v", err)
			}
			merr = sendErr
		} else {
			merr = h.mod.Complete(ml, h.now, engine.ResultSent)
		}
	}
	h.logf("dispatch by %q ttl %d (deliver %v, fails %v, late %d) -> %+v %v", owner, ttl, deliver, fails, lateBy, ml, merr)
	if el != ml || !sameErr(eerr, merr) || eDelivered != mDelivered {
		h.fail("dispatch by %q at %d ttl %d:\n engine %+v %v delivered %v\n model  %+v %v delivered %v",
			owner, start, ttl, el, eerr, eDelivered, ml, merr, mDelivered)
	}
	if clock.Now() != h.now {
		h.fail("dispatch: the clock reads %d, the model's time is %d", clock.Now(), h.now)
	}
	total, err := h.recv.Total(h.ctx)
	if err != nil {
		h.fail("receiver total: %v", err)
	}
	if total != h.mrecv.Total() {
		h.fail("receiver total %d, model %d", total, h.mrecv.Total())
	}
	op := func(l engine.Lease, err error) []check.Op {
		return []check.Op{{Kind: engine.OpSend, Owner: owner, Now: start, Lease: l, Accepted: err == nil}}
	}
	return op(el, eerr), op(ml, merr)
}

// probe picks a job held by a lease (or, with none, claims), moves the
// clock to one before, at or one after the lease's end (when that is not in
// the past), and at once renews, completes or releases that very lease, or
// claims its job for some owner.
func (h *harness) probe(i int) (eops, mops []check.Op) {
	var held []engine.Job
	for _, j := range h.mod.Jobs() {
		if j.Status == engine.StatusLeased {
			held = append(held, j)
		}
	}
	if len(held) == 0 {
		return h.claim()
	}
	j := held[h.src.pick(len(held), "probe.job")]
	if t := j.LeaseUntil - 1 + int64(h.src.pick(3, "probe.at")); t >= h.now {
		h.now = t
		h.logf("tick")
	}
	l := engine.Lease{JobID: j.ID, Owner: j.Owner, Qty: j.Qty, Token: j.Token, Attempt: j.Attempts, LeaseUntil: j.LeaseUntil}
	switch h.src.pick(4, "probe.op") {
	case 0:
		return h.claimOf(j.ID, seqOwners[h.src.pick(len(seqOwners), "probe.owner")], seqTTLs[0])
	case 1:
		return h.renewOf(l, seqTTLs[h.src.pick(len(seqTTLs), "probe.ttl")])
	case 2:
		return h.completeOf(l, "probe"+strconv.Itoa(i))
	default:
		return h.releaseOf(l)
	}
}

// redeliver sends a granted lease to the receiver again, as a courier does
// when it never learnt whether its send arrived.
func (h *harness) redeliver() {
	if len(h.leases) == 0 {
		return
	}
	l := h.leases[h.src.pick(len(h.leases), "redeliver.lease")]
	eok, eerr := h.recv.Deliver(h.ctx, l)
	mok, merr := h.mrecv.Deliver(l)
	h.logf("deliver %s#%d of %s qty %d -> %v %v", l.Owner, l.Token, l.JobID, l.Qty, mok, merr)
	if eok != mok || !sameErr(eerr, merr) {
		h.fail("deliver %+v: engine %v %v, model %v %v", l, eok, eerr, mok, merr)
	}
	total, err := h.recv.Total(h.ctx)
	if err != nil {
		h.fail("receiver total: %v", err)
	}
	if total != h.mrecv.Total() {
		h.fail("receiver total %d, model %d", total, h.mrecv.Total())
	}
}

// write stores a value at the fenced storage under a presented lease (the
// latest, a stale or a forged one), keyed by its job — or, now and then,
// under one shared key, so that leases of different jobs meet there.
func (h *harness) write(i int) (eops, mops []check.Op) {
	l := h.presented()
	key := l.JobID
	if h.src.pick(4, "write.key") == 0 {
		key = "shared"
	}
	value := "w" + strconv.Itoa(i)
	eerr := h.stor.Write(h.ctx, key, l, value)
	merr := h.mstor.Write(key, l, value)
	h.logf("write %s by %s#%d -> %v", key, l.Owner, l.Token, merr)
	if !sameErr(eerr, merr) {
		h.fail("write %s by %+v:\n engine %v\n model  %v", key, l, eerr, merr)
	}
	ev, err := h.stor.Read(h.ctx, key)
	if key == "" {
		ev, err = nil, nil
	}
	if err != nil {
		h.fail("storage read: %v", err)
	}
	if mv := h.mstor.Read(key); !reflect.DeepEqual(ev, mv) {
		h.fail("storage %s: engine %+v, model %+v", key, ev, mv)
	}
	op := func(err error) []check.Op {
		return []check.Op{{Kind: engine.OpWrite, JobID: key, Owner: l.Owner, Token: l.Token, Accepted: err == nil}}
	}
	return op(eerr), op(merr)
}

// compareRows compares every row of the engine with the model's and runs
// the checker on both histories.
func (h *harness) compareRows(eops, mops []check.Op) {
	h.tb.Helper()
	erows, err := h.store.Jobs(h.ctx)
	if err != nil {
		h.fail("read rows: %v", err)
	}
	mrows := h.mod.Jobs()
	if len(erows) == 0 {
		erows = []engine.Job{} // the model's empty table is an empty slice
	}
	if !reflect.DeepEqual(erows, mrows) {
		h.fail("rows differ:\n engine %+v\n model  %+v", erows, mrows)
	}
	for _, c := range []struct {
		who string
		vs  []check.Verdict
	}{{"engine", h.echk.Observe(eops, erows)}, {"model", h.mchk.Observe(mops, mrows)}} {
		for _, v := range c.vs {
			if !v.OK {
				h.fail("invariant %s broken on the %s's history: %s", v.Invariant, c.who, v.Detail)
			}
		}
	}
}

// sameErr reports whether the engine's error is the model's: both nil, both
// invalid arguments, both ErrEmpty, both a failed send, or equal rejections
// (op, reason, presented lease, current row, now).
func sameErr(e, m error) bool {
	var erej, mrej *engine.Rejection
	switch {
	case m == nil:
		return e == nil
	case errors.As(m, &mrej):
		return errors.As(e, &erej) && *erej == *mrej
	case errors.As(e, &erej):
		return false
	}
	for _, sentinel := range []error{engine.ErrInvalid, engine.ErrEmpty, errSendFailed} {
		if errors.Is(m, sentinel) {
			return errors.Is(e, sentinel)
		}
	}
	return false
}
