package timeline_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/timeline"
	"github.com/leaselab/leaselab/engine/timeline/memrun"
)

// longTimeline has 4 steps per job — claim, renew, a refused claim by
// another worker, complete — each with an expectation: 200 steps for 50
// jobs.
func longTimeline(jobs int) string {
	var b strings.Builder
	b.WriteString("# A long day: claim, renew, a refused claim, complete, per job\nlease 1000ms\n")
	for i := range jobs {
		fmt.Fprintf(&b, "job order-%d qty=%d\n", i, i%5+1)
	}
	for i := range jobs {
		t := i * 10
		fmt.Fprintf(&b, "%dms A claim order-%d -> ok token=1 lease_until=%d\n", t, i, t+1000)
		fmt.Fprintf(&b, "+1ms A renew order-%d -> ok lease_until=%d\n", i, t+1001)
		fmt.Fprintf(&b, "+1ms B claim order-%d -> refused held owner=A\n", i)
		fmt.Fprintf(&b, "+1ms A complete order-%d -> ok status=done\n", i)
	}
	return b.String()
}

func TestRun_TwoHundredStepTimelineHoldsEveryExpectation(t *testing.T) {
	tr, err := memrun.RunSource(context.Background(), "long.tl", longTimeline(50), timeline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Summary.Steps != 200 || tr.Summary.Expectations != 200 || !tr.Summary.Passed {
		t.Fatalf("summary %+v", tr.Summary)
	}
}

// BenchmarkRun_200Steps runs a 200-step timeline on a fresh in-memory
// database per iteration (opening it and creating the schema included) and
// reports steps per second.
func BenchmarkRun_200Steps(b *testing.B) {
	tl, err := timeline.Parse("long.tl", longTimeline(50))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for b.Loop() {
		tr, err := memrun.Run(ctx, tl, timeline.Options{})
		if err != nil || !tr.Summary.Passed {
			b.Fatalf("err %v summary %+v", err, tr.Summary)
		}
	}
	b.ReportMetric(float64(200*b.N)/b.Elapsed().Seconds(), "steps/s")
}

// BenchmarkRun_LateCourier is DESIGN's four-step example end to end.
func BenchmarkRun_LateCourier(b *testing.B) {
	tl, err := timeline.LoadLibrary("01-late-courier.tl")
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for b.Loop() {
		if _, err := memrun.Run(ctx, tl, timeline.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(4*b.N)/b.Elapsed().Seconds(), "steps/s")
}

func BenchmarkParse_200Steps(b *testing.B) {
	src := longTimeline(50)
	for b.Loop() {
		if _, err := timeline.Parse("long.tl", src); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(200*b.N)/b.Elapsed().Seconds(), "steps/s")
}
