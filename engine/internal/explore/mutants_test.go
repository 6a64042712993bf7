//go:build mutants

package explore_test

import (
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/check"
	"github.com/leaselab/leaselab/engine/internal/command"
	"github.com/leaselab/leaselab/engine/internal/explore"
	"github.com/leaselab/leaselab/engine/internal/mutant"
	"github.com/leaselab/leaselab/engine/timeline"
)

// Every mutant is told apart within the default scope, and what the
// explorer prints is a timeline that check passes on the correct engine
// and fails (exit 1) on the mutant.
func TestExplore_EveryMutantToldApartWithinTheDefaultScope(t *testing.T) {
	for _, m := range mutant.All() {
		t.Run(m.Name, func(t *testing.T) {
			r, err := explore.Explore(t.Context(), explore.DefaultScope(), explore.Goal{Mutant: m.Name}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if r.Timeline == "" {
				t.Fatalf("not told apart: %d states, depth %d, bound %q", r.States, r.Depth, r.Bound)
			}
			for _, tc := range []struct {
				args []string
				want int
			}{{[]string{"-"}, command.ExitPass}, {[]string{"-mutant", m.Name, "-"}, command.ExitFail}} {
				var out, errOut strings.Builder
				code := command.Check(tc.args, command.IO{Stdin: strings.NewReader(r.Timeline), Stdout: &out, Stderr: &errOut})
				if code != tc.want {
					t.Errorf("check %v: exit %d, want %d\n%s%s\n%s", tc.args, code, tc.want, out.String(), errOut.String(), r.Timeline)
				}
			}
		})
	}
}

// The search is deterministic: the same scope and goal give the same
// timeline, after the same number of states.
func TestExplore_SameScopeSameAnswer(t *testing.T) {
	for _, name := range []string{mutant.AttemptsOffByOne, mutant.StorageUnfenced} {
		a, err := explore.Explore(t.Context(), explore.DefaultScope(), explore.Goal{Mutant: name}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for range 3 {
			b, err := explore.Explore(t.Context(), explore.DefaultScope(), explore.Goal{Mutant: name}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if a.Timeline != b.Timeline || a.States != b.States {
				t.Fatalf("%s: two searches differ:\n%s(%d states)\n%s(%d states)", name, a.Timeline, a.States, b.Timeline, b.States)
			}
		}
	}
}

// Completing and renewing by job id alone, as queues without fencing do,
// breaks an invariant; so does a storage that stores without the token
// check. The explorer finds each, and the engine confirms it.
func TestExplore_FindsTheInvariantsBrokenEngines(t *testing.T) {
	for _, tc := range []struct{ engine, property string }{
		{mutant.IDOnly, ""},
		{mutant.IDOnly, check.NoStaleWrite},
		{mutant.StorageUnfenced, check.StorageFenced},
	} {
		r, err := explore.Explore(t.Context(), explore.DefaultScope(), explore.Goal{Engine: tc.engine, Property: tc.property}, nil)
		if err != nil {
			t.Fatalf("%s %s: %v", tc.engine, tc.property, err)
		}
		if r.Timeline == "" || (tc.property != "" && !strings.Contains(r.Why, tc.property)) {
			t.Fatalf("%s %s: found %q after %d states", tc.engine, tc.property, r.Why, r.States)
		}
	}
}

// nextOnlyScope is a scope of a queue that claims only the next job and
// whose refusals name no reason: a job with an attempts budget and a
// deadline after its second lease ends, another enqueued later.
func nextOnlyScope() explore.Scope {
	sc := explore.DefaultScope()
	sc.Jobs[0].Deadline = 2500
	sc.NextOnly, sc.NoReasons, sc.MaxStates = true, true, 300_000
	return sc
}

// Within a next-only scope the mutants whose rule a next-job queue's
// claim, complete, state, enqueue and reopen can show, by answers without
// reasons and the rows, are told apart by timelines that make no other
// step.
func TestExplore_NextOnlyTellsTheNextJobQueuesMutants(t *testing.T) {
	for _, name := range []string{mutant.SchemaReset, mutant.EnqueueReplace, mutant.StateEmptyRow, mutant.ClaimBoundary,
		mutant.CompleteDone, mutant.NoDeadlineCap, mutant.AttemptsOffByOne, mutant.ValidityInclusive, mutant.IDOnly} {
		r, err := explore.Explore(t.Context(), nextOnlyScope(), explore.Goal{Mutant: name}, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if r.Timeline == "" {
			t.Fatalf("%s: not told apart: %d states, depth %d, bound %q", name, r.States, r.Depth, r.Bound)
		}
		for _, st := range r.Steps {
			switch {
			case st.Verb == timeline.VerbClaim && st.Job == "", st.Verb == timeline.VerbComplete,
				st.Verb == timeline.VerbState, st.Verb == timeline.VerbEnqueue, st.Verb == timeline.VerbReopen:
			default:
				t.Errorf("%s: a next-only history %s %s:\n%s", name, st.Verb, st.Job, r.Timeline)
			}
		}
		if strings.Count(r.Why, "answers refused") == 2 {
			t.Errorf("%s: told apart by a refusal's reason alone:\n%s", name, r.Timeline)
		}
	}
}
