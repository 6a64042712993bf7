package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// The lease lab's goals in the browser: the 20-policy × 50-run sweep of 20
// jobs (engine/internal/lab/testdata/bench.lab, the file BenchmarkLabSweep
// runs natively) drawn by a <lease-lab> in at most goalLabMillis, the
// page's main thread never held longer than goalLongTaskMillis meanwhile.
const goalLabMillis = 15000

// benchLabFile is the sweep, from the repository's root.
var benchLabFile = filepath.Join("engine", "internal", "lab", "testdata", "bench.lab")

// watchLab puts a <lease-lab> of the text (the first argument) at the top
// of the simulator's page, already showing its first trace, and watches
// the main thread (PerformanceObserver 'longtask': tasks of 50 ms or more)
// until the lab's plot is drawn from the engine. window.__lab holds the
// figures once done: took is from the element's connection to its plot,
// which includes starting the explorer's worker the runs go in.
const watchLab = `(text) => {
	const w = (window.__lab = { done: false, longest: 0, tasks: 0, took: 0, error: '' });
	const seen = new PerformanceObserver((list) => {
		for (const e of list.getEntries()) { w.longest = Math.max(w.longest, e.duration); w.tasks++; }
	});
	seen.observe({ type: 'longtask' });
	import('/lease-lab.js').then(() => {
		const el = document.createElement('lease-lab');
		el.setAttribute('name', 'bench.lab');
		el.textContent = text;
		const t0 = performance.now();
		const end = (error) => {
			w.took = performance.now() - t0;
			w.error = error;
			setTimeout(() => { seen.disconnect(); w.done = true; }, 300);
		};
		el.addEventListener('ready', () => end(''), { once: true });
		el.addEventListener('error', (e) => end(e.detail.message), { once: true });
		document.body.prepend(el);
	}, (err) => { w.error = String(err); w.done = true; });
	return true;
}`

// labRun is what watchLab saw.
type labRun struct {
	Done    bool    `json:"done"`
	Longest float64 `json:"longest"` // ms; 0: no task of 50 ms or more
	Tasks   int     `json:"tasks"`
	Took    float64 `json:"took"`
	Error   string  `json:"error"`
}

// labSweep runs the benchmark's lab in a <lease-lab> on the simulator's
// page into r.
func (s *session) labSweep(r *results) ([]string, error) {
	text, err := os.ReadFile(benchLabFile)
	if err != nil {
		return nil, err
	}
	t, err := s.open("/", 5*time.Minute)
	if err != nil {
		return nil, err
	}
	defer t.close()
	if _, err := s.simulatorLoad(t); err != nil {
		return nil, err
	}
	if _, err := eval[bool](t, fmt.Sprintf("(%s)(%q)", watchLab, text)); err != nil {
		return nil, err
	}
	if err := t.wait(`window.__lab.done`, 3*time.Minute); err != nil {
		return nil, err
	}
	w, err := eval[labRun](t, `window.__lab`)
	if err != nil {
		return nil, err
	}
	if w.Error != "" {
		return nil, fmt.Errorf("the lab did not run: %s", w.Error)
	}
	r.LabSweep, r.LabLongTask = w.Took, w.Longest
	return []string{fmt.Sprintf("lease lab, %s in a <lease-lab>: plot drawn after %.0f ms, %d main-thread tasks of 50 ms or more",
		benchLabFile, w.Took, w.Tasks)}, nil
}

// labGoals evaluates the lease lab's goals in the browser on r.
func (r results) labGoals() []goal {
	return []goal{
		{Name: "a 20-policy x 50-run sweep of 20 jobs, drawn by <lease-lab>", Unit: "ms",
			Measured: r.LabSweep, Limit: goalLabMillis},
		{Name: "longest main-thread task while the sweep runs", Unit: "task",
			Measured: r.LabLongTask, Limit: goalLongTaskMillis},
		r.labRunGoal(),
	}
}
