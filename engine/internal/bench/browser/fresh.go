package main

import (
	"fmt"
	"os"
	goruntime "runtime"
	"strings"
	"time"
)

// slowFactor is how much slower the processor is in the slowed run.
const slowFactor = 4

// Rounds of the cold first results in fresh browsers. One cold load of
// each side on a machine of 2 cores swings by a third from run to run (the
// simulator's engine's first trace took 728 to 903 ms in four runs of one
// day, the official build's first cycle 289 to 364 ms), so the goals on
// them take medians of rounds, as the native goals do. Each round starts a
// browser of its own with a fresh profile (nothing cached), loads the page
// neither side uses, then both sides, the side loaded first alternating
// from round to round.
const (
	freshRounds = 5 // at full speed: about 5 s a round
	slowRounds  = 3 // CPU slowed slowFactor times: about 12 s a round

	// freshSettle is how long a new browser is left alone before the
	// round: Chromium's own start-up work (its components, its first
	// profile writes) takes the cores for a second or two.
	freshSettle = 2 * time.Second
)

// freshRound is what one round of freshPair measured of each side: the
// first result (ms from navigation) and the CPU time the whole browser
// used from the navigation to it (ms, all processes and threads).
type freshRound struct {
	official, sim       float64
	officialCPU, simCPU float64
	simPhases           startPhases
}

// startPhases is where the simulator's cold first trace went, in ms from
// the navigation: the page's first paint, then the engine's worker's start
// as the page's mark of it (web/engine.js STARTED) gives it, then the
// first trace the engine ran shown on the page.
type startPhases struct {
	Paint                             float64
	Script, Compiled, SQLite, Started float64
	Run                               float64
}

// readStartPhases reads the mark the engine's first start left on the
// page's timeline (its steps, on the page's clock); a step it lacks reads
// as NaN.
const readStartPhases = `(() => {
	const m = performance.getEntriesByName('leaselab engine started', 'mark')[0];
	const d = (m && m.detail) || {};
	const at = (k) => (typeof d[k] === 'number' ? d[k] : null);
	return {script: at('script'), compiled: at('compiled'), sqlite: at('sqlite'), started: at('started')};
})()`

// phasesLine says, for the rounds, the median of each step of the cold
// start; a step no round measured reads "—".
func phasesLine(rounds []startPhases) string {
	pick := func(f func(startPhases) float64) string {
		var xs []float64
		for _, r := range rounds {
			if v := f(r); measured(v) {
				xs = append(xs, v)
			}
		}
		return millis(median(xs))
	}
	return fmt.Sprintf("where the simulator's cold first trace went, medians in ms from the navigation: first paint %s; the engine's worker running its script %s, "+
		"its module compiled %s, SQLite compiled and bridged %s, the Go program up %s; the engine's first trace shown %s",
		pick(func(p startPhases) float64 { return p.Paint }), pick(func(p startPhases) float64 { return p.Script }),
		pick(func(p startPhases) float64 { return p.Compiled }), pick(func(p startPhases) float64 { return p.SQLite }),
		pick(func(p startPhases) float64 { return p.Started }), pick(func(p startPhases) float64 { return p.Run }))
}

// freshPair is one round: in a new browser, the official build's first
// cycle and the simulator's engine's first trace at simPath, the official
// build first when officialFirst, the renderers slowed factor times (1:
// not slowed).
func freshPair(o options, base, simPath string, factor float64, officialFirst bool) (r freshRound, err error) {
	profile, err := os.MkdirTemp("", "leaselab-browserbench-fresh-")
	if err != nil {
		return r, err
	}
	defer os.RemoveAll(profile)
	ctx, stop, pid, err := startBrowser(o.chromium, profile, o.jsFlags)
	if err != nil {
		return r, err
	}
	defer stop()
	time.Sleep(freshSettle)
	if factor > 1 {
		slow := slowDown(pid, factor)
		defer slow.close()
	}
	s := &session{base: base, browser: ctx, pid: pid}
	if err := s.primer("/bench/"); err != nil {
		return r, err
	}
	cpu := func(t *tab) (float64, error) {
		d, err := s.cpuSinceNavigation(t)
		return ms(d), err
	}
	officialRun := func() error {
		t, err := s.open("/bench/sqlite.html", 5*time.Minute)
		if err != nil {
			return err
		}
		defer t.close()
		if r.official, err = cycleFirst(t); err != nil {
			return fmt.Errorf("the official build: %w", err)
		}
		r.officialCPU, err = cpu(t)
		return err
	}
	simRun := func() error {
		t, err := s.open(simPath, 5*time.Minute)
		if err != nil {
			return err
		}
		defer t.close()
		v, err := s.simulatorLoad(t)
		if err != nil {
			return fmt.Errorf("the simulator: %w", err)
		}
		r.sim = v.Run
		if r.simCPU, err = cpu(t); err != nil {
			return err
		}
		p, err := eval[struct{ Script, Compiled, SQLite, Started *float64 }](t, readStartPhases)
		if err != nil {
			return err
		}
		r.simPhases = startPhases{Paint: v.Paint, Script: orUnmeasured(p.Script), Compiled: orUnmeasured(p.Compiled),
			SQLite: orUnmeasured(p.SQLite), Started: orUnmeasured(p.Started), Run: v.Run}
		if r.simPhases.Paint < 0 {
			r.simPhases.Paint = unmeasured
		}
		return nil
	}
	order := []func() error{simRun, officialRun}
	if officialFirst {
		order = []func() error{officialRun, simRun}
	}
	for _, run := range order {
		if err := run(); err != nil {
			return freshRound{}, err
		}
	}
	return r, nil
}

// freshRuns measures rounds rounds of freshPair into both (their medians:
// Official.FirstCold, Sim.EngineTraceCold) and says what each round gave,
// with the medians of the CPU time each side's cold load cost the browser:
// on a machine of few cores that time, more than the bytes, sets how soon
// a first result can come.
func freshRuns(o options, base, simPath string, factor float64, rounds int, into *struct{ Sim, Official side }) ([]string, error) {
	var officials, sims, officialCPU, simCPU []float64
	var phases []startPhases
	var each []string
	for i := range rounds {
		r, err := freshPair(o, base, simPath, factor, i%2 == 0)
		if err != nil {
			return nil, fmt.Errorf("round %d: %w", i+1, err)
		}
		officials, sims = append(officials, r.official), append(sims, r.sim)
		officialCPU, simCPU = append(officialCPU, r.officialCPU), append(simCPU, r.simCPU)
		phases = append(phases, r.simPhases)
		each = append(each, fmt.Sprintf("%s / %s", millis(r.sim), millis(r.official)))
	}
	into.Official.FirstCold, into.Sim.EngineTraceCold = median(officials), median(sims)
	speed := "at full speed"
	if factor > 1 {
		speed = fmt.Sprintf("CPU slowed %gx (every renderer process stopped %g/%g of each %v, all its threads alike)", factor, factor-1, factor, slowPeriod)
	}
	return []string{fmt.Sprintf("cold first results in %d fresh browsers, %s, the simulator's engine's first trace at %s / the official build's first cycle, round by round: %s; medians %s / %s; "+
		"the CPU time the whole browser used from the navigation to that result (every process and thread, user and system, on %d cores), medians %s / %s",
		rounds, speed, simPath[:min(len(simPath), 24)], strings.Join(each, ", "),
		millis(into.Sim.EngineTraceCold), millis(into.Official.FirstCold),
		goruntime.NumCPU(), millis(median(simCPU)), millis(median(officialCPU))), phasesLine(phases)}, nil
}

// orUnmeasured is *v, or NaN when v is nil.
func orUnmeasured(v *float64) float64 {
	if v == nil {
		return unmeasured
	}
	return *v
}

// slowStory is the simulator's address the slowed rounds open: a timeline
// no trace computed ahead of time stands for, so that the first trace drawn
// is the engine's own.
func slowStory() string {
	return simulatorLink("story.tl", storyTimeline("claim, expire, reclaim, stale complete", 3))
}
