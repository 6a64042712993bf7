package main

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/leaselab/leaselab/engine/internal/bench/weight"
)

// unmeasured marks a figure the run did not get; a goal that depends on it
// is missed.
var unmeasured = math.NaN()

// measured reports whether v is a figure the run got.
func measured(v float64) bool {
	return !math.IsNaN(v) && !math.IsInf(v, 0)
}

// The goals of the engine in the browser, each against the official build
// doing the same work in the same run (see engine/DECISIONS.md, "The
// browser benchmark's goals").
const (
	// goalEngineTraceRatio: the engine's own first trace, cold, takes at
	// most this many times the official build's first result, cold; also
	// with the processor slowed slowFactor times.
	goalEngineTraceRatio = 2.0
	// goalCycleRateRatio: cycles per second after the warm-up, at least
	// this share of the official build's.
	goalCycleRateRatio = 0.30
	// goalEngineBrotli: the engine's files (engineFiles), brotli, in
	// decimal megabytes.
	goalEngineBrotli = 2_000_000
	// goalFirstResultRSSRatio and goalPeakRSSRatio: the renderer's resident
	// set at the first result, and its peak over the whole visit, at most
	// these many times the official build's.
	goalFirstResultRSSRatio = 1.3
	goalPeakRSSRatio        = 1.0
	// goalLongTaskMillis: the longest main-thread task while the simulator
	// runs and draws a timeline of longTimelineSteps steps.
	goalLongTaskMillis = 100
)

// The goals of the simulator page: what it loads and how soon a reader
// sees the timeline and its first trace. Its memory is held by the goals of
// the engine in the browser.
const (
	// goalPageBrotli is the most the simulator page may load, brotli: 3 MB,
	// in decimal megabytes (3,000,000 bytes).
	goalPageBrotli = 3_000_000
	// goalTextReadableMillis: the timeline text is readable this soon after
	// navigation, cold, while the WebAssembly compiles.
	goalTextReadableMillis = 300
	// goalColdRatio: the first trace drawn, cold, takes at most this many
	// times the official build's first result, cold.
	goalColdRatio = 2.0
	// goalWarmMillis: the first trace drawn, warm, within this.
	goalWarmMillis = 1000
)

// The goals of the engine at its first use, tighter than the goals above,
// each against the official build in the same run: the first trace cold
// (at full speed and slowed), the renderer's memory at the first result
// and at its peak, and the first trace on a second visit, with V8's code
// cache warm (see engine/DECISIONS.md, "The engine's weight and its
// floor").
const (
	goalFirstUseTraceRatio = 1.25
	goalFirstUseRSSRatio   = 1.0
	goalFirstUsePeakRatio  = 0.8
	goalSecondVisitRatio   = 1.0
)

// engineFiles are the engine as a page loads it: the module, the page's
// side of it (engine.js), its Web Worker (one bundle of the worker, Go's
// loader and the engine's loader of SQLite: engine/internal/build/bundle), and
// the SQLite it runs on (the engine's own build, wasm/sqlite).
var engineFiles = []string{"leaselab.wasm", "engine.js", "engine-worker.bundle.js", "sqlite-wasm/sqlite3.wasm"}

// side is what one page gave: the simulator (index.html), the cycle page on
// leaselab's engine, or the cycle page on the official build. A figure a
// page has no meaning for stays unmeasured.
type side struct {
	// Sum of the responses the page loaded, as the server sends each one
	// without compression, with gzip, with brotli; and what Chromium
	// received (the encoding it asked for), headers included.
	RawBytes, GzipBytes, BrotliBytes, ReceivedBytes float64
	Requests                                        int

	// Milliseconds from navigation, in a fresh profile (cold) and in a new
	// tab after the page ran long enough for V8 to write its code cache
	// (warm). First is the page's first result: the first trace drawn
	// (simulator) or the first cycle done (cycle pages). TextReadable,
	// Paint, EngineReady and EngineTrace are the simulator's: the timeline
	// text painted, first contentful paint, the WebAssembly engine in place,
	// the engine's own first trace.
	FirstCold, FirstWarm             float64
	TextReadable, Paint              float64
	EngineReadyCold, EngineReadyWarm float64
	EngineTraceCold, EngineTraceWarm float64

	CyclesPerSec float64 // median over rounds after the warm-up

	// The renderer process's memory from /proc (resident set and private):
	// once the page had its first result (Loaded: the cycle pages' first
	// cycle, the simulator's first engine run), after it then sat idle for
	// a while (Settled), and after the page's work (Worked: the cycle
	// pages' warm-up and rounds, the simulator's timelines before its warm
	// load); the JS heap in use and the WebAssembly linear memory after the
	// work, from the page.
	Loaded, Settled, Worked memory
	JSHeap, WasmMemory      float64
	// Peak is the renderer's largest resident set over the whole visit,
	// sampled every 20 ms (peak.go), and at least every figure above.
	Peak float64
}

func newSide() side {
	n := unmeasured
	return side{RawBytes: n, GzipBytes: n, BrotliBytes: n, ReceivedBytes: n,
		FirstCold: n, FirstWarm: n, TextReadable: n, Paint: n,
		EngineReadyCold: n, EngineReadyWarm: n, EngineTraceCold: n, EngineTraceWarm: n,
		CyclesPerSec: n, Peak: n, Loaded: memory{n, n}, Settled: memory{n, n}, Worked: memory{n, n}, JSHeap: n, WasmMemory: n}
}

// results is one run of the benchmark.
type results struct {
	Browser         string // Chromium's version
	Machine         string // the cores and the load around the run
	OfficialVersion string // the official build's version, as its page reports it
	LeaselabVersion string // leaselab's engine version, as its page reports it

	Sim, Cycle, Official side // index.html; leaselab's cycle page; the official build's cycle page

	// Fresh is the cold first results again, medians of freshRounds
	// fresh browsers (fresh.go): Sim.EngineTraceCold and
	// Official.FirstCold; Slow the same, the processor slowed slowFactor
	// times, medians of slowRounds. The goals of the engine in the browser
	// on its cold start are on these.
	Fresh, Slow struct{ Sim, Official side }

	// EngineBrotli is the bytes of engineFiles, precompressed with brotli.
	EngineBrotli float64
	// ModulesRaw and ModulesBrotli are the engine's weight (package
	// engine/internal/bench/weight): its two modules, raw and brotli.
	ModulesRaw, ModulesBrotli float64
	// LongTask is the longest main-thread task (ms) while the simulator ran
	// and drew a timeline of longTimelineSteps steps (0: none of 50 ms or
	// more, the least the browser reports); LongRun, the ms from opening it
	// to its trace drawn.
	LongTask, LongRun float64

	// Explore is the explorer's searches, natively and in the page.
	Explore []exploreRow

	// LabSweep is the ms a <lease-lab> took to draw the benchmark's sweep
	// (lab.go); LabLongTask the longest main-thread task meanwhile (0: none
	// of 50 ms or more).
	LabSweep, LabLongTask float64
	// LabRunNative and LabRunPage are the ms a run of labRunName took
	// natively and in the page, medians of labRunRounds (labrun.go).
	LabRunNative, LabRunPage float64

	// PythonCold and PythonWarm are the ms from a Python exercise's
	// Check to its first verdict, Python not yet loaded and loaded
	// (python.go).
	PythonCold, PythonWarm float64

	// Course is the course page, prerendered and not (course.go).
	Course course
}

// newResults is a run with nothing measured yet.
func newResults() results {
	r := results{Sim: newSide(), Cycle: newSide(), Official: newSide(),
		EngineBrotli: unmeasured, ModulesRaw: unmeasured, ModulesBrotli: unmeasured, LongTask: unmeasured, LongRun: unmeasured, Course: newCourse(),
		LabSweep: unmeasured, LabLongTask: unmeasured, LabRunNative: unmeasured, LabRunPage: unmeasured, PythonCold: unmeasured, PythonWarm: unmeasured}
	r.Fresh.Sim, r.Fresh.Official = newSide(), newSide()
	r.Slow.Sim, r.Slow.Official = newSide(), newSide()
	return r
}

// goal is one goal of the benchmark with what the run measured for it.
type goal struct {
	Name     string
	Measured float64 // NaN: not measured
	Limit    float64 // NaN: its reference was not measured
	Unit     string  // how to print Measured and Limit: "bytes", "ms", "ms2" (ms to 2 decimals), "MB", "/s" or "task" (ms; 0 is < 50 ms)
	Basis    string  // how Limit came about, when it is relative
	AtLeast  bool    // Limit is the least Measured may be, not the most
}

// met reports whether the goal was reached: both figures measured and the
// measured one at most the limit.
func (g goal) met() bool {
	if g.AtLeast {
		return measured(g.Measured) && measured(g.Limit) && g.Measured >= g.Limit
	}
	return measured(g.Measured) && measured(g.Limit) && g.Measured <= g.Limit
}

func (g goal) verdict() string {
	switch {
	case g.met():
		return "met"
	case !measured(g.Measured) || !measured(g.Limit):
		return "MISSED (not measured)"
	}
	return "MISSED"
}

// engineGoals evaluates the goals of the engine in the browser on r.
func (r results) engineGoals() []goal {
	official := func(name string, v float64) string {
		return fmt.Sprintf("the official build's %s (%s)", name, millis(v))
	}
	return []goal{
		{Name: fmt.Sprintf("the engine's own first trace, cold, median of %d fresh browsers", freshRounds), Unit: "ms",
			Measured: r.Fresh.Sim.EngineTraceCold, Limit: goalEngineTraceRatio * r.Fresh.Official.FirstCold,
			Basis: fmt.Sprintf("%gx %s", goalEngineTraceRatio, official("first result, cold, alike", r.Fresh.Official.FirstCold))},
		{Name: fmt.Sprintf("the engine's own first trace, cold, CPU slowed %dx, median of %d fresh browsers", slowFactor, slowRounds), Unit: "ms",
			Measured: r.Slow.Sim.EngineTraceCold, Limit: goalEngineTraceRatio * r.Slow.Official.FirstCold,
			Basis: fmt.Sprintf("%gx %s", goalEngineTraceRatio, official("first result, slowed alike", r.Slow.Official.FirstCold))},
		{Name: "cycles/s after warm-up", Unit: "/s", AtLeast: true,
			Measured: r.Cycle.CyclesPerSec, Limit: goalCycleRateRatio * r.Official.CyclesPerSec,
			Basis: fmt.Sprintf("%gx the official build's (%s/s)", goalCycleRateRatio, count(r.Official.CyclesPerSec))},
		{Name: "the engine (" + strings.Join(engineFiles, ", ") + "), brotli", Unit: "bytes",
			Measured: r.EngineBrotli, Limit: goalEngineBrotli, Basis: "2 MB = 2,000,000 bytes"},
		{Name: weight.Modules + ", raw", Unit: "bytes",
			Measured: r.ModulesRaw, Limit: weight.GoalRaw, Basis: "3.0 MB = 3,000,000 bytes"},
		{Name: weight.Modules + ", brotli", Unit: "bytes",
			Measured: r.ModulesBrotli, Limit: weight.GoalBrotli, Basis: "0.8 MB = 800,000 bytes"},
		{Name: "renderer RSS at the first result, the cycle pages", Unit: "MB",
			Measured: r.Cycle.Loaded.RSS, Limit: goalFirstResultRSSRatio * r.Official.Loaded.RSS,
			Basis: fmt.Sprintf("%gx the official build's (%s)", goalFirstResultRSSRatio, megabytes(r.Official.Loaded.RSS))},
		{Name: "renderer RSS, peak over the visit, the cycle pages", Unit: "MB",
			Measured: r.Cycle.Peak, Limit: goalPeakRSSRatio * r.Official.Peak,
			Basis: fmt.Sprintf("%gx the official build's (%s)", goalPeakRSSRatio, megabytes(r.Official.Peak))},
		{Name: "renderer RSS, peak over the visit, the simulator", Unit: "MB",
			Measured: r.Sim.Peak, Limit: goalPeakRSSRatio * r.Official.Peak,
			Basis: fmt.Sprintf("%gx the official build's cycle page (%s)", goalPeakRSSRatio, megabytes(r.Official.Peak))},
		{Name: fmt.Sprintf("longest main-thread task while a %d-step timeline runs", longTimelineSteps), Unit: "task",
			Measured: r.LongTask, Limit: goalLongTaskMillis},
	}
}

// firstUseGoals evaluates the goals of the engine at its first use on r.
func (r results) firstUseGoals() []goal {
	ratio := func(k float64, what string, v float64, format func(float64) string) string {
		return fmt.Sprintf("%gx the official build's %s (%s)", k, what, format(v))
	}
	return []goal{
		{Name: fmt.Sprintf("first use: the engine's own first trace, cold, median of %d fresh browsers", freshRounds), Unit: "ms",
			Measured: r.Fresh.Sim.EngineTraceCold, Limit: goalFirstUseTraceRatio * r.Fresh.Official.FirstCold,
			Basis: ratio(goalFirstUseTraceRatio, "first result, cold, alike", r.Fresh.Official.FirstCold, millis)},
		{Name: fmt.Sprintf("first use: the same, CPU slowed %dx, median of %d fresh browsers", slowFactor, slowRounds), Unit: "ms",
			Measured: r.Slow.Sim.EngineTraceCold, Limit: goalFirstUseTraceRatio * r.Slow.Official.FirstCold,
			Basis: ratio(goalFirstUseTraceRatio, "first result, slowed alike", r.Slow.Official.FirstCold, millis)},
		{Name: "first use: renderer RSS at the first result, the cycle pages", Unit: "MB",
			Measured: r.Cycle.Loaded.RSS, Limit: goalFirstUseRSSRatio * r.Official.Loaded.RSS,
			Basis: ratio(goalFirstUseRSSRatio, "renderer at its first result", r.Official.Loaded.RSS, megabytes)},
		{Name: "first use: renderer RSS, peak over the visit, the cycle pages", Unit: "MB",
			Measured: r.Cycle.Peak, Limit: goalFirstUsePeakRatio * r.Official.Peak,
			Basis: ratio(goalFirstUsePeakRatio, "peak", r.Official.Peak, megabytes)},
		{Name: "first use: renderer RSS, peak over the visit, the simulator", Unit: "MB",
			Measured: r.Sim.Peak, Limit: goalFirstUsePeakRatio * r.Official.Peak,
			Basis: ratio(goalFirstUsePeakRatio, "cycle page's peak", r.Official.Peak, megabytes)},
		{Name: "second visit: the engine's own first trace, warm", Unit: "ms",
			Measured: r.Sim.EngineTraceWarm, Limit: goalSecondVisitRatio * r.Official.FirstWarm,
			Basis: ratio(goalSecondVisitRatio, "first result, warm", r.Official.FirstWarm, millis)},
	}
}

// pageGoals evaluates the simulator page's goals on r.
func (r results) pageGoals() []goal {
	return []goal{
		{Name: "everything the simulator page loads, brotli", Unit: "bytes",
			Measured: r.Sim.BrotliBytes, Limit: goalPageBrotli, Basis: "3 MB = 3,000,000 bytes"},
		{Name: "timeline text readable, cold", Unit: "ms",
			Measured: r.Sim.TextReadable, Limit: goalTextReadableMillis},
		{Name: "first trace drawn, cold", Unit: "ms",
			Measured: r.Sim.FirstCold, Limit: goalColdRatio * r.Official.FirstCold,
			Basis: fmt.Sprintf("%gx the official build's first result, cold (%s)", goalColdRatio, millis(r.Official.FirstCold))},
		{Name: "first trace drawn, warm", Unit: "ms",
			Measured: r.Sim.FirstWarm, Limit: goalWarmMillis},
	}
}

// moments compares the cycle pages' renderer memory at the other single
// moments with the first result's ratio. They are printed beside the
// goals, not as them: the memory goal's measure is the peak, the memory a
// machine must have for the page; a sample at one moment catches V8's
// optimising compiler mid-flight on one side and not on the other.
func (r results) moments() []goal {
	at := func(name string, f func(side) float64) goal {
		return goal{Name: "renderer RSS " + name + ", the cycle pages", Unit: "MB",
			Measured: f(r.Cycle), Limit: goalFirstResultRSSRatio * f(r.Official),
			Basis: fmt.Sprintf("%gx the official build's (%s)", goalFirstResultRSSRatio, megabytes(f(r.Official)))}
	}
	return []goal{
		at("settled after the load", func(s side) float64 { return s.Settled.RSS }),
		at("after the same work", func(s side) float64 { return s.Worked.RSS }),
	}
}

// write prints the table of figures and the goals.
func (r results) write(w io.Writer) error {
	fmt.Fprintf(w, "browser benchmark, one headless run of %s; %s\n", r.Browser, r.Machine)
	fmt.Fprintf(w, "  simulator   = the simulator page (index.html), %s\n", r.LeaselabVersion)
	fmt.Fprintf(w, "  leaselab    = the bare job cycle (enqueue, claim, complete) on the same WebAssembly (bench/leaselab.html)\n")
	fmt.Fprintf(w, "  official    = the same cycle on %s (bench/sqlite.html)\n\n", r.OfficialVersion)
	if err := r.writeFigures(w); err != nil {
		return err
	}
	return r.writeGoals(w)
}

// writeFigures prints the table of figures, the three pages side by side.
func (r results) writeFigures(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	row := func(name string, f func(side) float64, format func(float64) string, ratio bool) {
		cells := []string{name}
		for _, s := range []side{r.Sim, r.Cycle, r.Official} {
			cells = append(cells, format(f(s)))
		}
		if ratio {
			cells = append(cells, ratioText(f(r.Sim), f(r.Official)), ratioText(f(r.Cycle), f(r.Official)))
		} else {
			cells = append(cells, "", "")
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t")
	}
	fmt.Fprintln(tw, "\tsimulator\tleaselab\tofficial\tsimulator/official\tleaselab/official\t")
	row("bytes loaded, raw", func(s side) float64 { return s.RawBytes }, megabytes, true)
	row("bytes loaded, gzip", func(s side) float64 { return s.GzipBytes }, megabytes, true)
	row("bytes loaded, brotli", func(s side) float64 { return s.BrotliBytes }, megabytes, true)
	row("bytes Chromium received", func(s side) float64 { return s.ReceivedBytes }, megabytes, true)
	row("requests", func(s side) float64 { return float64(s.Requests) }, count, false)
	row("first trace drawn / first cycle, cold", func(s side) float64 { return s.FirstCold }, millis, true)
	row("first trace drawn / first cycle, warm", func(s side) float64 { return s.FirstWarm }, millis, true)
	row("timeline text readable, cold", func(s side) float64 { return s.TextReadable }, millis, false)
	row("first contentful paint, cold", func(s side) float64 { return s.Paint }, millis, false)
	row("engine ready, cold", func(s side) float64 { return s.EngineReadyCold }, millis, false)
	row("engine ready, warm", func(s side) float64 { return s.EngineReadyWarm }, millis, false)
	row("engine's own first trace, cold", func(s side) float64 { return s.EngineTraceCold }, millis, false)
	row("engine's own first trace, warm", func(s side) float64 { return s.EngineTraceWarm }, millis, false)
	fmt.Fprintf(tw, "engine's own first trace / first cycle, cold, median of %d fresh browsers\t%s\t\t%s\t%s\t\t\n", freshRounds,
		millis(r.Fresh.Sim.EngineTraceCold), millis(r.Fresh.Official.FirstCold), ratioText(r.Fresh.Sim.EngineTraceCold, r.Fresh.Official.FirstCold))
	fmt.Fprintf(tw, "the same, CPU slowed %dx, median of %d\t%s\t\t%s\t%s\t\t\n", slowFactor, slowRounds,
		millis(r.Slow.Sim.EngineTraceCold), millis(r.Slow.Official.FirstCold), ratioText(r.Slow.Sim.EngineTraceCold, r.Slow.Official.FirstCold))
	fmt.Fprintf(tw, "a %d-step timeline opened, trace drawn\t%s\t\t\t\t\t\n", longTimelineSteps, millis(r.LongRun))
	fmt.Fprintf(tw, "  its longest main-thread task\t%s\t\t\t\t\t\n", longTaskText(r.LongTask))
	fmt.Fprintf(tw, "the engine's files, brotli\t\t%s\t\t\t\t\n", megabytes(r.EngineBrotli))
	fmt.Fprintf(tw, "the engine's modules (Go and SQLite), raw / brotli\t\t%s / %s\t\t\t\t\n", megabytes(r.ModulesRaw), megabytes(r.ModulesBrotli))
	row("cycles/s after warm-up", func(s side) float64 { return s.CyclesPerSec }, count, true)
	row("renderer RSS, peak over the visit", func(s side) float64 { return s.Peak }, megabytes, true)
	row("renderer RSS, at the first result", func(s side) float64 { return s.Loaded.RSS }, megabytes, true)
	row("renderer RSS, settled", func(s side) float64 { return s.Settled.RSS }, megabytes, true)
	row("renderer RSS, after the work", func(s side) float64 { return s.Worked.RSS }, megabytes, true)
	row("renderer private, at the first result", func(s side) float64 { return s.Loaded.Private }, megabytes, true)
	row("renderer private, settled", func(s side) float64 { return s.Settled.Private }, megabytes, true)
	row("renderer private, after the work", func(s side) float64 { return s.Worked.Private }, megabytes, true)
	row("JS heap used", func(s side) float64 { return s.JSHeap }, megabytes, true)
	row("WebAssembly memory", func(s side) float64 { return s.WasmMemory }, megabytes, true)
	return tw.Flush()
}

// writeGoals prints each list of goals with its verdicts, then the
// explorer's searches.
func (r results) writeGoals(w io.Writer) error {
	list := func(title string, gs []goal) error {
		fmt.Fprintln(w, "\n"+title)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, g := range gs {
			limit := g.format(g.Limit)
			if g.Basis != "" {
				limit += " (" + g.Basis + ")"
			}
			bound := "<="
			if g.AtLeast {
				bound = ">="
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s %s\t%s\n", g.Name, g.format(g.Measured), bound, limit, g.verdict())
		}
		return tw.Flush()
	}
	if err := list("the engine in the browser's goals", r.engineGoals()); err != nil {
		return err
	}
	if err := list("the engine at its first use: the weight's goals, against the official build", r.firstUseGoals()); err != nil {
		return err
	}
	if err := list("the simulator page's goals", r.pageGoals()); err != nil {
		return err
	}
	if err := list("the course page's goals", r.courseGoals()); err != nil {
		return err
	}
	if err := list("the lease lab's goals", r.labGoals()); err != nil {
		return err
	}
	if err := list("the Python exercise's goals", r.pythonGoals()); err != nil {
		return err
	}
	fmt.Fprintf(w, "  (not a goal) the course page without prerendering: the engine's first trace, cold: %s (prerendered: %s)\n",
		millis(r.Course.EngineFirst), millis(r.Course.PrerenderedFirst))
	if err := list("renderer RSS at the other moments, at the first result's ratio (beside the goals, not goals)", r.moments()); err != nil {
		return err
	}
	return r.writeExplorer(w)
}

func (g goal) format(v float64) string {
	switch g.Unit {
	case "ms":
		return millis(v)
	case "ms2":
		if !measured(v) {
			return "—"
		}
		return fmt.Sprintf("%.2f ms", v)
	case "MB":
		return megabytes(v)
	case "/s":
		return count(v) + "/s"
	case "task":
		return longTaskText(v)
	}
	if !measured(v) {
		return "—"
	}
	return fmt.Sprintf("%s bytes (%s, %.2f MiB)", thousands(v), megabytes(v), v/(1<<20))
}

// longTaskText is the longest task, where 0 means none the browser reports.
func longTaskText(v float64) string {
	if v == 0 {
		return "< 50 ms"
	}
	return millis(v)
}

func millis(v float64) string {
	if !measured(v) {
		return "—"
	}
	return fmt.Sprintf("%.0f ms", v)
}

// megabytes prints v bytes in decimal megabytes.
func megabytes(v float64) string {
	if !measured(v) {
		return "—"
	}
	return fmt.Sprintf("%.2f MB", v/1e6)
}

func count(v float64) string {
	if !measured(v) || v == 0 {
		return "—"
	}
	return thousands(v)
}

// thousands prints v rounded to an integer with comma separators.
func thousands(v float64) string {
	return weight.Thousands(int64(math.Round(v)))
}

// ratioText is ours/theirs as "2.50x", or "" when either is not measured
// or theirs is zero.
func ratioText(ours, theirs float64) string {
	if !measured(ours) || !measured(theirs) || theirs == 0 {
		return ""
	}
	return fmt.Sprintf("%.2fx", ours/theirs)
}
