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

// labMutants are, for each lab, the mutants whose broken rule one of its
// functions keeps; the others break rules the lab has no function for.
var labMutants = map[string][]string{
	Fencing: {mutant.SchemaReset, mutant.EnqueueReplace, mutant.StateEmptyRow,
		mutant.ClaimBoundary, mutant.RenewBoundary, mutant.CompleteDone,
		mutant.ReleaseResetsToken, mutant.ClaimManyFirstOnly, mutant.OwnerNotCompared,
		mutant.ValidityInclusive, mutant.IDOnly},
	Courier: {mutant.SchemaReset, mutant.EnqueueReplace, mutant.StateEmptyRow,
		mutant.ClaimBoundary, mutant.CompleteDone, mutant.NoDeadlineCap,
		mutant.AttemptsOffByOne, mutant.ValidityInclusive, mutant.IDOnly},
}

// courierCannot says why the courier's functions cannot show a mutant
// whose rule they keep.
var courierCannot = map[string]lang.Phrase{
	mutant.OwnerNotCompared:      lang.P("finish presents the marker its own worker's claim_next answered, never another worker's current token, which is what this rule is about: %s", rule(mutant.OwnerNotCompared)),
	mutant.ReceiverNotIdempotent: lang.P("the receive step checks this rule by calling receive, which no timeline can: %s", rule(mutant.ReceiverNotIdempotent)),
}

// mutantScope is the explorer's scope for a lab, three workers each, a
// refusal's reason unseen (the lab's functions answer None or False, never
// why). The fencing lab's: plain jobs only (its table has no quantity,
// deadline or budget). The courier's: claim-next, complete, state, enqueue and
// reopen, a refusal's reason unseen (finish answers a bool), over a job
// with an attempts budget and a deadline after its second lease ends.
func mutantScope(lab string) explore.Scope {
	if lab == Courier {
		return explore.Scope{Workers: 3, Jobs: []explore.Job{{ID: "a", Qty: 1, Deadline: 2500, MaxAttempts: 2}, {ID: "b", Qty: 1, Later: true}},
			Steps: 8, TTL: 1000, MaxStates: 300_000, NextOnly: true, NoReasons: true}
	}
	return explore.Scope{Workers: 3, Jobs: []explore.Job{{ID: "a", Qty: 1}, {ID: "b", Qty: 1, Later: true}},
		Steps: 8, TTL: 1000, MaxStates: 300_000, NoReasons: true}
}

// found are each lab's explorer finds, searched once a process: the same
// scope and goal always give the same timeline.
var found = map[string]func() map[string]find{Fencing: finds(Fencing), Courier: finds(Courier)}

// finds searches the lab's mutants once, when first called.
func finds(lab string) func() map[string]find {
	return sync.OnceValue(func() map[string]find {
		out := map[string]find{}
		for _, name := range labMutants[lab] {
			r, err := explore.Explore(context.Background(), mutantScope(lab), explore.Goal{Mutant: name}, nil)
			if err == nil {
				out[name] = find{timeline: r.Timeline}
			} else {
				out[name] = find{err: err}
			}
		}
		return out
	})
}

// find is the explorer's timeline for a mutant ("" when none), or why it
// could not search.
type find struct {
	timeline string
	err      error
}

// mutantTests are each lab mutant's distinguishing timeline, found by the
// explorer within the lab's mutantScope, to be played on the student's
// code.
func (g *grader) mutantTests() []testCase {
	var ts []testCase
	finds := found[g.o.LabName]()
	for _, m := range mutant.All() {
		tc := testCase{name: lang.P("mutant: %s", m.Name)}
		why, cannot := courierCannot[m.Name]
		switch {
		case g.o.LabName == Courier && cannot:
			tc.skip = why
		case !slices.Contains(labMutants[g.o.LabName], m.Name):
			tc.skip = lang.P("it breaks a rule the lab has no function for: %s", rule(m.Name))
		}
		if tc.skip.Format() != "" {
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
			tc.skip = outside(g.o.LabName, tl)
		} else {
			tc.skip = lang.P("the explorer's timeline does not parse: %s", err.Error())
		}
		tc.run = func(ctx context.Context) (*Failure, error) {
			f, err := g.timeline(ctx, name, r.timeline)
			switch {
			case f != nil && f.detail.Format() != "":
				f.explain(lang.P("%s\nthis timeline tells the contract from a broken engine: %s", f.detail, g.rule(m.Name)))
			case f != nil:
				f.explain(lang.P("this timeline tells the contract from a broken engine: %s", g.rule(m.Name)))
			}
			return f, err
		}
		ts = append(ts, tc)
	}
	return ts
}

// rule is the rule mutant name breaks, in the words of the lab's own
// functions and columns and the student's terms where the engine's
// wording names others (lease_until and token for the fencing lab's until
// and fence, complete for the courier's finish, nil).
func (g *grader) rule(name string) lang.Text {
	none := g.o.Terms.none()
	lab := map[string]map[string]lang.Phrase{
		Fencing: {
			mutant.SchemaReset:        lang.P("init_db is idempotent: reopening never resets a row or a fence"),
			mutant.StateEmptyRow:      lang.P("state of a missing job is %s", none),
			mutant.ClaimBoundary:      lang.P("a job can be reclaimed at now == until"),
			mutant.RenewBoundary:      lang.P("renew is refused at now == until"),
			mutant.ReleaseResetsToken: lang.P("release keeps the fence"),
			mutant.ClaimManyFirstOnly: lang.P("claim_many claims for every owner, and one fence is granted"),
			mutant.OwnerNotCompared:   lang.P("renew and complete compare owner and fence"),
			mutant.ValidityInclusive:  lang.P("complete is refused at now == until"),
			mutant.IDOnly:             lang.P("renew, complete and release present the owner and the fence of the current lease"),
		},
		Courier: {
			mutant.StateEmptyRow:     lang.P("state of a missing job is %s", none),
			mutant.CompleteDone:      lang.P("done is final: a second finish is refused"),
			mutant.NoDeadlineCap:     lang.P("lease_until = min(now+lease_ms, deadline)"),
			mutant.ValidityInclusive: lang.P("finish is refused at now == lease_until"),
			mutant.IDOnly:            lang.P("finish presents the owner and the token of the current marker"),
		},
	}[g.o.LabName]
	if p, ok := lab[name]; ok {
		return p
	}
	return rule(name)
}

// rule is the rule a mutant breaks, read in the report's language
// (mutant.Rule's wording).
type rule string

// In is the rule in language l.
func (r rule) In(l string) string { return mutant.Rule(l, string(r)) }
