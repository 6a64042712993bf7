package lab_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/lab"
	"github.com/leaselab/leaselab/engine/limits"
)

func mustParse(t testing.TB, src string) *lab.Lab {
	t.Helper()
	l, err := lab.Parse("t.lab", src)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func mustRun(t testing.TB, l *lab.Lab, opts lab.Options) *lab.Result {
	t.Helper()
	res, err := lab.Run(context.Background(), l, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// pausy is a workload whose long GC pauses outlive a short lease, with no
// heartbeat and no margin: a paused worker writes after its job was taken.
const pausy = `jobs 10
workers 3
work uniform 200ms 400ms
gc every exponential 500ms pause uniform 500ms 1500ms
lease 300ms
runs 20
seed 7
horizon 20s
`

// The token keeps every stale write from landing over a newer one when
// the storage fences; the same runs on unfenced storage land some.
func TestRun_FencingLandsNoStaleWriteWhereUnfencedStorageLandsSome(t *testing.T) {
	arithmetic(t)
	fenced := mustRun(t, mustParse(t, pausy+"storage fenced\n"), lab.Options{}).Points[0].Stats
	unfenced := mustRun(t, mustParse(t, pausy+"storage unfenced\n"), lab.Options{}).Points[0].Stats
	if fenced["stale_landed"].Mean != 0 || fenced["stale_refused"].Mean == 0 {
		t.Errorf("fenced: %v landed, %v refused; want none landed and some refused", fenced["stale_landed"], fenced["stale_refused"])
	}
	if unfenced["stale_landed"].Mean == 0 || unfenced["stale_refused"].Mean != 0 {
		t.Errorf("unfenced: %v landed, %v refused; want some landed and none refused", unfenced["stale_landed"], unfenced["stale_refused"])
	}
}

// A non-idempotent receiver applies the resends that an idempotent one
// recognises.
func TestRun_OnlyANonIdempotentReceiverAppliesTwice(t *testing.T) {
	arithmetic(t)
	once := mustRun(t, mustParse(t, pausy+"receiver idempotent\n"), lab.Options{}).Points[0].Stats
	twice := mustRun(t, mustParse(t, pausy+"receiver not-idempotent\n"), lab.Options{}).Points[0].Stats
	if once["double_applied"].Mean != 0 || twice["double_applied"].Mean == 0 {
		t.Errorf("idempotent %v, not %v; want 0 and more", once["double_applied"], twice["double_applied"])
	}
}

// On the library's lease lab, a longer lease makes a crashed worker's job
// wait longer, every step of the sweep, and makes less work be done twice:
// each point within 10% of the one before it or below, and the longest
// lease duplicating a tenth or less of what the shortest does.
func TestRun_LongerLeaseRaisesStallAndLowersDuplicates(t *testing.T) {
	arithmetic(t)
	l, err := lab.LoadLibrary("lease-length.lab")
	if err != nil {
		t.Fatal(err)
	}
	res := mustRun(t, l, lab.Options{})
	pts := res.Points
	for i := 1; i < len(pts); i++ {
		prev, cur := pts[i-1].Stats, pts[i].Stats
		if cur["stall_ms"].Mean <= prev["stall_ms"].Mean {
			t.Errorf("lease %d ms: stall %v, not above %v at %d ms", pts[i].Values[0], cur["stall_ms"].Mean, prev["stall_ms"].Mean, pts[i-1].Values[0])
		}
		if cur["dup_ms"].Mean > prev["dup_ms"].Mean*1.1 {
			t.Errorf("lease %d ms: duplicate work %v, above %v at %d ms", pts[i].Values[0], cur["dup_ms"].Mean, prev["dup_ms"].Mean, pts[i-1].Values[0])
		}
	}
	if first, last := pts[0].Stats["dup_ms"].Mean, pts[len(pts)-1].Stats["dup_ms"].Mean; last*10 > first {
		t.Errorf("duplicate work %v at the longest lease, %v at the shortest: want a tenth or less", last, first)
	}
}

// The same text and seed give the same JSON, byte for byte, however many
// runs go at once; another seed gives other numbers.
func TestRun_SameTextAndSeedGiveIdenticalJSON(t *testing.T) {
	arithmetic(t)
	src := pausy + "crash every exponential 2s restart fixed 300ms\ndrift uniform -30ms 30ms\ndelay lognormal 5ms 1\nsweep lease 300ms 600ms 1s\n"
	encode := func(l *lab.Lab, par int) []byte {
		var b bytes.Buffer
		if err := mustRun(t, l, lab.Options{Parallel: par}).Encode(&b); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	one, four := encode(mustParse(t, src), 1), encode(mustParse(t, src), 4)
	if !bytes.Equal(one, four) {
		t.Error("the JSON of one run at a time differs from four at once")
	}
	other := mustParse(t, src)
	other.Seed++
	if bytes.Equal(one, encode(other, 2)) {
		t.Error("another seed gave the same JSON")
	}
	if !bytes.Contains(one, []byte(`"format": "`+lab.FormatVersion+`"`)) {
		t.Errorf("no format version in %.200s", one)
	}
}

// A run that would call the engine more than lab_ops times stops the lab
// with the limit, and nothing of it is given.
func TestRun_OverLabOpsStopsWithTheLimit(t *testing.T) {
	arithmetic(t)
	l := mustParse(t, "jobs 1\nworkers 1\nwork fixed 1m\nlease 1s\nheartbeat 1ms\nruns 1\nhorizon 2m\n")
	res, err := lab.Run(context.Background(), l, lab.Options{})
	var ex *limits.ExceededError
	if res != nil || !errors.As(err, &ex) || ex.Limit.Name != "lab_ops" {
		t.Errorf("%v, %v; want no result and lab_ops exceeded", res, err)
	}
	l = mustParse(t, "jobs 1\nworkers 1\nwork fixed 1m\nlease 1s\nheartbeat 4ms\nruns 1\nhorizon 2m\n")
	if _, err := lab.Run(context.Background(), l, lab.Options{}); err != nil {
		t.Errorf("15,000 renews, within lab_ops: %v", err)
	}
}

// Run stops when its context ends.
func TestRun_StopsWhenTheContextEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := lab.Run(ctx, mustParse(t, pausy), lab.Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("%v; want context.Canceled", err)
	}
}

// Progress hears every run once, up to the total.
func TestRun_ProgressCountsEveryRun(t *testing.T) {
	var last, calls int
	mustRun(t, mustParse(t, pausy+"sweep lease 300ms 600ms\n"), lab.Options{Progress: func(done, total int) {
		calls++
		if done != last+1 || total != 40 {
			t.Errorf("progress %d of %d after %d", done, total, last)
		}
		last = done
	}})
	if calls != 40 {
		t.Errorf("%d calls, want 40", calls)
	}
}

// An instant on a worker's clock past max_time, which the engine takes for
// Unix seconds, stops the lab with that limit named; the latest instant at
// the limit runs. A worker whose clock runs D ms ahead claims at D and
// completes its 1 ms of work at D+1.
func TestRun_AnInstantPastMaxTimeStopsWithTheLimit(t *testing.T) {
	for _, tc := range []struct {
		drift  int64 // the latest instant is drift+1
		passes bool
	}{
		{limits.Default.MaxTime - 2, false},
		{limits.Default.MaxTime - 1, false},
		{limits.Default.MaxTime, true},
	} {
		l := mustParse(t, fmt.Sprintf("jobs 1\nworkers 1\nwork fixed 1ms\nlease 1s\ndrift fixed %dms\nruns 1\n", tc.drift))
		res, err := lab.Run(context.Background(), l, lab.Options{})
		var ex *limits.ExceededError
		switch {
		case tc.passes && (res != nil || !errors.As(err, &ex) || ex.Limit.Name != "max_time"):
			t.Errorf("latest instant %d: %v, %v; want no result and max_time exceeded", tc.drift+1, res, err)
		case !tc.passes && err != nil:
			t.Errorf("latest instant %d, within max_time: %v", tc.drift+1, err)
		case !tc.passes && res.Points[0].Stats["jobs_per_s"].Mean == 0:
			t.Errorf("latest instant %d: the job was not done", tc.drift+1)
		}
	}
}

// The heartbeat's cost: a job of W ms worked through without a pause is
// renewed every heartbeat H before its work ends, floor((W-1)/H) times (no
// renew at the instant the work ends, which sends the complete instead).
// Before, at and after H dividing W, and H reaching W.
func TestRun_RenewsPerJobAreTheHeartbeatsBeforeTheWorkEnds(t *testing.T) {
	res := mustRun(t, mustParse(t, "jobs 4\nworkers 2\nwork fixed 1s\nlease 2s\nruns 1\n"+
		"sweep heartbeat off 499ms 500ms 501ms 999ms 1s 1001ms\n"), lab.Options{})
	want := []float64{0, 2, 1, 1, 1, 0, 0}
	for i, p := range res.Points {
		if got := p.Stats["renews"]; got.Mean != want[i] || got.N != 1 {
			t.Errorf("heartbeat %d ms: %+v renews a job, want %v", p.Values[0], got, want[i])
		}
	}
}

// arithmetic skips t under the race detector. t checks what a sweep
// computes, not how its goroutines meet, and the race detector slows the
// engine's SQLite about twentyfold: make gotest runs this package once
// more without it, where t runs; under -race the sweep's goroutines are
// raced by the tests that stay, TestRun_ProgressCountsEveryRun's among
// them.
func arithmetic(t *testing.T) {
	t.Helper()
	if raceDetector {
		t.Skip("a sweep's arithmetic: run without -race (make gotest runs this package so too)")
	}
}

// A lease no longer than a job's work, without a heartbeat, livelocks:
// the complete comes as the lease ends and is refused, and the job is
// claimed and worked again and again, never done. Its jobs are
// unfinished when the run's horizon is reached, every run; a lease 1 ms
// longer than the work finishes them all.
func TestRun_ALivelockedLeaseShowsItsUnfinishedJobs(t *testing.T) {
	arithmetic(t)
	res := mustRun(t, mustParse(t, "jobs 2\nworkers 2\nwork fixed 3s\nruns 3\nhorizon 1m\nsweep lease 1s 2999ms 3s 3001ms\n"), lab.Options{})
	want := []float64{2, 2, 2, 0}
	for i, p := range res.Points {
		if got := p.Stats["unfinished"]; got.Mean != want[i] || got.N != 3 {
			t.Errorf("lease %d ms: %+v unfinished, want %v in each of 3 runs", p.Values[0], got, want[i])
		}
	}
}

// A job is unfinished when it is neither done nor quarantined at the
// run's horizon; one done at the horizon itself is finished. One worker
// does ten jobs of 1 s, one every second: the fifth is done at 5 s.
func TestRun_UnfinishedCountsTheJobsNotDoneAtTheHorizon(t *testing.T) {
	for _, c := range []struct {
		horizon string
		want    float64
	}{{"4999ms", 6}, {"5s", 5}, {"5001ms", 5}} {
		res := mustRun(t, mustParse(t, "jobs 10\nworkers 1\nwork fixed 1s\nlease 2s\nruns 1\nhorizon "+c.horizon+"\n"), lab.Options{})
		if got := res.Points[0].Stats["unfinished"]; got.Mean != c.want || got.N != 1 {
			t.Errorf("horizon %s: %+v unfinished, want %v", c.horizon, got, c.want)
		}
	}
	res := mustRun(t, mustParse(t, "jobs 4\nworkers 2\nwork fixed 3s\nlease 1s\nmax_attempts 2\nruns 1\n"), lab.Options{})
	if got := res.Points[0].Stats; got["unfinished"].Mean != 0 || got["quarantined"].Mean != 4 {
		t.Errorf("attempts used up: %+v unfinished, %+v quarantined; want 0 and 4", got["unfinished"], got["quarantined"])
	}
}

// The estimate cannot foresee a livelock, whose runs claim a job again
// and again: the calls are also counted as the runs make them, and the
// lab stops with lab_calls, nothing of it given, as soon as they pass it.
// A lab whose runs make C calls in all runs under a bound of C and stops
// under C-1, its runs going three at once (the race detector watches
// their count).
func TestRun_CountsTheCallsAgainstLabCalls(t *testing.T) {
	const livelock = "jobs 2\nworkers 2\nwork fixed 3s\nlease 1s\nruns 4\nhorizon 2m\n"
	calls := mustRun(t, mustParse(t, livelock), lab.Options{}).Calls
	if estimate := mustParse(t, livelock).EstimatedCalls(); calls <= 3*estimate {
		t.Fatalf("%d calls, estimated %d: want a livelock's many more", calls, estimate)
	}
	for _, c := range []struct {
		bound  int64
		passes bool
	}{{calls - 1, false}, {calls, true}} {
		lim := limits.Default
		lim.LabCalls = int(c.bound)
		l, err := lab.ParseLimits("t.lab", livelock, lim)
		if err != nil {
			t.Fatal(err)
		}
		res, err := lab.Run(context.Background(), l, lab.Options{Parallel: 3})
		var ex *limits.ExceededError
		switch {
		case c.passes && (err != nil || res.Calls != calls):
			t.Errorf("lab_calls %d: %v, %d calls; want the result of %d calls", c.bound, err, res.Calls, calls)
		case !c.passes && (res != nil || !errors.As(err, &ex) || ex.Limit.Name != "lab_calls" || ex.Limit.Value != c.bound):
			t.Errorf("lab_calls %d: %v, %v; want no result and lab_calls exceeded", c.bound, res, err)
		}
	}
}
