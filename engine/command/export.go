package command

import (
	"fmt"
	"io"

	"github.com/leaselab/leaselab/engine/timeline"
)

// Export runs `leaselab export gotest [-name TestName] FILE|-`: it prints a
// Go test file that replays the timeline on the engine and checks its
// expectations (timeline.GoTest). No Go program is needed to get one.
func Export(args []string, o IO) int {
	c := newCommand("export", o, "leaselab export gotest [-name TestName] FILE|-\n\n"+
		"Prints a Go test file that replays the timeline on the engine and checks every expectation.")
	name := c.fs.String("name", "", "the test function's name (default: from the file's name, e.g. TestLateCourier)")
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
		printErrors(o.Stderr, err)
		return ExitBadInput
	}
	for _, w := range tl.Warnings {
		fmt.Fprintln(o.Stderr, "warning:", w)
	}
	fn := *name
	if fn == "" {
		fn = timeline.GoTestName(src.name)
	}
	out, err := timeline.GoTest(tl, fn)
	if err != nil {
		fmt.Fprintln(o.Stderr, "leaselab export:", err)
		return ExitBadInput
	}
	if !bounded(o.Stdout, o.Stderr, "the Go test", func(w io.Writer) { io.WriteString(w, out) }) {
		return ExitBadInput
	}
	return ExitPass
}
