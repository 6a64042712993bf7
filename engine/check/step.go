package check

import (
	"fmt"

	"github.com/leaselab/leaselab/engine/internal/lang"
	"strings"

	"github.com/leaselab/leaselab/engine"
)

// step judges one Observe call: first the operations, in order, against
// what earlier steps granted; then the rows against the rows before.
type step struct {
	c       *Checker
	rows    map[string]*engine.Job   // the rows after the step, by id (first of duplicates)
	viol    map[string][]lang.Phrase // violations by invariant, in the order found
	flagged map[string]bool          // invariant+"\x00"+job already has a violation this step
}

func (st *step) fail(inv, job, format string, args ...any) {
	if st.flagged == nil {
		st.flagged = make(map[string]bool)
	}
	st.flagged[inv+"\x00"+job] = true
	st.viol[inv] = append(st.viol[inv], lang.P(format, args...))
}

// failOnce records a violation found in the rows unless the operations of
// this step already showed one of the same invariant on the same job.
func (st *step) failOnce(inv, job, format string, args ...any) {
	if st.flagged[inv+"\x00"+job] {
		return
	}
	st.fail(inv, job, format, args...)
}

// track returns what the checker knows of job id, creating it if new.
func (c *Checker) track(id string) *jobTrack {
	t, ok := c.jobs[id]
	if !ok {
		t = &jobTrack{}
		c.jobs[id] = t
		c.order = append(c.order, id)
	}
	return t
}

func (st *step) indexRows(rows []engine.Job) {
	count := make(map[string]int, len(rows))
	for i := range rows {
		id := rows[i].ID
		count[id]++
		if count[id] == 1 {
			st.rows[id] = &rows[i]
		}
		if count[id] == 2 {
			st.fail(NoJobLost, id, "job %s appears more than once", id)
		}
	}
}

func (st *step) op(op Op) {
	switch op.Kind {
	case engine.OpEnqueue:
		if !op.Accepted {
			return
		}
		t, known := st.c.jobs[op.JobID]
		if known && (t.seen || t.enqueued) {
			st.fail(NoJobLost, op.JobID, "enqueue of existing job %s accepted", op.JobID)
			return
		}
		st.c.track(op.JobID).enqueued = true
	case engine.OpClaim, engine.OpClaimNext:
		if op.Accepted {
			st.granted(op, op.Lease)
		}
	case engine.OpRenew:
		if !op.Accepted {
			return
		}
		t := st.c.track(op.JobID)
		if st.stale(t, op) {
			return
		}
		t.grant.until = op.Lease.LeaseUntil
		st.withinDeadline(op.JobID, op.Lease)
	case engine.OpComplete, engine.OpRelease:
		if !op.Accepted {
			return
		}
		t := st.c.track(op.JobID)
		if st.stale(t, op) {
			return
		}
		t.grant.endedBy = map[engine.Op]string{engine.OpComplete: "completed", engine.OpRelease: "released"}[op.Kind]
	case engine.OpSend:
		if op.Lease.Token == 0 {
			return
		}
		st.granted(op, op.Lease)
		if op.Accepted {
			st.op(Op{Kind: engine.OpComplete, JobID: op.Lease.JobID, Owner: op.Lease.Owner,
				Token: op.Lease.Token, Now: op.Now, Accepted: true})
		}
	case engine.OpWrite:
		st.write(op)
	case engine.OpDeliver:
		if !op.Accepted {
			return
		}
		t := st.c.track(op.JobID)
		if t.applied != "" {
			st.fail(AppliedOnce, op.JobID, "job %s: the receiver applied it again for %s, after %s",
				op.JobID, lease(op.Owner, op.Token), t.applied)
			return
		}
		t.applied = lease(op.Owner, op.Token)
	}
}

// write judges a storage write: an accepted one must not present a token
// below the highest the storage accepted for its key (storage-fenced), nor,
// when the caller names the job whose lease it presents (op.Lease.JobID), a
// token below that job's latest grant: a stale write that lands because
// the newer holder has not written there yet (no-stale-write).
func (st *step) write(op Op) {
	if !op.Accepted {
		return
	}
	high, seen := st.c.stored[op.JobID]
	if seen && op.Token < high {
		st.fail(StorageFenced, op.JobID, "storage %s: write by %s accepted after a write with token %d was accepted",
			op.JobID, lease(op.Owner, op.Token), high)
		return
	}
	st.c.stored[op.JobID] = op.Token
	if job := op.Lease.JobID; job != "" {
		if t := st.c.jobs[job]; t != nil && t.grant.token > op.Token {
			st.fail(NoStaleWrite, job, "storage %s: write by %s accepted after %s was granted the lease of %s",
				op.JobID, lease(op.Owner, op.Token), lease(t.grant.owner, t.grant.token), job)
		}
	}
}

// granted judges a lease a claim handed out at op.Now.
func (st *step) granted(op Op, l engine.Lease) {
	id := l.JobID
	if id == "" {
		id = op.JobID
	}
	t := st.c.track(id)
	g := t.grant
	at := st.c.trueTime(op.Owner, op.Now)
	if g.token != 0 && g.endedBy == "" && at < st.c.trueTime(g.owner, g.until) {
		st.fail(SingleLease, id, "job %s: %s granted at %d%s while %s is valid until %d%s%s",
			id, lease(l.Owner, l.Token), op.Now, st.onClock(op.Owner, g.owner, op.Now),
			lease(g.owner, g.token), g.until, st.onClock(g.owner, op.Owner, g.until), st.skew(op.Owner, g.owner))
	} else if end := st.c.trueTime(g.owner, g.until); g.token != 0 && g.endedBy == "" && at < end+st.c.lockDelay {
		st.fail(SingleLease, id, "job %s: %s granted at %d, %d ms after %s ran out, within the lock-delay of %d ms",
			id, lease(l.Owner, l.Token), op.Now, at-end, lease(g.owner, g.token), st.c.lockDelay)
	}
	if l.Token <= t.maxToken {
		st.fail(TokensIncrease, id, "job %s: token %d granted at %d, not above %d",
			id, l.Token, op.Now, t.maxToken)
	}
	st.withinDeadline(id, l)
	t.grant = grant{owner: l.Owner, token: l.Token, until: l.LeaseUntil}
	t.maxToken = max(t.maxToken, l.Token)
}

// stale records an accepted write that did not present the job's latest
// live grant, and reports whether it did so.
func (st *step) stale(t *jobTrack, op Op) bool {
	g := t.grant
	switch {
	case g.token == 0:
		st.fail(NoStaleWrite, op.JobID, "job %s: %s by %s accepted, but no lease was granted",
			op.JobID, op.Kind, lease(op.Owner, op.Token))
	case op.Owner != g.owner || op.Token != g.token:
		st.fail(NoStaleWrite, op.JobID, "job %s: %s by %s accepted, latest grant %s",
			op.JobID, op.Kind, lease(op.Owner, op.Token), lease(g.owner, g.token))
	case g.endedBy != "":
		st.fail(NoStaleWrite, op.JobID, "job %s: %s by %s accepted after the lease was %s",
			op.JobID, op.Kind, lease(op.Owner, op.Token), lang.Word(g.endedBy))
	case op.Kind != engine.OpRelease && op.Now >= g.until:
		st.fail(NoLateWrite, op.JobID, "job %s: %s by %s accepted at %d, but the lease ended at %d",
			op.JobID, op.Kind, lease(op.Owner, op.Token), op.Now, g.until)
	default:
		return false
	}
	return true
}

// withinDeadline judges a granted or renewed lease against the job's
// deadline, as the row after the step states it.
func (st *step) withinDeadline(id string, l engine.Lease) {
	r := st.rows[id]
	if t := st.c.jobs[id]; r == nil && t != nil && t.seen {
		r = &t.row // unchanged by the step
	}
	if r != nil && r.Deadline > 0 && l.LeaseUntil > r.Deadline {
		st.fail(LeaseWithinDeadline, id, "job %s: lease %s until %d, past deadline %d",
			id, lease(l.Owner, l.Token), l.LeaseUntil, r.Deadline)
	}
}

// skew explains a single-lease violation that clocks out of step allowed:
// the true instant of the grant and both clocks' offsets; "" when the two
// owners' clocks agree.
func (st *step) skew(newOwner, oldOwner string) lang.Phrase {
	a, b := st.c.offsets[newOwner], st.c.offsets[oldOwner]
	if a == b {
		return lang.P("")
	}
	return lang.P(" (%s's clock is %s, %s's %s; fencing must stop the stale holder)",
		newOwner, offsetText(a), oldOwner, offsetText(b))
}

// onClock says whose clock instant t (read on owner's clock) is on, and
// the true time it stands for; "" when owner's and other's clocks agree,
// so the instant means the same to both.
func (st *step) onClock(owner, other string, t int64) lang.Phrase {
	if st.c.offsets[owner] == st.c.offsets[other] {
		return lang.P("")
	}
	return lang.P(" on %s's clock (true time %d)", owner, st.c.trueTime(owner, t))
}

func offsetText(o int64) lang.Phrase {
	switch {
	case o > 0:
		return lang.P("%d ms ahead", o)
	case o < 0:
		return lang.P("%d ms behind", -o)
	}
	return lang.P("right")
}

// judgeRows judges every row against the row before it and against the
// latest grant; given the whole table, it then reports the jobs that are
// missing.
func (st *step) judgeRows(rows []engine.Job, whole bool) {
	for i := range rows {
		r := &rows[i]
		if st.rows[r.ID] != r {
			continue // a duplicate, reported already
		}
		t := st.c.track(r.ID)
		if t.seen {
			prev := t.row
			if r.Token < prev.Token {
				st.failOnce(TokensIncrease, r.ID, "job %s: token went from %d to %d", r.ID, prev.Token, r.Token)
			}
			if final(prev.Status) && *r != prev {
				st.failOnce(FinalIsFinal, r.ID, "job %s was %s; changed: %s", r.ID, prev.Status, diff(prev, *r))
			}
		}
		if r.MaxAttempts > 0 && r.Attempts > r.MaxAttempts {
			st.failOnce(AttemptsBounded, r.ID, "job %s: attempts %d > max_attempts %d", r.ID, r.Attempts, r.MaxAttempts)
		}
		if r.Deadline > 0 && r.LeaseUntil > r.Deadline {
			st.failOnce(LeaseWithinDeadline, r.ID, "job %s: lease_until %d > deadline %d", r.ID, r.LeaseUntil, r.Deadline)
		}
		// A grant that no reported operation explains (or the lease of a
		// job met for the first time) becomes the latest grant.
		g := &t.grant
		if r.Owner != "" && r.Token > g.token {
			if g.token != 0 && g.endedBy == "" && st.c.now < st.c.trueTime(g.owner, g.until) {
				st.failOnce(SingleLease, r.ID, "job %s: row holds %s while %s is valid until %d (now %d)",
					r.ID, lease(r.Owner, r.Token), lease(g.owner, g.token), g.until, st.c.now)
			}
			*g = grant{owner: r.Owner, token: r.Token, until: r.LeaseUntil}
		}
		if g.endedBy == "" {
			switch {
			case r.Status == engine.StatusQuarantined:
				g.endedBy = "quarantined"
			case r.Status == engine.StatusDone:
				g.endedBy = "completed"
			case r.Owner == "" && g.token != 0 && r.Token >= g.token:
				// A row whose token fell below the grant's was reset, not
				// released: its holder still holds the lease it was given.
				g.endedBy = "released"
			}
		}
	}
	if !whole {
		return
	}
	for _, id := range st.c.order {
		t := st.c.jobs[id]
		if (t.seen || t.enqueued) && st.rows[id] == nil {
			st.failOnce(NoJobLost, id, "job %s is missing", id)
		}
	}
}

// remember keeps the rows for the next step.
func (st *step) remember(rows []engine.Job) {
	for i := range rows {
		r := rows[i]
		if st.rows[r.ID] != &rows[i] {
			continue
		}
		t := st.c.track(r.ID)
		t.row, t.seen = r, true
		t.maxToken = max(t.maxToken, r.Token)
	}
}

func final(s engine.Status) bool {
	return s == engine.StatusDone || s == engine.StatusQuarantined
}

func lease(owner string, token int64) string {
	if owner == "" {
		owner = "nobody"
	}
	return fmt.Sprintf("%s#%d", owner, token)
}

// diff names the fields that differ between two versions of a row.
func diff(a, b engine.Job) string {
	var d []string
	add := func(field string, x, y any) {
		if x != y {
			d = append(d, fmt.Sprintf("%s %v -> %v", field, x, y))
		}
	}
	add("status", a.Status, b.Status)
	add("result", fmt.Sprintf("%q", a.Result), fmt.Sprintf("%q", b.Result))
	add("reason", fmt.Sprintf("%q", a.Reason), fmt.Sprintf("%q", b.Reason))
	add("owner", fmt.Sprintf("%q", a.Owner), fmt.Sprintf("%q", b.Owner))
	add("token", a.Token, b.Token)
	add("lease_until", a.LeaseUntil, b.LeaseUntil)
	add("attempts", a.Attempts, b.Attempts)
	add("max_attempts", a.MaxAttempts, b.MaxAttempts)
	add("deadline", a.Deadline, b.Deadline)
	add("qty", a.Qty, b.Qty)
	return strings.Join(d, ", ")
}
