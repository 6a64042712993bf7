//go:build js && wasm && tools

package main

import (
	"context"
	"errors"
	"syscall/js"
	"time"

	"github.com/leaselab/leaselab/wasm/jslab"
	"github.com/leaselab/leaselab/wasm/pylab"
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

// gradePythonCall is leaselab.gradePython(source, opts): a Promise of the
// report, as JSON (pylab.Report), of the lab written in Python in source,
// graded by engine/grade's tests in the Pyodide the worker loaded
// (globalThis.leaselabPyodide). opts is {lab, lang, simulator, sequences,
// rounds, call_ms}, each optional (lab: fencing or courier; simulator:
// the simulator page's URL, for the first difference's link); a third argument
// hears progress as gradeCall's does. Each call of the student's is
// stopped past call_ms inside Python; code that holds the worker anyway
// (a loop in C) is the page's to end.
func gradePythonCall(_ js.Value, args []js.Value) any {
	if len(args) == 0 || args[0].Type() != js.TypeString {
		return rejected(errors.New("leaselab.gradePython: the first argument is the student's Python source"))
	}
	py := js.Global().Get("leaselabPyodide")
	if py.Type() != js.TypeObject {
		return rejected(errors.New("leaselab.gradePython: Python is not loaded in this worker (globalThis.leaselabPyodide)"))
	}
	source := args[0].String()
	var o pylab.Options
	if len(args) > 1 && args[1].Type() == js.TypeObject {
		o = pylab.Options{Lab: stringField(args[1], "lab", "fencing"), Lang: stringField(args[1], "lang", "en"),
			Simulator: stringField(args[1], "simulator", ""),
			Sequences: intField(args[1], "sequences"), Rounds: intField(args[1], "rounds"),
			CallTimeout: time.Duration(intField(args[1], "call_ms")) * time.Millisecond}
	}
	if len(args) > 2 && args[2].Type() == js.TypeFunction {
		progress := args[2]
		o.OnCall = func(test, call string) { progress.Invoke(map[string]any{"test": test, "call": call}) }
		o.OnTest = func(v pylab.Test) {
			progress.Invoke(map[string]any{"test": v.Name, "status": v.Status, "why": v.Why})
		}
	}
	return promise(func() (any, error) {
		out, err := pylab.Grade(context.Background(), py, source, o)
		if err != nil {
			return nil, err
		}
		return string(out), nil
	})
}
