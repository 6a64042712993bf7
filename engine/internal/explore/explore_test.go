package explore_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/check"
	"github.com/leaselab/leaselab/engine/internal/explore"
)

// A search that finds nothing goes to the end of its scope and says so: it
// never runs away. On the correct engine no history of the default scope
// breaks an invariant.
func TestSearch_CorrectEngineBreaksNothingWithinTheScope(t *testing.T) {
	sc := explore.DefaultScope()
	sc.Steps = 3
	f, err := explore.Search(t.Context(), sc, explore.Goal{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if f.Steps != nil || f.Bound != "" || f.Depth != 3 || f.States < 100 {
		t.Fatalf("found %v (%s); depth %d, %d states, bound %q", f.Steps, f.Why, f.Depth, f.States, f.Bound)
	}
}

// A search that reaches its limit of states stops there and reports it.
func TestSearch_StopsAtItsBoundOfStatesAndReportsIt(t *testing.T) {
	sc := explore.DefaultScope()
	sc.MaxStates = 50
	f, err := explore.Search(t.Context(), sc, explore.Goal{Property: check.SingleLease}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if f.Steps != nil || f.States != 50 || !strings.Contains(f.Bound, "50 states") {
		t.Fatalf("steps %v, %d states, bound %q", f.Steps, f.States, f.Bound)
	}
}

// A search stops when its context ends.
func TestSearch_StopsWhenItsContextEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := explore.Search(ctx, explore.DefaultScope(), explore.Goal{}, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
}

// Progress is reported as the search goes, in states that only grow.
func TestSearch_ReportsProgress(t *testing.T) {
	sc := explore.DefaultScope()
	sc.Steps = 4
	var seen []explore.Progress
	if _, err := explore.Search(t.Context(), sc, explore.Goal{}, func(p explore.Progress) { seen = append(seen, p) }); err != nil {
		t.Fatal(err)
	}
	if len(seen) < 4 {
		t.Fatalf("progress reported %d times, want once per depth at least", len(seen))
	}
	for i := 1; i < len(seen); i++ {
		if seen[i].States < seen[i-1].States || seen[i].Depth < seen[i-1].Depth {
			t.Fatalf("progress went back: %+v then %+v", seen[i-1], seen[i])
		}
	}
}

// A scope the explorer cannot search is refused with why.
func TestSearch_RefusesABadScope(t *testing.T) {
	for _, mod := range []func(*explore.Scope){
		func(s *explore.Scope) { s.Workers = 0 },
		func(s *explore.Scope) { s.Steps = 0 },
		func(s *explore.Scope) { s.TTL = 0 },
		func(s *explore.Scope) { s.Jobs = nil },
		func(s *explore.Scope) { s.Jobs[1].ID = s.Jobs[0].ID },
	} {
		sc := explore.DefaultScope()
		mod(&sc)
		if _, err := explore.Search(t.Context(), sc, explore.Goal{}, nil); err == nil {
			t.Errorf("scope %+v searched", sc)
		}
	}
	if _, err := explore.Search(t.Context(), explore.DefaultScope(), explore.Goal{Property: "one-lease"}, nil); err == nil {
		t.Error("an unknown property was searched")
	}
}
