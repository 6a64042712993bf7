package leasetest

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/leaselab/leaselab/engine"
)

// SequenceOptions bound the random sequences of Sequences.
type SequenceOptions struct {
	// Seed chooses the sequences; the same seed gives the same ones.
	Seed uint64
	// Sequences is how many to try (0: 300); Calls the most calls in each
	// (0: 40).
	Sequences, Calls int
	// Plain enqueues every job with no quantity, deadline or attempts
	// budget, and never presents a negative token: for a Queue whose
	// enqueue takes only an id and whose tokens are counted from 0.
	Plain bool
	// Ops, when not empty, are the operations generated, each call one of
	// them picked alike (an operation named twice comes twice as often):
	// for a Queue that has only some of them, as a queue that claims only
	// the next job has no claim by id, renew or release. Empty: every
	// operation but reopen.
	Ops []engine.Op
	// Unsigned never presents a negative token, whatever the jobs (Plain
	// implies it): for a Queue whose tokens are counted from 0 and whose
	// jobs have the engine's fields.
	Unsigned bool
}

// op is one generated call before it is bound to a history: renew,
// complete and release present the worker's latest lease of the job, with
// its token shifted by Shift (a stale or a forged one).
type op struct {
	call     Call
	shift    int64
	unsigned bool // never a negative token
	// edge, when not edgeNone, moves a timed call onto a boundary of its
	// job as the reference holds it, plus by ms, when that is ahead.
	edge edge
	by   int64
}

// edge is the boundary a call is moved onto.
type edge int

const (
	edgeNone edge = iota
	edgeLeaseUntil
	edgeDeadline
)

// Sequences runs random sequences of calls on a fresh Queue from newQueue
// each and on the reference model, comparing every answer, the rows after
// every call and the invariants (as Timeline does), on three jobs, two
// workers and short leases. Time only moves forward, and half the claims,
// renews and completes are made at a boundary or 1 ms either side of it:
// the end of the latest lease granted (its holder's renew or complete, or
// a claim of its job) or the job's deadline. On the first sequence that differs it
// shrinks it, removing calls while it still fails, and returns the
// Difference of the shortest failing sequence (Difference.Sequence). A
// Queue that is an io.Closer, or has a Close method with no result, is
// closed after its sequence. The error is newQueue's.
func Sequences(ctx context.Context, newQueue func() (Queue, error), o SequenceOptions) (*Difference, error) {
	n, calls := o.Sequences, o.Calls
	if n <= 0 {
		n = 300
	}
	if calls <= 0 {
		calls = 40
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x1ea5e))
	for range n {
		seq := generate(rng, 1+rng.IntN(calls), o)
		d, err := replay(ctx, newQueue, seq)
		if err != nil || d == nil {
			if err != nil {
				return nil, err
			}
			continue
		}
		return shrink(ctx, newQueue, seq, d)
	}
	return nil, nil
}

var (
	jobIDs  = []string{"a", "b", "c"}
	workers = []string{"A", "B"}
	steps   = []int64{0, 0, 1, 250, 499, 500, 501, 999, 1000, 1001}
	ttls    = []int64{1000, 1000, 500, 1, 0}
	shifts  = []int64{0, 0, 0, 0, -1, 1}
	// edges and edgeBy: half the timed calls are made just before,
	// at or just after a boundary, at it as often as on either side.
	edges  = []edge{edgeNone, edgeNone, edgeNone, edgeLeaseUntil, edgeLeaseUntil, edgeDeadline}
	edgeBy = []int64{-1, 0, 0, 1}
)

// opOf are the operations of a call with no Ops, each as often as it
// comes.
var opOf = []engine.Op{engine.OpEnqueue, engine.OpEnqueue, engine.OpState, engine.OpClaim, engine.OpClaim,
	engine.OpClaimNext, engine.OpRenew, engine.OpComplete, engine.OpRelease}

// generate makes k calls at nondecreasing instants, as o says: of o.Ops
// (every one when empty), plain ones enqueueing jobs by id alone.
func generate(rng *rand.Rand, k int, o SequenceOptions) []op {
	pick := func(xs []string) string { return xs[rng.IntN(len(xs))] }
	var now int64
	seq := make([]op, 0, k)
	for range k {
		now += steps[rng.IntN(len(steps))]
		c := Call{Job: pick(jobIDs), Owner: pick(workers), Now: now, TTL: ttls[rng.IntN(len(ttls))]}
		var shift int64
		if len(o.Ops) > 0 {
			c.Op = o.Ops[rng.IntN(len(o.Ops))]
		} else {
			c.Op = opOf[rng.IntN(len(opOf))]
		}
		if c.Op == engine.OpEnqueue {
			c.New = engine.NewJob{ID: c.Job, Qty: rng.Int64N(3), MaxAttempts: rng.Int64N(3)}
			if rng.IntN(2) == 0 {
				c.New.Deadline = now + 500*rng.Int64N(4)
			}
			if o.Plain {
				c.New = engine.NewJob{ID: c.Job}
			}
		}
		if c.Op == engine.OpComplete {
			c.Result = "r"
		}
		if c.Op == engine.OpRenew || c.Op == engine.OpComplete || c.Op == engine.OpRelease {
			shift = shifts[rng.IntN(len(shifts))]
		}
		o := op{call: c, shift: shift, unsigned: o.Plain || o.Unsigned}
		if timed(c.Op) {
			o.edge, o.by = edges[rng.IntN(len(edges))], edgeBy[rng.IntN(len(edgeBy))]
		}
		seq = append(seq, o)
	}
	return seq
}

// replay runs seq on a fresh Queue; the Difference's Sequence holds the
// calls as made, up to the one that differed.
func replay(ctx context.Context, newQueue func() (Queue, error), seq []op) (*Difference, error) {
	q, err := newQueue()
	if err != nil {
		return nil, fmt.Errorf("leasetest: new queue: %w", err)
	}
	defer closeQueue(q)
	p := newPair(Model(), q)
	made := make([]Call, 0, len(seq))
	var lift int64 // how far the edges have moved time on
	for i, o := range seq {
		c := o.call
		c.Now += lift
		if c.New.Deadline != 0 {
			c.New.Deadline += lift
		}
		if at, ok := p.aim(ctx, &c, o.edge); ok && at+o.by > c.Now {
			lift += at + o.by - c.Now
			c.Now = at + o.by
		}
		if c.Op == engine.OpRenew || c.Op == engine.OpComplete || c.Op == engine.OpRelease {
			c.Lease, _ = p.held(ctx, c.Owner, c.Job)
			c.Lease.Token += o.shift
			if o.unsigned && c.Lease.Token < 0 {
				c.Lease.Token = 0
			}
			c.Job, c.Owner = "", ""
		}
		made = append(made, c)
		if d := p.step(ctx, []Call{c}); d != nil {
			d.Where = fmt.Sprintf("call %d", i+1)
			d.Sequence = made
			return d, nil
		}
	}
	return nil, nil
}

// timed reports whether op is judged at an instant and so has boundaries.
func timed(op engine.Op) bool {
	switch op {
	case engine.OpClaim, engine.OpClaimNext, engine.OpRenew, engine.OpComplete:
		return true
	}
	return false
}

// aim points c at boundary e and returns it, or false when there is none:
// for the end of a lease, at the latest lease granted, its holder's renew
// or complete or anyone's claim of its job; for a deadline, at the job's
// deadline as the reference holds it.
func (p *pair) aim(ctx context.Context, c *Call, e edge) (int64, bool) {
	switch e {
	case edgeLeaseUntil:
		l := p.granted
		if l.JobID == "" {
			return 0, false
		}
		c.Job = l.JobID
		if c.Op == engine.OpRenew || c.Op == engine.OpComplete {
			c.Owner = l.Owner
		}
		return l.LeaseUntil, true
	case edgeDeadline:
		j, err := p.ref.Get(ctx, c.Job)
		if err != nil || j == nil || j.Deadline == 0 {
			return 0, false
		}
		return j.Deadline, true
	}
	return 0, false
}

// shrink removes calls from seq while it still fails, until no single
// call can go: the failing sequence it returns is one no call of which can
// be left out. Then it moves the sequence to start at instant 0 if it
// still fails there.
func shrink(ctx context.Context, newQueue func() (Queue, error), seq []op, d *Difference) (*Difference, error) {
	seq = seq[:len(d.Sequence)] // what follows the difference never ran
	for changed := true; changed; {
		changed = false
		for i := len(seq) - 1; i >= 0; i-- {
			try := append(append([]op(nil), seq[:i]...), seq[i+1:]...)
			td, err := replay(ctx, newQueue, try)
			if err != nil {
				return nil, err
			}
			if td != nil {
				seq, d, changed = try[:len(td.Sequence)], td, true
				i = min(i, len(seq))
			}
		}
	}
	if seq[0].call.Now != 0 {
		td, err := replay(ctx, newQueue, shifted(seq, -seq[0].call.Now))
		if err != nil {
			return nil, err
		}
		if td != nil && len(td.Sequence) == len(seq) {
			d = td
		}
	}
	return d, nil
}

// shifted is seq with every instant moved by by.
func shifted(seq []op, by int64) []op {
	out := append([]op(nil), seq...)
	for i := range out {
		c := &out[i].call
		c.Now += by
		if c.New.Deadline != 0 {
			c.New.Deadline = max(1, c.New.Deadline+by)
		}
	}
	return out
}
