//go:build js && wasm && tools

package main

import (
	"context"
	"errors"
	"runtime/debug"
	"syscall/js"

	"github.com/leaselab/leaselab/engine/simrun"
)

// labCall is leaselab.lab(text, {name, seed}, onProgress): a Promise of
// simrun.LabJSON as a string, the lab's Result (format leaselab-lab/1)
// byte for byte as leaselab lab -json prints it. seed, a string of digits,
// overrides the lab's seed line; onProgress, a function, hears {done,
// total} runs after each run. The runs go here, in the engine's worker,
// until they are done: cancelling them is ending the worker (engine.js
// does). Bad text rejects with the mistakes as run's do.
func labCall(_ js.Value, args []js.Value) any {
	text, name, seed, err := labArgs("leaselab.lab", args)
	if err != nil {
		return rejected(err)
	}
	opts := simrun.LabOptions{Seed: seed}
	if len(args) > 2 && args[2].Type() == js.TypeFunction {
		f := args[2]
		opts.Progress = func(done, total int) { f.Invoke(map[string]any{"done": done, "total": total}) }
	}
	return promise(func() (any, error) {
		defer debug.SetGCPercent(debug.SetGCPercent(labGCPercent))
		out, err := simrun.LabJSON(context.Background(), name, text, opts)
		if err != nil {
			return nil, err
		}
		return string(out), nil
	})
}

// labGCPercent is the garbage collector's GOGC while a lab runs. A run's
// garbage is many small short-lived objects and its live heap a few MB;
// the collector shares the worker's one thread with the runs, so
// collecting a quarter as often makes the lab about a tenth faster (Node,
// lease-length.lab: 9.3 to 8.2 ms a run) for a heap of about 16 MB
// instead of 4 at its peak (see engine/DECISIONS.md).
const labGCPercent = 400

// labSVG is leaselab.labSVG(result, lang): a Promise of the plot
// (simrun.LabSVG) of a result lab gave, in lang (en or ko).
func labSVG(_ js.Value, args []js.Value) any {
	if len(args) == 0 || args[0].Type() != js.TypeString {
		return rejected(errors.New("leaselab.labSVG: the first argument must be a lab's result as JSON"))
	}
	result, lang := args[0].String(), "en"
	if len(args) > 1 && args[1].Type() == js.TypeString {
		lang = args[1].String()
	}
	return promise(func() (any, error) { return simrun.LabSVG([]byte(result), lang) })
}

// labStory is leaselab.labStory(text, {name, seed, point, run}): a Promise
// of one run of the lab (point and run from 0: a point's worst or typical,
// as its result names them) replayed as a timeline (simrun.LabStory).
func labStory(_ js.Value, args []js.Value) any {
	text, name, seed, err := labArgs("leaselab.labStory", args)
	if err != nil {
		return rejected(err)
	}
	point, run := intField(args[1], "point"), intField(args[1], "run")
	return promise(func() (any, error) {
		return simrun.LabStory(context.Background(), name, text, seed, point, run)
	})
}

// labArgs reads (text, {name, seed}) as the lab calls take them; the
// options are required (labStory's point and run are there).
func labArgs(fn string, args []js.Value) (text, name, seed string, err error) {
	if len(args) < 2 || args[0].Type() != js.TypeString || args[1].Type() != js.TypeObject {
		return "", "", "", errors.New(fn + ": the arguments are the lab's text and its options")
	}
	return args[0].String(), stringField(args[1], "name", "lab.lab"), stringField(args[1], "seed", ""), nil
}
