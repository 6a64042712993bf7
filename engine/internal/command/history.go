package command

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/leaselab/leaselab/engine/history"
)

// historyExits is history's paragraph of exit statuses.
const historyExits = `
Exit status: 0 the history is linearizable; 1 it is not, or the check did not
decide within -timeout; 2 bad input (a file that cannot be read, a line that
is not a call of the format, bad flags).`

// History runs `leaselab history [-html OUT] [-timeout D] FILE|-`: it reads
// a concurrent history in the JSON lines format (package engine/history),
// checks it for linearizability against the contract's reference model and
// prints the verdict and, for a history that is not linearizable, the
// smallest failing part found, call by call, with the model's rows. -html
// also writes porcupine's picture of the history, a lane a client, to OUT.
// It returns ExitPass for a linearizable history, ExitFail for one that is
// not or that the check did not decide in time (or an OUT it cannot
// write), and ExitBadInput for a file that cannot be read or parsed (at its
// line and column) and bad flags.
func History(args []string, o IO) int {
	c := newCommand("history", o, "leaselab history [-html out.html] [-timeout 10s] FILE|-\n\n"+
		"Checks a recorded concurrent history (one JSON object a call, documented in engine/history)\n"+
		"for linearizability against the contract's model.")
	c.exits = historyExits
	htmlOut := c.fs.String("html", "", "also write the history's picture (each call an interval on its client's lane) to this file")
	timeout := c.fs.Duration("timeout", history.DefaultTimeout, "the longest the check may take (shrinking a failure as long again)")
	if code, done := c.parse(args); done {
		return code
	}
	if c.fs.NArg() != 1 {
		c.fs.Usage()
		return ExitBadInput
	}
	if *timeout <= 0 {
		fmt.Fprintf(o.Stderr, "leaselab history: -timeout %s: want a duration above 0\n", *timeout)
		return ExitBadInput
	}
	h, err := readHistory(c.fs.Arg(0), o.Stdin)
	if err != nil {
		fmt.Fprintf(o.Stderr, "leaselab history: %v\n", err)
		return ExitBadInput
	}
	res, err := history.CheckTimeout(h, *timeout)
	if err != nil {
		fmt.Fprintf(o.Stderr, "leaselab history: %v\n", err)
		return ExitBadInput
	}
	if *htmlOut != "" && !writeFile(*htmlOut, o.Stderr, res.WriteHTML) {
		return ExitFail
	}
	if !bounded(o.Stdout, o.Stderr, "the history's report", func(w io.Writer) { io.WriteString(w, res.String()) }) {
		return ExitBadInput
	}
	if res.Verdict != history.Linearizable {
		return ExitFail
	}
	return ExitPass
}

// readHistory reads the history at path, or on stdin for "-"; a mistake in
// it is path:LINE:COL: message.
func readHistory(path string, stdin io.Reader) (history.History, error) {
	name, r := "stdin", stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		name, r = path, f
	}
	h, err := history.Read(r)
	var ie *history.InputError
	if errors.As(err, &ie) {
		return nil, fmt.Errorf("%s:%w", name, ie)
	}
	return h, err
}
