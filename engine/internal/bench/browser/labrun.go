package main

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/leaselab/leaselab/engine/internal/lab"
	"github.com/leaselab/leaselab/engine/simrun"
)

// The lease lab run by run: one library lab, the same runs, natively (as
// leaselab lab runs it: lab.Run with its default parallelism, in this
// process) and in the page through its own path (engine.js loadExplorer,
// the lab call in the explorer's worker), in ms a run. goalLabRunRatio is
// the most the page's ms a run may be, as a multiple of the native's; a
// miss fails make bench (-lab-gate).
const goalLabRunRatio = 1.0

// labRunName is the library lab both sides run, whole (its 450 runs).
const labRunName = "lease-length.lab"

// labRunRounds is how many times each side runs it; the median counts.
const labRunRounds = 3

// labRunsLine is a lab's runs line.
var labRunsLine = regexp.MustCompile(`(?m)^(runs )\d+$`)

// labWarm loads the page's lab path (the explorer's worker) and warms it
// on the lab cut to a few runs; labRound then runs the whole lab once,
// timed from the call to its answer (the worker's messages and progress
// included).
const (
	labWarm = `async (warm, name) => {
	const { loadExplorer } = await import('/engine.js');
	window.__labEngine = await loadExplorer();
	await window.__labEngine.lab(warm, { name, onProgress: () => {} });
	return true;
}`
	labRoundInPage = `async (text, name) => {
	const t0 = performance.now();
	const raw = await window.__labEngine.lab(text, { name, onProgress: () => {} });
	return { ms: performance.now() - t0, raw };
}`
)

// labRound is one of the page's runs of the lab.
type labRound struct {
	Millis float64 `json:"ms"`
	Raw    string  `json:"raw"`
}

// labPerRun measures the library lab natively and in the page into r, a
// native round and a page's in turn (the machine is shared: its load
// falls on both alike); a page's result that differs from the native
// one, byte for byte, fails the step.
func (s *session) labPerRun(r *results) ([]string, error) {
	text, err := lab.LibraryText(labRunName)
	if err != nil {
		return nil, err
	}
	l, err := lab.Parse(labRunName, text)
	if err != nil {
		return nil, err
	}
	runs := float64(len(l.Points()) * l.Runs)
	t, err := s.open("/bench/", 10*time.Minute)
	if err != nil {
		return nil, err
	}
	defer t.close()
	warm := labRunsLine.ReplaceAllString(text, "${1}2")
	if _, err := eval[bool](t, fmt.Sprintf("(%s)(%s, %s)", labWarm, jsString(warm), jsString(labRunName))); err != nil {
		return nil, err
	}
	var nat, page []float64
	for i := range labRunRounds {
		t0 := time.Now()
		native, err := simrun.LabJSON(context.Background(), labRunName, text, simrun.LabOptions{})
		if err != nil {
			return nil, err
		}
		nat = append(nat, float64(time.Since(t0).Microseconds())/1000/runs)
		got, err := eval[labRound](t, fmt.Sprintf("(%s)(%s, %s)", labRoundInPage, jsString(text), jsString(labRunName)))
		if err != nil {
			return nil, err
		}
		if got.Raw != string(native) {
			return nil, fmt.Errorf("%s: the page's round %d gave %d bytes other than the native %d", labRunName, i+1, len(got.Raw), len(native))
		}
		page = append(page, got.Millis/runs)
	}
	r.LabRunNative, r.LabRunPage = median(nat), median(page)
	return []string{fmt.Sprintf("lease lab run by run, %s (%.0f runs), median of %d: natively %.2f ms a run (rounds %s), in the page %.2f ms a run (rounds %s), %.2fx; the same bytes",
		labRunName, runs, labRunRounds, r.LabRunNative, roundsText(nat), r.LabRunPage, roundsText(page), r.LabRunPage/r.LabRunNative)}, nil
}

// jsString is s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// roundsText is xs, in ms to 2 decimals.
func roundsText(xs []float64) string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = fmt.Sprintf("%.2f", x)
	}
	return strings.Join(out, " ")
}

// labRunGoal is the page's ms a run against the native's.
func (r results) labRunGoal() goal {
	return goal{Name: fmt.Sprintf("the lease lab (%s) in the page, ms a run", labRunName), Unit: "ms2",
		Measured: r.LabRunPage, Limit: goalLabRunRatio * r.LabRunNative,
		Basis: fmt.Sprintf("%gx the native run's (%s)", goalLabRunRatio, millis(r.LabRunNative))}
}
