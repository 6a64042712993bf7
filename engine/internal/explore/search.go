package explore

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/check"
	"github.com/leaselab/leaselab/engine/timeline"
)

// Goal is what a search looks for.
type Goal struct {
	// Mutant: the shortest history on which the correct engine and this
	// mutant answer differently (an outcome, a lease, a row, a receipt, a
	// stored value).
	Mutant string
	// Engine and Property: the shortest history on which the engine (""
	// the correct one, or a mutant's name) breaks the invariant Property
	// (check.Invariants; "" any of them).
	Engine, Property string
}

func (g Goal) diff() bool { return g.Mutant != "" }

// Progress is how far a search has come.
type Progress struct {
	States int     // distinct states visited
	Depth  int     // the length of the histories being searched
	Rate   float64 // states per second so far
}

// Found is a search's result: the history, if one was found, and what the
// search cost.
type Found struct {
	// Steps is the history, shortest first found; nil when none was.
	Steps []Step
	// Why says what the last step showed: the two engines' answers, or the
	// invariant broken and its detail.
	Why string
	// States is the number of distinct states visited; Depth the length
	// of the longest histories searched.
	States, Depth int
	// Bound is why the search stopped before the scope's end, "" when it
	// did not ("the limit of N states").
	Bound   string
	Elapsed time.Duration
}

// Step is one step of a found history, as the timeline language says it.
type Step struct {
	At     int64
	Verb   timeline.Verb
	Actors []string // "admin" for reopen and enqueue
	Job    string   // "" for claim-next, reopen, crash
	Token  int64    // the token presented, when the worker holds no lease (token=0)
	Forged bool
}

// node is a state with the way it was reached.
type node struct {
	st     *state
	parent *node
	via    op
	depth  int
}

// Search finds the shortest history within sc that reaches g, breadth
// first (so the first history found is a shortest one; among those, the
// first in the fixed order of the steps), visiting each state once (up to
// renaming workers). It searches on the model (engine/model), never the
// database; Explore confirms what it finds on the real engine. progress,
// if not nil, is called now and then. It stops when ctx ends (ctx.Err()).
func Search(ctx context.Context, sc Scope, g Goal, progress func(Progress)) (*Found, error) {
	if err := Validate(sc, g); err != nil {
		return nil, err
	}
	return newSearch(sc, g).run(ctx, progress)
}

type search struct {
	visit    func(*node) // a test's hook: called with every new state
	scratch  [2]*state   // a step is tried here: the correct engine's, and the mutant's
	opsBuf   []op
	reported time.Time // when progress was last reported
	a        *applier
	g        Goal
	k        *keyer
	seen     map[uint64]bool
	start    time.Time
	mutant   string // the mutant compared against, in a diff search
	invs     []string
	visited  int
}

// Validate refuses a scope the explorer cannot search, naming the bound it
// passes, and a goal it cannot look for: a mutant and a property at once,
// an unknown property (the known ones named) or mutant. Search refuses
// what Validate refuses, before it searches anything.
func Validate(sc Scope, g Goal) error {
	if err := sc.check(); err != nil {
		return err
	}
	if g.diff() && (g.Engine != "" || g.Property != "") {
		return fmt.Errorf("explore: a search tells a mutant apart or breaks a property, not both")
	}
	if g.Property != "" && !slices.Contains(check.Invariants(), g.Property) {
		return fmt.Errorf("explore: unknown property %q (%v)", g.Property, check.Invariants())
	}
	for _, name := range []string{g.Mutant, g.Engine} {
		if _, _, _, err := mutantModel(name); err != nil {
			return fmt.Errorf("explore: %w", err)
		}
	}
	return nil
}

// newSearch is a search of sc for g, which Validate accepted.
func newSearch(sc Scope, g Goal) *search {
	invs := check.Invariants()
	if g.Property != "" {
		invs = []string{g.Property}
	}
	return &search{scratch: [2]*state{newScratch(), newScratch()}, a: newApplier(sc, g.diff()), g: g, k: newKeyer(sc.Workers), seen: map[uint64]bool{},
		mutant: g.Mutant, invs: invs}
}

// root is the state before the first step: the declared jobs enqueued.
func (s *search) root() (*state, error) {
	m, r, st, err := mutantModel(s.g.Engine)
	if err != nil {
		return nil, err
	}
	root := &state{m: m, recv: r, stor: st, held: make([]engine.Lease, s.a.sc.Workers*s.a.jobs)}
	var ops []check.Op
	for _, j := range s.a.sc.Jobs {
		if j.Later {
			continue
		}
		created, err := m.Enqueue(engine.NewJob{ID: j.ID, Qty: j.Qty, Deadline: j.Deadline, MaxAttempts: j.MaxAttempts})
		if err != nil {
			return nil, err
		}
		ops = append(ops, check.Op{Kind: engine.OpEnqueue, JobID: j.ID, Accepted: created})
	}
	if !s.g.diff() {
		root.chk = check.New()
		root.chk.Observe(ops, m.Jobs())
	}
	return root, nil
}

func (s *search) run(ctx context.Context, progress func(Progress)) (*Found, error) {
	s.start = time.Now()
	root, err := s.root()
	if err != nil {
		return nil, err
	}
	s.seen[s.k.key(root, s.a.sc.Jobs)] = true
	s.visited = 1
	frontier := []*node{{st: root}}
	for depth := 1; depth <= s.a.sc.Steps && len(frontier) > 0; depth++ {
		s.report(progress, depth, true)
		var next []*node
		for _, n := range frontier {
			found, bound, err := s.expand(ctx, n, &next, progress)
			n.st = nil // expanded: only its way from the root is kept
			if err != nil || found != nil {
				return found, err
			}
			if bound != "" {
				return s.result(nil, bound, depth), nil
			}
		}
		frontier = next
	}
	return s.result(nil, "", min(s.a.sc.Steps, s.depthReached(frontier))), nil
}

func (s *search) depthReached(frontier []*node) int {
	if len(frontier) == 0 {
		return 0
	}
	return frontier[0].depth
}

// expand tries every step from n: a step that reaches the goal ends the
// search (found); a new state joins next. bound is set when the search
// reaches its limit of states.
func (s *search) expand(ctx context.Context, n *node, next *[]*node, progress func(Progress)) (found *Found, bound string, err error) {
	s.opsBuf = s.a.ops(n.st, s.opsBuf)
	for _, o := range s.opsBuf {
		if err := ctx.Err(); err != nil {
			return nil, "", err
		}
		try := s.scratch[0]
		try.copyFrom(n.st)
		x, ops := s.a.apply(try, o)
		if why := s.reached(n.st, o, x, ops, try); why != "" {
			return s.result(&node{parent: n, via: o, depth: n.depth + 1}, why, n.depth+1), "", nil
		}
		k := s.k.key(try, s.a.sc.Jobs)
		if s.seen[k] {
			continue
		}
		if s.visited >= s.a.sc.MaxStates {
			return nil, fmt.Sprintf("the limit of %d states", s.a.sc.MaxStates), nil
		}
		s.seen[k] = true
		s.visited++
		child := &node{st: try.clone(), parent: n, via: o, depth: n.depth + 1}
		*next = append(*next, child)
		if s.visit != nil {
			s.visit(child)
		}
		if s.visited%1024 == 0 {
			s.report(progress, n.depth+1, false)
		}
	}
	return nil, "", nil
}

// reached reports why the step o from parent (which gave x and ops, and
// left child) reaches the goal, or "".
func (s *search) reached(parent *state, o op, x obs, ops []check.Op, child *state) string {
	if s.g.diff() {
		m := s.scratch[1]
		m.copyFrom(parent)
		if err := mutate(s.mutant, m.m, m.recv, m.stor); err != nil {
			return ""
		}
		y, _ := s.a.apply(m, o)
		if x.equal(y) {
			return ""
		}
		return describeDiff(s.mutant, x, y)
	}
	for _, v := range child.chk.Observe(ops, child.m.Rows()) {
		if !v.OK && slices.Contains(s.invs, v.Invariant) {
			return v.Invariant + ": " + v.Detail
		}
	}
	return ""
}

func (s *search) result(last *node, why string, depth int) *Found {
	f := &Found{States: s.visited, Depth: depth, Elapsed: time.Since(s.start)}
	if last == nil {
		f.Bound = why
		return f
	}
	f.Why = why
	var path []op
	for n := last; n.parent != nil; n = n.parent {
		path = append(path, n.via)
	}
	slices.Reverse(path)
	f.Steps = s.steps(path)
	return f
}

// steps words a history's ops, replaying it to learn which worker holds no
// lease when it presents one (it must say token=0).
func (s *search) steps(path []op) []Step {
	st, _ := s.root()
	var out []Step
	for _, o := range path {
		step := Step{At: o.at, Verb: o.verb, Job: "", Forged: o.forged, Token: o.token}
		if o.job >= 0 {
			step.Job = s.a.sc.Jobs[o.job].ID
		}
		for _, w := range o.actors {
			step.Actors = append(step.Actors, s.a.worker(w))
		}
		if len(o.actors) == 0 {
			step.Actors = []string{"admin"}
		}
		if presents(o.verb) && st.held[o.actors[0]*s.a.jobs+o.job].Token == 0 {
			step.Forged = true // holds none: it presents token 0, which the language says token=0
		}
		s.a.apply(st, o)
		out = append(out, step)
	}
	return out
}

// describeDiff says how the correct engine's answers differ from the
// mutant's.
func describeDiff(mutant string, x, y obs) string {
	if !slices.Equal(x.answers, y.answers) {
		return fmt.Sprintf("the correct engine answers %s;\n%s answers %s.", strings.Join(x.answers, ", "), mutant, strings.Join(y.answers, ", "))
	}
	return fmt.Sprintf("both answer %s, but they leave different rows:\ncorrect: %s;\n%s: %s.", strings.Join(x.answers, ", "), x.after, mutant, y.after)
}

// presents reports whether a verb presents the worker's lease.
func presents(v timeline.Verb) bool {
	switch v {
	case timeline.VerbRenew, timeline.VerbComplete, timeline.VerbRelease, timeline.VerbDeliver, timeline.VerbWrite:
		return true
	}
	return false
}

// report calls progress at the start of each depth and then at most every
// 100 ms (always, when level is true).
func (s *search) report(progress func(Progress), depth int, level bool) {
	if progress == nil || (!level && time.Since(s.reported) < 100*time.Millisecond) {
		return
	}
	s.reported = time.Now()
	progress(Progress{States: s.visited, Depth: depth, Rate: float64(s.visited) / max(time.Since(s.start).Seconds(), 1e-9)})
}
