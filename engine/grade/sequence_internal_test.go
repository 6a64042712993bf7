package grade

import (
	"context"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/leasetest"
	"github.com/leaselab/leaselab/engine/timeline"
	"github.com/leaselab/leaselab/engine/timeline/memrun"
)

// The search's shortest sequence becomes a timeline the engine runs: a job
// never enqueued is enqueued at the end, so that the timeline may name it,
// and every token is presented as the sequence presented it.
func TestSequenceTimeline_RunsOnTheEngine(t *testing.T) {
	l := engine.Lease{JobID: "a", Owner: "A", Token: 1}
	calls := []leasetest.Call{
		{Op: engine.OpEnqueue, New: engine.NewJob{ID: "a"}, Now: 0},
		{Op: engine.OpClaim, Job: "a", Owner: "A", Now: 0, TTL: 1000},
		{Op: engine.OpState, Job: "c", Now: 250},
		{Op: engine.OpClaimNext, Owner: "B", Now: 1000, TTL: 500},
		{Op: engine.OpRenew, Lease: l, Now: 1000, TTL: 1000},
		{Op: engine.OpRelease, Lease: engine.Lease{JobID: "b", Owner: "B"}},
		{Op: engine.OpComplete, Lease: l, Now: 1001, Result: "r"},
	}
	src := sequenceTimeline(calls, &Failure{Want: "False", Got: "True"})
	tl, err := timeline.Parse("seq.tl", src)
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	tr, err := memrun.Run(context.Background(), tl, timeline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Steps) != len(calls)+2 { // b and c enqueued at the end
		t.Fatalf("%d steps; want %d\n%s", len(tr.Steps), len(calls)+2, src)
	}
	if !strings.Contains(src, "1001ms A complete a token=1 result=r") || !strings.Contains(src, "admin enqueue c") {
		t.Errorf("the timeline does not say the calls as made:\n%s", src)
	}
}
