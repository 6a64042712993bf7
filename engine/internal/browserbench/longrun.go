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
// which reports tasks of 50 ms or more) and the time from the link to the
// trace drawn. window.__long holds the figures once done.
const watchLongRun = `(hash) => {
	const w = (window.__long = { done: false, longest: 0, tasks: 0, took: 0, error: '' });
	const root = document.documentElement;
	const seen = new PerformanceObserver((list) => {
		for (const e of list.getEntries()) { w.longest = Math.max(w.longest, e.duration); w.tasks++; }
	});
	seen.observe({ type: 'longtask' });
	delete root.dataset.lastRun;
	const t0 = performance.now();
	const poll = () => {
		if (root.dataset.lastRun === undefined && document.body.dataset.engineView !== 'error') { requestAnimationFrame(poll); return; }
		w.took = performance.now() - t0;
		if (document.body.dataset.engineView === 'error') w.error = document.getElementById('engine-status').textContent;
		// a long task is reported once it has ended: wait for the last one
		setTimeout(() => { seen.disconnect(); w.done = true; }, 300);
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
	return []string{fmt.Sprintf("simulator, a %d-step timeline (%d bytes) opened by link: trace drawn after %.0f ms, %d main-thread tasks of 50 ms or more",
		longTimelineSteps, len(text), w.Took, w.Tasks)}, nil
}
