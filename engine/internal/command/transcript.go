package command

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/leaselab/leaselab/engine/timeline"
)

// Transcript runs `leaselab transcript [-lang en|ko] [-mutant NAME] FILE|-`:
// the timeline as a reader follows it, step by step — the author's note,
// the line as written, the outcome, the sentence that explains it, the
// leases that ended, the checks that broke — then the verdict, all in
// -lang. It returns ExitPass when every expectation held and no invariant
// broke unannounced, ExitFail otherwise, ExitBadInput for a bad file.
func Transcript(args []string, o IO) int {
	c := newCommand("transcript", o, "leaselab transcript [-lang en|ko] [-mutant NAME] FILE|-\n\n"+
		"Prints the timeline step by step: each step's note, line, outcome and the sentence that explains it.")
	lang, mutant := c.langFlag(), c.mutantFlag()
	if code, done := c.parse(args); done {
		return code
	}
	tr, code := c.run(timeline.Options{Lang: *lang, Mutant: *mutant})
	if tr == nil {
		return code
	}
	w := wordsFor(*lang)
	tl := c.tl // for the service clock's jumps and drifts
	if !bounded(o.Stdout, o.Stderr, "the transcript", func(out io.Writer) { writeTranscript(out, w, tr, tl) }) {
		return ExitBadInput
	}
	if tr.Summary.Passed {
		return ExitPass
	}
	return ExitFail
}

// expiriesBefore writes the leases that ended before st began and returns
// the ones that ended while it took its time (a slow send), or that a
// service jump or drift ended, which go after the step.
func expiriesBefore(out io.Writer, w *words, tr *timeline.Trace, tl *timeline.Timeline, st timeline.Step) (during []timeline.Expiry) {
	moves := st.Op == string(timeline.OpJump) || st.Op == string(timeline.OpDrift)
	for _, e := range st.Expired {
		if e.At > st.Time || moves {
			during = append(during, e)
			continue
		}
		writeExpiry(out, w, tr, tl, e)
	}
	return during
}

func writeExpiry(out io.Writer, w *words, tr *timeline.Trace, tl *timeline.Timeline, e timeline.Expiry) {
	fmt.Fprintf(out, "  %d ms%s, %s: %s (%s, token %d)\n", e.At, judgedOn(w, tr, tl, e.Owner, e.At), w.expired, e.Job, e.Owner, e.Token)
}

// judgedOn says, after an instant of true time at which owner's lease
// ended (or will), what the clock that judges it read then: the service's
// (as its jumps and drifts up to then moved it, read from tl when not nil),
// or owner's own; "" when that clock is right.
func judgedOn(w *words, tr *timeline.Trace, tl *timeline.Timeline, owner string, at int64) string {
	if tr.Service != nil {
		off := tr.Service.Offset
		if tl != nil && tl.Service != nil {
			off = tl.JudgeAt(owner, at, sort.Search(len(tl.Steps), func(i int) bool { return tl.Steps[i].Time > at }))
		}
		if off == 0 {
			return ""
		}
		return fmt.Sprintf(w.serviceReads, at+off)
	}
	for _, c := range tr.Clocks {
		if c.Worker == owner && c.Offset != 0 {
			return fmt.Sprintf(w.ownerReads, owner, at+c.Offset)
		}
	}
	return ""
}

// writeTranscript writes tr's transcript to out, step by step, and stops
// at the first step out refuses.
func writeTranscript(out io.Writer, w *words, tr *timeline.Trace, tl *timeline.Timeline) {
	fmt.Fprintln(out, heading(tr))
	fmt.Fprintf(out, "\n  %s: %s\n", w.start, rowsText(tr.Start))
	for _, st := range tr.Steps {
		if _, err := fmt.Fprintln(out); err != nil {
			return
		}
		during := expiriesBefore(out, w, tr, tl, st)
		if st.Note != "" {
			for _, l := range strings.Split(st.Note, "\n") {
				fmt.Fprintf(out, "  # %s\n", l)
			}
		}
		fmt.Fprintf(out, "  %s %d: %s\n", w.line, st.Line, st.Source)
		fmt.Fprintf(out, "    %s\n", outcomeLine(w, st))
		fmt.Fprintf(out, "    %s\n", st.Explain)
		for _, v := range st.Verdicts {
			if !v.OK {
				mark := "!"
				if v.Expected {
					mark = "(" + w.announced + ")"
				}
				fmt.Fprintf(out, "    %s %s: %s\n", mark, v.Invariant, v.Detail)
			}
		}
		for _, e := range during {
			writeExpiry(out, w, tr, tl, e)
		}
	}
	for _, e := range tr.Later {
		fmt.Fprintf(out, "\n  %s (%s, token %d): %s %d ms%s\n", e.Job, e.Owner, e.Token, w.later, e.At, judgedOn(w, tr, tl, e.Owner, e.At))
	}
	s := tr.Summary
	verdict := w.pass
	if !s.Passed {
		verdict = w.fail
	}
	fmt.Fprintf(out, "\n  "+w.summary+"\n", verdict, w.count(s.Steps, w.steps), s.Expectations-s.Failed,
		w.count(s.Expectations, w.expectations), w.count(s.Violations, w.violations))
}

// outcomeLine is a step's outcome and its expectation's verdict.
func outcomeLine(w *words, st timeline.Step) string {
	out := st.Outcome.Kind
	if st.Outcome.Reason != "" {
		out += " " + st.Outcome.Reason
	}
	if st.Lease != nil && st.Outcome.Kind == "ok" {
		out += fmt.Sprintf(" token=%d lease_until=%d", st.Lease.Token, st.Lease.LeaseUntil)
	}
	if st.Now != st.Time {
		out += fmt.Sprintf(" now=%d", st.Now)
	}
	switch e := st.Expect; {
	case e == nil:
	case e.OK:
		out += "  ✓ " + w.held
	default:
		out += fmt.Sprintf("  ✗ %s %s, %s %s", w.expected, e.Expected, w.got, e.Got)
	}
	return out
}

// rowsText is a table in one line: each job's id, status and token.
func rowsText(rows []timeline.Row) string {
	parts := make([]string, 0, len(rows))
	for _, r := range rows {
		parts = append(parts, fmt.Sprintf("%s %s #%d", r.ID, r.Status, r.Token))
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, ", ")
}
