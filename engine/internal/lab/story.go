package lab

import (
	"fmt"
	"strconv"
	"strings"
)

// recorder writes one run as a timeline (package engine/timeline's
// language): the policy and the workers' clocks as header lines, the jobs,
// then every step the run took on the engine with the outcome it got as
// the expectation. A nil recorder records nothing.
type recorder struct {
	title []string
	head  []string
	lines []string
	notes []string
}

// header writes the timeline's header lines for s's run.
func (r *recorder) header(s *sim) {
	if r == nil {
		return
	}
	r.head = append(r.head, "lease "+ms(s.pol.Lease))
	if !s.pol.Fenced {
		r.head = append(r.head, "storage unfenced")
	}
	if !s.pol.Idempotent {
		r.head = append(r.head, "receiver not-idempotent")
	}
	for _, w := range s.workers {
		if w.drift != 0 {
			r.head = append(r.head, fmt.Sprintf("clock %s %+dms", w.name, w.drift))
		}
	}
	for _, j := range s.jobs {
		line := "job " + j.id
		if j.deadline > 0 {
			line += " deadline=" + ms(j.deadline)
		}
		if s.pol.MaxAttempts > 0 {
			line += " max_attempts=" + strconv.FormatInt(s.pol.MaxAttempts, 10)
		}
		r.head = append(r.head, fmt.Sprintf("%s  # work %s", line, ms(j.work)))
	}
}

// step records "T TEXT [-> EXPECT]" and returns its index, for expect.
func (r *recorder) step(t int64, text, expect string) int {
	if r == nil {
		return -1
	}
	for _, n := range r.notes {
		r.lines = append(r.lines, "# "+n)
	}
	r.notes = r.notes[:0]
	line := ms(t) + " " + text
	if expect != "" {
		line += " -> " + expect
	}
	r.lines = append(r.lines, line)
	return len(r.lines) - 1
}

// expect sets the expectation of the recorded line i (a message in flight,
// whose outcome is known at its arrival).
func (r *recorder) expect(i int, expect string) {
	if r == nil || i < 0 {
		return
	}
	r.lines[i] += " -> " + expect
}

// note is a comment for the reader above the next step.
func (r *recorder) note(n string) {
	if r != nil {
		r.notes = append(r.notes, n)
	}
}

// text is the whole timeline.
func (r *recorder) text() string {
	var b strings.Builder
	for _, t := range r.title {
		b.WriteString("# " + t + "\n")
	}
	for _, h := range r.head {
		b.WriteString(h + "\n")
	}
	b.WriteString("\n")
	for _, l := range r.lines {
		b.WriteString(l + "\n")
	}
	return b.String()
}
