//go:build mutants

package grade

import (
	"context"
	"fmt"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/explore"
	"github.com/leaselab/leaselab/engine/timeline"
)

// mutantScope is the explorer's scope for the lab: plain jobs only (the
// lab's table has no quantity, deadline or budget), three workers.
func mutantScope() explore.Scope {
	return explore.Scope{Workers: 3, Jobs: []explore.Job{{ID: "a", Qty: 1}, {ID: "b", Qty: 1, Later: true}},
		Steps: 8, TTL: 1000, MaxStates: 300_000}
}

// mutantTests are each mutant's distinguishing timeline, found by the
// explorer within mutantScope and played on the student's code.
func (g *grader) mutantTests() []testCase {
	var ts []testCase
	for _, m := range engine.Mutants() {
		tc := testCase{name: "mutant: " + m.Name}
		tc.run = func(ctx context.Context) (*Failure, error) {
			r, err := explore.Explore(ctx, mutantScope(), explore.Goal{Mutant: m.Name}, nil)
			if err != nil || r.Timeline == "" {
				return nil, err
			}
			tl, err := timeline.Parse("mutant-"+m.Name+".tl", r.Timeline)
			if err != nil {
				return nil, err
			}
			if why := outsideLab(tl); why != "" {
				return nil, nil
			}
			f, err := g.timeline(ctx, tl.Name, r.Timeline)
			if f != nil {
				f.Detail = fmt.Sprintf("%s\nthis timeline tells the contract from a broken engine: %s", f.Detail, m.Breaks)
			}
			return f, err
		}
		ts = append(ts, tc)
	}
	return ts
}
