// Command browserbench measures leaselab in the browser side by side with
// the official SQLite WebAssembly build (npm @sqlite.org/sqlite-wasm, pinned
// in web/.sqlite-wasm: the same SQLite, 3.54.1, as the engine's own build,
// wasm/sqlite), in one headless-Chromium run with a fresh profile, and prints
// a table and the goals, each met or MISSED:
//
//	go run -tags mutants ./engine/internal/bench/browser [-web web] [-sqlite DIR]
//
// make bench-browser (part of make bench) builds the page (make wasm),
// installs and precompresses the official build (web/bench/sqlite-wasm) and
// runs it. Both sides are served from 127.0.0.1 by the same handler
// (engine/internal/webserve: precompressed brotli and gzip, ETag, no-cache), the
// official build's files under /bench/sqlite-wasm/.
//
// The pages (web/bench/): the simulator itself (index.html); leaselab.html,
// the bare enqueue -> claim -> complete cycle on the simulator's own
// WebAssembly (leaselab.benchCycles, wasm/sim); sqlite.html, the same cycle
// (same schema, same statements, same decisions) on the official build's
// oo1 API. Each visit is a new tab, navigated once the browser's own work
// for a new tab is done (quiet.go); in order:
//
//  1. a page neither side uses, so that neither pays for the browser's own
//     first load;
//  2. both cycle pages, cold: the first cycle's time, the memory, the bytes
//     loaded, the memory again after -settle idle, a warm-up (-warmup,
//     which also lets V8 optimise and write its code cache), -rounds rounds
//     of -round each (the median rate is reported), the memory again;
//  3. the simulator, cold: the timeline text painted, the first trace
//     painted, the engine ready, the engine's own first trace, the memory,
//     the bytes loaded, the memory after -settle idle; then it runs the
//     library's timelines on the engine for -cache-warmup, because Chrome
//     writes V8's code cache of a module only once it has run long enough
//     to be optimised, and the memory again;
//  4. each page again in a new tab, warm (HTTP cache and code cache);
//  5. the simulator opening, by link, a timeline of the most steps a
//     timeline may have, its main thread watched for long tasks until the
//     engine's trace of it is drawn (longrun.go);
//  6. the explorer: every mutant told apart within the default scope and
//     an exhaustive search, natively in this process and in the page's
//     explorer worker, side by side (explore.go; built with the mutants
//     tag, as make bench does);
//  7. the cold first results again, each round in a browser of its own
//     with a fresh profile, the side loaded first alternating (fresh.go):
//     the official build's first cycle and the simulator's engine's first
//     trace, 5 rounds at full speed, then 3 with every renderer slowed 4x
//     (slow.go) on a timeline of the simulator's own; the goals of the
//     engine in the browser on the cold start take their medians, one cold
//     load swinging by a third; beside them, the CPU time each side's load
//     cost the whole browser (every process, from /proc), which on 2 cores
//     bounds the first result, and where the simulator's went: the medians
//     of its first paint, of each step of the engine's start as engine.js
//     marks it (its worker running, its module compiled, SQLite bridged, the
//     Go program up) and of its first trace shown;
//  8. a course page: a bundle (make dist) and a lesson with five of the
//     library's timelines as Markdown fences, prerendered (leaselab
//     prerender), cold: the first trace painted and the bytes of
//     WebAssembly fetched before any interaction; then the same page on a
//     bundle of its own that nothing was prerendered into, cold: the
//     engine's own first trace.
//
// Times are the page's own clock, milliseconds from navigation. Memory is
// the renderer process's, read from /proc while the tab is open: resident
// and private at the moments above, and the peak resident set over the
// whole visit, sampled every 20 ms (peak.go), which is what the memory
// goal compares; the renderer is known as the one that exits when the tab
// closes. The JS heap (CDP Runtime.getHeapUsage) and the WebAssembly
// memories (every memory the page instantiated, and that of leaselab's
// engine in its Web Worker) are reported beside it. The bytes are what the
// server sends for every URL the page or the engine's worker received,
// asked for once per encoding. A missed goal is printed, not an error: the
// figures are measurements of a shared machine. It exits 1 only when
// something could not be measured, or, with -lab-gate (make bench does),
// when the lease lab's ms a run in the page misses its goal against the
// native's, both measured in the same run (labrun.go).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/leaselab/leaselab/engine/internal/bench/weight"
	"github.com/leaselab/leaselab/engine/internal/browsertest/headless"
	"github.com/leaselab/leaselab/engine/internal/webserve"
)

// options are the command's flags.
type options struct {
	web, sqlite, chromium string
	jsFlags               string
	warmup, round         time.Duration
	rounds                int
	cacheWarmup, settle   time.Duration
	only                  string
	labGate               bool
}

func main() {
	var o options
	flag.StringVar(&o.web, "web", "web", "the page's directory, built by make wasm")
	flag.StringVar(&o.sqlite, "sqlite", "web/bench/sqlite-wasm",
		"the official build's files (its module and JavaScript API, which make wasm copies there), precompressed")
	flag.StringVar(&o.chromium, "chromium", "", "Chromium's executable (default: chromium on PATH)")
	flag.StringVar(&o.jsFlags, "js-flags", "", "V8 flags for an experiment (e.g. --liftoff-only); by default V8 runs as it does for everyone")
	flag.DurationVar(&o.warmup, "warmup", 10*time.Second, "cycles run before the rate is measured")
	flag.IntVar(&o.rounds, "rounds", 5, "rounds of the rate; the median is reported")
	flag.DurationVar(&o.round, "round", time.Second, "the least duration of one round")
	flag.DurationVar(&o.cacheWarmup, "cache-warmup", 12*time.Second, "how long the simulator runs timelines before its warm load")
	flag.DurationVar(&o.settle, "settle", 8*time.Second, "how long a page sits idle after its first result before its memory is read again")
	flag.StringVar(&o.only, "only", "", "measure only the steps whose name holds this (e.g. course), after the first; the other figures are left unmeasured")
	flag.BoolVar(&o.labGate, "lab-gate", false, "exit 1 when the lease lab's ms a run in the page misses its goal against the native's (make bench does)")
	flag.Parse()
	os.Exit(run(o, os.Stdout, os.Stderr))
}

func run(o options, stdout, stderr io.Writer) int {
	fail := func(format string, args ...any) int {
		fmt.Fprintf(stderr, "browserbench: "+format+"\n", args...)
		return 1
	}
	if err := o.ready(); err != nil {
		return fail("%v", err)
	}
	prerendered, plain, removeCourses, err := courseSites(o.web, stderr)
	if err != nil {
		return fail("the course sites: %v", err)
	}
	defer removeCourses()
	base, closeServer, err := serveBench(o, prerendered, plain)
	if err != nil {
		return fail("%v", err)
	}
	defer closeServer()
	profile, err := os.MkdirTemp("", "leaselab-browserbench-")
	if err != nil {
		return fail("%v", err)
	}
	defer os.RemoveAll(profile)
	ctx, stop, pid, err := startBrowser(o.chromium, profile, o.jsFlags)
	if err != nil {
		return fail("%v", err)
	}
	defer stop()

	s := &session{base: base, browser: ctx, pid: pid, peaks: samplePeaks(pid)}
	r := newResults()
	r.Browser = s.version()
	notes, failed, steps := s.measure(&r, o, stderr)
	if err := r.write(stdout); err != nil {
		return fail("%v", err)
	}
	if len(notes) > 0 {
		fmt.Fprintln(stdout, "\nnotes")
		for _, n := range notes {
			fmt.Fprintln(stdout, "  "+n)
		}
	}
	if failed > 0 {
		return fail("%d of %d steps could not be measured (see above)", failed, steps)
	}
	if g := r.labRunGoal(); o.labGate && !g.met() {
		return fail("%s: %s, the goal %s: MISSED", g.Name, g.format(g.Measured), g.Basis)
	}
	return 0
}

// ready checks that the page, the official build and a Chromium are there,
// and finds the Chromium when none was named.
func (o *options) ready() error {
	for _, f := range []string{"index.html", "leaselab.wasm", "wasm_exec.js", "traces/index.json", "bench/sqlite.html", "bench/leaselab.html"} {
		if _, err := os.Stat(filepath.Join(o.web, f)); err != nil {
			return fmt.Errorf("%s is missing: build the page first with make wasm (make bench-browser does)", filepath.Join(o.web, f))
		}
	}
	for _, f := range []string{"sqlite3.js", "sqlite3.wasm"} {
		if _, err := os.Stat(filepath.Join(o.sqlite, f)); err != nil {
			return fmt.Errorf("the official build is missing (%v): make wasm (which make bench-browser runs) puts it there", err)
		}
	}
	if o.chromium == "" {
		p, err := headless.Find()
		if err != nil {
			return fmt.Errorf("%v, or run make bench-browser, which does", err)
		}
		o.chromium = p
	}
	return nil
}

// serveBench serves the page and the official build on a loopback port.
func serveBench(o options, prerendered, plain string) (base string, closeServer func(), err error) {
	mux := http.NewServeMux()
	mux.Handle("/", webserve.Handler(os.DirFS(o.web)))
	mux.Handle(coursePrerendered, http.StripPrefix(strings.TrimSuffix(coursePrerendered, "/"), webserve.Handler(os.DirFS(prerendered))))
	mux.Handle(coursePlain, http.StripPrefix(strings.TrimSuffix(coursePlain, "/"), webserve.Handler(os.DirFS(plain))))
	mux.Handle("/bench/sqlite-wasm/", http.StripPrefix("/bench/sqlite-wasm", webserve.Handler(os.DirFS(o.sqlite))))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	return "http://" + ln.Addr().String(), func() { srv.Close() }, nil
}

// step is one measurement of the run.
type step struct {
	name string
	run  func() error
}

// steps are every measurement of the run, in order, into r; notes gathers
// what they have to say beside the figures.
func (s *session) steps(r *results, o options, notes *[]string) []step {
	noted := func(f func() ([]string, error)) func() error {
		return func() error {
			n, err := f()
			*notes = append(*notes, n...)
			return err
		}
	}
	cycle := func(path string, sd *side, version *string) func() error {
		return noted(func() ([]string, error) {
			v, n, err := s.cyclePage(path, sd, o)
			*version = v
			return n, err
		})
	}
	return []step{
		{"a page neither side uses", func() error { return s.primer("/bench/") }},
		{"the official build's cycle, cold", cycle("/bench/sqlite.html", &r.Official, &r.OfficialVersion)},
		{"leaselab's cycle, cold", cycle("/bench/leaselab.html", &r.Cycle, &r.LeaselabVersion)},
		{"the simulator, cold, then its timelines for " + o.cacheWarmup.String(),
			noted(func() ([]string, error) { return s.simulatorCold(&r.Sim, o) })},
		{"the simulator, warm", noted(func() ([]string, error) { return s.simulatorWarm(&r.Sim) })},
		{"the official build's cycle, warm", func() error { return s.cycleWarm("/bench/sqlite.html", &r.Official) }},
		{"leaselab's cycle, warm", func() error { return s.cycleWarm("/bench/leaselab.html", &r.Cycle) }},
		{fmt.Sprintf("the simulator, a %d-step timeline", longTimelineSteps),
			noted(func() ([]string, error) { return s.longTimeline(r) })},
		{"the explorer, natively and in the page", noted(func() ([]string, error) { return s.explorer(r) })},
		{"the lease lab's sweep in the page", noted(func() ([]string, error) { return s.labSweep(r) })},
		{"the lease lab run by run, natively and in the page", noted(func() ([]string, error) { return s.labPerRun(r) })},
		{"the Python exercise, cold then warm", noted(func() ([]string, error) { return s.pythonExercise(r, o.web) })},
		{fmt.Sprintf("the cold first results again, in %d fresh browsers", freshRounds),
			noted(func() ([]string, error) { return freshRuns(o, s.base, "/", 1, freshRounds, &r.Fresh) })},
		{fmt.Sprintf("the cold first results again, CPU slowed %dx, in %d fresh browsers", slowFactor, slowRounds),
			noted(func() ([]string, error) { return freshRuns(o, s.base, slowStory(), slowFactor, slowRounds, &r.Slow) })},
		{"the engine's files, brotli", func() (err error) {
			r.EngineBrotli, err = precompressedSize(o.web, engineFiles)
			return err
		}},
		{"the engine's modules, raw and brotli", func() error {
			w, err := weight.Of(o.web)
			if err != nil {
				return err
			}
			r.ModulesRaw, r.ModulesBrotli = float64(w.Raw), float64(w.Brotli)
			return nil
		}},
		{"a course page, five prerendered timelines, cold",
			noted(func() ([]string, error) { return s.coursePage(coursePrerendered+coursePage, &r.Course, true) })},
		{"the same course page without prerendering, cold",
			noted(func() ([]string, error) { return s.coursePage(coursePlain+coursePage, &r.Course, false) })},
	}
}

// measure runs every measurement in order (all, or with -only the first
// and those whose name holds it), into r, and returns the notes, how many
// steps failed and how many there were.
func (s *session) measure(r *results, o options, stderr io.Writer) (notes []string, failed, total int) {
	steps := s.steps(r, o, &notes)
	if o.only != "" {
		first := steps[0]
		steps = slices.DeleteFunc(steps[1:], func(st step) bool { return !strings.Contains(st.name, o.only) })
		steps = slices.Insert(steps, 0, first)
	}
	loadBefore := loadAverage()
	for _, st := range steps {
		fmt.Fprintf(stderr, "browserbench: %s\n", st.name)
		if err := st.run(); err != nil {
			fmt.Fprintf(stderr, "browserbench: %s: %v\n", st.name, err)
			failed++
		}
	}
	if err := s.peaks.close(); err != nil {
		fmt.Fprintf(stderr, "browserbench: sampling the renderers' memory: %v\n", err)
		failed++
	}
	r.Machine = fmt.Sprintf("%d cores, load average %s before, %s after", goruntime.NumCPU(), loadBefore, loadAverage())
	if o.jsFlags != "" {
		r.Machine += "; V8 flags " + o.jsFlags
	}
	return notes, failed, len(steps)
}

// loadAverage returns the machine's load average over the last minute, or
// "?" where /proc/loadavg cannot be read.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "?"
}

// primer loads a page neither side uses and closes it.
func (s *session) primer(path string) error {
	t, err := s.open(path, time.Minute)
	if err != nil {
		return err
	}
	defer t.close()
	return t.wait(`document.readyState === 'complete'`, 30*time.Second)
}

// benchReady holds once a cycle page has run its first cycle or failed.
const benchReady = `['ready', 'error'].includes(document.documentElement.dataset.bench)`

// cycleFirst waits for a cycle page's first cycle and returns its time.
func cycleFirst(t *tab) (float64, error) {
	if err := t.wait(benchReady, 2*time.Minute); err != nil {
		return unmeasured, err
	}
	if msg, err := eval[string](t, `document.documentElement.dataset.error || ''`); err != nil || msg != "" {
		return unmeasured, errors.Join(err, errors.New(msg))
	}
	return eval[float64](t, `Number(document.documentElement.dataset.firstResult)`)
}

// rate is what bench.rate(ms) resolves.
type rate struct {
	Cycles float64 `json:"cycles"`
	Millis float64 `json:"ms"`
}

// cyclePage measures a cycle page, cold, into sd and returns the engine
// version the page reports.
func (s *session) cyclePage(path string, sd *side, o options) (string, []string, error) {
	t, err := s.open(path, 5*time.Minute)
	if err != nil {
		return "", nil, err
	}
	defer t.close()
	if sd.FirstCold, err = cycleFirst(t); err != nil {
		return "", nil, err
	}
	loaded, err := renderers(s.pid)
	if err != nil {
		return "", nil, err
	}
	version, err := eval[string](t, `window.bench.version`)
	if err != nil {
		return "", nil, err
	}
	notes, err := s.bytes(t, sd, path)
	if err != nil {
		return version, notes, err
	}
	time.Sleep(o.settle)
	settled, err := renderers(s.pid)
	if err != nil {
		return version, notes, err
	}
	if _, err := eval[rate](t, fmt.Sprintf(`window.bench.rate(%d)`, o.warmup.Milliseconds())); err != nil {
		return version, notes, err
	}
	var rates []float64
	for range o.rounds {
		r, err := eval[rate](t, fmt.Sprintf(`window.bench.rate(%d)`, o.round.Milliseconds()))
		if err != nil {
			return version, notes, err
		}
		rates = append(rates, r.Cycles/(r.Millis/1000))
	}
	sd.CyclesPerSec = median(rates)
	return version, notes, s.memory(t, sd, loaded, settled)
}

// memory samples the memory of the tab's page and its renderer into sd
// and closes the tab; loaded and settled are samples of the renderers
// taken at the page's first result and after it sat idle.
func (s *session) memory(t *tab, sd *side, loaded, settled map[int]memory) error {
	jsHeap, wasm, err := t.heap()
	if err != nil {
		return err
	}
	sd.JSHeap, sd.WasmMemory = jsHeap, wasm
	worked, err := renderers(s.pid)
	if err != nil {
		return err
	}
	pid, err := s.closeMeasured(t, worked)
	if err != nil {
		return err
	}
	sd.Worked = worked[pid]
	if m, ok := loaded[pid]; ok {
		sd.Loaded = m
	}
	if m, ok := settled[pid]; ok {
		sd.Settled = m
	}
	peak, ok := s.peaks.peak(pid)
	if !ok {
		return fmt.Errorf("the renderer %d was never sampled for its peak", pid)
	}
	for _, m := range []memory{sd.Loaded, sd.Settled, sd.Worked} {
		if measured(m.RSS) {
			peak = max(peak, m.RSS) // samples of their own
		}
	}
	sd.Peak = peak
	return nil
}

// timelineLoads lists the page's Resource Timing entries as [URL,
// transferSize]: its own loads, and those of leaselab's engine's Web Worker,
// whose requests CDP reports on the worker's target, not the page's (the
// worker's scripts are on the page's timeline; engine.js marks the module
// the worker fetched there, the worker's entry as the mark's detail).
const timelineLoads = `[...performance.getEntriesByType('resource'),
	...performance.getEntriesByType('mark').filter((m) => m.detail && m.detail.entryType === 'resource').map((m) => m.detail)]
	.map((e) => [e.name, String(e.transferSize)])`

// workerLoads adds to what CDP saw the page load (loaded) what only the
// page's timeline saw: each such URL, its transferSize to received, and
// "unseen" to the encodings (CDP did not see the response).
func (s *session) workerLoads(t *tab, urls []string, received float64, encs map[string]int) ([]string, float64, error) {
	loads, err := eval[[][2]string](t, timelineLoads)
	if err != nil {
		return nil, 0, err
	}
	for _, l := range loads {
		if !strings.HasPrefix(l[0], s.base+"/") || slices.Contains(urls, l[0]) {
			continue
		}
		urls = append(urls, l[0])
		n, _ := strconv.ParseFloat(l[1], 64)
		received += n
		encs["unseen (a worker's)"]++
	}
	slices.Sort(urls)
	return urls, received, nil
}

// bytes sums what the page in t has loaded into sd.
func (s *session) bytes(t *tab, sd *side, name string) ([]string, error) {
	urls, received, encs := t.loaded()
	urls, received, err := s.workerLoads(t, urls, received, encs)
	if err != nil {
		return nil, err
	}
	sz, err := transferSizes(t.ctx, urls)
	if err != nil {
		return nil, err
	}
	sd.RawBytes, sd.GzipBytes, sd.BrotliBytes, sd.ReceivedBytes = sz.Raw, sz.Gzip, sz.Brotli, received
	sd.Requests = len(urls)
	var paths []string
	for _, u := range urls {
		paths = append(paths, pathOf(u))
	}
	notes := []string{fmt.Sprintf("%s loaded %s; Chromium got them as %s", name, strings.Join(paths, " "), encodingsText(encs))}
	t.mu.Lock()
	if len(t.failed) > 0 {
		notes = append(notes, fmt.Sprintf("%s: left out: %s", name, strings.Join(t.failed, ", ")))
	}
	t.mu.Unlock()
	problems, err := eval[[]string](t, `window.__bench.problems`)
	if err != nil {
		return notes, err
	}
	if len(problems) > 0 {
		notes = append(notes, fmt.Sprintf("%s: the page reported: %s", name, strings.Join(problems, "; ")))
	}
	if len(sz.Uncompressed) > 0 {
		notes = append(notes, fmt.Sprintf("%s: sent without brotli (no precompressed file): %s", name, strings.Join(sz.Uncompressed, " ")))
	}
	return notes, nil
}

func encodingsText(encs map[string]int) string {
	var parts []string
	for e, n := range encs {
		parts = append(parts, fmt.Sprintf("%d %s", n, e))
	}
	slices.Sort(parts)
	return strings.Join(parts, ", ")
}

// cycleWarm loads a cycle page again in a new tab and records its first
// cycle's time as warm.
func (s *session) cycleWarm(path string, sd *side) error {
	t, err := s.open(path, 2*time.Minute)
	if err != nil {
		return err
	}
	defer t.close()
	first, err := cycleFirst(t)
	sd.FirstWarm = first
	return err
}

// simulatorDone holds once the simulator page has painted its text and its
// first trace and its engine has run its first trace (or failed to load).
const simulatorDone = `(window.__bench && window.__bench.textReadable !== undefined && window.__bench.traceDrawn !== undefined &&
	document.documentElement.dataset.firstRun !== undefined) || (document.body && document.body.dataset.engineView === 'error')`

// simulatorTimes is what the simulator page shows of its load, in ms from
// navigation; Paint is -1 when the page has no first contentful paint.
type simulatorTimes struct {
	Text, Trace, Paint, Ready, Run float64
	Status, LastRun                string
}

// readSimulator reads what the simulator page showed of its load. Nothing is
// readable before the first contentful paint, so the text and the trace
// count from it at the earliest.
const readSimulator = `(() => {
	const fcp = performance.getEntriesByName('first-contentful-paint')[0];
	const atLeastPaint = (t) => (fcp ? Math.max(t, fcp.startTime) : t);
	return {
	text: atLeastPaint(window.__bench.textReadable), trace: atLeastPaint(window.__bench.traceDrawn),
	paint: fcp ? fcp.startTime : -1,
	ready: Number(document.documentElement.dataset.engineReady), run: Number(document.documentElement.dataset.firstRun),
	status: document.getElementById('engine-status').textContent, lastRun: document.documentElement.dataset.lastRun || ''};
})()`

func (s *session) simulatorLoad(t *tab) (simulatorTimes, error) {
	if err := t.wait(simulatorDone, 2*time.Minute); err != nil {
		return simulatorTimes{}, err
	}
	v, err := eval[simulatorTimes](t, readSimulator)
	if err != nil {
		return v, err
	}
	if v.LastRun == "" {
		return v, fmt.Errorf("the engine did not run: %s", v.Status)
	}
	return v, nil
}

// simulatorCold loads the simulator in a fresh profile, measures it, then
// runs the library's timelines on its engine for o.cacheWarmup, so that V8
// writes its code cache.
func (s *session) simulatorCold(sd *side, o options) ([]string, error) {
	t, err := s.open("/", 5*time.Minute)
	if err != nil {
		return nil, err
	}
	defer t.close()
	v, err := s.simulatorLoad(t)
	if err != nil {
		return nil, err
	}
	loaded, err := renderers(s.pid)
	if err != nil {
		return nil, err
	}
	sd.FirstCold, sd.TextReadable, sd.EngineReadyCold, sd.EngineTraceCold = v.Trace, v.Text, v.Ready, v.Run
	if v.Paint >= 0 {
		sd.Paint = v.Paint
	}
	notes := []string{fmt.Sprintf("simulator, cold: the engine's first run gave %s; the page says %q", lastRunText(v.LastRun), v.Status)}
	time.Sleep(300 * time.Millisecond) // let anything still in flight land
	n, err := s.bytes(t, sd, "the simulator")
	notes = append(notes, n...)
	if err != nil {
		return notes, err
	}
	time.Sleep(o.settle)
	settled, err := renderers(s.pid)
	if err != nil {
		return notes, err
	}
	runs, err := eval[int](t, fmt.Sprintf(`(async () => {
		const lib = leaselab.library();
		const t0 = performance.now();
		let runs = 0;
		while (performance.now() - t0 < %d) {
			for (const tl of lib) { await leaselab.run(tl.text, {name: tl.name}); runs++; }
		}
		return runs;
	})()`, o.cacheWarmup.Milliseconds()))
	if err != nil {
		return notes, err
	}
	notes = append(notes, fmt.Sprintf("simulator: %d library timelines run in %s before the warm load (for V8's code cache)", runs, o.cacheWarmup))
	time.Sleep(time.Second) // the code cache is written in the background
	return notes, s.memory(t, sd, loaded, settled)
}

// simulatorWarm loads the simulator again in a new tab.
func (s *session) simulatorWarm(sd *side) ([]string, error) {
	t, err := s.open("/", 2*time.Minute)
	if err != nil {
		return nil, err
	}
	defer t.close()
	v, err := s.simulatorLoad(t)
	if err != nil {
		return nil, err
	}
	sd.FirstWarm, sd.EngineReadyWarm, sd.EngineTraceWarm = v.Trace, v.Ready, v.Run
	urls, received, encs := t.loaded()
	if _, received, err = s.workerLoads(t, urls, received, encs); err != nil {
		return nil, err
	}
	return []string{fmt.Sprintf("simulator, warm: Chromium received %s over the network (the rest came from its HTTP cache)", megabytes(received))}, nil
}

func lastRunText(v string) string {
	if v == "verified" {
		return "the same bytes as the trace computed ahead of time"
	}
	return "a trace (" + v + ")"
}

// median of xs (not empty); xs is left as it was. NaN when xs is empty.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return unmeasured
	}
	s := slices.Sorted(slices.Values(xs))
	m := len(s) / 2
	if len(s)%2 == 0 {
		return (s[m-1] + s[m]) / 2
	}
	return s[m]
}
