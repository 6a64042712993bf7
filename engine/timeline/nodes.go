package timeline

import (
	"cmp"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/check"
)

// A lock service of several nodes (`service nodes N`): Redlock's N
// independent masters, each keeping its own copy of every lock with its
// own clock, and no consensus between them. A lock JOB is one row per
// node, JOB@n1 … JOB@nN (NodeJob); a client holds the lock when a majority
// of the nodes granted it.

// MaxNodes is the most nodes a `service nodes` line declares.
const MaxNodes = 9

// NodeJob is the row that node keeps for lock job: "JOB@NODE".
func NodeJob(job, node string) string { return job + "@" + node }

// NodeNames are the names of tl's nodes, n1 … nN; nil without a `service
// nodes` line.
func (tl *Timeline) NodeNames() []string {
	names := make([]string, tl.Nodes)
	for k := range names {
		names[k] = "n" + strconv.Itoa(k+1)
	}
	return names
}

// rowsOf is the rows of job: itself, or one per node under `service nodes`.
func (tl *Timeline) rowsOf(job string) []string {
	if tl.Nodes == 0 {
		return []string{job}
	}
	rows := make([]string, 0, tl.Nodes)
	for _, node := range tl.NodeNames() {
		rows = append(rows, NodeJob(job, node))
	}
	return rows
}

// isNode reports whether name is one of tl's nodes.
func (tl *Timeline) isNode(name string) bool {
	k, err := strconv.Atoi(strings.TrimPrefix(name, "n"))
	return strings.HasPrefix(name, "n") && err == nil && k >= 1 && k <= tl.Nodes && "n"+strconv.Itoa(k) == name
}

// nodeBase is node's declared clock offset (`service clock nK OFFSET`).
func (tl *Timeline) nodeBase(node string) int64 {
	for _, c := range tl.NodeClocks {
		if c.Worker == node {
			return c.Offset
		}
	}
	return 0
}

// NodeOffset is how far node's clock is ahead of true time at t, after the
// jumps and drifts of that node among the first before steps.
func (tl *Timeline) NodeOffset(node string, t int64, before int) int64 {
	return tl.clockOffset(node, tl.nodeBase(node), t, before)
}

// NodeInstant is the true instant at or after from at which node's clock,
// as it runs after the first before steps, reads reading.
func (tl *Timeline) NodeInstant(node string, reading, from int64, before int) int64 {
	return instantOn(func(t int64) int64 { return t + tl.NodeOffset(node, t, before) }, tl.clockRate(node, before), reading, from)
}

// movedOffset is the offset at t of the clock a jump or drift of node moves
// (the service's when node is "").
func (tl *Timeline) movedOffset(node string, t int64, before int) int64 {
	switch {
	case node == "":
		return tl.serviceOffset(t, before)
	case tl.isNode(node):
		return tl.NodeOffset(node, t, before)
	}
	return tl.ownOffset(node, t, before)
}

// nodesHeader reads `service nodes N`.
func (p *parser) nodesHeader(w []token) {
	n, err := strconv.Atoi(w[2].text)
	switch {
	case p.tl.Nodes != 0:
		p.errorf(w[0].col, "a second service nodes line")
	case p.tl.Service != nil:
		p.errorf(w[0].col, "a service of several nodes has a clock per node: give one with `service clock nK OFFSET`, not `service clock OFFSET` (line %d)", p.tl.Service.Line)
	case err != nil || n < 2 || n > MaxNodes:
		p.errorf(w[2].col, "service nodes %s: the nodes are 2 to %d (Redlock's are 5)", w[2].text, MaxNodes)
	default:
		p.tl.Nodes = n
	}
}

// nodeClockHeader reads `service clock nK OFFSET`: node nK's clock.
func (p *parser) nodeClockHeader(w []token) {
	node := w[2].text
	switch {
	case p.tl.Nodes == 0:
		p.errorf(w[2].col, "no node %s: declare the nodes first, with `service nodes N`", node)
		return
	case !p.tl.isNode(node):
		p.errorf(w[2].col, "no node %s: the nodes are n1 to n%d", node, p.tl.Nodes)
		return
	}
	for _, c := range p.tl.NodeClocks {
		if c.Worker == node {
			p.errorf(w[2].col, "%s's clock is given twice (line %d)", node, c.Line)
			return
		}
	}
	off, ok := p.offset(w[3], node)
	if ok {
		p.tl.NodeClocks = append(p.tl.NodeClocks, ClockDecl{Line: p.line, Worker: node, Offset: off})
	}
}

// nodeStep refuses, under `service nodes`, a step the nodes cannot take:
// a lock there is claimed by id, renewed, released and guarded by writes
// to an unfenced storage (Redlock hands out no fencing token), and its
// answer is an outcome (the lock has no row of its own to check fields of).
func (p *parser) nodeStep(s *StepLine, w []token, ll lexed) bool {
	for _, a := range s.Actors {
		if p.tl.isNode(a) {
			p.errorf(w[1].col, "%s is a node's name: call the worker something else", a)
			return false
		}
	}
	switch {
	case s.Verb == VerbClaim && (s.Job == "" || len(s.Actors) > 1),
		s.Verb == VerbComplete, s.Verb == VerbSend, s.Verb == VerbDeliver, s.Verb == VerbEnqueue,
		s.Verb == VerbState, s.Verb == VerbReopen:
		p.errorf(w[2].col, "with `service nodes` a lock is claimed by id by one worker, renewed and released on the nodes (Redlock), written to the storage and read: %s is not", s.Verb)
		return false
	case s.Arrives != 0 || s.HasToken:
		p.errorf(w[2].col, "under `service nodes` a worker presents what each node granted it: no token= and no arrives=")
		return false
	case s.Verb == VerbWrite && p.tl.Storage != StorageUnfenced:
		p.errorf(w[2].col, "Redlock hands out no fencing token: a write under `service nodes` needs `storage unfenced`")
		return false
	case (s.Verb == VerbClaim || s.Verb == VerbRenew || s.Verb == VerbRelease) && ll.arrow != 0 && nodeFields(ll):
		p.errorf(ll.arrow, "the lock has no row of its own on several nodes: expect an outcome (ok, refused …) and violates=, each node's row is in the jobs table")
		return false
	}
	return true
}

// reach reads nodes=n1,n2,…: the nodes a worker reaches.
func (p *parser) reach(t token) ([]string, bool) {
	if p.tl.Nodes == 0 {
		p.errorf(t.col, "nodes= names the nodes a worker reaches, under a `service nodes N` line")
		return nil, false
	}
	var out []string
	for _, name := range strings.Split(t.text, ",") {
		switch {
		case !p.tl.isNode(name):
			p.errorf(t.col, "no node %q: the nodes are n1 to n%d", name, p.tl.Nodes)
			return nil, false
		case slices.Contains(out, name):
			p.errorf(t.col, "node %s is listed twice", name)
			return nil, false
		}
		out = append(out, name)
	}
	return out, true
}

// reaches reports whether the step reaches node.
func (s *StepLine) reaches(node string) bool { return s.Reach == nil || slices.Contains(s.Reach, node) }

// nodeFields reports whether an expectation checks a field (key=value
// other than violates=).
func nodeFields(ll lexed) bool {
	for _, t := range ll.expect {
		if k, _, ok := strings.Cut(t.text, "="); ok && k != "violates" {
			return true
		}
	}
	return false
}

// NodeCall is one node's answer to a claim, renew or release of a lock
// under `service nodes`.
type NodeCall struct {
	// Node is the node's name, n1 … nN.
	Node string `json:"node"`
	// Outcome is its answer; a release of a row the worker does not hold
	// is not sent, and is ok.
	Outcome StepOutcome `json:"outcome"`
	// Lease is what it granted or renewed; nil otherwise.
	Lease *Lease `json:"lease"`
	// Released is true when the worker gave this node's grant back
	// because it got no majority.
	Released bool `json:"released,omitempty"`
	// Unreached is true for a node the step did not reach (nodes=): it
	// did not answer, and nothing ran there.
	Unreached bool `json:"unreached,omitempty"`
}

// unreached records that the step did not reach node.
func unreached(st *Step, node string) {
	st.Nodes = append(st.Nodes, NodeCall{Node: node, Outcome: StepOutcome{Kind: string(engine.OutcomeFailed)}, Unreached: true})
}

// nodeNow is node's clock at the step's instant.
func (r *runner) nodeNow(s *StepLine, node string) int64 {
	return s.Time + r.tl.NodeOffset(node, s.Time, r.before)
}

// nodeAnswer records node's answer l, err on the step; it reports false
// (and fails the run) when err is no refusal.
func (r *runner) nodeAnswer(st *Step, node string, l engine.Lease, err error) bool {
	var rej *engine.Rejection
	if err != nil && !errors.As(err, &rej) {
		r.failed = err
		return false
	}
	out, _ := outcomeOf(err)
	call := NodeCall{Node: node, Outcome: out}
	if err == nil && l.JobID != "" {
		call.Lease = leaseOf(l)
	}
	st.Nodes = append(st.Nodes, call)
	return true
}

// majority records the lock's answer: held when more than half the nodes
// said yes (the worker then believes it holds the lock for ttl from the
// step, true time), else refused with the first node's refusal.
func (r *runner) majority(s *StepLine, st *Step, yes int, refusal error) bool {
	actor := s.Actors[0]
	st.Job = s.Job
	if 2*yes > r.tl.Nodes {
		lock := engine.Lease{JobID: s.Job, Owner: actor, LeaseUntil: s.Time + s.TTL}
		r.hold(lock)
		st.Lease = leaseOf(lock)
		st.Outcome = StepOutcome{Kind: string(engine.OutcomeOK)}
		r.checker.Acquired(s.Job, actor, s.Time, s.Time+s.TTL)
		return true
	}
	delete(r.leases[actor], s.Job)
	r.checker.Released(s.Job, actor)
	st.Outcome, st.Rejection = outcomeOf(refusal)
	if refusal == nil { // too few nodes answered: nobody refused, and no majority said yes
		st.Outcome = StepOutcome{Kind: string(engine.OutcomeFailed)}
	}
	return false
}

// claimNodes is Redlock's acquire: claim the lock's row on every node in
// turn, each at its node's clock; with a majority the worker holds the
// lock, else it releases the rows it got.
func (r *runner) claimNodes(s *StepLine, st *Step) []check.Op {
	actor := s.Actors[0]
	st.Args.TTL = s.TTL
	var ops []check.Op
	var got []engine.Lease
	var refusal error
	for _, node := range r.tl.NodeNames() {
		if !s.reaches(node) {
			unreached(st, node)
			continue
		}
		now := r.nodeNow(s, node)
		l, err := r.store.Claim(r.ctx, NodeJob(s.Job, node), actor, now, s.TTL)
		if !r.nodeAnswer(st, node, l, err) {
			return ops
		}
		ops = append(ops, check.Op{Kind: engine.OpClaim, JobID: NodeJob(s.Job, node), Owner: actor, Now: now, Accepted: err == nil, Lease: l})
		if err != nil {
			refusal = cmp.Or(refusal, err)
			continue
		}
		r.hold(l)
		got = append(got, l)
	}
	if r.majority(s, st, len(got), refusal) {
		return ops
	}
	for _, l := range got {
		if err := r.store.Release(r.ctx, l); err != nil {
			r.failed = err
			return ops
		}
		delete(r.leases[actor], l.JobID)
		ops = append(ops, check.Op{Kind: engine.OpRelease, JobID: l.JobID, Owner: actor, Token: l.Token, Accepted: true})
		for i := range st.Nodes {
			if NodeJob(s.Job, st.Nodes[i].Node) == l.JobID {
				st.Nodes[i].Released = true
			}
		}
	}
	return ops
}

// nodeLease is the lease the worker holds of node's row of the lock, or
// one with token 0 when it holds none.
func (r *runner) nodeLease(actor, job, node string) engine.Lease {
	if l, ok := r.leases[actor][NodeJob(job, node)]; ok {
		return l
	}
	return engine.Lease{JobID: NodeJob(job, node), Owner: actor}
}

// renewNodes is Redlock's extend: renew the lock's row on every node; the
// worker keeps the lock when a majority renewed it.
func (r *runner) renewNodes(s *StepLine, st *Step) []check.Op {
	actor := s.Actors[0]
	st.Args.TTL = s.TTL
	var ops []check.Op
	yes := 0
	var refusal error
	for _, node := range r.tl.NodeNames() {
		if !s.reaches(node) {
			unreached(st, node)
			continue
		}
		p, now := r.nodeLease(actor, s.Job, node), r.nodeNow(s, node)
		l, err := r.store.Renew(r.ctx, p, now, s.TTL)
		if !r.nodeAnswer(st, node, l, err) {
			return ops
		}
		ops = append(ops, check.Op{Kind: engine.OpRenew, JobID: p.JobID, Owner: actor, Token: p.Token, Now: now, Accepted: err == nil, Lease: l})
		if err != nil {
			refusal = cmp.Or(refusal, err)
			continue
		}
		r.hold(l)
		yes++
	}
	r.majority(s, st, yes, refusal)
	return ops
}

// releaseNodes is Redlock's unlock: release the lock's row on every node
// that granted it to the worker (a node that has since given it to
// another refuses, and that changes nothing).
func (r *runner) releaseNodes(s *StepLine, st *Step) []check.Op {
	actor := s.Actors[0]
	var ops []check.Op
	for _, node := range r.tl.NodeNames() {
		if !s.reaches(node) {
			unreached(st, node)
			continue
		}
		l, held := r.leases[actor][NodeJob(s.Job, node)]
		if !held {
			st.Nodes = append(st.Nodes, NodeCall{Node: node, Outcome: StepOutcome{Kind: string(engine.OutcomeOK)}})
			continue
		}
		err := r.store.Release(r.ctx, l)
		if !r.nodeAnswer(st, node, engine.Lease{}, err) {
			return ops
		}
		delete(r.leases[actor], l.JobID)
		ops = append(ops, check.Op{Kind: engine.OpRelease, JobID: l.JobID, Owner: actor, Token: l.Token, Accepted: err == nil})
	}
	delete(r.leases[actor], s.Job)
	r.checker.Released(s.Job, actor)
	st.Job = s.Job
	st.Outcome = StepOutcome{Kind: string(engine.OutcomeOK)}
	return ops
}

// explainNodes says what each node answered and what the lock's answer is.
func (r *runner) explainNodes(s *StepLine, st *Step, actor string) string {
	b := r.book
	var parts []string
	yes := 0
	for _, c := range st.Nodes {
		switch {
		case c.Unreached:
			parts = append(parts, sentence(b.nodeSilent, c.Node))
		case c.Outcome.Kind == string(engine.OutcomeOK) && c.Lease != nil:
			yes++
			parts = append(parts, sentence(b.nodeYes, c.Node, c.Lease.Token))
			if c.Released {
				parts[len(parts)-1] = sentence(b.nodeGaveBack, c.Node, c.Lease.Token)
			}
		case c.Outcome.Kind == string(engine.OutcomeOK):
		default:
			parts = append(parts, sentence(b.nodeNo, c.Node, c.Outcome.Reason))
		}
	}
	n := r.tl.Nodes
	switch {
	case s.Verb == VerbRelease:
		return b.say(b.nodesReleased, actor, s.Job)
	case st.Outcome.Kind == string(engine.OutcomeOK):
		return b.say(b.nodesHeld, actor, s.Job, b.list(parts), yes, n, st.Lease.LeaseUntil)
	}
	return b.say(b.nodesNotHeld, actor, s.Job, b.list(parts), yes, n)
}

// explainNodeClock says how a jump or drift moves one node's clock, or a
// worker's own, and which leases judged on it end now.
func (r *runner) explainNodeClock(s *StepLine, st *Step) string {
	b := r.book
	off := r.tl.movedOffset(s.Node, s.Time, r.before)
	whose := sentence(b.nodeNamed, s.Node)
	node := r.tl.isNode(s.Node)
	if !node {
		whose = s.Node
	}
	var text string
	switch {
	case s.Verb == VerbJump && s.Jump > 0:
		text = b.say(b.nodeJumped, s.Time, whose, sentence(b.forward, s.Jump), st.Now-s.Jump, st.Now, r.offsetWords(off))
	case s.Verb == VerbJump:
		text = b.say(b.nodeJumped, s.Time, whose, sentence(b.back, -s.Jump), st.Now-s.Jump, st.Now, r.offsetWords(off))
	case s.Drift > 0:
		text = b.say(b.nodeDrifted, s.Time, whose, sentence(b.gains, s.Drift), st.Now, r.offsetWords(off))
	case s.Drift < 0:
		text = b.say(b.nodeDrifted, s.Time, whose, sentence(b.loses, -s.Drift), st.Now, r.offsetWords(off))
	default:
		text = b.say(b.nodeSteady, s.Time, whose, st.Now, r.offsetWords(off))
	}
	for _, e := range st.Expired {
		row, ok := r.table.get(e.Job)
		switch {
		case !ok:
		case node && strings.HasSuffix(e.Job, "@"+s.Node):
			text += b.say(b.nodeLeaseEnds, e.Owner, e.Job, e.Token, row.LeaseUntil, s.Node)
		case !node && e.Owner == s.Node:
			text += b.say(b.ownLeaseEnds, e.Owner, e.Job, e.Token, row.LeaseUntil)
		}
	}
	return text
}
