package command

import (
	"context"
	"fmt"
	"io"

	"github.com/leaselab/leaselab/engine/leasetest"
	"github.com/leaselab/leaselab/engine/leasetest/enginetest"
	"github.com/leaselab/leaselab/engine/timeline"
)

// Export runs `leaselab export gotest [-name TestName] [-package NAME]
// [-queue EXPR] FILE|-`: it prints a Go test file for package NAME that
// replays the timeline on the engine and checks its expectations
// (timeline.GoTestIn), or, with -queue, one that checks the timeline
// against the caller's own Queue as well (leasetest.GoTest). No Go program
// is needed to get one. It plays the timeline on the engine first: when an
// expectation fails or an invariant breaks unannounced, it says so on
// standard error, prints the test all the same (it fails the same way) and
// returns ExitFail.
func Export(args []string, o IO) int {
	c := newCommand("export", o, "leaselab export gotest [-name TestName] [-package NAME] [-queue EXPR] FILE|-\n\n"+
		"Prints a Go test file that replays the timeline on the engine and checks every expectation;\n"+
		"with -queue, one that checks the timeline against your own leasetest.Queue.")
	name := c.fs.String("name", "", "the test function's name (default: from the file's name, e.g. TestLateCourier, or from the title when read from stdin)")
	pkg := c.fs.String("package", "leaselabtest", "the package clause of the file: your package's name (e.g. worker or worker_test)")
	queue := c.fs.String("queue", "", "a Go expression for a func(t *testing.T) leasetest.Queue in your package: the test runs the timeline against it")
	if len(args) == 0 || args[0] != "gotest" {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
			c.printUsage(o.Stdout)
			return ExitPass
		}
		fmt.Fprintln(o.Stderr, "leaselab export: what to export? The one format is gotest: leaselab export gotest FILE")
		return ExitBadInput
	}
	if code, done := c.parse(args[1:]); done {
		return code
	}
	src, code, ok := c.one()
	if !ok {
		return code
	}
	tl, err := timeline.Parse(src.name, src.text)
	if err != nil {
		printErrors(o.Stderr, err, "en")
		return ExitBadInput
	}
	for _, w := range tl.Warnings {
		fmt.Fprintln(o.Stderr, "warning:", w)
	}
	fn := *name
	if fn == "" {
		fn = timeline.GoTestNameOf(tl)
	}
	var out string
	if *queue != "" {
		out, err = leasetest.GoTest(src.name, src.text, *pkg, fn, *queue)
	} else {
		out, err = timeline.GoTestIn(tl, *pkg, fn)
	}
	if err != nil {
		fmt.Fprintln(o.Stderr, "leaselab export:", err)
		return ExitBadInput
	}
	if !bounded(o.Stdout, o.Stderr, "the Go test", func(w io.Writer) { io.WriteString(w, out) }) {
		return ExitBadInput
	}
	if failures := enginetest.Source(context.Background(), src.name, src.text, nil); len(failures) > 0 {
		for _, f := range failures {
			fmt.Fprintln(o.Stderr, f)
		}
		fmt.Fprintln(o.Stderr, "leaselab export: the timeline fails on the engine: the test is written, and fails the same way")
		return ExitFail
	}
	return ExitPass
}
