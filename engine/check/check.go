// Package check holds the invariants of the lease contract and judges a
// history against them, one step at a time. It never calls the engine: it
// sees only what a caller reports (the operations of a step and whether each
// was accepted) and the rows as they stood after the step, so it judges
// leaselab's engine, the reference model of package engine/model and a
// queue of your own alike.
//
// Feed a Checker every step of one history in order, from the first: it
// returns one Verdict per invariant (Invariants), OK or the violations the
// step holds, named by job, owner and token. Package engine/leasetest and
// the timeline runner judge every step they play with it.
//
// A Checker needs the steps in one order and the rows after each. A
// concurrent service has neither: record each call with the instants it
// was invoked and answered (Call) and judge the whole history with
// History, which reports a fencing violation only when no order of the
// overlapping calls explains it, naming the calls involved.
package check

import (
	"github.com/leaselab/leaselab/engine/internal/lang"
	"strings"

	"github.com/leaselab/leaselab/engine"
)

// Invariant names, in the order Observe reports them.
const (
	// SingleLease: at most one valid lease per job at any instant. A claim
	// granted while an earlier lease of the same job is still valid (now <
	// its lease_until, and it was not released, completed or quarantined)
	// breaks it.
	SingleLease = "single-lease"
	// TokensIncrease: tokens per job strictly increase and never reset. Every
	// granted token is above every token the job had before, and a row's
	// token never goes down.
	TokensIncrease = "tokens-increase"
	// NoStaleWrite: no write with a superseded token is ever accepted. An
	// accepted renew, complete or release must present the owner and token
	// of the job's latest grant, and that grant must not have been ended by
	// a release, a complete or a quarantine. A storage write the storage
	// accepts must not present a token below its job's latest grant: the
	// newer holder has the lease, whether or not it wrote there yet (one
	// that storage-fenced reports is not reported again).
	NoStaleWrite = "no-stale-write"
	// NoLateWrite: no renew or complete is accepted at or after the instant
	// its lease ended (now >= lease_until): a lease is valid iff
	// now < lease_until, and an ended lease is never revived, even when
	// nobody has reclaimed the job yet.
	NoLateWrite = "no-late-write"
	// FinalIsFinal: done and quarantined are final. Once a row is done or
	// quarantined, none of its fields changes again.
	FinalIsFinal = "final-is-final"
	// AttemptsBounded: attempts <= max_attempts whenever max_attempts > 0.
	AttemptsBounded = "attempts-bounded"
	// LeaseWithinDeadline: lease_until <= deadline for every granted or
	// renewed lease and every row of a job that has a deadline.
	LeaseWithinDeadline = "lease-within-deadline"
	// NoJobLost: every job is present exactly once. A job once seen (in the
	// rows or by an accepted enqueue) never disappears, no id appears twice
	// in the rows, and an enqueue of an existing id is never accepted.
	NoJobLost = "no-job-lost"
	// StorageFenced: no write is accepted at the fenced storage with a token
	// lower than one it already accepted for the same key.
	StorageFenced = "storage-fenced"
	// AppliedOnce: the receiver applies each job's effect once. A delivery
	// the receiver applied (a first one, not a resend it recognised) of a
	// job whose effect it applied before breaks it: the customer is charged
	// twice.
	AppliedOnce = "applied-once"
)

// Invariants lists the invariant names in the order Observe reports them.
func Invariants() []string {
	return []string{SingleLease, TokensIncrease, NoStaleWrite, NoLateWrite, FinalIsFinal,
		AttemptsBounded, LeaseWithinDeadline, NoJobLost, StorageFenced, AppliedOnce}
}

// Op is one operation of a step as its caller saw it. Kind is one of
// engine.OpEnqueue, OpClaim, OpClaimNext, OpRenew, OpComplete, OpRelease,
// OpSend, OpDeliver and OpWrite; other kinds are ignored.
//
// For claim and claim_next, Owner is the claimant and, when Accepted, Lease
// is the lease granted (its JobID names the job ClaimNext chose). For renew,
// complete and release, JobID, Owner and Token are what the caller
// presented; an accepted renew's Lease is the renewed lease. For enqueue,
// JobID is the id and Accepted means Enqueue returned true. A send is a
// claim_next followed by a complete: Lease (when its Token is not 0) is the
// lease it claimed, and Accepted means its complete was accepted. For a
// storage write, JobID is the key, Owner and Token the lease presented,
// and Lease.JobID, when set, the job whose lease it is.
// For a delivery to the receiver (a deliver, or the one inside a send),
// JobID, Owner and Token are the lease delivered and Accepted means the
// receiver applied it (engine.Receiver.Deliver returned true).
//
// Now is the instant the operation ran at on its caller's clock (the
// claim's instant for a send; ignored for enqueue, release and write, which
// take no time). Reads and refused operations may be reported or left
// out: only what an accepted operation did is judged against the rows.
type Op struct {
	Kind         engine.Op
	JobID, Owner string
	Token        int64
	Now          int64
	Accepted     bool
	Lease        engine.Lease
}

// Verdict is one invariant's judgement of a step: OK, or the violations
// found in it (Detail, deterministic text naming jobs, owners and tokens).
type Verdict struct {
	Invariant string `json:"invariant"`
	OK        bool   `json:"ok"`
	Detail    string `json:"detail,omitempty"`
	details   []lang.Phrase
}

// DetailIn is Detail in language l ("en" or "ko", as timeline.Langs): the same
// violations, in the same order, in l's words.
func (v Verdict) DetailIn(l string) string {
	if len(v.details) == 0 {
		return v.Detail
	}
	parts := make([]string, len(v.details))
	for i, d := range v.details {
		parts[i] = d.In(l)
	}
	return strings.Join(parts, "; ")
}

// Checker judges a history step by step. It remembers what earlier steps
// granted and how the rows stood, so feed it every step of one history, in
// order, from the first. A job met for the first time in the rows is taken
// as it stands (its lease, if any, as the latest grant); a history that does
// not start from an empty store begins with Observe(nil, rows) so that its
// first operations are judged against the rows they found. A Checker is not
// safe for concurrent use.
type Checker struct {
	jobs    map[string]*jobTrack
	order   []string         // job ids in the order the checker first met them
	now     int64            // the latest instant seen, in true time
	offsets map[string]int64 // owner -> how far its clock is ahead of true time (SetClock)
	stored  map[string]int64 // storage key -> the highest token it accepted
	// lockDelay is how long a job stays held after a lease of it ran out
	// (SetLockDelay).
	lockDelay int64
	beliefs   map[string]belief // lock -> who believes it holds it (Acquired)
	overlaps  []overlap         // acquisitions to report at the next Observe
}

// jobTrack is what the checker knows of one job.
type jobTrack struct {
	row      engine.Job // as it stood after the last step (valid iff seen)
	seen     bool       // present in some earlier rows
	enqueued bool       // an accepted enqueue created it
	maxToken int64      // highest token granted or stored so far
	grant    grant      // the latest grant
	applied  string     // the lease whose delivery the receiver applied ("": none yet)
}

// grant is a lease the job handed out.
type grant struct {
	owner   string
	token   int64  // 0: none yet
	until   int64  // lease_until, on the owner's clock
	endedBy string // "released", "completed", "quarantined"; "" while it stands
}

// New returns a Checker that has seen nothing yet.
func New() *Checker {
	return &Checker{jobs: make(map[string]*jobTrack), offsets: map[string]int64{}, stored: map[string]int64{},
		beliefs: map[string]belief{}}
}

// SetClock tells the checker that owner's clock reads offset ms ahead of
// true time (behind when negative): every now that owner presents is its
// own clock's. The checker judges "at most one valid lease per job at any
// instant" on true time — a lease is valid until its holder's clock reads
// lease_until — so a reclaim that skewed clocks allowed while the first
// holder still believes itself valid is reported, though the engine, which
// sees only the clocks it is given, was right to grant it. Set every clock
// before the first Observe; a clock that jumps or drifts (a lock service's
// after an NTP step) is set again before each Observe to where it stands
// then: every lease and instant is then read on that clock as it stands,
// as the service reads them.
func (c *Checker) SetClock(owner string, offset int64) { c.offsets[owner] = offset }

// trueTime is the true instant at which owner's clock reads t.
func (c *Checker) trueTime(owner string, t int64) int64 { return t - c.offsets[owner] }

// SetLockDelay tells the checker that the service keeps a job d ms after a
// lease of it ran out (engine.WithLockDelay, Chubby's lock-delay): single-
// lease then also reports a grant in [lease_until, lease_until + d) of a
// lease that ran out rather than being released, completed or
// quarantined. Set it before the first Observe.
func (c *Checker) SetLockDelay(d int64) { c.lockDelay = d }

// Observe judges one step: ops are the operations the step ran (several for
// a concurrent claim, none for a step in which only time passed), in the
// order they took effect when known; rows are every job after the step, as
// engine.Store.Jobs returns them. It returns one verdict per invariant, in
// the order of Invariants.
func (c *Checker) Observe(ops []Op, rows []engine.Job) []Verdict {
	return c.observe(ops, rows, true)
}

// ObserveChanged is Observe for a caller that knows which rows the step
// changed: changed holds every row the step wrote (in any order), and every
// other row stands as it did after the previous step. It judges the same
// invariants at a cost that grows with the step, not with the table; a row
// that disappeared can only be reported through Observe.
func (c *Checker) ObserveChanged(ops []Op, changed []engine.Job) []Verdict {
	return c.observe(ops, changed, false)
}

func (c *Checker) observe(ops []Op, rows []engine.Job, whole bool) []Verdict {
	st := &step{c: c, rows: make(map[string]*engine.Job, len(rows)), viol: make(map[string][]lang.Phrase)}
	for _, op := range ops {
		switch op.Kind {
		case engine.OpEnqueue, engine.OpRelease, engine.OpWrite, engine.OpDeliver:
		default:
			c.now = max(c.now, c.trueTime(op.Owner, op.Now))
		}
	}
	st.indexRows(rows)
	for _, op := range ops {
		st.op(op)
	}
	st.judgeRows(rows, whole)
	st.reportOverlaps()
	st.remember(rows)
	return st.verdicts()
}

// verdicts is one verdict per invariant, in the order of Invariants.
func (st *step) verdicts() []Verdict {
	out := make([]Verdict, 0, len(Invariants()))
	for _, name := range Invariants() {
		v := Verdict{Invariant: name, OK: len(st.viol[name]) == 0}
		if !v.OK {
			v.details = st.viol[name]
			v.Detail = v.DetailIn("en")
		}
		out = append(out, v)
	}
	return out
}

// Clone returns an independent copy of c, for a caller that branches a
// history (the explorer judges every branch from the same past).
func (c *Checker) Clone() *Checker {
	n := New()
	n.CopyFrom(c)
	return n
}

// CopyFrom makes c a copy of src, reusing c's memory where it can: the
// explorer tries every step on a scratch copy.
func (c *Checker) CopyFrom(src *Checker) {
	for id, t := range c.jobs {
		if _, ok := src.jobs[id]; !ok {
			delete(c.jobs, id)
			continue
		}
		*t = *src.jobs[id]
	}
	for id, t := range src.jobs {
		if _, ok := c.jobs[id]; !ok {
			cp := *t
			c.jobs[id] = &cp
		}
	}
	c.order = append(c.order[:0], src.order...)
	c.now = src.now
	c.lockDelay = src.lockDelay
	clear(c.beliefs)
	for k, v := range src.beliefs {
		c.beliefs[k] = v
	}
	c.overlaps = append(c.overlaps[:0], src.overlaps...)
	clear(c.offsets)
	for k, v := range src.offsets {
		c.offsets[k] = v
	}
	clear(c.stored)
	for k, v := range src.stored {
		c.stored[k] = v
	}
}
