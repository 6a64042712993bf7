//go:build js && wasm

package main

import (
	"context"
	"fmt"
	"syscall/js"

	"github.com/leaselab/leaselab/engine/limits"
	"github.com/leaselab/leaselab/engine/simrun"
)

// worksheet is leaselab.worksheet(text, {name, mutant, lang}): a Promise
// of simrun.WorksheetJSON as a string — {correct, mutant, difference}, the
// timeline's trace on the correct engine and on the mutant, each on a
// database of its own, and the first step where they differ (null when this
// timeline does not tell them apart). It rejects as run does.
func worksheet(_ js.Value, args []js.Value) any {
	text, name, opts, err := runArgs("leaselab.worksheet", args)
	if err != nil {
		return rejected(err)
	}
	return promise(func() (any, error) {
		out, err := simrun.WorksheetJSON(context.Background(), name, text, opts)
		if err != nil {
			return nil, err
		}
		return string(out), nil
	})
}

// runArgs reads (text, {name, mutant, lang, traceBytes}) as run takes
// them. traceBytes, a whole number of bytes, holds each trace to it
// (timeline.Options.TraceBytes, at most the limit trace_bytes): a build
// that prerenders gives its budget, and the run stops at the step that
// passes it.
func runArgs(fn string, args []js.Value) (text, name string, opts simrun.Options, err error) {
	if len(args) == 0 || args[0].Type() != js.TypeString {
		return "", "", opts, fmt.Errorf("%s: the first argument must be the timeline's text", fn)
	}
	name = "timeline.tl"
	if len(args) > 1 && args[1].Type() == js.TypeObject {
		o := args[1]
		name = stringField(o, "name", name)
		opts.Mutant = stringField(o, "mutant", "")
		opts.Lang = stringField(o, "lang", "")
		if v := o.Get("traceBytes"); v.Type() == js.TypeNumber && v.Float() >= 1 {
			opts.TraceBytes = int(min(v.Float(), float64(limits.Default.TraceBytes)))
		}
	}
	return args[0].String(), name, opts, nil
}
