package explore

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/check"
	"github.com/leaselab/leaselab/engine/timeline"
)

// op is one step of a history: at an instant, a verb by one worker (or
// several, in a concurrent claim) on a job.
type op struct {
	at     int64
	verb   timeline.Verb
	actors []int // worker indexes; none for reopen (done by "admin")
	job    int   // index into Scope.Jobs; -1 for claim-next, reopen and crash
	forged bool  // presents the row's current token (token=N) instead of its own lease
	token  int64 // the token presented, when forged
}

// obs is what one step let anyone see: every answer, and the jobs, the
// receiver and the storage after it. Two engines that give the same obs
// for every step of a history cannot be told apart by that history.
type obs struct {
	answers []string // one per sub-operation: "ok A#1 until 1000", "refused held", ...
	after   string   // the jobs, the receiver and the storage, after
}

func (o obs) equal(p obs) bool { return slices.Equal(o.answers, p.answers) && o.after == p.after }

// applier applies ops to states of one scope.
type applier struct {
	sc      Scope
	jobs    int
	observe bool    // apply records what the step let anyone see (a diff search compares it)
	singles [][]int // {w} for each worker, shared by every op
	tuples  [][]int // the concurrent claims (races), shared by every op
}

func newApplier(sc Scope, observe bool) *applier {
	a := &applier{sc: sc, jobs: len(sc.Jobs), observe: observe}
	for w := range sc.Workers {
		a.singles = append(a.singles, []int{w})
	}
	a.tuples = a.races()
	return a
}

func (a *applier) worker(w int) string { return workerNames[w] }

// apply runs o on st (changing it) and returns what it showed and the
// checker's operations.
func (a *applier) apply(st *state, o op) (obs, []check.Op) {
	st.now = o.at
	var x obs
	var ops []check.Op
	switch o.verb {
	case timeline.VerbClaim:
		x, ops = a.claim(st, o)
	case timeline.VerbRenew, timeline.VerbComplete, timeline.VerbRelease:
		x, ops = a.holderWrite(st, o)
	case timeline.VerbDeliver, timeline.VerbWrite:
		x, ops = a.deliverOrStore(st, o)
	default:
		x = a.other(st, o)
	}
	if a.observe {
		x.after = a.snapshot(st)
	}
	if a.sc.NoReasons {
		for i, ans := range x.answers {
			if strings.HasPrefix(ans, "refused ") {
				x.answers[i] = "refused"
			}
		}
	}
	return x, ops
}

// claim is a claim by id or of the next job, or a concurrent claim: the
// first contender alone, then the others at once (Model.ClaimMany), as
// the timeline runner plays it.
func (a *applier) claim(st *state, o op) (obs, []check.Op) {
	var x obs
	var ops []check.Op
	grant := func(w int, kind engine.Op, l engine.Lease, err error) {
		x.answers = append(x.answers, answer(err, l))
		if err == nil {
			st.held[w*a.jobs+a.jobIndex(l.JobID)] = l
		}
		ops = append(ops, check.Op{Kind: kind, JobID: l.JobID, Owner: a.worker(w), Now: o.at, Accepted: err == nil, Lease: l})
	}
	w := o.actors[0]
	if o.job < 0 {
		l, err := st.m.ClaimNext(a.worker(w), o.at, a.sc.TTL)
		grant(w, engine.OpClaimNext, l, err)
		return x, ops
	}
	id := a.sc.Jobs[o.job].ID
	l, err := st.m.Claim(id, a.worker(w), o.at, a.sc.TTL)
	grant(w, engine.OpClaim, l, err)
	if len(o.actors) == 1 {
		return x, ops
	}
	rest := make([]string, len(o.actors)-1)
	for i, w := range o.actors[1:] {
		rest[i] = a.worker(w)
	}
	outs, err := st.m.ClaimMany(id, rest, o.at, a.sc.TTL)
	for i, w := range o.actors[1:] {
		switch {
		case err != nil:
			grant(w, engine.OpClaim, engine.Lease{JobID: id}, err)
		case i >= len(outs):
			x.answers = append(x.answers, "error: no answer")
		case outs[i].Refusal != nil:
			grant(w, engine.OpClaim, engine.Lease{JobID: id}, outs[i].Refusal)
		default:
			grant(w, engine.OpClaim, outs[i].Lease, nil)
		}
	}
	return x, ops
}

// presented is the lease o's worker presents: its own, or the row's token.
func (a *applier) presented(st *state, o op) engine.Lease {
	w := o.actors[0]
	l := st.held[w*a.jobs+o.job]
	if l.Token == 0 {
		l = engine.Lease{JobID: a.sc.Jobs[o.job].ID, Owner: a.worker(w), Qty: a.sc.Jobs[o.job].qty()}
	}
	if o.forged {
		l.Token = o.token
	}
	return l
}

func (a *applier) holderWrite(st *state, o op) (obs, []check.Op) {
	l := a.presented(st, o)
	w := o.actors[0]
	var err error
	var renewed engine.Lease
	kind := engine.OpRenew
	switch o.verb {
	case timeline.VerbRenew:
		renewed, err = st.m.Renew(l, o.at, a.sc.TTL)
		if err == nil {
			st.held[w*a.jobs+o.job] = renewed
		}
	case timeline.VerbComplete:
		kind = engine.OpComplete
		err = st.m.Complete(l, o.at, a.worker(w))
	default:
		kind = engine.OpRelease
		err = st.m.Release(l)
	}
	return obs{answers: []string{answer(err, renewed)}},
		[]check.Op{{Kind: kind, JobID: l.JobID, Owner: l.Owner, Token: l.Token, Now: o.at, Accepted: err == nil, Lease: renewed}}
}

func (a *applier) deliverOrStore(st *state, o op) (obs, []check.Op) {
	l := a.presented(st, o)
	if o.verb == timeline.VerbDeliver {
		delivered, err := st.recv.Deliver(l)
		return obs{answers: []string{fmt.Sprintf("%s delivered=%t", answer(err, engine.Lease{}), delivered)}}, nil
	}
	err := st.stor.Write(l.JobID, l, a.worker(o.actors[0]))
	return obs{answers: []string{answer(err, engine.Lease{})}},
		[]check.Op{{Kind: engine.OpWrite, JobID: l.JobID, Owner: l.Owner, Token: l.Token, Accepted: err == nil}}
}

// other runs state, enqueue, reopen and crash.
func (a *applier) other(st *state, o op) obs {
	switch o.verb {
	case timeline.VerbState:
		row, err := st.m.Get(a.sc.Jobs[o.job].ID)
		switch {
		case err != nil:
			return obs{answers: []string{answer(err, engine.Lease{})}}
		case row == nil:
			return obs{answers: []string{"empty"}}
		}
		return obs{answers: []string{"ok " + rowText(*row)}}
	case timeline.VerbEnqueue:
		j := a.sc.Jobs[o.job]
		created, err := st.m.Enqueue(engine.NewJob{ID: j.ID, Qty: j.Qty, Deadline: j.Deadline, MaxAttempts: j.MaxAttempts})
		return obs{answers: []string{fmt.Sprintf("%s enqueued=%t", answer(err, engine.Lease{}), created)}}
	case timeline.VerbReopen:
		st.m.Reopen()
	case timeline.VerbCrash:
		w := o.actors[0]
		clear(st.held[w*a.jobs : (w+1)*a.jobs])
	}
	return obs{answers: []string{"ok"}}
}

func (a *applier) jobIndex(id string) int {
	for i, j := range a.sc.Jobs {
		if j.ID == id {
			return i
		}
	}
	return 0
}

func (j Job) qty() int64 { return max(j.Qty, 1) }

// answer is an operation's answer in words: ok with the lease it granted,
// or the rule that refused it.
func answer(err error, l engine.Lease) string {
	var rej *engine.Rejection
	switch {
	case err == nil && l.Token > 0:
		return fmt.Sprintf("ok %s#%d until %d", l.Owner, l.Token, l.LeaseUntil)
	case err == nil:
		return "ok"
	case errors.As(err, &rej):
		return "refused " + string(rej.Refusal())
	}
	return string(engine.OutcomeOf(err))
}

// snapshot is the jobs, the receiver and the storage, in words.
func (a *applier) snapshot(st *state) string {
	var parts []string
	for _, j := range st.m.Jobs() {
		parts = append(parts, j.ID+" "+rowText(j))
	}
	if len(parts) == 0 {
		parts = append(parts, "no jobs")
	}
	var got []string
	for _, j := range a.sc.Jobs {
		if st.recv.Got(j.ID) {
			got = append(got, j.ID)
		}
		if v := st.stor.Read(j.ID); v != nil {
			parts = append(parts, fmt.Sprintf("storage %s: %q by %s#%d", j.ID, v.Value, v.Owner, v.Token))
		}
	}
	parts = append(parts, fmt.Sprintf("receiver total %d %v", st.recv.Total(), got))
	return strings.Join(parts, "; ")
}

// rowText is a row in words: status, owner#token, lease_until, attempts,
// the quarantine's reason and the result.
func rowText(j engine.Job) string {
	owner := j.Owner
	if owner == "" {
		owner = "nobody"
	}
	t := fmt.Sprintf("%s %s#%d until %d, attempts %d", j.Status, owner, j.Token, j.LeaseUntil, j.Attempts)
	if j.Reason != "" {
		t += " (" + j.Reason + ")"
	}
	if j.Result != "" {
		t += fmt.Sprintf(", result %q", j.Result)
	}
	return t
}
