package simrun

import (
	"context"
	"encoding/json"
	"github.com/leaselab/leaselab/engine/limits"

	"github.com/leaselab/leaselab/engine/internal/explore"
)

// ExploreScope is the scope a page asks for: each field optional (0 keeps
// the explorer's default scope's).
type ExploreScope struct {
	Workers     int   `json:"workers"`
	Steps       int   `json:"steps"`
	TTL         int64 `json:"ttl"`
	MaxAttempts int64 `json:"max_attempts"`
	Deadline    int64 `json:"deadline"`
	States      int   `json:"states"`
}

// scope is the explorer's scope: the default, with what s sets.
func (s ExploreScope) scope() explore.Scope {
	sc := explore.DefaultScope()
	set := func(dst *int, v int) {
		if v > 0 {
			*dst = v
		}
	}
	set(&sc.Workers, s.Workers)
	set(&sc.Steps, s.Steps)
	set(&sc.MaxStates, s.States)
	if s.TTL > 0 {
		sc.TTL = s.TTL
	}
	if s.MaxAttempts > 0 {
		sc.Jobs[0].MaxAttempts = s.MaxAttempts
	}
	if s.Deadline > 0 {
		sc.Jobs[0].Deadline = s.Deadline
	}
	return sc
}

// exploreAnswer is an explorer's report as a page reads it.
type exploreAnswer struct {
	Found     bool    `json:"found"`
	Timeline  string  `json:"timeline"` // "" when nothing was found
	Steps     int     `json:"steps"`
	Why       string  `json:"why"`
	States    int     `json:"states"`
	Depth     int     `json:"depth"`
	Bound     string  `json:"bound"`
	ElapsedMS float64 `json:"elapsed_ms"`
}

// ExploreGoal is what an explorer's search looks for: the shortest history
// that tells a mutant from the correct engine, or that breaks a property.
type ExploreGoal = explore.Goal

// ExploreProgress is an explorer's search as it goes: states seen, depth
// reached and rate.
type ExploreProgress = explore.Progress

// ExploreJSON runs the explorer for goal within scope and
// returns its report as JSON: {found, timeline, steps, why, states, depth,
// bound, elapsed_ms}. progress, if not nil, hears how far it has come.
func ExploreJSON(ctx context.Context, goal ExploreGoal, scope ExploreScope, progress func(ExploreProgress)) ([]byte, error) {
	r, err := explore.Explore(ctx, scope.scope(), goal, progress)
	if err != nil {
		return nil, err
	}
	if limit := limits.Default.Row("report_bytes"); int64(len(r.Timeline)) > limit.Value {
		return nil, &limits.ExceededError{Limit: limit, What: "the explorer's timeline"}
	}
	return json.Marshal(exploreAnswer{Found: r.Timeline != "", Timeline: r.Timeline, Steps: len(r.Steps), Why: r.Why,
		States: r.States, Depth: r.Depth, Bound: r.Bound, ElapsedMS: float64(r.Elapsed.Microseconds()) / 1000})
}
