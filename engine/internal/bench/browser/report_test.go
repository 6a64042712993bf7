package main

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

// measuredRun is a run where every figure the goals read was measured:
// the official build's first result 500 ms (600 ms slowed), 10,000
// cycles/s, and its renderer 300 MB at the first result, 150 MB settled,
// 400 MB after the work and 400 MB at its peak.
func measuredRun() results {
	r := newResults()
	r.Sim.BrotliBytes = 2_900_000
	r.Sim.TextReadable = 250
	r.Sim.FirstCold = 900
	r.Sim.FirstWarm = 800
	r.Sim.EngineTraceCold = 950
	r.Official.FirstCold = 500
	r.Fresh.Sim.EngineTraceCold = 600
	r.Fresh.Official.FirstCold = 500
	r.Slow.Sim.EngineTraceCold = 700
	r.Slow.Official.FirstCold = 600
	r.Official.CyclesPerSec = 10_000
	r.Cycle.CyclesPerSec = 3_500
	r.EngineBrotli = 1_900_000
	r.ModulesRaw = 2_900_000
	r.ModulesBrotli = 700_000
	r.LongTask = 60
	r.Official.Loaded.RSS = 300e6
	r.Official.Settled.RSS = 150e6
	r.Official.Worked.RSS = 400e6
	r.Cycle.Settled.RSS = 170e6
	r.Cycle.Loaded.RSS = 290e6
	r.Cycle.Worked.RSS = 200e6
	r.Official.Peak = 400e6
	r.Cycle.Peak = 300e6
	r.Sim.Peak = 310e6
	r.Sim.EngineTraceWarm = 300
	r.Official.FirstWarm = 350
	r.Course.PrerenderedFirst = 120
	r.Course.WasmBytes = 0
	return r
}

func allGoals(r results) []goal {
	return append(append(append(append(append(append(r.engineGoals(), r.firstUseGoals()...), r.pageGoals()...), r.moments()...), r.courseGoals()...), r.labGoals()...), r.pythonGoals()...)
}

func goalNamed(t *testing.T, r results, prefix string) goal {
	t.Helper()
	for _, g := range allGoals(r) {
		if strings.HasPrefix(g.Name, prefix) {
			return g
		}
	}
	t.Fatalf("no goal named %q", prefix)
	return goal{}
}

func TestGoals_MetAtTheLimitMissedJustPastIt(t *testing.T) {
	for _, c := range []struct {
		goal string
		set  func(r *results, v float64)
		at   float64 // the figure at which the goal is exactly reached
		step float64 // past the limit is at+step; negative for a goal of at least
	}{
		{"the engine's own first trace, cold, median", func(r *results, v float64) { r.Fresh.Sim.EngineTraceCold = v }, 1000, 0.1}, // 2x 500 ms
		{"the engine's own first trace, cold, CPU", func(r *results, v float64) { r.Slow.Sim.EngineTraceCold = v }, 1200, 0.1},
		{"cycles/s after warm-up", func(r *results, v float64) { r.Cycle.CyclesPerSec = v }, 3000, -0.1}, // 0.3x 10,000/s
		{"the engine (", func(r *results, v float64) { r.EngineBrotli = v }, 2_000_000, 1},
		{"the engine's modules (leaselab.wasm and sqlite-wasm/sqlite3.wasm), raw", func(r *results, v float64) { r.ModulesRaw = v }, 3_000_000, 1},
		{"the engine's modules (leaselab.wasm and sqlite-wasm/sqlite3.wasm), brotli", func(r *results, v float64) { r.ModulesBrotli = v }, 800_000, 1},
		{"renderer RSS at the first result", func(r *results, v float64) { r.Cycle.Loaded.RSS = v }, 390e6, 1}, // 1.3x 300 MB
		{"renderer RSS, peak over the visit, the cycle", func(r *results, v float64) { r.Cycle.Peak = v }, 400e6, 1},
		{"renderer RSS, peak over the visit, the sim", func(r *results, v float64) { r.Sim.Peak = v }, 400e6, 1},
		{"longest main-thread task", func(r *results, v float64) { r.LongTask = v }, 100, 0.1},
		{"everything the simulator page loads", func(r *results, v float64) { r.Sim.BrotliBytes = v }, 3_000_000, 1},
		{"timeline text readable", func(r *results, v float64) { r.Sim.TextReadable = v }, 300, 0.1},
		{"first trace drawn, cold", func(r *results, v float64) { r.Sim.FirstCold = v }, 1000, 0.1}, // 2x 500 ms
		{"first trace drawn, warm", func(r *results, v float64) { r.Sim.FirstWarm = v }, 1000, 0.1},
		{"renderer RSS settled", func(r *results, v float64) { r.Cycle.Settled.RSS = v }, 195e6, 1},                                  // 1.3x 150 MB
		{"renderer RSS after", func(r *results, v float64) { r.Cycle.Worked.RSS = v }, 520e6, 1},                                     // 1.3x 400 MB
		{"first use: the engine's own first trace, cold", func(r *results, v float64) { r.Fresh.Sim.EngineTraceCold = v }, 625, 0.1}, // 1.25x 500 ms
		{"first use: the same, CPU slowed", func(r *results, v float64) { r.Slow.Sim.EngineTraceCold = v }, 750, 0.1},                // 1.25x 600 ms
		{"first use: renderer RSS at the first result", func(r *results, v float64) { r.Cycle.Loaded.RSS = v }, 300e6, 1},            // 1.0x 300 MB
		{"first use: renderer RSS, peak over the visit, the cycle", func(r *results, v float64) { r.Cycle.Peak = v }, 320e6, 1},      // 0.8x 400 MB
		{"first use: renderer RSS, peak over the visit, the sim", func(r *results, v float64) { r.Sim.Peak = v }, 320e6, 1},
		{"second visit: the engine's own first trace, warm", func(r *results, v float64) { r.Sim.EngineTraceWarm = v }, 350, 0.1}, // 1.0x 350 ms
		{"course page, 5 prerendered timelines: first trace", func(r *results, v float64) { r.Course.PrerenderedFirst = v }, 300, 0.1},
		{"course page, 5 prerendered timelines: WebAssembly", func(r *results, v float64) { r.Course.WasmBytes = v }, 0, 1},
	} {
		for _, p := range []struct {
			name string
			v    float64
			want string
		}{
			{"before", c.at - c.step, "met"},
			{"at", c.at, "met"},
			{"after", c.at + c.step, "MISSED"},
		} {
			r := measuredRun()
			c.set(&r, p.v)
			if got := goalNamed(t, r, c.goal).verdict(); got != p.want {
				t.Errorf("%s, %s the limit (%v): %s, want %s", c.goal, p.name, p.v, got, p.want)
			}
		}
	}
}

func TestGoals_AFigureNotMeasuredIsMissedNeverMet(t *testing.T) {
	for _, c := range []struct {
		goal string
		set  func(r *results)
	}{
		{"the engine's own first trace, cold, median", func(r *results) { r.Fresh.Sim.EngineTraceCold = unmeasured }},
		{"the engine's own first trace, cold, median", func(r *results) { r.Fresh.Official.FirstCold = unmeasured }}, // no reference
		{"the engine's own first trace, cold, CPU", func(r *results) { r.Slow.Sim.EngineTraceCold = unmeasured }},
		{"the engine's own first trace, cold, CPU", func(r *results) { r.Slow.Official.FirstCold = unmeasured }},
		{"cycles/s after warm-up", func(r *results) { r.Cycle.CyclesPerSec = unmeasured }},
		{"cycles/s after warm-up", func(r *results) { r.Official.CyclesPerSec = unmeasured }},
		{"the engine (", func(r *results) { r.EngineBrotli = unmeasured }},
		{"the engine's modules (leaselab.wasm and sqlite-wasm/sqlite3.wasm), raw", func(r *results) { r.ModulesRaw = unmeasured }},
		{"the engine's modules (leaselab.wasm and sqlite-wasm/sqlite3.wasm), brotli", func(r *results) { r.ModulesBrotli = unmeasured }},
		{"longest main-thread task", func(r *results) { r.LongTask = unmeasured }},
		{"everything the simulator page loads", func(r *results) { r.Sim.BrotliBytes = unmeasured }},
		{"timeline text readable", func(r *results) { r.Sim.TextReadable = unmeasured }},
		{"first trace drawn, cold", func(r *results) { r.Sim.FirstCold = unmeasured }},
		{"first trace drawn, warm", func(r *results) { r.Sim.FirstWarm = unmeasured }},
		{"renderer RSS, peak over the visit, the cycle", func(r *results) { r.Cycle.Peak = unmeasured }},
		{"renderer RSS, peak over the visit, the cycle", func(r *results) { r.Official.Peak = unmeasured }},
		{"renderer RSS, peak over the visit, the sim", func(r *results) { r.Sim.Peak = unmeasured }},
		{"renderer RSS at the first", func(r *results) { r.Cycle.Loaded.RSS = unmeasured }},
		{"renderer RSS at the first", func(r *results) { r.Official.Loaded.RSS = unmeasured }},
		{"first use: the engine's own first trace, cold", func(r *results) { r.Fresh.Official.FirstCold = unmeasured }},
		{"first use: the same, CPU slowed", func(r *results) { r.Slow.Sim.EngineTraceCold = unmeasured }},
		{"first use: renderer RSS at the first result", func(r *results) { r.Official.Loaded.RSS = unmeasured }},
		{"first use: renderer RSS, peak over the visit, the sim", func(r *results) { r.Official.Peak = unmeasured }},
		{"second visit: the engine's own first trace, warm", func(r *results) { r.Sim.EngineTraceWarm = unmeasured }},
		{"second visit: the engine's own first trace, warm", func(r *results) { r.Official.FirstWarm = unmeasured }},
		{"renderer RSS settled", func(r *results) { r.Cycle.Settled.RSS = unmeasured }},
		{"renderer RSS after", func(r *results) { r.Cycle.Worked.RSS = unmeasured }},
		{"renderer RSS after", func(r *results) { r.Official.Worked.RSS = math.Inf(1) }},
	} {
		r := measuredRun()
		if got := goalNamed(t, r, c.goal).verdict(); got != "met" {
			t.Fatalf("%s: %s before the figure was removed, want met", c.goal, got)
		}
		c.set(&r)
		if got := goalNamed(t, r, c.goal).verdict(); got != "MISSED (not measured)" {
			t.Errorf("%s without its figure: %s, want MISSED (not measured)", c.goal, got)
		}
	}
}

func TestWrite_PrintsEveryGoalWithItsVerdict(t *testing.T) {
	r := measuredRun()
	r.Sim.FirstWarm = 1500 // missed
	r.LongTask = 0         // no long task
	r.Explore = []exploreRow{
		{Goal: "claim-boundary", Native: search{Found: true, Steps: 2, States: 40, Elapsed: 4, Wall: 5},
			Browser: search{Found: true, Steps: 2, States: 40, Elapsed: 20, Wall: 12_000}},
		{Goal: "exhaustive", Native: search{States: 69_000, Elapsed: 4000, Wall: 4000},
			Browser: search{States: 69_000, Elapsed: 8000, Wall: 8100}},
	}
	var b bytes.Buffer
	if err := r.write(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, g := range allGoals(r) {
		var line string
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, g.Name) {
				line = l
			}
		}
		if line == "" {
			t.Errorf("goal %q is not printed:\n%s", g.Name, out)
			continue
		}
		if !strings.HasSuffix(strings.TrimSpace(line), g.verdict()) {
			t.Errorf("goal line %q does not end with its verdict %q", line, g.verdict())
		}
	}
	for _, want := range []string{"1500 ms", "MISSED", "2,900,000 bytes (2.90 MB, 2.77 MiB)", "0.97x", "< 50 ms",
		"3,500/s", ">= 3,000/s", "1.17x", // slowed: 700 ms / 600 ms
		"<= 2s met", "<= 10s MISSED", "17,250", "8,625", "explore -all (every mutant)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestRatioText_NothingWithoutBothFigures(t *testing.T) {
	for _, c := range []struct {
		ours, theirs float64
		want         string
	}{
		{3, 2, "1.50x"},
		{0, 2, "0.00x"},
		{3, 0, ""},
		{unmeasured, 2, ""},
		{3, unmeasured, ""},
	} {
		if got := ratioText(c.ours, c.theirs); got != c.want {
			t.Errorf("ratioText(%v, %v) = %q, want %q", c.ours, c.theirs, got, c.want)
		}
	}
}

func TestThousands_GroupsOfThree(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{0, "0"}, {999, "999"}, {1000, "1,000"}, {999999.4, "999,999"}, {1234567, "1,234,567"}, {-1234, "-1,234"},
	} {
		if got := thousands(c.v); got != c.want {
			t.Errorf("thousands(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}

func TestMedian_MiddleOrMeanOfTheMiddleTwo(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{
		{[]float64{7}, 7},
		{[]float64{2, 9}, 5.5},
		{[]float64{3, 1, 2}, 2},
		{[]float64{4, 1, 3, 2}, 2.5},
	} {
		if got := median(c.in); got != c.want {
			t.Errorf("median(%v) = %v, want %v", c.in, got, c.want)
		}
	}
	if got := median(nil); measured(got) {
		t.Errorf("median(nil) = %v, want not measured", got)
	}
}

// The lab's goals are met up to their limits and missed past them or
// unmeasured.
func TestLabGoals_MetUpToTheirLimits(t *testing.T) {
	for _, c := range []struct {
		sweep, task float64
		sweepMet    bool
		taskMet     bool
	}{
		{14999, 99, true, true},
		{15000, 100, true, true},
		{15001, 101, false, false},
		{unmeasured, unmeasured, false, false},
	} {
		r := newResults()
		r.LabSweep, r.LabLongTask = c.sweep, c.task
		if g := goalNamed(t, r, "a 20-policy x 50-run sweep"); g.met() != c.sweepMet {
			t.Errorf("sweep %v ms: met %v, want %v", c.sweep, g.met(), c.sweepMet)
		}
		if g := goalNamed(t, r, "longest main-thread task while the sweep"); g.met() != c.taskMet {
			t.Errorf("task %v ms: met %v, want %v", c.task, g.met(), c.taskMet)
		}
	}
}
