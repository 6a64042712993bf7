package command

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/leaselab/leaselab/engine/grade"
	"github.com/leaselab/leaselab/engine/timeline"
	"github.com/leaselab/leaselab/engine/timeline/memrun"
)

// Check runs `leaselab check [-lang en|ko] [-mutant NAME] [-library] FILE|-...`:
// each timeline on a fresh in-memory database, a compact table per
// timeline (line, time, actor, op, job, outcome, token, lease_until,
// expectation), the failures under it, and a summary line, in -lang's
// words. -library checks the embedded library too; -impl plays each
// timeline on a student's fencing-lab module too, beside the contract
// (package engine/grade), a difference failing the timeline. It returns
// ExitBadInput if any file is unreadable or bad (after checking the
// others), else ExitFail if any timeline failed, else ExitPass.
func Check(args []string, o IO) int {
	c := newCommand("check", o, "leaselab check [-lang en|ko] [-mutant NAME] [-library] [-impl student.py [-lab fencing|courier]] FILE|- ...\n\n"+
		"Runs each timeline as a test on a fresh in-memory database and prints a table per timeline.")
	lang, mutant := c.langFlag(), c.mutantFlag()
	lib := c.fs.Bool("library", false, "check every timeline of the embedded library")
	impl := c.fs.String("impl", "", "also play each timeline on this student's lab module (see leaselab grade) beside the contract")
	lab := c.fs.String("lab", grade.Fencing, "the lab -impl implements: "+strings.Join(grade.Labs(), ", "))
	if code, done := c.parse(args); done {
		return code
	}
	var student *grade.Options
	if *impl != "" {
		so, cleanup, err := pythonStudent(*lab, *impl)
		if err != nil {
			fmt.Fprintln(o.Stderr, "leaselab check: -impl:", err)
			return ExitBadInput
		}
		defer cleanup()
		student = &so
	}
	if !checkMutant(*mutant, o.Stderr) || !checkLang(*lang, o.Stderr) {
		return ExitBadInput
	}
	sources, unread := c.sources(*lib)
	if len(sources) == 0 && unread == 0 {
		c.fs.Usage()
		return ExitBadInput
	}
	w := wordsFor(*lang)
	t := tally{unread: unread}
	for i, src := range sources {
		if i > 0 {
			fmt.Fprintln(o.Stdout)
		}
		r, steps, exps := checkOne(o, w, src, timeline.Options{Lang: *lang, Mutant: *mutant})
		if student != nil && r != bad {
			r = min(bad, max(r, checkImpl(o, *student, *impl, src)))
		}
		t.add(r, steps, exps)
	}
	fmt.Fprintln(o.Stdout)
	return t.report(o.Stdout, w, len(sources))
}

// checkImpl plays src on the student's code beside the contract and says
// how it went.
func checkImpl(o IO, student grade.Options, impl string, src source) result {
	f, err := grade.Timeline(context.Background(), student, src.name, src.text)
	switch {
	case err != nil:
		fmt.Fprintf(o.Stdout, "%s on %s: could not run: %v\n", src.name, impl, err)
		return bad
	case f != nil:
		f.Timeline = "" // it is the file itself
		fmt.Fprintf(o.Stdout, "%s on %s: differs from the contract at %s\n%s", src.name, impl, f.Where, grade.FailureText(f))
		return failed
	}
	fmt.Fprintf(o.Stdout, "%s on %s: every answer and row as the contract's\n", src.name, impl)
	return passed
}

// sources are the library's timelines (with -library) and the files named,
// and how many files could not be read (each reported on stderr).
func (c *command) sources(library bool) ([]source, int) {
	var out []source
	if library {
		for _, name := range timeline.LibraryNames() {
			text, _ := timeline.LibrarySource(name) // LibraryNames lists only what it reads
			out = append(out, source{name, text})
		}
	}
	unread := 0
	for _, path := range c.fs.Args() {
		src, err := c.read(path)
		if err != nil {
			fmt.Fprintf(c.io.Stderr, "leaselab check: %v\n", err)
			unread++
			continue
		}
		out = append(out, src)
	}
	return out, unread
}

// tally counts the timelines checked.
type tally struct {
	passed, failed, bad, unread int
	steps, expectations         int
}

type result int

const (
	passed result = iota
	failed
	bad
)

func (t *tally) add(r result, steps, expectations int) {
	t.steps += steps
	t.expectations += expectations
	switch r {
	case passed:
		t.passed++
	case failed:
		t.failed++
	default:
		t.bad++
	}
}

func (t *tally) report(out io.Writer, w *words, n int) int {
	switch {
	case t.bad+t.unread > 0:
		fmt.Fprintf(out, w.badRun+"\n", w.count(t.bad+t.unread, w.timelines), n+t.unread, t.passed, t.failed)
		return ExitBadInput
	case t.failed > 0:
		fmt.Fprintf(out, w.failRun+"\n", t.failed, w.count(t.passed+t.failed, w.timelines), t.passed)
		return ExitFail
	}
	fmt.Fprintf(out, w.passRun+"\n", w.count(t.passed, w.timelines), w.count(t.steps, w.steps), w.count(t.expectations, w.expectations))
	return ExitPass
}

// checkOne runs one timeline and prints its table.
func checkOne(o IO, w *words, src source, opts timeline.Options) (result, int, int) {
	tr, err := memrun.RunSource(context.Background(), src.name, src.text, opts)
	if err != nil {
		n := printErrors(o.Stderr, err, opts.Lang)
		if errors.Is(err, timeline.ErrBadInput) {
			fmt.Fprintf(o.Stdout, "%s: %s (%s)\n", src.name, w.badFile, w.count(n, w.errors))
		} else {
			fmt.Fprintf(o.Stdout, "%s: %s: %v\n", src.name, w.couldNotRun, err)
		}
		return bad, 0, 0
	}
	printWarnings(o.Stderr, tr.Warnings, opts.Lang)
	if !bounded(o.Stdout, o.Stderr, src.name+"'s table", func(out io.Writer) { writeTable(out, w, tr) }) {
		fmt.Fprintf(o.Stdout, "%s: %s (%s)\n", src.name, w.badFile, w.count(1, w.errors))
		return bad, 0, 0
	}
	if tr.Summary.Passed {
		return passed, tr.Summary.Steps, tr.Summary.Expectations
	}
	return failed, tr.Summary.Steps, tr.Summary.Expectations
}

// writeTable prints one timeline's table, its failures and its verdict.
func writeTable(out io.Writer, w *words, tr *timeline.Trace) {
	fmt.Fprintln(out, heading(tr))
	rows := [][]string{w.columns}
	for _, st := range tr.Steps {
		rows = append(rows, tableRow(w, st))
	}
	writeColumns(out, "  ", rows)
	for _, st := range tr.Steps {
		if st.Expect != nil && !st.Expect.OK {
			fmt.Fprintln(out, "  "+st.Expect.Message)
		}
		for _, v := range st.Verdicts {
			if !v.OK {
				detail := v.Detail
				if v.Expected {
					detail = "(" + w.announced + ") " + detail
				}
				fmt.Fprintf(out, "  "+w.invariantBroken+"\n", tr.Name+":"+strconv.Itoa(st.Line), v.Invariant, detail)
			}
		}
	}
	s := tr.Summary
	verdict := w.pass
	if !s.Passed {
		verdict = w.fail
	}
	fmt.Fprintf(out, "  "+w.summary+"\n", verdict, w.count(s.Steps, w.steps), s.Expectations-s.Failed,
		w.count(s.Expectations, w.expectations), w.count(s.Violations, w.violations))
}

func heading(tr *timeline.Trace) string {
	head := tr.Name
	if tr.Title != "" {
		head += ": " + tr.Title
	}
	if tr.Mutant != "" {
		head += " [mutant " + tr.Mutant + "]"
	}
	return head
}

// tableRow is one step's row of check's table.
func tableRow(w *words, st timeline.Step) []string {
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
	if won := winnersOf(st); won != "" {
		outcome += " (" + won + ")"
	}
	expect := ""
	if st.Expect != nil {
		expect = w.held
		if !st.Expect.OK {
			expect = w.failed
		}
	}
	job := st.Job
	if job == "" {
		job = "-"
	}
	return []string{itoa(int64(st.Line)), itoa(st.Time) + "ms", strings.Join(st.Actors, ","), st.Op, job, outcome, token, until, expect}
}

func winnersOf(st timeline.Step) string {
	var w []string
	for _, c := range st.Contenders {
		if c.Outcome.Kind == "ok" {
			w = append(w, c.Actor+" won")
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
