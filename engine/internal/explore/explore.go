package explore

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/leaselab/leaselab/engine/timeline"
	"github.com/leaselab/leaselab/engine/timeline/memrun"
)

// ErrNotConfirmed: the model found a history that the real engine does not
// repeat — the model and the engine disagree, which is a bug in one of
// them. Nothing is reported as found.
var ErrNotConfirmed = errors.New("explore: the engine does not confirm the model's find")

// Report is a search's result, and what it found as a timeline confirmed
// on the real engine.
type Report struct {
	*Found
	Goal Goal
	// Timeline is the history as a timeline file whose expectations are
	// the correct engine's: leaselab check passes on it, and check with the
	// goal's mutant (or engine) fails. "" when nothing was found.
	Timeline string
}

// Explore searches sc for g (Search) and confirms what it finds on the real
// engine over in-memory SQLite: the timeline it writes passes on the
// correct engine, and fails on the mutant (a diff goal), or breaks the
// property on the goal's engine. A find the engine does not confirm is
// ErrNotConfirmed.
func Explore(ctx context.Context, sc Scope, g Goal, progress func(Progress)) (*Report, error) {
	f, err := Search(ctx, sc, g, progress)
	if err != nil {
		return nil, err
	}
	r := &Report{Found: f, Goal: g}
	if f.Steps == nil {
		return r, nil
	}
	r.Timeline, err = confirm(ctx, sc, g, f)
	return r, err
}

// confirm writes the find as a timeline with the correct engine's
// expectations and checks it on the real engine.
func confirm(ctx context.Context, sc Scope, g Goal, f *Found) (string, error) {
	bare := render(sc, g, f, nil)
	correct, err := memrun.RunSource(ctx, "explore.tl", bare, timeline.Options{})
	if err != nil {
		return "", fmt.Errorf("explore: the found history does not run: %w\n%s", err, bare)
	}
	text := render(sc, g, f, correct)
	mutant := g.Mutant
	if mutant == "" {
		mutant = g.Engine
	}
	tr, err := memrun.RunSource(ctx, "explore.tl", text, timeline.Options{Mutant: mutant})
	if err != nil {
		return "", fmt.Errorf("explore: on %s: %w", mutant, err)
	}
	ok, err := memrun.RunSource(ctx, "explore.tl", text, timeline.Options{})
	switch {
	case err != nil:
		return "", err
	case !ok.Summary.Passed:
		return "", fmt.Errorf("%w: the correct engine fails its own expectations:\n%s", ErrNotConfirmed, text)
	case g.diff() && tr.Summary.Passed:
		return "", fmt.Errorf("%w: %s passes the history that tells it apart:\n%s", ErrNotConfirmed, mutant, text)
	case !g.diff() && !breaks(tr, g.Property):
		return "", fmt.Errorf("%w: the engine breaks no %q on it:\n%s", ErrNotConfirmed, g.Property, text)
	}
	return text, nil
}

// breaks reports whether tr shows property (any invariant for "") broken.
func breaks(tr *timeline.Trace, property string) bool {
	for _, st := range tr.Steps {
		for _, v := range st.Verdicts {
			if !v.OK && (property == "" || v.Invariant == property) {
				return true
			}
		}
	}
	return false
}

// render writes the history as a timeline; with the correct engine's
// trace, each step states what the correct engine answered.
func render(sc Scope, g Goal, f *Found, correct *timeline.Trace) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n", title(g, f))
	fmt.Fprintf(&b, "lease %dms\n", sc.TTL)
	for _, j := range sc.Jobs {
		if !j.Later {
			fmt.Fprintf(&b, "job %s%s\n", j.ID, jobFields(j))
		}
	}
	b.WriteString("\n")
	enqueued := map[string]bool{}
	for i, s := range f.Steps {
		if i == len(f.Steps)-1 {
			for _, line := range strings.Split(why(g, f), "\n") {
				fmt.Fprintf(&b, "# %s\n", line)
			}
		}
		b.WriteString(stepLine(sc, s))
		if correct != nil && i < len(correct.Steps) {
			if e := expectation(correct.Steps[i], i == len(f.Steps)-1); e != "" {
				b.WriteString("  -> " + e)
			}
		}
		b.WriteString("\n")
		if s.Verb == timeline.VerbEnqueue {
			enqueued[s.Job] = true
		}
	}
	closeLaterJobs(&b, sc, f, enqueued)
	return b.String()
}

// closeLaterJobs enqueues, after the last step, every later job a step
// named but none enqueued (the language wants every job it names to exist
// somewhere in the text).
func closeLaterJobs(b *strings.Builder, sc Scope, f *Found, enqueued map[string]bool) {
	last := f.Steps[len(f.Steps)-1].At
	for _, j := range sc.Jobs {
		if !j.Later || enqueued[j.ID] {
			continue
		}
		for _, s := range f.Steps {
			if s.Job == j.ID {
				fmt.Fprintf(b, "%dms admin enqueue %s%s\n", last, j.ID, jobFields(j))
				break
			}
		}
	}
}

func jobFields(j Job) string {
	var f []string
	if j.Qty > 1 {
		f = append(f, fmt.Sprintf("qty=%d", j.Qty))
	}
	if j.Deadline > 0 {
		f = append(f, fmt.Sprintf("deadline=%d", j.Deadline))
	}
	if j.MaxAttempts > 0 {
		f = append(f, fmt.Sprintf("max_attempts=%d", j.MaxAttempts))
	}
	if len(f) == 0 {
		return ""
	}
	return " " + strings.Join(f, " ")
}

// title is the found timeline's first line: what it shows and how many
// steps show it, the verb agreeing with the count (1 step breaks, 2 steps
// break).
func title(g Goal, f *Found) string {
	steps, s := fmt.Sprintf("%d steps", len(f.Steps)), ""
	if len(f.Steps) == 1 {
		steps, s = "1 step", "s"
	}
	switch {
	case g.diff():
		return fmt.Sprintf("Found by leaselab explore: %s tell%s %s from the correct engine (%d states searched)", steps, s, g.Mutant, f.States)
	case g.Engine != "":
		return fmt.Sprintf("Found by leaselab explore: %s break%s %s on %s (%d states searched)", steps, s, orAny(g.Property), g.Engine, f.States)
	}
	return fmt.Sprintf("Found by leaselab explore: %s break%s %s (%d states searched)", steps, s, orAny(g.Property), f.States)
}

func orAny(p string) string {
	if p == "" {
		return "an invariant"
	}
	return p
}

// why is the note on the last step: where the engines part, or what
// breaks.
func why(g Goal, f *Found) string {
	if g.diff() {
		return "Here the engines part: " + f.Why
	}
	return "Here an invariant breaks: " + f.Why
}

// stepLine is one step as the language writes it.
func stepLine(sc Scope, s Step) string {
	line := fmt.Sprintf("%dms %s %s", s.At, strings.Join(s.Actors, ","), s.Verb)
	if s.Verb == timeline.VerbReopen || s.Verb == timeline.VerbCrash {
		return line
	}
	if s.Job != "" {
		line += " " + s.Job
	}
	if s.Verb == timeline.VerbEnqueue {
		for _, j := range sc.Jobs {
			if j.ID == s.Job {
				line += jobFields(j)
			}
		}
	}
	if s.Forged {
		line += fmt.Sprintf(" token=%d", s.Token)
	}
	return line
}
