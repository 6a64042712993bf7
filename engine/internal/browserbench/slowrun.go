package main

import (
	"fmt"
	"os"
	"time"
)

// slowFactor is how much slower the processor is in the slowed run.
const slowFactor = 4

// slowed measures the two cold first results again on a processor
// slowFactor times slower (slowdown), in a browser of its own with a fresh
// profile: the official build's first cycle, and the simulator opening a
// timeline no trace computed ahead of time stands for, so that the first
// trace drawn is the engine's own.
func slowed(o options, base string, r *results) ([]string, error) {
	profile, err := os.MkdirTemp("", "leaselab-browserbench-slow-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(profile)
	ctx, stop, pid, err := startBrowser(o.chromium, profile, o.jsFlags)
	if err != nil {
		return nil, err
	}
	defer stop()
	slow := slowDown(pid, slowFactor)
	defer slow.close()
	s := &session{base: base, browser: ctx, pid: pid}
	if err := s.primer("/bench/"); err != nil {
		return nil, err
	}
	t, err := s.open("/bench/sqlite.html", 5*time.Minute)
	if err != nil {
		return nil, err
	}
	r.Slow.Official.FirstCold, err = cycleFirst(t)
	t.close()
	if err != nil {
		return nil, fmt.Errorf("the official build: %w", err)
	}
	text := storyTimeline("claim, expire, reclaim, stale complete", 3)
	t, err = s.open(simulatorLink("story.tl", text), 5*time.Minute)
	if err != nil {
		return nil, err
	}
	defer t.close()
	v, err := s.simulatorLoad(t)
	if err != nil {
		return nil, fmt.Errorf("the simulator: %w", err)
	}
	r.Slow.Sim.EngineTraceCold, r.Slow.Sim.FirstCold = v.Run, v.Trace
	return []string{fmt.Sprintf("CPU slowed %dx (every renderer process stopped %d/%d of each %v, all its threads alike): "+
		"the simulator opened a %d-step timeline of its own by link; its engine's first run gave %s", slowFactor,
		slowFactor-1, slowFactor, slowPeriod, 12, lastRunText(v.LastRun))}, nil
}
