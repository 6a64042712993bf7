package main

import (
	"fmt"
	"strings"
	"time"
)

// watchLongRun opens, in the simulator already showing its first trace, a
// timeline of the most steps a timeline may have, as a shared link opens
// it (the hash changes), and watches the main thread until the engine's
// trace of it is drawn: the longest task (PerformanceObserver 'longtask',
// which reports tasks of 50 ms or more), what it was (the scripts of the
// long animation frame it falls in, by what called them, and the frame's
// style and layout), and the time from the link to the trace drawn.
// window.__long holds the figures once done.
const watchLongRun = `(hash) => {
	const w = (window.__long = { done: false, longest: 0, tasks: 0, took: 0, error: '', what: '' });
	const root = document.documentElement;
	let at = 0;
	const frames = [];
	const seen = new PerformanceObserver((list) => {
		for (const e of list.getEntries()) {
			if (e.duration > w.longest) { w.longest = e.duration; at = e.startTime; }
			w.tasks++;
		}
	});
	seen.observe({ type: 'longtask' });
	const framed = new PerformanceObserver((list) => frames.push(...list.getEntries()));
	framed.observe({ type: 'long-animation-frame' });
	const what = () => {
		const f = frames.find((f) => f.startTime - 1 <= at && at < f.startTime + f.duration);
		if (!f) return 'a task outside any long animation frame (no rendering in it)';
		const scripts = f.scripts.map((s) => s.invoker + ' (' + (s.sourceURL.split('/').pop() || '?') + ') ' + Math.round(s.duration) + ' ms');
		const layout = f.styleAndLayoutStart ? Math.round(f.startTime + f.duration - f.styleAndLayoutStart) : 0;
		return 'a frame of ' + (scripts.join(', ') || 'no script') + '; style, layout and paint ' + layout + ' ms';
	};
	delete root.dataset.lastRun;
	const t0 = performance.now();
	const poll = () => {
		if (root.dataset.lastRun === undefined && document.body.dataset.engineView !== 'error') { requestAnimationFrame(poll); return; }
		w.took = performance.now() - t0;
		if (document.body.dataset.engineView === 'error') w.error = document.getElementById('engine-status').textContent;
		// a long task is reported once it has ended: wait for the last one
		setTimeout(() => { seen.disconnect(); framed.disconnect(); if (w.longest > 0) w.what = what(); w.done = true; }, 300);
	};
	location.hash = hash;
	requestAnimationFrame(poll);
	return true;
}`

// longRun is what watchLongRun saw.
type longRun struct {
	Done    bool    `json:"done"`
	Longest float64 `json:"longest"` // ms; 0: no task of 50 ms or more
	Tasks   int     `json:"tasks"`
	Took    float64 `json:"took"`
	Error   string  `json:"error"`
	What    string  `json:"what"` // the longest task's frame: its scripts, its style and layout
}

// longTimeline measures the main thread while the simulator runs and draws
// a timeline of longTimelineSteps steps, into r.
func (s *session) longTimeline(r *results) ([]string, error) {
	t, err := s.open("/", 5*time.Minute)
	if err != nil {
		return nil, err
	}
	defer t.close()
	if _, err := s.simulatorLoad(t); err != nil {
		return nil, err
	}
	text := storyTimeline(fmt.Sprintf("%d steps: claim, expire, reclaim, stale complete", longTimelineSteps), longTimelineSteps/4)
	hash, _ := strings.CutPrefix(simulatorLink("long.tl", text), "/")
	if _, err := eval[bool](t, fmt.Sprintf("(%s)(%q)", watchLongRun, hash)); err != nil {
		return nil, err
	}
	if err := t.wait(`window.__long.done`, 3*time.Minute); err != nil {
		return nil, err
	}
	w, err := eval[longRun](t, `window.__long`)
	if err != nil {
		return nil, err
	}
	if w.Error != "" {
		return nil, fmt.Errorf("the simulator did not run the %d-step timeline: %s", longTimelineSteps, w.Error)
	}
	r.LongTask, r.LongRun = w.Longest, w.Took
	note := fmt.Sprintf("simulator, a %d-step timeline (%d bytes) opened by link: trace drawn after %.0f ms, %d main-thread tasks of 50 ms or more",
		longTimelineSteps, len(text), w.Took, w.Tasks)
	if w.What != "" {
		note += fmt.Sprintf("; the longest (%.0f ms) was in %s", w.Longest, w.What)
	}
	return []string{note}, nil
}
