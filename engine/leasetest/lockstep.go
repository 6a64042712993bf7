package leasetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/check"
)

// Call is one operation as a worker makes it: the same call goes to the
// reference and to the Queue under test.
type Call struct {
	Op     engine.Op    // enqueue, state, claim, claim_next, renew, complete, release, reopen
	Job    string       // the job named (claim, state, enqueue)
	Owner  string       // the worker (claim, claim_next)
	Now    int64        // claim, claim_next, renew, complete
	TTL    int64        // claim, claim_next, renew
	Lease  engine.Lease // the lease presented (renew, complete, release)
	New    engine.NewJob
	Result string // complete
}

// String is the call as Go code would make it.
func (c Call) String() string {
	switch c.Op {
	case engine.OpEnqueue:
		return fmt.Sprintf("Enqueue(%+v)", c.New)
	case engine.OpState:
		return fmt.Sprintf("Get(%q)", c.Job)
	case engine.OpClaim:
		return fmt.Sprintf("Claim(%q, %q, now=%d, ttl=%d)", c.Job, c.Owner, c.Now, c.TTL)
	case engine.OpClaimNext:
		return fmt.Sprintf("ClaimNext(%q, now=%d, ttl=%d)", c.Owner, c.Now, c.TTL)
	case engine.OpRenew:
		return fmt.Sprintf("Renew(%s, now=%d, ttl=%d)", leaseText(c.Lease), c.Now, c.TTL)
	case engine.OpComplete:
		return fmt.Sprintf("Complete(%s, now=%d, %q)", leaseText(c.Lease), c.Now, c.Result)
	case engine.OpRelease:
		return fmt.Sprintf("Release(%s)", leaseText(c.Lease))
	case engine.OpReopen:
		return "Reopen()"
	}
	return string(c.Op)
}

func leaseText(l engine.Lease) string {
	return fmt.Sprintf("%s %s#%d", l.JobID, l.Owner, l.Token)
}

// Difference is where a Queue parted from the contract: the first call whose
// answer, rows or invariants were not the reference's.
type Difference struct {
	// Where is the timeline's NAME:LINE, or "call N" of a random sequence.
	Where string
	// Call is the call that differed (the last one of the step).
	Call Call
	// Want and Got are the answers, as "ok A#1 until 1000", "refused
	// superseded", "empty", "invalid", "enqueued true", a row, or "error:
	// ...". Both are "" when the answers agreed and the rows or an
	// invariant did not.
	Want, Got string
	// Invariant names the invariant (package engine/check) the Queue broke
	// and Detail what broke it; "" when none.
	Invariant, Detail string
	// WantRows and GotRows are every job after the call, as the reference
	// and the Queue hold them.
	WantRows, GotRows []engine.Job
	// Sequence is the shortest failing random sequence, one call a line,
	// ending with Call; nil for a timeline.
	Sequence []Call
}

// Error names the place, the call, the answers and the rows.
func (d *Difference) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", d.Where, d.Summary())
	if len(d.Sequence) > 0 {
		fmt.Fprintf(&b, "\nshortest failing sequence (%d calls):", len(d.Sequence))
		for i, c := range d.Sequence {
			fmt.Fprintf(&b, "\n  %d. %s", i+1, c)
		}
	}
	fmt.Fprintf(&b, "\nrows want:%s\nrows got: %s", rowsText(d.WantRows), rowsText(d.GotRows))
	return b.String()
}

// Summary is the call and how it differed, on one line: the answers, the
// invariant broken, or that the rows differ, naming each job and field
// that does with the reference's value first (job a: owner "A" vs "B",
// token 1 vs 2).
func (d *Difference) Summary() string {
	var b strings.Builder
	b.WriteString(d.Call.String())
	switch {
	case d.Invariant != "":
		fmt.Fprintf(&b, ": breaks %s: %s", d.Invariant, d.Detail)
	case d.Want != d.Got:
		fmt.Fprintf(&b, ": want %s, got %s", d.Want, d.Got)
	default:
		b.WriteString(": the rows differ (want vs got): " + rowsDiff(d.WantRows, d.GotRows))
	}
	return b.String()
}

// rowsDiff names each job whose row differs between want and got, and
// the fields that differ, want's value first; or the order of the jobs,
// when only that differs.
func rowsDiff(want, got []engine.Job) string {
	byID := func(jobs []engine.Job) map[string]engine.Job {
		m := make(map[string]engine.Job, len(jobs))
		for _, j := range jobs {
			m[j.ID] = j
		}
		return m
	}
	w, g := byID(want), byID(got)
	var diffs []string
	for _, j := range want {
		if gj, ok := g[j.ID]; !ok {
			diffs = append(diffs, "job "+j.ID+": only in the reference's rows")
		} else if fs := fieldDiffs(j, gj); len(fs) > 0 {
			diffs = append(diffs, "job "+j.ID+": "+strings.Join(fs, ", "))
		}
	}
	for _, j := range got {
		if _, ok := w[j.ID]; !ok {
			diffs = append(diffs, "job "+j.ID+": only in the Queue's rows")
		}
	}
	if len(diffs) == 0 {
		return "the order of the jobs: " + ids(want) + " vs " + ids(got)
	}
	return strings.Join(diffs, "; ")
}

// fieldDiffs are the fields of one job's row that differ, as "name want
// vs got".
func fieldDiffs(w, g engine.Job) []string {
	var out []string
	num := func(name string, a, b int64) {
		if a != b {
			out = append(out, fmt.Sprintf("%s %d vs %d", name, a, b))
		}
	}
	text := func(name, a, b string) {
		if a != b {
			out = append(out, fmt.Sprintf("%s %q vs %q", name, a, b))
		}
	}
	if w.Status != g.Status {
		out = append(out, fmt.Sprintf("status %s vs %s", w.Status, g.Status))
	}
	num("qty", w.Qty, g.Qty)
	text("owner", w.Owner, g.Owner)
	num("lease_until", w.LeaseUntil, g.LeaseUntil)
	num("token", w.Token, g.Token)
	num("attempts", w.Attempts, g.Attempts)
	num("max_attempts", w.MaxAttempts, g.MaxAttempts)
	num("deadline", w.Deadline, g.Deadline)
	text("reason", w.Reason, g.Reason)
	text("result", w.Result, g.Result)
	return out
}

// ids are the jobs' ids, in their order.
func ids(jobs []engine.Job) string {
	s := make([]string, len(jobs))
	for i, j := range jobs {
		s[i] = j.ID
	}
	return strings.Join(s, ", ")
}

func rowsText(jobs []engine.Job) string {
	if len(jobs) == 0 {
		return " (none)"
	}
	var b strings.Builder
	for _, j := range jobs {
		fmt.Fprintf(&b, "\n  %s", rowText(&j))
	}
	return b.String()
}

func rowText(j *engine.Job) string {
	return fmt.Sprintf("%s %s qty=%d owner=%q lease_until=%d token=%d attempts=%d max_attempts=%d deadline=%d reason=%q result=%q",
		j.ID, j.Status, j.Qty, j.Owner, j.LeaseUntil, j.Token, j.Attempts, j.MaxAttempts, j.Deadline, j.Reason, j.Result)
}

// answerText is an answer as a Difference shows it.
func answerText(l *engine.Lease, job *engine.Job, enq *bool, err error) string {
	if err != nil {
		if r := engine.RefusalOf(err); r != "" {
			return "refused " + string(r)
		}
		switch {
		case errors.Is(err, engine.ErrEmpty):
			return "empty"
		case errors.Is(err, engine.ErrInvalid):
			return "invalid"
		}
		return "error: " + err.Error()
	}
	switch {
	case enq != nil:
		return fmt.Sprintf("enqueued %t", *enq)
	case l != nil:
		return fmt.Sprintf("ok %s#%d job %s qty=%d attempt=%d until %d", l.Owner, l.Token, l.JobID, l.Qty, l.Attempt, l.LeaseUntil)
	case job != nil:
		return rowText(job)
	}
	return "ok"
}

// pair runs every call on the reference and on the Queue under test,
// compares the answers and the rows, and judges each side's history with
// its own invariant checker.
type pair struct {
	ref, sub       Queue
	refChk, subChk *check.Checker
	// leases are what each worker holds, job by job, as the reference
	// granted them: what it presents next.
	leases map[string]map[string]engine.Lease
	// granted is the latest lease granted (claimed or renewed).
	granted  engine.Lease
	refOps   []check.Op
	subOps   []check.Op
	lastCall Call
	// hearing are the sends whose couriers have not heard back yet: each
	// one's complete (or release), made at its end.
	hearing []hearing
}

// hearing is a send's second half: its call, at its end, for its line.
type hearing struct {
	at   int64
	line int
	call Call
}

func newPair(ref, sub Queue) *pair {
	return &pair{ref: ref, sub: sub, refChk: check.New(), subChk: check.New(),
		leases: map[string]map[string]engine.Lease{}}
}

// held is the lease worker holds of job, or a token-0 lease of it.
func (p *pair) held(ctx context.Context, owner, job string) (engine.Lease, bool) {
	if l, ok := p.leases[owner][job]; ok {
		return l, true
	}
	qty := int64(1)
	if j, err := p.ref.Get(ctx, job); err == nil && j != nil {
		qty = j.Qty
	}
	return engine.Lease{JobID: job, Owner: owner, Qty: qty}, false
}

func (p *pair) hold(l engine.Lease) {
	p.granted = l
	m := p.leases[l.Owner]
	if m == nil {
		m = map[string]engine.Lease{}
		p.leases[l.Owner] = m
	}
	m[l.JobID] = l
}

// forget is a worker's crash: it holds no lease any more.
func (p *pair) forget(owner string) { delete(p.leases, owner) }

// result is one side's answer to a call.
type result struct {
	text    string
	lease   engine.Lease
	granted bool
	op      check.Op
}

func do(ctx context.Context, q Queue, c Call) result {
	var (
		l   engine.Lease
		job *engine.Job
		enq *bool
		err error
	)
	op := check.Op{Kind: c.Op, JobID: c.Job, Owner: c.Owner, Now: c.Now}
	switch c.Op {
	case engine.OpEnqueue:
		var ok bool
		ok, err = q.Enqueue(ctx, c.New)
		enq = &ok
		op.JobID = c.New.ID
	case engine.OpState:
		job, err = q.Get(ctx, c.Job)
		if err == nil && job == nil {
			return result{text: "no such job (nil, nil)"}
		}
	case engine.OpClaim:
		l, err = q.Claim(ctx, c.Job, c.Owner, c.Now, c.TTL)
	case engine.OpClaimNext:
		l, err = q.ClaimNext(ctx, c.Owner, c.Now, c.TTL)
		op.JobID = l.JobID
	case engine.OpRenew:
		l, err = q.Renew(ctx, c.Lease, c.Now, c.TTL)
	case engine.OpComplete:
		err = q.Complete(ctx, c.Lease, c.Now, c.Result)
	case engine.OpRelease:
		err = q.Release(ctx, c.Lease)
		op.Now = 0
	case engine.OpReopen:
		if r, ok := q.(Reopener); ok {
			err = r.Reopen(ctx)
		}
	}
	switch c.Op {
	case engine.OpRenew, engine.OpComplete, engine.OpRelease:
		op.JobID, op.Owner, op.Token = c.Lease.JobID, c.Lease.Owner, c.Lease.Token
	}
	granted := err == nil && (c.Op == engine.OpClaim || c.Op == engine.OpClaimNext || c.Op == engine.OpRenew)
	op.Accepted = err == nil && (enq == nil || *enq)
	var lp *engine.Lease
	if granted {
		lp = &l
		op.Lease = l
	}
	return result{text: answerText(lp, job, enq, err), lease: l, granted: granted, op: op}
}

// call runs c on both sides. A Difference when the answers differ; the
// reference's answer otherwise.
func (p *pair) call(ctx context.Context, c Call) (result, *Difference) {
	p.lastCall = c
	want, got := do(ctx, p.ref, c), do(ctx, p.sub, c)
	if want.text != got.text {
		return want, p.diff(ctx, &Difference{Want: want.text, Got: got.text})
	}
	if want.granted {
		p.hold(want.lease)
	}
	p.refOps = append(p.refOps, want.op)
	p.subOps = append(p.subOps, got.op)
	return want, nil
}

// diff fills d's call and rows.
func (p *pair) diff(ctx context.Context, d *Difference) *Difference {
	d.Call = p.lastCall
	d.WantRows, _ = p.ref.Jobs(ctx)
	var err error
	if d.GotRows, err = p.sub.Jobs(ctx); err != nil && d.Got == "" {
		d.Got = "Jobs: error: " + err.Error()
	}
	return d
}

// settle ends a step: the rows must agree, and every invariant the Queue's
// history breaks must be broken by the reference's too (a timeline may
// tell of a break, e.g. a clock that runs ahead).
func (p *pair) settle(ctx context.Context) *Difference {
	want, err := p.ref.Jobs(ctx)
	if err != nil {
		return p.diff(ctx, &Difference{Want: "Jobs: error: " + err.Error(), Got: "?"})
	}
	got, err := p.sub.Jobs(ctx)
	if err != nil {
		return p.diff(ctx, &Difference{Want: "Jobs", Got: "Jobs: error: " + err.Error()})
	}
	if !slices.Equal(want, got) {
		return &Difference{Call: p.lastCall, WantRows: want, GotRows: got}
	}
	wv := p.refChk.Observe(p.refOps, want)
	gv := p.subChk.Observe(p.subOps, got)
	p.refOps, p.subOps = p.refOps[:0], p.subOps[:0]
	for i, v := range gv {
		if !v.OK && wv[i].OK {
			return &Difference{Call: p.lastCall, Invariant: v.Invariant, Detail: v.Detail, WantRows: want, GotRows: got}
		}
	}
	return nil
}
