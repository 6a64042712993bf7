//go:build mutants

package grade

import (
	"context"
	"fmt"
	"slices"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/explore"
	"github.com/leaselab/leaselab/engine/timeline"
)

// labMutants are the mutants whose broken rule is one of the lab's
// functions; the others break the courier's deadline, attempts budget,
// receiver or storage, which the lab has no function for.
var labMutants = []string{
	engine.MutantSchemaReset, engine.MutantEnqueueReplace, engine.MutantStateEmptyRow,
	engine.MutantClaimBoundary, engine.MutantRenewBoundary, engine.MutantCompleteDone,
	engine.MutantReleaseResetsToken, engine.MutantClaimManyFirstOnly, engine.MutantOwnerNotCompared,
	engine.MutantValidityInclusive, engine.MutantIDOnly,
}

// mutantScope is the explorer's scope for the lab: plain jobs only (the
// lab's table has no quantity, deadline or budget), three workers.
func mutantScope() explore.Scope {
	return explore.Scope{Workers: 3, Jobs: []explore.Job{{ID: "a", Qty: 1}, {ID: "b", Qty: 1, Later: true}},
		Steps: 8, TTL: 1000, MaxStates: 300_000}
}

// mutantTests are each lab mutant's distinguishing timeline, found by the
// explorer within mutantScope, to be played on the student's code.
func (g *grader) mutantTests() []testCase {
	var ts []testCase
	for _, m := range engine.Mutants() {
		tc := testCase{name: "mutant: " + m.Name}
		if !slices.Contains(labMutants, m.Name) {
			tc.skip = "it breaks a rule the lab has no function for: " + m.Breaks
			ts = append(ts, tc)
			continue
		}
		r, err := explore.Explore(context.Background(), mutantScope(), explore.Goal{Mutant: m.Name}, nil)
		switch {
		case err != nil:
			tc.skip = "the explorer: " + err.Error()
		case r.Timeline == "":
			tc.skip = "the explorer found no timeline the lab's functions can tell"
		}
		if tc.skip != "" {
			ts = append(ts, tc)
			continue
		}
		name := "mutant-" + m.Name + ".tl"
		tl, err := timeline.Parse(name, r.Timeline)
		if err == nil {
			tc.skip = outsideLab(tl)
		} else {
			tc.skip = "the explorer's timeline does not parse: " + err.Error()
		}
		tc.run = func(ctx context.Context) (*Failure, error) {
			f, err := g.timeline(ctx, name, r.Timeline)
			if f != nil {
				f.Detail = fmt.Sprintf("%s\nthis timeline tells the contract from a broken engine: %s", f.Detail, m.Breaks)
			}
			return f, err
		}
		ts = append(ts, tc)
	}
	return ts
}
