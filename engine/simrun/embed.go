package simrun

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/leaselab/leaselab/engine/timeline"
	"github.com/leaselab/leaselab/engine/timeline/memrun"
)

// Worksheet is a timeline played on the correct engine and on one mutant,
// each on a database of its own, with the first step where they part ways.
type Worksheet struct {
	// Correct and Mutant are the two traces, each as TraceJSON gives it.
	Correct json.RawMessage `json:"correct"`
	Mutant  json.RawMessage `json:"mutant"`
	// Difference is the first step where the engines differ
	// (timeline.Compare); null when this timeline does not tell them apart.
	Difference *timeline.Difference `json:"difference"`
}

// WorksheetJSON runs text (named name) on the correct engine and on the
// mutant opts.Mutant, explained in opts.Lang, and returns a Worksheet as
// JSON. Bad text returns the parser's error and runs nothing; an empty or
// unknown mutant is an error. opts.TraceBytes holds each of the two
// traces.
func WorksheetJSON(ctx context.Context, name, text string, opts Options) ([]byte, error) {
	if opts.Mutant == "" {
		return nil, fmt.Errorf("simrun: a worksheet needs a mutant to compare with")
	}
	tl, err := timeline.Parse(name, text)
	if err != nil {
		return nil, err
	}
	correct, err := memrun.Run(ctx, tl, Options{Lang: opts.Lang, TraceBytes: opts.TraceBytes})
	if err != nil {
		return nil, err
	}
	broken, err := memrun.Run(ctx, tl, opts)
	if err != nil {
		return nil, err
	}
	diff, err := timeline.Compare(correct, broken)
	if err != nil {
		return nil, err
	}
	var w Worksheet
	if w.Correct, err = encode(ctx, correct); err != nil {
		return nil, err
	}
	if w.Mutant, err = encode(ctx, broken); err != nil {
		return nil, err
	}
	w.Difference = diff
	return json.Marshal(w)
}

// GoTest is timeline.GoTest of text (named name): a Go test file with one
// function, funcName, or timeline.GoTestNameOf the timeline when funcName
// is "".
func GoTest(name, text, funcName string) (string, error) {
	tl, err := timeline.Parse(name, text)
	if err != nil {
		return "", err
	}
	if funcName == "" {
		funcName = timeline.GoTestNameOf(tl)
	}
	return timeline.GoTest(tl, funcName)
}

// encode is tr's JSON, held to its limit trace_bytes; it stops once ctx
// ends.
func encode(ctx context.Context, tr *timeline.Trace) (json.RawMessage, error) {
	var b bytes.Buffer
	if err := tr.EncodeContext(ctx, &b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
