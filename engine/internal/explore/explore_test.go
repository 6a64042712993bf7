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

// A refused scope names the bound it passes, before, at and after each
// bound: the last value inside is searched, the first outside is refused
// with the bound's value in the message.
func TestValidate_RefusalNamesTheBound(t *testing.T) {
	for _, c := range []struct {
		name string
		mod  func(*explore.Scope)
		want string // "" accepted; else a part of the refusal
	}{
		{"steps 11", func(s *explore.Scope) { s.Steps = 11 }, ""},
		{"steps 12", func(s *explore.Scope) { s.Steps = 12 }, ""},
		{"steps 13", func(s *explore.Scope) { s.Steps = 13 }, "1 to 12"},
		{"workers 5", func(s *explore.Scope) { s.Workers = 5 }, ""},
		{"workers 6", func(s *explore.Scope) { s.Workers = 6 }, ""},
		{"workers 7", func(s *explore.Scope) { s.Workers = 7 }, "1 to 6"},
		{"ttl 249999999", func(s *explore.Scope) { s.TTL = 249_999_999 }, ""},
		{"ttl 250000000", func(s *explore.Scope) { s.TTL = 250_000_000 }, ""},
		{"ttl 250000001", func(s *explore.Scope) { s.TTL = 250_000_001 }, "at most 250000000"},
		{"deadline 249999999", func(s *explore.Scope) { s.Jobs[0].Deadline = 249_999_999 }, ""},
		{"deadline 250000000", func(s *explore.Scope) { s.Jobs[0].Deadline = 250_000_000 }, ""},
		{"deadline 250000001", func(s *explore.Scope) { s.Jobs[0].Deadline = 250_000_001 }, "deadline 250000001 ms: 0 (none) to 250000000"},
		{"deadline -1", func(s *explore.Scope) { s.Jobs[0].Deadline = -1 }, "deadline -1 ms: 0 (none) to 250000000"},
		{"max attempts -1", func(s *explore.Scope) { s.Jobs[0].MaxAttempts = -1 }, "max_attempts -1: 0 (unlimited) or more"},
		{"max states 0", func(s *explore.Scope) { s.MaxStates = 0 }, "at least 1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			sc := explore.DefaultScope()
			c.mod(&sc)
			err := explore.Validate(sc, explore.Goal{})
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("err %v, want one naming %q", err, c.want)
			}
		})
	}
	if err := explore.Validate(explore.DefaultScope(), explore.Goal{Property: "one-lease"}); err == nil || !strings.Contains(err.Error(), check.SingleLease) {
		t.Fatalf("an unknown property: err %v, want the valid ones named", err)
	}
}

// A search never visits more states than its bound, even a bound of one
// (the state before the first step).
func TestSearch_NeverVisitsMoreStatesThanItsBound(t *testing.T) {
	for _, bound := range []int{1, 2, 3} {
		sc := explore.DefaultScope()
		sc.MaxStates = bound
		f, err := explore.Search(t.Context(), sc, explore.Goal{Property: check.SingleLease}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if f.States != bound || f.Bound == "" {
			t.Errorf("bound %d: %d states, bound %q", bound, f.States, f.Bound)
		}
	}
}
