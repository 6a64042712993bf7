//go:build js && wasm && tools

package main

import (
	"context"
	"errors"
	"syscall/js"

	"github.com/leaselab/leaselab/engine/simrun"
)

// exploreCall is leaselab.explore(goal, scope, onProgress): a Promise of
// simrun.ExploreJSON as a string. goal is {mutant} or {engine, property};
// scope is {workers, steps, ttl, max_attempts, deadline, states}, each
// optional; onProgress, a function, hears {states, depth, rate} now and
// then. The search runs here, in the engine's worker, until it is done:
// cancelling it is ending the worker (engine.js does).
func exploreCall(_ js.Value, args []js.Value) any {
	if len(args) == 0 || args[0].Type() != js.TypeObject {
		return rejected(errors.New("leaselab.explore: the first argument is the goal: {mutant} or {engine, property}"))
	}
	g := simrun.ExploreGoal{Mutant: stringField(args[0], "mutant", ""), Engine: stringField(args[0], "engine", ""),
		Property: stringField(args[0], "property", "")}
	var sc simrun.ExploreScope
	if len(args) > 1 && args[1].Type() == js.TypeObject {
		o := args[1]
		sc = simrun.ExploreScope{Workers: intField(o, "workers"), Steps: intField(o, "steps"), TTL: int64(intField(o, "ttl")),
			MaxAttempts: int64(intField(o, "max_attempts")), Deadline: int64(intField(o, "deadline")), States: intField(o, "states")}
	}
	var progress func(simrun.ExploreProgress)
	if len(args) > 2 && args[2].Type() == js.TypeFunction {
		f := args[2]
		progress = func(p simrun.ExploreProgress) {
			f.Invoke(map[string]any{"states": p.States, "depth": p.Depth, "rate": p.Rate})
		}
	}
	return promise(func() (any, error) {
		out, err := simrun.ExploreJSON(context.Background(), g, sc, progress)
		if err != nil {
			return nil, err
		}
		return string(out), nil
	})
}

func intField(o js.Value, key string) int {
	v := o.Get(key)
	if v.Type() != js.TypeNumber {
		return 0
	}
	return v.Int()
}
