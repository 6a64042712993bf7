package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/leaselab/leaselab/engine/internal/bench/weight"
)

// The Python exercise's goals: the first verdict after Check at most
// goalPythonColdMillis on a page that never loaded Python (Pyodide's
// download, brotli from the local server, and its start included), and at
// most goalPythonWarmMillis on a second Check, which reuses it.
const (
	goalPythonColdMillis = 8000
	goalPythonWarmMillis = 3000
)

// pythonStudent is the correct fencing lab in Python, from the
// repository's root.
var pythonStudent = filepath.Join("engine", "grade", "testdata", "correct.py")

// gradePython grades the source (the first argument) through the
// page's grader, as <lease-exercise language="python">'s Check does, and
// leaves in window.__py when the first verdict came and when the report
// did, in ms from the call.
const gradePython = `(src) => {
	const w = (window.__py = { first: 0, report: 0, passed: false, error: '' });
	const t0 = performance.now();
	import('/engine.js').then((m) => m.loadGrader()).then((g) => g.gradePython(src, {
		onProgress: (p) => { if (p && p.status && !w.first) w.first = performance.now() - t0; },
	})).then((text) => {
		w.report = performance.now() - t0;
		w.passed = JSON.parse(text).passed;
	}, (err) => { w.error = String(err && err.message || err); w.report = -1; });
	return true;
}`

// pyRun is what gradePython saw.
type pyRun struct {
	First  float64 `json:"first"`
	Report float64 `json:"report"`
	Passed bool    `json:"passed"`
	Error  string  `json:"error"`
}

// pythonExercise grades the correct lab twice in one fresh tab of the
// guide, Python cold then warm, into r, and notes what Pyodide's files in
// web weigh.
func (s *session) pythonExercise(r *results, web string) ([]string, error) {
	src, err := os.ReadFile(pythonStudent)
	if err != nil {
		return nil, err
	}
	t, err := s.open("/guide.html", 3*time.Minute)
	if err != nil {
		return nil, err
	}
	defer t.close()
	var runs [2]pyRun
	for i := range runs {
		if _, err := eval[bool](t, fmt.Sprintf("(%s)(%q)", gradePython, src)); err != nil {
			return nil, err
		}
		if err := t.wait(`window.__py.report !== 0`, 2*time.Minute); err != nil {
			return nil, err
		}
		if runs[i], err = eval[pyRun](t, `window.__py`); err != nil {
			return nil, err
		}
		if runs[i].Error != "" || !runs[i].Passed {
			return nil, fmt.Errorf("the correct lab did not pass in the page: %s", runs[i].Error)
		}
	}
	r.PythonCold, r.PythonWarm = runs[0].First, runs[1].First
	ws, err := weight.Pyodide(web)
	if err != nil {
		return nil, err
	}
	var bytes strings.Builder
	if err := weight.WritePyodide(&bytes, ws); err != nil {
		return nil, err
	}
	return []string{strings.TrimRight(bytes.String(), "\n"), fmt.Sprintf("Python exercise, %s: first verdict %.0f ms cold (Pyodide fetched and started), %.0f ms warm; whole report %.0f ms cold, %.0f ms warm",
		pythonStudent, runs[0].First, runs[1].First, runs[0].Report, runs[1].Report)}, nil
}

// pythonGoals evaluates the Python exercise's goals on r.
func (r results) pythonGoals() []goal {
	return []goal{
		{Name: "the Python exercise's first verdict after Check, Python cold", Unit: "ms", Measured: r.PythonCold, Limit: goalPythonColdMillis},
		{Name: "the Python exercise's first verdict after a second Check", Unit: "ms", Measured: r.PythonWarm, Limit: goalPythonWarmMillis},
	}
}
