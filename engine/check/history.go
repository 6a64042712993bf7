package check

import (
	"fmt"
	"slices"

	"github.com/leaselab/leaselab/engine"
)

// Call is one operation of a concurrent history as its client saw it:
// invoked at Start and answered at End, instants in ms on one clock that
// every client shares (a log's timestamps, say), as porcupine takes
// operations. Op is the operation and its answer, as for Observe; its Now is
// the instant the client passed to the operation.
//
// Nothing orders two calls that overlap: one that ends before another
// starts (End < Start) happened first; any other two may have taken effect
// in either order.
type Call struct {
	Op
	Start, End int64
}

// Violation is one break of an invariant in a concurrent history, with the
// calls that show it (indexes into the history, in order).
type Violation struct {
	Invariant string
	Detail    string
	Calls     []int
}

func (v Violation) String() string { return v.Invariant + ": " + v.Detail }

// History judges a concurrent history of accepted and refused calls, with
// no rows and no total order: it reports a violation only when every order
// the calls' intervals allow breaks the invariant. It judges the fencing
// invariants, per job:
//
//   - TokensIncrease: no token is granted twice, and a grant that follows
//     another (it started after the other ended) has the greater token;
//   - NoStaleWrite: no renew, complete or release is accepted with a token
//     below that of a grant that ended before it started, or with the
//     token of another owner's grant, or after a complete or release of
//     the same lease ended;
//   - NoLateWrite: no renew or complete is accepted at a now at or after
//     the lease_until of its lease (the grant's, or that of a renew of it
//     that may have come first);
//   - SingleLease: no claim is granted, after another grant ended, at a now
//     before that lease's lease_until (extended by the renews that came
//     first), unless a release or complete of it may have come first, or
//     a grant of a token between theirs took its place (that grant's
//     lease is the one the claim is judged against).
//
// A grant is an accepted claim or claim_next, or a send's claim (Lease with
// a token). The violations come in the order of Invariants, then of their
// calls.
func History(calls []Call) []Violation {
	h := history{calls: calls, grants: map[string][]int{}, writes: map[string][]int{}}
	for i, c := range calls {
		switch {
		case isGrant(&c.Op):
			h.grants[c.Lease.JobID] = append(h.grants[c.Lease.JobID], i)
		case c.Accepted && (c.Kind == engine.OpRenew || c.Kind == engine.OpComplete || c.Kind == engine.OpRelease):
			h.writes[c.JobID] = append(h.writes[c.JobID], i)
		}
		if c.Kind == engine.OpSend && c.Accepted && c.Lease.Token != 0 {
			h.writes[c.Lease.JobID] = append(h.writes[c.Lease.JobID], i)
		}
	}
	jobs := make([]string, 0, len(h.grants))
	for j := range h.grants {
		jobs = append(jobs, j)
	}
	slices.Sort(jobs)
	for _, job := range jobs {
		h.tokens(job)
		h.stale(job)
		h.late(job)
		h.single(job)
	}
	order := map[string]int{}
	for i, name := range Invariants() {
		order[name] = i
	}
	slices.SortStableFunc(h.out, func(a, b Violation) int {
		if d := order[a.Invariant] - order[b.Invariant]; d != 0 {
			return d
		}
		return slices.Compare(a.Calls, b.Calls)
	})
	return h.out
}

func isGrant(o *Op) bool {
	switch o.Kind {
	case engine.OpClaim, engine.OpClaimNext:
		return o.Accepted && o.Lease.Token != 0
	case engine.OpSend:
		return o.Lease.Token != 0
	}
	return false
}

type history struct {
	calls  []Call
	grants map[string][]int // job -> its grants
	writes map[string][]int // job -> its accepted renews, completes, releases and sends' completes
	out    []Violation
}

// before: call a ended before call b started.
func (h *history) before(a, b int) bool { return h.calls[a].End < h.calls[b].Start }

func (h *history) add(inv string, calls []int, format string, args ...any) {
	h.out = append(h.out, Violation{Invariant: inv, Detail: fmt.Sprintf(format, args...), Calls: calls})
}

// name is call i for a message: "call 3 (claim by B, [10,12])".
func (h *history) name(i int) string {
	c := &h.calls[i]
	owner := c.Owner
	if owner == "" {
		owner = c.Lease.Owner
	}
	return fmt.Sprintf("call %d (%s by %s, %d..%d)", i, c.Kind, owner, c.Start, c.End)
}

// written is the lease write i presents: a send's own lease, or the
// presented owner and token.
func (h *history) written(i int) (owner string, token int64) {
	c := &h.calls[i]
	if c.Kind == engine.OpSend {
		return c.Lease.Owner, c.Lease.Token
	}
	return c.Owner, c.Token
}

func (h *history) tokens(job string) {
	gs := h.grants[job]
	for x, a := range gs {
		for _, b := range gs[x+1:] {
			la, lb := h.calls[a].Lease, h.calls[b].Lease
			switch {
			case la.Token == lb.Token:
				h.add(TokensIncrease, []int{a, b}, "job %s: token %d granted twice, to %s by %s and to %s by %s",
					job, la.Token, la.Owner, h.name(a), lb.Owner, h.name(b))
			case h.before(a, b) && lb.Token < la.Token:
				h.add(TokensIncrease, []int{a, b}, "job %s: %s#%d granted by %s after %s#%d by %s", job,
					lb.Owner, lb.Token, h.name(b), la.Owner, la.Token, h.name(a))
			case h.before(b, a) && la.Token < lb.Token:
				h.add(TokensIncrease, []int{b, a}, "job %s: %s#%d granted by %s after %s#%d by %s", job,
					la.Owner, la.Token, h.name(a), lb.Owner, lb.Token, h.name(b))
			}
		}
	}
}

func (h *history) stale(job string) {
	for _, w := range h.writes[job] {
		if h.calls[w].Kind == engine.OpSend {
			continue // its complete presents the lease it was just granted
		}
		owner, token := h.written(w)
		for _, g := range h.grants[job] {
			l := h.calls[g].Lease
			switch {
			case l.Token == token && l.Owner != owner:
				h.add(NoStaleWrite, []int{g, w}, "job %s: %s by %s#%d accepted by %s, but token %d is %s's (%s)",
					job, h.calls[w].Kind, owner, token, h.name(w), token, l.Owner, h.name(g))
			case l.Token > token && h.before(g, w):
				h.add(NoStaleWrite, []int{g, w}, "job %s: %s by %s#%d accepted by %s, after %s#%d was granted by %s",
					job, h.calls[w].Kind, owner, token, h.name(w), l.Owner, l.Token, h.name(g))
			}
		}
		for _, e := range h.writes[job] {
			eo, et := h.written(e)
			k := h.calls[e].Kind
			if e != w && eo == owner && et == token && (k == engine.OpComplete || k == engine.OpRelease || k == engine.OpSend) && h.before(e, w) {
				h.add(NoStaleWrite, []int{e, w}, "job %s: %s by %s#%d accepted by %s, after %s ended that lease",
					job, h.calls[w].Kind, owner, token, h.name(w), h.name(e))
			}
		}
	}
}

// until is the latest lease_until the lease owner#token of job may have had
// when call at ran: its grant's, or that of a renew of it that may have
// come first (first: only those that ended before at started). false
// when the history holds no grant of it.
func (h *history) until(job, owner string, token int64, at int, first bool) (int64, bool) {
	var u int64
	found := false
	for _, g := range h.grants[job] {
		if l := h.calls[g].Lease; l.Token == token && l.Owner == owner {
			u, found = max(u, l.LeaseUntil), true
		}
	}
	for _, r := range h.writes[job] {
		c := &h.calls[r]
		mayPrecede := !h.before(at, r)
		if first {
			mayPrecede = h.before(r, at)
		}
		if r != at && c.Kind == engine.OpRenew && c.Owner == owner && c.Token == token && mayPrecede {
			u = max(u, c.Lease.LeaseUntil)
		}
	}
	return u, found
}

func (h *history) late(job string) {
	for _, w := range h.writes[job] {
		c := &h.calls[w]
		if c.Kind != engine.OpRenew && c.Kind != engine.OpComplete {
			continue
		}
		if u, ok := h.until(job, c.Owner, c.Token, w, false); ok && c.Now >= u {
			h.add(NoLateWrite, []int{w}, "job %s: %s by %s#%d accepted at %d by %s, but the lease ended at %d",
				job, c.Kind, c.Owner, c.Token, c.Now, h.name(w), u)
		}
	}
}

func (h *history) single(job string) {
	for _, a := range h.grants[job] {
		la := h.calls[a].Lease
		for _, b := range h.grants[job] {
			if a == b || !h.before(a, b) {
				continue
			}
			u, _ := h.until(job, la.Owner, la.Token, b, true)
			now := h.calls[b].Now // a send's is its claim's (see Op)
			if now >= u || h.endedBefore(job, la, b) || h.supersededBefore(job, la, h.calls[b].Lease) {
				continue
			}
			lb := h.calls[b].Lease
			h.add(SingleLease, []int{a, b}, "job %s: %s#%d granted at %d by %s while %s#%d, granted by %s, was valid until %d",
				job, lb.Owner, lb.Token, now, h.name(b), la.Owner, la.Token, h.name(a), u)
		}
	}
}

// supersededBefore: a grant of job with a token between l's and lb's
// took l's place before lb was granted (tokens are granted in the order
// they rise), so the row lb's claim judged held that grant's lease, not
// l's: the pair is judged there, not here. Clients pass their own nows,
// so a slow claim may present an earlier now than a grant it follows.
func (h *history) supersededBefore(job string, l, lb engine.Lease) bool {
	for _, m := range h.grants[job] {
		if t := h.calls[m].Lease.Token; t > l.Token && t < lb.Token {
			return true
		}
	}
	return false
}

// endedBefore: a complete or release of lease l may have come before call b.
func (h *history) endedBefore(job string, l engine.Lease, b int) bool {
	for _, e := range h.writes[job] {
		k := h.calls[e].Kind
		if k == engine.OpRenew {
			continue
		}
		if o, t := h.written(e); o == l.Owner && t == l.Token && !h.before(b, e) {
			return true
		}
	}
	return false
}
