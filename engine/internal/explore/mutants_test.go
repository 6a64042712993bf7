//go:build mutants

package explore_test

import (
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/check"
	"github.com/leaselab/leaselab/engine/internal/command"
	"github.com/leaselab/leaselab/engine/internal/explore"
	"github.com/leaselab/leaselab/engine/internal/mutant"
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
