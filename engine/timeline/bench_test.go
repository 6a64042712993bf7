package timeline_test

import (
	"context"
	"encoding/json"
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

// BenchmarkRun_LateCourier is the late courier's four steps end to end.
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

// wideTimeline is the red team's shape: jobs declared, then steps that each
// touch one of them (a claim, a state read, a complete, round robin), so a
// trace that copied the table at every step would hold jobs × steps rows.
func wideTimeline(jobs, steps int) string {
	var b strings.Builder
	b.WriteString("# Many jobs, many steps\nlease 1000ms\n")
	for i := range jobs {
		fmt.Fprintf(&b, "job j%d\n", i)
	}
	for i := range steps {
		j := i % jobs
		switch (i / jobs) % 3 {
		case 0:
			fmt.Fprintf(&b, "%d A claim j%d\n", i, j)
		case 1:
			fmt.Fprintf(&b, "%d B state j%d\n", i, j)
		default:
			fmt.Fprintf(&b, "%d A complete j%d\n", i, j)
		}
	}
	return b.String()
}

// A trace grows with its timeline's text, never with jobs times steps:
// 1,000 jobs and 1,000 steps give a trace of a few MB (a whole table per
// step would be about 300 MB), and the steps of a trace weigh about the
// same whether they touch 10 jobs or 1,000.
func TestTrace_SizeGrowsWithTheTextNotJobsTimesSteps(t *testing.T) {
	run := func(jobs, steps int) *timeline.Trace {
		tr, err := memrun.RunSource(t.Context(), "wide.tl", wideTimeline(jobs, steps), timeline.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	size := func(v any) int {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return len(b)
	}
	big := run(1000, 1000)
	var b strings.Builder
	if err := big.Encode(&b); err != nil {
		t.Fatal(err)
	}
	if b.Len() > 5<<20 {
		t.Fatalf("a 1000-job x 1000-step trace is %d bytes, want at most 5 MiB", b.Len())
	}
	wide, narrow := size(big.Steps), size(run(10, 1000).Steps)
	if wide > 2*narrow {
		t.Fatalf("1000 steps over 1000 jobs weigh %d bytes, over 10 jobs %d: a step's size grows with the table", wide, narrow)
	}
	t.Logf("1000 jobs x 1000 steps: %d bytes; the steps %d bytes (over 10 jobs: %d)", b.Len(), wide, narrow)
}

// BenchmarkRun_1000Jobs1000Steps is the red team's timeline, parsed and
// run on a fresh in-memory database per iteration.
func BenchmarkRun_1000Jobs1000Steps(b *testing.B) {
	src := wideTimeline(1000, 1000)
	ctx := context.Background()
	for b.Loop() {
		if _, err := memrun.RunSource(ctx, "wide.tl", src, timeline.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
