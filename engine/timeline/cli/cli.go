// Package cli is the timeline tools of the leaselab command: check (run
// timelines as tests and print a table each) and trace (print a timeline's
// JSON trace). The root program dispatches to CheckCommand and
// TraceCommand; everything they do is here, so it is tested here.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/leaselab/leaselab/engine/timeline"
	"github.com/leaselab/leaselab/engine/timeline/memrun"
)

// Exit statuses.
const (
	ExitPass     = 0 // every expectation held, no invariant broke
	ExitFail     = 1 // an expectation failed or an invariant broke
	ExitBadInput = 2 // a file could not be read or parsed, or bad flags
)

// CheckCommand runs `leaselab check [-lang en|ko] [-mutant NAME] [-library] FILE...`:
// it runs each timeline on a fresh in-memory database and prints a compact
// table per timeline (line, time, actor, op, job, outcome, token,
// lease_until, expectation), the failures under it, and a summary line.
// -library checks the embedded library too. It returns ExitBadInput if any
// file is unreadable or bad (after checking the others), else ExitFail if
// any expectation failed, else ExitPass.
func CheckCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	lang := fs.String("lang", "en", "language of the explanations (en, ko)")
	mutant := fs.String("mutant", "", "run on the named broken engine (builds with -tags mutants)")
	lib := fs.Bool("library", false, "check every timeline of the embedded library")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: leaselab check [-lang en|ko] [-mutant NAME] [-library] FILE...")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return ExitBadInput
	}
	type source struct{ name, text string }
	var sources []source
	bad, unread := 0, 0
	if *lib {
		for _, name := range timeline.LibraryNames() {
			text, err := timeline.LibrarySource(name)
			if err != nil {
				fmt.Fprintln(stderr, err)
				bad++
				unread++
				continue
			}
			sources = append(sources, source{name, text})
		}
	}
	for _, path := range fs.Args() {
		b, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintln(stderr, "leaselab check:", err)
			bad++
			unread++
			continue
		}
		sources = append(sources, source{path, string(b)})
	}
	if len(sources) == 0 && bad == 0 {
		fs.Usage()
		return ExitBadInput
	}
	opts := timeline.Options{Lang: *lang, Mutant: *mutant}
	var passed, failed, steps, expectations int
	for i, src := range sources {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		tr, err := memrun.RunSource(context.Background(), src.name, src.text, opts)
		if err != nil {
			fmt.Fprintln(stderr, err)
			bad++
			if !errors.Is(err, timeline.ErrBadInput) {
				fmt.Fprintf(stdout, "%s: could not run: %v\n", src.name, err)
			} else {
				fmt.Fprintf(stdout, "%s: bad input (%s)\n", src.name, plural(errorCount(err), "error"))
			}
			continue
		}
		writeTable(stdout, tr)
		steps += tr.Summary.Steps
		expectations += tr.Summary.Expectations
		if tr.Summary.Passed {
			passed++
		} else {
			failed++
		}
	}
	fmt.Fprintln(stdout)
	switch {
	case bad > 0:
		fmt.Fprintf(stdout, "BAD INPUT: %s of %d; %d passed, %d failed\n", plural(bad, "timeline"), len(sources)+unread, passed, failed)
		return ExitBadInput
	case failed > 0:
		fmt.Fprintf(stdout, "FAIL: %d of %s failed; %d passed\n", failed, plural(passed+failed, "timeline"), passed)
		return ExitFail
	}
	fmt.Fprintf(stdout, "PASS: %s, %s, %s held\n", plural(passed, "timeline"), plural(steps, "step"), plural(expectations, "expectation"))
	return ExitPass
}

func errorCount(err error) int {
	var list timeline.ErrorList
	if errors.As(err, &list) {
		return len(list)
	}
	return 1
}

// TraceCommand runs `leaselab trace [-lang en|ko] [-mutant NAME] FILE`: it
// prints the timeline's JSON trace (Trace.Encode). It returns ExitBadInput
// for an unreadable or bad file, ExitFail when the run itself fails, and
// ExitPass otherwise, whatever the expectations say: the trace shows them.
func TraceCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("trace", flag.ContinueOnError)
	fs.SetOutput(stderr)
	lang := fs.String("lang", "en", "language of the explanations (en, ko)")
	mutant := fs.String("mutant", "", "run on the named broken engine (builds with -tags mutants)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: leaselab trace [-lang en|ko] [-mutant NAME] FILE")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return ExitBadInput
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return ExitBadInput
	}
	path := fs.Arg(0)
	b, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintln(stderr, "leaselab trace:", err)
		return ExitBadInput
	}
	tr, err := memrun.RunSource(context.Background(), path, string(b), timeline.Options{Lang: *lang, Mutant: *mutant})
	if err != nil {
		fmt.Fprintln(stderr, err)
		if errors.Is(err, timeline.ErrBadInput) {
			return ExitBadInput
		}
		return ExitFail
	}
	if err := tr.Encode(stdout); err != nil {
		fmt.Fprintln(stderr, "leaselab trace:", err)
		return ExitFail
	}
	return ExitPass
}

// writeTable prints one timeline's table, its failures and its verdict.
func writeTable(w io.Writer, tr *timeline.Trace) {
	head := tr.Name
	if tr.Title != "" {
		head += ": " + tr.Title
	}
	if tr.Mutant != "" {
		head += " [mutant " + tr.Mutant + "]"
	}
	fmt.Fprintln(w, head)
	rows := [][]string{{"LINE", "TIME", "ACTOR", "OP", "JOB", "OUTCOME", "TOKEN", "LEASE_UNTIL", "EXPECT"}}
	for _, st := range tr.Steps {
		token, until := "-", "-"
		switch {
		case st.Lease != nil && st.Outcome.Kind == "ok" && st.Op != "complete" && st.Op != "send":
			token, until = itoa(st.Lease.Token), itoa(st.Lease.LeaseUntil)
		case st.Presented != nil:
			token = itoa(st.Presented.Token)
		case st.Lease != nil:
			token = itoa(st.Lease.Token)
		}
		outcome := st.Outcome.Kind
		if st.Outcome.Reason != "" {
			outcome += " " + st.Outcome.Reason
		}
		if st.Op == "claim-many" {
			if won := winnersOf(st); won != "" {
				outcome += " (" + won + " won)"
			}
		}
		expect := ""
		if st.Expect != nil {
			expect = "held"
			if !st.Expect.OK {
				expect = "FAILED"
			}
		}
		job := st.Job
		if job == "" {
			job = "-"
		}
		rows = append(rows, []string{itoa(int64(st.Line)), itoa(st.Time) + "ms", strings.Join(st.Actors, ","),
			st.Op, job, outcome, token, until, expect})
	}
	writeColumns(w, "  ", rows)
	for _, st := range tr.Steps {
		if st.Expect != nil && !st.Expect.OK {
			fmt.Fprintln(w, "  "+st.Expect.Message)
		}
		for _, v := range st.Verdicts {
			if !v.OK {
				fmt.Fprintf(w, "  %s:%d: invariant %s broken: %s\n", tr.Name, st.Line, v.Invariant, v.Detail)
			}
		}
	}
	s := tr.Summary
	verdict := "PASS"
	if !s.Passed {
		verdict = "FAIL"
	}
	fmt.Fprintf(w, "  %s %s, %d of %s held, %s\n", verdict, plural(s.Steps, "step"), s.Expectations-s.Failed,
		plural(s.Expectations, "expectation"), plural(s.Violations, "invariant violation"))
}

func winnersOf(st timeline.Step) string {
	var w []string
	for _, c := range st.Contenders {
		if c.Outcome.Kind == "ok" {
			w = append(w, c.Actor)
		}
	}
	return strings.Join(w, ",")
}

// writeColumns pads each column to its widest cell, counting East Asian
// wide characters (Hangul, CJK) as two columns.
func writeColumns(w io.Writer, indent string, rows [][]string) {
	var widths []int
	for _, r := range rows {
		for i, c := range r {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], displayWidth(c))
		}
	}
	for _, r := range rows {
		var b strings.Builder
		b.WriteString(indent)
		for i, c := range r {
			b.WriteString(c)
			if i < len(r)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-displayWidth(c)+2))
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

func displayWidth(s string) int {
	n := 0
	for _, r := range s {
		switch {
		case r >= 0x1100 && r <= 0x115F, r >= 0x2E80 && r <= 0xA4CF, r >= 0xAC00 && r <= 0xD7A3,
			r >= 0xF900 && r <= 0xFAFF, r >= 0xFF00 && r <= 0xFF60, r >= 0xFFE0 && r <= 0xFFE6:
			n += 2
		default:
			n++
		}
	}
	return n
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}
