package command

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/leaselab/leaselab/engine/grade"
	"github.com/leaselab/leaselab/engine/history"
	"github.com/leaselab/leaselab/engine/limits"
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
// also writes porcupine's picture of the history, a lane a client, to OUT;
// -link prints, last, a link to the simulator page (-simulator, in -lang)
// that draws it (grade.HistoryLink), the file's text in the link.
// It returns ExitPass for a linearizable history, ExitFail for one that is
// not or that the check did not decide in time (or an OUT it cannot
// write), and ExitBadInput for a file that cannot be read or parsed (at its
// line and column) and bad flags.
func History(args []string, o IO) int {
	c := newCommand("history", o, "leaselab history [-html out.html] [-link [-simulator URL] [-lang en|ko]] [-timeout 10s] FILE|-\n\n"+
		"Checks a recorded concurrent history (one JSON object a call, documented in engine/history)\n"+
		"for linearizability against the contract's model.")
	c.exits = historyExits
	htmlOut := c.fs.String("html", "", "also write the history's picture (each call an interval on its client's lane) to this file")
	timeout := c.fs.Duration("timeout", history.DefaultTimeout, "the longest the check may take (shrinking a failure as long again)")
	link := c.fs.Bool("link", false, "also print a link to the simulator page that draws the history (its text in the link: at most grade_link_run_bytes)")
	sim := c.fs.String("simulator", grade.DefaultSimulator, "the simulator page -link opens (leaselab serve's, or your course's)")
	l := c.fs.String("lang", "en", "the language of the page -link opens: en or ko")
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
	if !slices.Contains(grade.Langs(), *l) {
		fmt.Fprintf(o.Stderr, "leaselab history: -lang %q: want en or ko\n", *l)
		return ExitBadInput
	}
	h, text, err := readHistory(c.fs.Arg(0), o.Stdin, *link)
	var to string
	if err == nil && *link {
		to, err = grade.HistoryLink(*sim, text, *l)
	}
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
	if *link {
		fmt.Fprintf(o.Stdout, "Drawn in the simulator: %s\n", to)
	}
	if res.Verdict != history.Linearizable {
		return ExitFail
	}
	return ExitPass
}

// readHistory reads the history at path, or on stdin for "-"; a mistake in
// it is path:LINE:COL: message. With text it also returns the file's
// bytes, of which it reads no more than a link carries (one byte more
// tells the link's limit it passes).
func readHistory(path string, stdin io.Reader, text bool) (history.History, []byte, error) {
	name, r := "stdin", stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, nil, err
		}
		defer f.Close()
		name, r = path, f
	}
	var raw []byte
	if text {
		var err error
		if raw, err = io.ReadAll(io.LimitReader(r, int64(limits.DefaultGrading.LinkRunBytes)+1)); err != nil {
			return nil, nil, err
		}
		if len(raw) > limits.DefaultGrading.LinkRunBytes {
			return nil, nil, fmt.Errorf("%s: -link: over the limit %s", name, limits.DefaultGrading.Row("grade_link_run_bytes"))
		}
		r = bytes.NewReader(raw)
	}
	h, err := history.Read(r)
	var ie *history.InputError
	if errors.As(err, &ie) {
		return nil, nil, fmt.Errorf("%s:%w", name, ie)
	}
	return h, raw, err
}
