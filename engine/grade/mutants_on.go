//go:build mutants

package grade

import (
	"context"
	"slices"
	"sync"

	"github.com/leaselab/leaselab/engine/internal/explore"
	"github.com/leaselab/leaselab/engine/internal/lang"
	"github.com/leaselab/leaselab/engine/internal/mutant"
	"github.com/leaselab/leaselab/engine/timeline"
)

// labMutants are the mutants whose broken rule is one of the lab's
// functions; the others break the courier's deadline, attempts budget,
// receiver or storage, which the lab has no function for.
var labMutants = []string{
	mutant.SchemaReset, mutant.EnqueueReplace, mutant.StateEmptyRow,
	mutant.ClaimBoundary, mutant.RenewBoundary, mutant.CompleteDone,
	mutant.ReleaseResetsToken, mutant.ClaimManyFirstOnly, mutant.OwnerNotCompared,
	mutant.ValidityInclusive, mutant.IDOnly,
}

// mutantScope is the explorer's scope for the lab: plain jobs only (the
// lab's table has no quantity, deadline or budget), three workers.
func mutantScope() explore.Scope {
	return explore.Scope{Workers: 3, Jobs: []explore.Job{{ID: "a", Qty: 1}, {ID: "b", Qty: 1, Later: true}},
		Steps: 8, TTL: 1000, MaxStates: 300_000}
}

// found are the explorer's finds, searched once a process: the same
// scope and goal always give the same timeline.
var found = sync.OnceValue(func() map[string]find {
	out := map[string]find{}
	for _, name := range labMutants {
		r, err := explore.Explore(context.Background(), mutantScope(), explore.Goal{Mutant: name}, nil)
		if err == nil {
			out[name] = find{timeline: r.Timeline}
		} else {
			out[name] = find{err: err}
		}
	}
	return out
})

// find is the explorer's timeline for a mutant ("" when none), or why it
// could not search.
type find struct {
	timeline string
	err      error
}

// mutantTests are each lab mutant's distinguishing timeline, found by the
// explorer within mutantScope, to be played on the student's code.
func (g *grader) mutantTests() []testCase {
	var ts []testCase
	finds := found()
	for _, m := range mutant.All() {
		tc := testCase{name: lang.P("mutant: %s", m.Name)}
		if !slices.Contains(labMutants, m.Name) {
			tc.skip = lang.P("it breaks a rule the lab has no function for: %s", rule(m.Name))
			ts = append(ts, tc)
			continue
		}
		r := finds[m.Name]
		switch {
		case r.err != nil:
			tc.skip = lang.P("the explorer: %s", r.err.Error())
		case r.timeline == "":
			tc.skip = lang.P("the explorer found no timeline the lab's functions can tell")
		}
		if tc.skip.Format() != "" {
			ts = append(ts, tc)
			continue
		}
		name := "mutant-" + m.Name + ".tl"
		tl, err := timeline.Parse(name, r.timeline)
		if err == nil {
			tc.skip = outsideLab(tl)
		} else {
			tc.skip = lang.P("the explorer's timeline does not parse: %s", err.Error())
		}
		tc.run = func(ctx context.Context) (*Failure, error) {
			f, err := g.timeline(ctx, name, r.timeline)
			if f != nil {
				f.explain(lang.P("%s\nthis timeline tells the contract from a broken engine: %s", f.detail, rule(m.Name)))
			}
			return f, err
		}
		ts = append(ts, tc)
	}
	return ts
}

// rule is the rule a mutant breaks, read in the report's language
// (mutant.Rule's wording).
type rule string

// In is the rule in language l.
func (r rule) In(l string) string { return mutant.Rule(l, string(r)) }
