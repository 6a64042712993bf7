package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/leaselab/leaselab/engine/check"
	"github.com/leaselab/leaselab/engine/internal/explore"
	"github.com/leaselab/leaselab/engine/internal/mutant"
	"github.com/leaselab/leaselab/engine/simrun"
)

// The explorer's goals: every mutant told apart within the
// default scope in at most this long, natively and in the browser.
const (
	goalExploreNative  = 2 * time.Second
	goalExploreBrowser = 10 * time.Second
)

// exhaustiveSteps is the depth of the exhaustive search whose rate is
// reported: every history of this many steps on the correct engine, which
// breaks nothing, so the search visits every state of the scope.
const exhaustiveSteps = 5

// search is one explorer run: what it found and what it took.
type search struct {
	Found    bool    `json:"found"`
	Timeline string  `json:"timeline"`
	Steps    int     `json:"steps"`
	States   int     `json:"states"`
	Elapsed  float64 `json:"elapsed_ms"` // the search's own time
	Wall     float64 `json:"wall_ms"`    // from the call to the answer (the worker's messages included)
}

// exploreRow is one goal of the explorer, searched natively and in the page.
type exploreRow struct {
	Goal            string // a mutant's name, or "exhaustive"
	Native, Browser search
}

// rate is the states the search visited per second of its own time.
func (s search) rate() float64 {
	if s.Elapsed <= 0 {
		return unmeasured
	}
	return float64(s.States) / (s.Elapsed / 1000)
}

// exploreInPage runs the explorer in the page's own way (engine.js
// loadExplorer: a Web Worker with an instance of the engine of its own), on
// every goal in turn, after one warm-up search that loads the worker.
const exploreInPage = `async (goals) => {
	const { loadExplorer } = await import('/engine.js');
	const explorer = await loadExplorer();
	await explorer.explore(goals[0].goal, { scope: { steps: 1 } });
	const out = [];
	for (const g of goals) {
		const t0 = performance.now();
		const r = JSON.parse(await explorer.explore(g.goal, { scope: g.scope }));
		out.push({ ...r, wall_ms: performance.now() - t0 });
	}
	return out;
}`

// explorerGoal is one search both sides run.
type explorerGoal struct {
	Name  string // a mutant's name, or "exhaustive"
	Goal  explore.Goal
	Scope simrun.ExploreScope
}

// explorerGoals are every mutant within the default scope, then the
// exhaustive search.
func explorerGoals() []explorerGoal {
	var gs []explorerGoal
	for _, m := range mutant.All() {
		gs = append(gs, explorerGoal{Name: m.Name, Goal: explore.Goal{Mutant: m.Name}})
	}
	return append(gs, explorerGoal{Name: "exhaustive", Goal: explore.Goal{Property: check.SingleLease},
		Scope: simrun.ExploreScope{Steps: exhaustiveSteps}})
}

// pageGoals is goals as the page's explore(goal, {scope}) takes them.
func pageGoals(goals []explorerGoal) ([]byte, error) {
	type pageGoal struct {
		Goal  map[string]string   `json:"goal"`
		Scope simrun.ExploreScope `json:"scope"`
	}
	var out []pageGoal
	for _, g := range goals {
		pg := pageGoal{Goal: map[string]string{}, Scope: g.Scope}
		for k, v := range map[string]string{"mutant": g.Goal.Mutant, "engine": g.Goal.Engine, "property": g.Goal.Property} {
			if v != "" {
				pg.Goal[k] = v
			}
		}
		out = append(out, pg)
	}
	return json.Marshal(out)
}

// explorer runs the explorer on every goal, natively and then in the
// simulator's page, into r; a goal whose timelines differ between the two
// is a note.
func (s *session) explorer(r *results) ([]string, error) {
	goals := explorerGoals()
	if len(goals) == 1 {
		return []string{"explorer: built without the mutants tag, so there is no mutant to tell apart (make bench builds with it)"}, nil
	}
	r.Explore = make([]exploreRow, len(goals))
	for i, g := range goals {
		r.Explore[i].Goal = g.Name
		nat, err := exploreNatively(g)
		if err != nil {
			return nil, fmt.Errorf("%s natively: %w", g.Name, err)
		}
		r.Explore[i].Native = nat
	}
	t, err := s.open("/", 10*time.Minute)
	if err != nil {
		return nil, err
	}
	defer t.close()
	if err := t.wait(`document.documentElement.dataset.engineReady !== undefined`, 2*time.Minute); err != nil {
		return nil, err
	}
	arg, err := pageGoals(goals)
	if err != nil {
		return nil, err
	}
	got, err := eval[[]search](t, fmt.Sprintf("(%s)(%s)", exploreInPage, arg))
	if err != nil {
		return nil, err
	}
	if len(got) != len(goals) {
		return nil, fmt.Errorf("the page answered %d searches of %d", len(got), len(goals))
	}
	var notes []string
	for i := range got {
		r.Explore[i].Browser = got[i]
		if nat := r.Explore[i].Native; nat.Timeline != got[i].Timeline || nat.States != got[i].States {
			notes = append(notes, fmt.Sprintf("explorer: %s: the page found %d steps in %d states, natively %d steps in %d states",
				goals[i].Name, got[i].Steps, got[i].States, nat.Steps, nat.States))
		}
	}
	return notes, nil
}

// exploreNatively runs g in this process as the page's explorer does
// (simrun.ExploreJSON).
func exploreNatively(g explorerGoal) (search, error) {
	start := time.Now()
	raw, err := simrun.ExploreJSON(context.Background(), g.Goal, g.Scope, nil)
	if err != nil {
		return search{}, err
	}
	var out search
	if err := json.Unmarshal(raw, &out); err != nil {
		return search{}, err
	}
	out.Wall = float64(time.Since(start).Microseconds()) / 1000
	return out, nil
}

// writeExplorer prints the explorer's searches, natively and in the page,
// and its goals.
func (r results) writeExplorer(w io.Writer) error {
	if len(r.Explore) == 0 {
		return nil
	}
	fmt.Fprintf(w, "\nthe explorer, default scope; natively in this process, in Chromium in the page's explorer worker\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "goal\tsteps\tstates\tnative\tstates/s\tChromium\tstates/s\tChromium/native\tgoal native\tgoal Chromium\t")
	var nat, web float64
	for _, e := range r.Explore {
		natGoal, webGoal := "", ""
		if e.Goal != "exhaustive" {
			nat += e.Native.Wall
			web += e.Browser.Wall
			natGoal = fmt.Sprintf("<= %v %s", goalExploreNative, verdictOf(e.Native.Found && e.Native.Wall <= ms(goalExploreNative)))
			webGoal = fmt.Sprintf("<= %v %s", goalExploreBrowser, verdictOf(e.Browser.Found && e.Browser.Wall <= ms(goalExploreBrowser)))
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", e.Goal, e.Browser.Steps, thousands(float64(e.Browser.States)),
			millis(e.Native.Wall), count(e.Native.rate()), millis(e.Browser.Wall), count(e.Browser.rate()),
			ratioText(e.Browser.Wall, e.Native.Wall), natGoal, webGoal)
	}
	fmt.Fprintf(tw, "explore -all (every mutant)\t\t\t%s\t\t%s\t\t%s\t\t\t\n", millis(nat), millis(web), ratioText(web, nat))
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "  exhaustive = every history of %d steps on the correct engine (nothing to find: every state of the scope visited)\n", exhaustiveSteps)
	return nil
}

// ms is d in milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func verdictOf(met bool) string {
	if met {
		return "met"
	}
	return "MISSED"
}
