package lab_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/lab"
	"github.com/leaselab/leaselab/engine/limits"
	"github.com/leaselab/leaselab/engine/timeline"
	"github.com/leaselab/leaselab/engine/timeline/memrun"
)

// playStory replays run of point as a timeline on the engine through the
// timeline runner and fails unless every step's outcome is the one the
// lab's run had and no invariant broke unannounced.
func playStory(t *testing.T, l *lab.Lab, point, run int) *timeline.Trace {
	t.Helper()
	text, err := lab.Story(context.Background(), l, point, run)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := memrun.RunSource(context.Background(), "story.tl", text, timeline.Options{})
	if err != nil {
		t.Fatalf("the story does not parse or run: %v\n%s", err, text)
	}
	if !tr.Summary.Passed || tr.Summary.Expectations == 0 {
		t.Fatalf("the story's replay differs from the lab's run: %d of %d expectations failed, %d violations unannounced: %s\n%s",
			tr.Summary.Failed, tr.Summary.Expectations, tr.Summary.Violations, strings.Join(tr.Summary.Failures, "; "), text)
	}
	return tr
}

func TestStory_WorstAndTypicalRunsReplayOnTheTimelineRunner(t *testing.T) {
	arithmetic(t)
	for _, name := range lab.LibraryNames() {
		l, err := lab.LoadLibrary(name)
		if err != nil {
			t.Fatal(err)
		}
		l.Runs = 4
		res, err := lab.Run(context.Background(), l, lab.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []int{0, len(res.Points) / 2, len(res.Points) - 1} {
			pt := res.Points[p]
			for _, run := range []int{pt.Worst, pt.Typical} {
				if run >= 0 {
					playStory(t, l, p, run)
				}
			}
		}
	}
}

// A run of more steps than a timeline may hold is refused with the limit
// steps, at and past the bound: one job, a renew every 5 ms.
func TestStory_ARunPastTheStepsLimitIsExceeded(t *testing.T) {
	for _, c := range []struct {
		horizon string
		over    bool
	}{{"9s", false}, {"11s", true}} {
		l := mustParse(t, "jobs 1\nworkers 1\nwork fixed 1m\nlease 1s\nheartbeat 5ms\nruns 1\nhorizon "+c.horizon+"\n")
		_, err := lab.Story(context.Background(), l, 0, 0)
		var ex *limits.ExceededError
		if got := errors.As(err, &ex) && ex.Limit.Name == "steps"; got != c.over {
			t.Errorf("horizon %s: %v; want the limit steps passed: %v", c.horizon, err, c.over)
		}
	}
}

// A story's title names its point by the swept values, and a lab with no
// sweep by its point alone, with no empty parentheses.
func TestStory_TitleNamesThePointBySweptValuesOrAlone(t *testing.T) {
	const base = "# Tiny\njobs 1\nworkers 1\nwork fixed 100ms\nruns 1\nhorizon 1s\n"
	for _, tc := range []struct{ src, want string }{
		{base, "# Tiny: point 0, run 0, seed 1\n"},
		{base + "sweep lease 1s\n", "# Tiny: point 0 (lease=1s), run 0, seed 1\n"},
		{base + "sweep lease 1s\nsweep margin off\n", "# Tiny: point 0 (lease=1s margin=off), run 0, seed 1\n"},
	} {
		text, err := lab.Story(context.Background(), mustParse(t, tc.src), 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(text, tc.want) {
			t.Errorf("%q: story starts %q, want %q", tc.src, strings.SplitAfter(text, "\n")[0], tc.want)
		}
	}
}
