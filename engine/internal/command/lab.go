package command

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/leaselab/leaselab/engine/internal/lab"
	"github.com/leaselab/leaselab/engine/limits"
)

// Lab runs `leaselab lab [-json] [-csv FILE] [-svg FILE] [-seed N]
// [-lang en|ko] [-story POINT:RUN] FILE|-`: it runs a lab (package
// engine/internal/lab) and prints its table, or with -json its Result as JSON
// (format leaselab-lab/1); -csv and -svg also write the CSV and the plot.
// -story prints instead one run as a timeline (POINT is the table's point
// column, from 0; RUN is a run's index, from 0, or worst or typical). It returns
// ExitBadInput for an unreadable or bad file, bad flags or a lab over its
// limits, ExitFail when a run fails or a file cannot be written, and
// ExitPass otherwise.
func Lab(args []string, o IO) int {
	c := newCommand("lab", o, "leaselab lab [-json] [-csv out.csv] [-svg out.svg] [-seed N] [-lang en|ko] [-story POINT:worst|typical|RUN] FILE|-\n\n"+
		"Runs a lease lab on the engine and prints a table a point (the .lab format is documented in engine/internal/lab).\n"+
		"In -csv and -json a swept value is a number, ms or attempts: heartbeat off and deadline off are 0,\n"+
		"margin off is -1 (margin 0ms is 0), max_attempts 0 is unlimited; delay off and drift off are 0.")
	c.exits = labExits
	asJSON := c.fs.Bool("json", false, "print the result as JSON (format "+lab.FormatVersion+") instead of the table")
	csvOut := c.fs.String("csv", "", "also write the result as CSV to this file")
	svgOut := c.fs.String("svg", "", "also write the plot as SVG to this file")
	lang := c.fs.String("lang", "en", "language of the plot's titles and labels: en, ko")
	story := c.fs.String("story", "", "print one run as a timeline instead: POINT:worst, POINT:typical or POINT:RUN (POINT and RUN from 0)")
	var seed *uint64
	c.fs.Func("seed", "every run's seed (overrides the lab's seed line)", func(s string) error {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return fmt.Errorf("not a whole number from 0 to 18446744073709551615")
		}
		seed = &n
		return nil
	})
	if code, done := c.parse(args); done {
		return code
	}
	if *lang != "en" && *lang != "ko" {
		fmt.Fprintf(o.Stderr, "leaselab lab: -lang %s: the plot is written in en, ko\n", *lang)
		return ExitBadInput
	}
	src, code, ok := c.one()
	if !ok {
		return code
	}
	if src.name == "stdin.tl" {
		src.name = "stdin.lab"
	}
	l, err := lab.Parse(src.name, src.text)
	if err != nil {
		fmt.Fprintln(o.Stderr, err)
		return ExitBadInput
	}
	if seed != nil {
		l.Seed = *seed
	}
	ctx := context.Background()
	res, err := lab.Run(ctx, l, lab.Options{})
	if err != nil {
		fmt.Fprintln(o.Stderr, "leaselab lab:", err)
		if errors.Is(err, limits.ErrExceeded) {
			return ExitBadInput
		}
		return ExitFail
	}
	if *story != "" {
		return printStory(ctx, l, res, *story, o)
	}
	if *csvOut != "" && !writeFile(*csvOut, o.Stderr, res.WriteCSV) {
		return ExitFail
	}
	if *svgOut != "" && !writeFile(*svgOut, o.Stderr, func(w io.Writer) error { return res.WriteSVG(w, *lang) }) {
		return ExitFail
	}
	ok = bounded(o.Stdout, o.Stderr, "the lab's answer", func(w io.Writer) {
		if *asJSON {
			_ = res.Encode(w)
		} else {
			_ = res.WriteTable(w)
		}
	})
	if !ok {
		return ExitBadInput
	}
	return ExitPass
}

// labExits is lab's -h paragraph on its exit statuses: a lab measures and
// holds no expectation.
const labExits = `
Exit status: 0 every run ran and the answer was written; 1 a run failed on the
engine, or a -csv or -svg file could not be written; 2 bad input (a file that
cannot be read or parsed, bad flags, a lab or an answer over its limits, a
-story that names no run).`

// printStory prints the run spec names ("POINT:RUN") as a timeline.
func printStory(ctx context.Context, l *lab.Lab, res *lab.Result, spec string, o IO) int {
	ps, rs, found := strings.Cut(spec, ":")
	point, err := strconv.Atoi(ps)
	if !found || err != nil || point < 0 || point >= len(res.Points) {
		fmt.Fprintf(o.Stderr, "leaselab lab: -story %s: write POINT:worst, POINT:typical or POINT:RUN, POINT from 0 to %d\n", spec, len(res.Points)-1)
		return ExitBadInput
	}
	p := res.Points[point]
	var run int
	switch rs {
	case "worst":
		run = p.Worst
	case "typical":
		run = p.Typical
	default:
		if run, err = strconv.Atoi(rs); err != nil || run < 0 || run >= res.Runs {
			fmt.Fprintf(o.Stderr, "leaselab lab: -story %s: RUN is worst, typical or a run from 0 to %d\n", spec, res.Runs-1)
			return ExitBadInput
		}
	}
	if run < 0 {
		fmt.Fprintf(o.Stderr, "leaselab lab: -story %s: no run of point %d has the measure %s\n", spec, point, res.Plot[0])
		return ExitBadInput
	}
	text, err := lab.Story(ctx, l, point, run)
	if err != nil {
		fmt.Fprintln(o.Stderr, "leaselab lab:", err)
		if errors.Is(err, limits.ErrExceeded) {
			return ExitBadInput
		}
		return ExitFail
	}
	if !bounded(o.Stdout, o.Stderr, "the story", func(w io.Writer) { _, _ = io.WriteString(w, text) }) {
		return ExitBadInput
	}
	return ExitPass
}

// writeFile writes a file through write, saying on errOut what failed.
func writeFile(path string, errOut io.Writer, write func(io.Writer) error) bool {
	f, err := os.Create(path)
	if err == nil {
		err = write(f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintln(errOut, "leaselab lab:", err)
		return false
	}
	return true
}
