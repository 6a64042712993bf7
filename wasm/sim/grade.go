//go:build js && wasm && tools

package main

import (
	"context"
	"errors"
	"syscall/js"
	"time"

	"github.com/leaselab/leaselab/wasm/jslab"
)

// gradeCall is leaselab.grade(source, opts): a Promise of the report, as
// JSON (jslab.Report), of the fencing lab written in JavaScript in source,
// graded by engine/grade's tests on this worker's SQLite. opts is {lang,
// sequences, rounds, call_ms}, each optional; a third argument, a
// function, hears {test, call} before each of the learner's calls runs
// (the page's last is where a hang is), and {test, status, why} as each
// test ends (pass, fail or skip; why for a skip), so that a page which
// ends a run that hangs keeps the verdicts before. The learner's code runs in
// this worker: a loop that never returns holds it until the page ends the
// worker (engine.js does, at its time limit).
func gradeCall(_ js.Value, args []js.Value) any {
	if len(args) == 0 || args[0].Type() != js.TypeString {
		return rejected(errors.New("leaselab.grade: the first argument is the learner's JavaScript source"))
	}
	source := args[0].String()
	var o jslab.Options
	if len(args) > 1 && args[1].Type() == js.TypeObject {
		o = jslab.Options{Lang: stringField(args[1], "lang", "en"), Sequences: intField(args[1], "sequences"),
			Rounds: intField(args[1], "rounds"), CallTimeout: time.Duration(intField(args[1], "call_ms")) * time.Millisecond}
	}
	if len(args) > 2 && args[2].Type() == js.TypeFunction {
		progress := args[2]
		o.OnCall = func(test, call string) { progress.Invoke(map[string]any{"test": test, "call": call}) }
		o.OnTest = func(v jslab.Test) {
			progress.Invoke(map[string]any{"test": v.Name, "status": v.Status, "why": v.Why})
		}
	}
	return promise(func() (any, error) {
		out, err := jslab.Grade(context.Background(), source, o)
		if err != nil {
			return nil, err
		}
		return string(out), nil
	})
}
