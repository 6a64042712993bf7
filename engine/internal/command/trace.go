package command

import (
	"context"
	"errors"
	"fmt"

	"github.com/leaselab/leaselab/engine/timeline"
	"github.com/leaselab/leaselab/engine/timeline/memrun"
)

// Trace runs `leaselab trace [-lang en|ko] [-mutant NAME] FILE|-`: it prints
// the timeline's JSON trace (Trace.Encode, the form every consumer compares
// byte for byte). It returns ExitBadInput for an unreadable or bad file,
// ExitFail when the run itself fails, and ExitPass otherwise, whatever the
// expectations say: the trace shows them.
func Trace(args []string, o IO) int {
	c := newCommand("trace", o, "leaselab trace [-lang en|ko] [-mutant NAME] FILE|-\n\n"+
		"Prints the timeline's trace as JSON (the format is documented in engine/timeline's trace.go).")
	lang, mutant := c.langFlag(), c.mutantFlag()
	if code, done := c.parse(args); done {
		return code
	}
	tr, code := c.run(timeline.Options{Lang: *lang, Mutant: *mutant})
	if tr == nil {
		return code
	}
	if err := tr.Encode(o.Stdout); err != nil {
		fmt.Fprintln(o.Stderr, "leaselab trace:", err)
		return ExitFail
	}
	return ExitPass
}

// run reads the command's one file and runs it; a nil trace comes with the
// exit status to return.
func (c *command) run(opts timeline.Options) (*timeline.Trace, int) {
	if !checkMutant(opts.Mutant, c.io.Stderr) || !checkLang(opts.Lang, c.io.Stderr) {
		return nil, ExitBadInput
	}
	src, code, ok := c.one()
	if !ok {
		return nil, code
	}
	c.tl, _ = timeline.Parse(src.name, src.text) // nil when it does not parse: RunSource says why
	tr, err := memrun.RunSource(context.Background(), src.name, src.text, opts)
	if err != nil {
		printErrors(c.io.Stderr, err, opts.Lang)
		if errors.Is(err, timeline.ErrBadInput) {
			return nil, ExitBadInput
		}
		return nil, ExitFail
	}
	printWarnings(c.io.Stderr, tr.Warnings, opts.Lang)
	return tr, ExitPass
}
