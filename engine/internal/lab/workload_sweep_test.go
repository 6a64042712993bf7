package lab_test

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/lab"
)

// A sweep of the workload's pause, delay or drift parses at one value
// and at lab_points' values, and is refused beyond; its values keep each
// line's rules (a pause is at least 1ms, a delay or a drift of none is
// written off); sweep pause needs GC pauses, wherever the gc line is;
// an unknown parameter lists the ones a sweep may vary.
func TestParse_WorkloadSweepBoundaries(t *testing.T) {
	const gc = "jobs 1\ngc every exponential 1s pause fixed 10ms\n"
	for _, c := range []struct {
		name, src, want string // want "" parses; else a substring of the error
	}{
		{"pause at one value", gc + "sweep pause 2s", ""},
		{"pause at the points limit", gc + "sweep pause 1ms..100ms step 1ms", ""},
		{"pause over the points limit", gc + "sweep pause 1ms..101ms step 1ms", "t.lab:3:13: 101 values: over the limit lab_points (100"},
		{"pause at 1ms", gc + "sweep pause 1ms 2ms", ""},
		{"pause below 1ms", gc + "sweep pause 0ms 2ms", "t.lab:3:13: 0ms is below 1ms"},
		{"pause off", gc + "sweep pause off 2ms", `t.lab:3:13: "off": a duration needs a unit`},
		{"pause at max_time", gc + "sweep pause 1000000000ms", ""},
		{"pause over max_time", gc + "sweep pause 1000000001ms", "over the limit max_time"},
		{"pause without a gc line", "jobs 1\nsweep pause 1s 2s", "t.lab:2:7: sweep pause varies the length of GC pauses, and this lab has none: add a line gc every DIST pause DIST"},
		{"pause with gc off", "jobs 1\ngc off\nsweep pause 1s 2s", "t.lab:3:7: sweep pause varies the length of GC pauses"},
		{"pause before its gc line", "jobs 1\nsweep pause 1s 2s\ngc every fixed 1s pause fixed 1ms", ""},
		{"pause beside a bad gc line", "jobs 1\ngc every fixed 1s\nsweep pause 1s", `t.lab:2:16: no "pause"`},
		{"delay at one value", "jobs 1\nsweep delay 5ms", ""},
		{"delay off and up", "jobs 1\ndelay uniform 1ms 10ms\nsweep delay off 1ms 50ms", ""},
		{"delay at the points limit", "jobs 1\nsweep delay 1ms..100ms step 1ms", ""},
		{"delay over the points limit", "jobs 1\nsweep delay 1ms..101ms step 1ms", "101 values: over the limit lab_points"},
		{"delay 0ms points at off", "jobs 1\nsweep delay 0ms 1ms", "t.lab:2:13: 0ms is below 1ms: write `delay off` for none"},
		{"delay negative", "jobs 1\nsweep delay -1ms 1ms", "t.lab:2:13: -1ms is below 1ms"},
		{"drift off and up", "jobs 1\nsweep drift off 50ms 200ms", ""},
		{"drift at one value", "jobs 1\ndrift off\nsweep drift 1ms", ""},
		{"drift 0ms points at off", "jobs 1\nsweep drift 0ms", "t.lab:2:13: 0ms is below 1ms: write `drift off` for none"},
		{"drift values that go down", "jobs 1\nsweep drift 200ms 50ms", "t.lab:2:19: the values go up"},
		{"a workload by policy grid", gc + "sweep lease 1s 2s\nsweep pause 100ms 3s", ""},
		{"a grid at the points limit", gc + "sweep drift 1ms..10ms step 1ms\nsweep pause 1ms..10ms step 1ms", ""},
		{"a grid over the points limit", gc + "sweep drift 1ms..10ms step 1ms\nsweep pause 1ms..11ms step 1ms", "t.lab:4:1: 110 points: over the limit lab_points"},
		{"a third sweep", "jobs 1\nsweep delay 1ms\nsweep drift 1ms\nsweep lease 1s", "t.lab:4:1: a lab sweeps at most two parameters"},
		{"a misspelt parameter", "jobs 1\nsweep pauze 1s", `t.lab:2:7: cannot sweep "pauze" (did you mean pause?): a sweep varies one of lease, heartbeat, margin, max_attempts, deadline, pause, delay, offset`},
		{"a workload line that is no parameter", "jobs 1\nsweep workers 1 2", `cannot sweep "workers"`},
	} {
		t.Run(c.name, func(t *testing.T) { wantParse(t, c.src, parseErr(c.src), c.want) })
	}
	if got := parseErr("jobs 1\ngc every fixed 1s\nsweep pause 1s"); strings.Contains(got, "sweep pause") {
		t.Errorf("a bad gc line also blames the pause sweep: %s", got)
	}
}

// sweptAndWritten are, for each workload parameter, a sweep of it and
// the line each of its values means, at which the lab runs the same.
var sweptAndWritten = []struct {
	param, values string
	line          func(v string) string
}{
	{"pause", "100ms 3s", func(v string) string { return "gc every exponential 2s pause fixed " + v }},
	{"delay", "off 20ms 700ms", func(v string) string {
		if v == "off" {
			return "delay off"
		}
		return "delay fixed " + v
	}},
	{"offset", "off 50ms 600ms", func(v string) string {
		if v == "off" {
			return "offset off"
		}
		return "offset uniform -" + v + " " + v
	}},
	// drift is offset's old name, in a sweep and on its line alike
	{"drift", "off 50ms", func(v string) string {
		if v == "off" {
			return "drift off"
		}
		return "offset uniform -" + v + " " + v
	}},
}

// sweptBase is a small lab where pauses, delays and clocks matter: no
// heartbeat, a lease not much longer than the work.
const sweptBase = "# Swept\njobs 6\nworkers 3\nwork uniform 300ms 900ms\nlease 1s\nhorizon 20s\nruns 4\nseed 7\n"

// A workload sweep's point is the lab with the line its value means, run
// for run: its measures and its worst and typical runs are the written
// lab's, so a sweep of pause, delay or offset means what the doc says.
func TestRun_WorkloadSweepPointIsTheLabWithItsLineWritten(t *testing.T) {
	arithmetic(t)
	for _, c := range sweptAndWritten {
		gc := "gc every exponential 2s pause fixed 1ms\n"
		if c.param == "pause" {
			gc = "gc every exponential 2s pause uniform 1ms 5s\n" // each point replaces its pause
		}
		swept := mustRun(t, mustParse(t, sweptBase+gc+"sweep "+c.param+" "+c.values+"\n"), lab.Options{})
		for i, v := range strings.Fields(c.values) {
			lines := gc + c.line(v) + "\n"
			if c.param == "pause" {
				lines = c.line(v) + "\n"
			}
			written := mustRun(t, mustParse(t, sweptBase+lines), lab.Options{})
			got, want := swept.Points[i], written.Points[0]
			got.Index, got.Values = 0, want.Values
			if g, w := fmt.Sprint(got), fmt.Sprint(want); g != w {
				t.Errorf("sweep %s, point %d (%s): %s\nwant the lab with %q: %s", c.param, i, v, g, c.line(v), w)
			}
		}
	}
}

// The workload sweeps change the measures they should: longer GC pauses
// than the lease, slower messages and farther clocks each make more
// duplicate work, stale writes or lease overlaps than none.
func TestRun_WorkloadSweepsMoveTheirMeasures(t *testing.T) {
	arithmetic(t)
	for _, c := range []struct {
		sweep, metric string
	}{
		{"gc every exponential 2s pause fixed 1ms\nsweep pause 10ms 3s", "dup_ms"},
		{"sweep delay off 2s", "dup_ms"},
		{"sweep drift off 900ms", "overlaps"},
	} {
		res := mustRun(t, mustParse(t, sweptBase+c.sweep+"\n"), lab.Options{})
		lo, hi := res.Points[0].Stats[c.metric], res.Points[1].Stats[c.metric]
		if !(hi.Mean > lo.Mean) {
			t.Errorf("%q: %s %v at the first value, %v at the last; want it to grow", c.sweep, c.metric, lo, hi)
		}
	}
}

// The result names a workload sweep as it does a policy's: the parameter,
// its unit (ms) and its values, as the lab wrote them in the table and
// the plot (off for none), and the same bytes whatever the parallelism.
func TestResult_NamesAWorkloadSweepAndIsTheSameBytes(t *testing.T) {
	arithmetic(t)
	l := mustParse(t, sweptBase+"sweep drift off 50ms 2s\nsweep delay off 10ms\n")
	one := mustRun(t, l, lab.Options{Parallel: 1})
	many := mustRun(t, l, lab.Options{Parallel: 4})
	var a, b, table bytes.Buffer
	if err := one.Encode(&a); err != nil {
		t.Fatal(err)
	}
	if err := many.Encode(&b); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("the JSON differs between 1 and 4 runs at once")
	}
	if got := fmt.Sprint(one.Sweeps); got != "[{drift ms [0 50 2000]} {delay ms [0 10]}]" {
		t.Errorf("sweeps %s", got)
	}
	if err := one.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	head, rest, _ := strings.Cut(table.String(), "\n")
	if !strings.HasPrefix(head, "point  drift  delay  ") || !regexp.MustCompile(`(?m)^5 +2s +10ms `).MatchString(rest) ||
		!regexp.MustCompile(`(?m)^0 +off +off `).MatchString(rest) {
		t.Errorf("the table names the swept values otherwise:\n%s", table.String())
	}
}

// A workload sweep costs each point what the lab without it costs: a
// pause, a delay or a drift changes none of what lab_calls' estimate
// reads, so three values cost three times one.
func TestEstimatedCalls_WorkloadSweepChargesEachPointAsTheLineAlone(t *testing.T) {
	const base = "jobs 10\nwork fixed 2s\nheartbeat 300ms\ngc every exponential 2s pause fixed 10ms\nruns 5\n"
	one := mustParse(t, base).EstimatedCalls()
	for _, sweep := range []string{"sweep pause 1ms 5s 1m", "sweep delay off 10ms 10s", "sweep drift off 100ms 10s"} {
		if got := mustParse(t, base+sweep+"\n").EstimatedCalls(); got != 3*one {
			t.Errorf("%q: estimated %d calls, want 3 × %d", sweep, got, one)
		}
	}
}

var (
	pauseStep  = regexp.MustCompile(`(?m)^\d+ms \w+ pause (\d+)ms$`)
	arriveStep = regexp.MustCompile(`(?m)^(\d+)ms \w+ \w+ \S+ arrives=(\d+)ms`)
	clockLine  = regexp.MustCompile(`(?m)^clock \w+ ([+-]\d+)ms$`)
)

// A story of a workload sweep's point replays that point's workload: its
// title names the swept values, its pauses last the swept pause, its
// messages arrive the swept delay after they leave, its clocks lie within
// the swept drift, and it plays on the timeline runner step for step.
func TestStory_ReplaysAWorkloadSweepsPoint(t *testing.T) {
	arithmetic(t)
	l := mustParse(t, sweptBase+"gc every exponential 1s pause fixed 1ms\nsweep pause 200ms 1500ms\nsweep delay off 30ms\n")
	l2 := mustParse(t, sweptBase+"sweep drift off 400ms\n")
	for point, want := range []struct{ pause, delay int64 }{{200, 0}, {200, 30}, {1500, 0}, {1500, 30}} {
		text, err := lab.Story(context.Background(), l, point, 0)
		if err != nil {
			t.Fatal(err)
		}
		title := fmt.Sprintf("point %d (pause=%s delay=%s)", point, msText(want.pause), map[bool]string{true: "off", false: "30ms"}[want.delay == 0])
		if !strings.Contains(strings.SplitN(text, "\n", 2)[0], title) {
			t.Errorf("point %d: title %q, want it to name %q", point, strings.SplitN(text, "\n", 2)[0], title)
		}
		pauses := pauseStep.FindAllStringSubmatch(text, -1)
		if len(pauses) == 0 {
			t.Errorf("point %d: no pause in its story", point)
		}
		for _, m := range pauses {
			if m[1] != strconv.FormatInt(want.pause, 10) {
				t.Errorf("point %d: %q, want every pause %dms", point, m[0], want.pause)
			}
		}
		arrivals := arriveStep.FindAllStringSubmatch(text, -1)
		if (len(arrivals) > 0) != (want.delay > 0) {
			t.Errorf("point %d: %d messages in flight, want some only with a delay", point, len(arrivals))
		}
		for _, m := range arrivals {
			if sent, at := atoi(t, m[1]), atoi(t, m[2]); at-sent != want.delay {
				t.Errorf("point %d: %q flies %dms, want %dms", point, m[0], at-sent, want.delay)
			}
		}
		playStory(t, l, point, 0)
	}
	for point, spread := range []int64{0, 400} {
		text, err := lab.Story(context.Background(), l2, point, 0)
		if err != nil {
			t.Fatal(err)
		}
		clocks := clockLine.FindAllStringSubmatch(text, -1)
		if (len(clocks) > 0) != (spread > 0) {
			t.Errorf("drift %dms: %d clock lines, want some only with a drift", spread, len(clocks))
		}
		for _, m := range clocks {
			if off := atoi(t, strings.TrimPrefix(m[1], "+")); off < -spread || off > spread {
				t.Errorf("drift %dms: %q is outside -%d..%d", spread, m[0], spread, spread)
			}
		}
		playStory(t, l2, point, 0)
	}
}

func msText(v int64) string {
	if v%1000 == 0 {
		return strconv.FormatInt(v/1000, 10) + "s"
	}
	return strconv.FormatInt(v, 10) + "ms"
}

func atoi(t *testing.T, s string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
