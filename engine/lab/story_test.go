package lab_test

import (
	"context"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/lab"
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
