//go:build js && wasm

// Command sim is the simulator's engine in the browser: the lease engine and
// the timeline runner over an in-memory SQLite database (memdb), compiled to
// WebAssembly (GOOS=js GOARCH=wasm; make wasm builds it with -tags mutants
// so the page can play a named mutant). It comes in two builds: the
// player's (leaselab.wasm) answers what playing a timeline needs; the
// tools' (-tags tools, leaselab-tools.wasm) also answers goTest, explore,
// grade, lab, labSVG, labStory and history (tools.go), whose code is a third of the
// module and which no first trace reaches. It runs in a dedicated Web Worker
// (web/engine-worker.js), never on the page's main thread: web/engine.js
// starts the worker, passes its calls on by message and gives the page the
// answers as Promises.
//
// It exposes one object on the worker's globalThis:
//
//	leaselab.version               string: build revision, trace format, Go version
//	leaselab.run(text, options)    Promise<string>: the timeline's trace as JSON
//	leaselab.library()             [{name, title, text}]: the built-in timelines
//	leaselab.mutants(lang)         [{name, breaks}]: the broken engines this build has,
//	                               each with the rule it breaks in lang (default "en")
//	leaselab.langs()               [string]: the languages a step can be explained in
//	leaselab.invariants()          [string]: the invariants the checker holds, in its order
//	leaselab.limits()              {text_bytes, steps, jobs, workers, contenders,
//	                               max_time}: the bounds on a timeline (engine/limits)
//	leaselab.worksheet(text, opts) Promise<string>: the timeline on the correct engine
//	                               and on opts.mutant, and the first step where they
//	                               differ, as JSON (embed.go)
//	leaselab.goTest(text, opts)    Promise<string>: a Go test file replaying the timeline
//	                               on the engine with its expectations (gotest.go; tools)
//	leaselab.explore(goal, scope, onProgress)  Promise<string>: the explorer's shortest
//	                               timeline for goal ({mutant} or {engine, property})
//	                               within scope, as JSON; onProgress hears
//	                               {states, depth, rate} (explore.go; tools)
//	leaselab.grade(source, opts)   Promise<string>: the fencing lab written in JavaScript
//	                               in source, graded step by step beside the contract, as
//	                               JSON (grade.go; tools)
//	leaselab.lab(text, {name, seed}, onProgress)  Promise<string>: the lab's result
//	                               (format leaselab-lab/1) as JSON; onProgress hears
//	                               {done, total} runs (lab.go; tools)
//	leaselab.labSVG(result, lang)  Promise<string>: the result's plot as SVG (lab.go; tools)
//	leaselab.labStory(text, {name, seed, point, run})  Promise<string>: one run
//	                               of the lab as a timeline (lab.go; tools)
//	leaselab.history(text)         Promise<string>: a concurrent history (JSON lines)
//	                               checked for linearizability, what the history view
//	                               draws, as JSON (history.go; tools)
//	leaselab.benchCycles(n)        Promise<number>: n bare enqueue->claim->complete
//	                               cycles on a memdb of its own, for make bench (bench.go)
//
// options is {name, mutant, lang}, each optional: the source name used in
// messages and in the trace, a mutant's name ("" is the correct engine) and
// "en" or "ko". The trace is byte for byte what the native engine gives
// (package engine/simrun). run rejects with an Error whose errors property
// lists the timeline's mistakes as {line, col, msg} (line and col 1-based,
// 0 when the error has no place, e.g. an unknown mutant); line and col are
// also on the Error itself, for the first mistake. Every run has a database
// of its own, so runs are independent and may overlap.
//
// run returns the Promise at once and the engine works in a goroutine; Go
// on WebAssembly has one thread, so the run holds the worker's thread
// until it ends, and only the worker's.
//
// The engine touches no DOM: it runs in a Web Worker so that a run never
// freezes the tab, and a worker has no DOM, so the engine reports by its
// answers and engine.js, on the main thread, keeps <html data-engine> and
// draws (see engine/DECISIONS.md, "The engine in a Web Worker, without DOM
// views").
package main

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"syscall/js"

	"github.com/leaselab/leaselab/engine/check"
	"github.com/leaselab/leaselab/engine/history"
	"github.com/leaselab/leaselab/engine/limits"
	"github.com/leaselab/leaselab/engine/simrun"
	"github.com/leaselab/leaselab/engine/timeline"
)

func main() {
	api := map[string]any{
		"version": version(),
		"run":     js.FuncOf(run),
		"library": js.FuncOf(library),
		"mutants": js.FuncOf(mutants),
		"langs":   js.FuncOf(langs),
		"limits":  js.FuncOf(limitsTable),

		"invariants": js.FuncOf(invariants),
		"worksheet":  js.FuncOf(worksheet),

		"benchCycles": js.FuncOf(benchCycles),
	}
	addTools(api)
	js.Global().Set("leaselab", js.ValueOf(api))
	select {} // keep the functions alive for the worker's lifetime
}

func run(_ js.Value, args []js.Value) any {
	text, name, opts, err := runArgs("leaselab.run", args)
	if err != nil {
		return rejected(err)
	}
	return promise(func() (any, error) {
		out, err := simrun.TraceJSON(context.Background(), name, text, opts)
		if err != nil {
			return nil, err
		}
		return string(out), nil
	})
}

func stringField(o js.Value, key, def string) string {
	v := o.Get(key)
	if v.Type() != js.TypeString || v.String() == "" {
		return def
	}
	return v.String()
}

// promise returns a Promise settled by work, which runs in a goroutine so
// the caller's event loop goes on.
func promise(work func() (any, error)) js.Value {
	executor := js.FuncOf(func(_ js.Value, pargs []js.Value) any {
		resolve, reject := pargs[0], pargs[1]
		go func() {
			presize()
			v, err := work()
			if err != nil {
				reject.Invoke(jsError(err))
				return
			}
			resolve.Invoke(v)
		}()
		return nil
	})
	defer executor.Release() // the Promise constructor calls it synchronously
	return js.Global().Get("Promise").New(executor)
}

// presize grows the calling goroutine's stack at once to what a run needs,
// while it is shallow: growing it step by step as a run goes deeper copies
// every frame at each doubling, which in WebAssembly is slow and makes V8
// optimize the runtime's stack walker in a cold start.
//
//go:noinline
func presize() {
	var frame [presizeBytes]byte
	touch(frame[:])
}

// presizeBytes is about the stack a run reaches.
const presizeBytes = 64 << 10

// touch takes b out of line, so that the compiler keeps presize's frame.
//
//go:noinline
func touch([]byte) {}

func rejected(err error) js.Value {
	return js.Global().Get("Promise").Call("reject", jsError(err))
}

// jsError is an Error carrying the timeline's mistakes as {line, col, msg}.
func jsError(err error) js.Value {
	var list []any
	var many timeline.ErrorList
	var one *timeline.Error
	var labMany simrun.LabErrorList
	var historyLine *history.InputError
	switch {
	case errors.As(err, &historyLine):
		list = append(list, map[string]any{"line": historyLine.Line, "col": historyLine.Col, "msg": historyLine.Msg})
	case errors.As(err, &labMany):
		for _, e := range labMany {
			list = append(list, map[string]any{"line": e.Line, "col": e.Col, "msg": e.Msg})
		}
	case errors.As(err, &many):
		for _, e := range many {
			list = append(list, map[string]any{"line": e.Line, "col": e.Col, "msg": e.Msg})
		}
	case errors.As(err, &one):
		list = append(list, map[string]any{"line": one.Line, "col": one.Col, "msg": one.Msg})
	default:
		list = append(list, map[string]any{"line": 0, "col": 0, "msg": err.Error()})
	}
	e := js.Global().Get("Error").New(err.Error())
	e.Set("errors", js.ValueOf(list))
	if ex := (*limits.ExceededError)(nil); errors.As(err, &ex) {
		e.Set("limit", ex.Limit.Name) // the limit the answer passed, by its name
	}
	first := list[0].(map[string]any)
	e.Set("line", first["line"])
	e.Set("col", first["col"])
	return e
}

func library(js.Value, []js.Value) any {
	var out []any
	for _, t := range simrun.Library() {
		out = append(out, map[string]any{"name": t.Name, "title": t.Title, "text": t.Text})
	}
	return js.ValueOf(out)
}

// mutants is leaselab.mutants(lang): each mutant's name and the rule it
// breaks, worded in lang ("en" when lang is absent or not one of langs()).
func mutants(_ js.Value, args []js.Value) any {
	lang := "en"
	if len(args) > 0 && args[0].Type() == js.TypeString {
		lang = args[0].String()
	}
	var out []any
	for _, m := range simrun.Mutants(lang) {
		out = append(out, map[string]any{"name": m.Name, "breaks": m.Breaks})
	}
	return js.ValueOf(out)
}

func langs(js.Value, []js.Value) any {
	var out []any
	for _, l := range timeline.Langs() {
		out = append(out, l)
	}
	return js.ValueOf(out)
}

// invariants is leaselab.invariants(): the checker's invariants by name, in
// the order it reports them (engine/check).
func invariants(js.Value, []js.Value) any {
	var out []any
	for _, name := range check.Invariants() {
		out = append(out, name)
	}
	return js.ValueOf(out)
}

// limitsTable is leaselab.limits(): limits.Default as {name: value}
// (simrun.Limits).
func limitsTable(js.Value, []js.Value) any {
	out := map[string]any{}
	for name, v := range simrun.Limits() {
		out[name] = v
	}
	return js.ValueOf(out)
}

// version names the build: its revision when the build recorded one, the
// trace format and the Go it was compiled with.
func version() string {
	rev := "devel"
	if bi, ok := debug.ReadBuildInfo(); ok {
		modified := false
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
				if len(rev) > 12 {
					rev = rev[:12]
				}
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
		if modified && rev != "devel" {
			rev += "+dirty"
		}
	}
	return fmt.Sprintf("leaselab %s · trace format %d · %s", rev, timeline.FormatVersion, runtime.Version())
}
