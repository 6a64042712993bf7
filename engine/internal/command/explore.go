package command

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/leaselab/leaselab/engine/internal/explore"
	"github.com/leaselab/leaselab/engine/internal/mutant"
)

// Explore runs `leaselab explore`: the explorer (package engine/internal/explore)
// searches every schedule within a scope for the shortest timeline that
// tells a mutant from the correct engine (-mutant), that breaks an
// invariant on an engine (-engine, -property), or, with -all, tells every
// mutant apart and prints a table. A find is confirmed on the real engine
// and printed as a timeline file whose expectations are the correct
// engine's: check passes on it, check -mutant fails. Nothing found within
// the scope is ExitFail, with what was searched.
func Explore(args []string, o IO) int {
	c := newCommand("explore", o, "leaselab explore (-mutant NAME | -engine NAME [-property INVARIANT] | -property INVARIANT | -all) [scope flags]\n\n"+
		"Searches every schedule within the scope for the shortest timeline that tells a broken engine apart\n"+
		"or breaks an invariant, confirms it on the real engine, and prints it as a timeline file.")
	c.exits = exploreExits
	mutant := c.fs.String("mutant", "", "find the shortest timeline on which this mutant and the correct engine differ")
	eng := c.fs.String("engine", "", "find the shortest timeline that breaks an invariant on this engine (a mutant's name)")
	property := c.fs.String("property", "", "the invariant to break (default: any)")
	all := c.fs.Bool("all", false, "tell every mutant apart and print a table: mutant, steps, states, time")
	progress := c.fs.Bool("progress", true, "print the search's progress (states, depth, rate) on standard error once a second")
	limit := c.fs.Duration("time", 2*time.Minute, "stop the search after this long (0: no limit)")
	sc := scopeFlags(c)
	if code, done := c.parse(args); done {
		return code
	}
	if *all {
		return exploreAll(o, *sc)
	}
	g := explore.Goal{Mutant: *mutant, Engine: *eng, Property: *property}
	if g == (explore.Goal{}) {
		c.fs.Usage()
		return ExitBadInput
	}
	if !checkMutant(g.Mutant, o.Stderr) || !checkMutant(g.Engine, o.Stderr) {
		return ExitBadInput
	}
	if err := explore.Validate(*sc, g); err != nil {
		fmt.Fprintln(o.Stderr, exploreError(err))
		return ExitBadInput
	}
	ctx, cancel := context.WithCancel(context.Background())
	if *limit > 0 {
		ctx, cancel = context.WithTimeout(context.Background(), *limit)
	}
	defer cancel()
	fmt.Fprintln(o.Stderr, "leaselab explore:", searchBounds(*sc, *limit))
	w := newWatch(o.Stderr, *progress)
	r, err := explore.Explore(ctx, *sc, g, w.note)
	last := w.stop()
	switch {
	case err != nil && errors.Is(err, context.DeadlineExceeded):
		fmt.Fprintf(o.Stderr, "leaselab explore: nothing found within the time limit of %v: searched %d states, every history of up to %d steps and some of %d (-time or a smaller scope)\n",
			*limit, last.States, max(last.Depth-1, 0), last.Depth)
		return ExitFail
	case err != nil:
		fmt.Fprintln(o.Stderr, exploreError(err))
		return ExitBadInput
	}
	return reportFind(o, r)
}

// exploreExits is explore's -h paragraph on its exit statuses.
const exploreExits = `
Exit status: 0 a timeline was found and confirmed on the engine (-all: every
mutant told apart); 1 nothing was found within the scope, -states or -time;
2 bad input (bad flags, a scope out of its bounds, an unknown mutant or
invariant) or a find the engine does not confirm.`

// exploreError is err as the command says it: the package's own "explore:"
// prefix said once.
func exploreError(err error) string {
	return "leaselab explore: " + strings.TrimPrefix(err.Error(), "explore: ")
}

// searchBounds says, before a search starts, what it searches and where
// it stops.
func searchBounds(sc explore.Scope, limit time.Duration) string {
	ids := make([]string, len(sc.Jobs))
	for i, j := range sc.Jobs {
		ids[i] = j.ID
	}
	until := fmt.Sprintf("at most %d states", sc.MaxStates)
	if limit > 0 {
		until += fmt.Sprintf(" or %v", limit)
	}
	return fmt.Sprintf("searching every history of up to %d steps (%d workers, jobs %s, leases of %d ms), %s (-steps, -states, -time)",
		sc.Steps, sc.Workers, strings.Join(ids, ", "), sc.TTL, until)
}

// watch keeps a search's latest progress and, when on, prints it once a
// second on its own clock, however seldom the search reports.
type watch struct {
	mu    sync.Mutex
	last  explore.Progress
	out   io.Writer
	start time.Time
	done  chan struct{}
	wg    sync.WaitGroup
}

func newWatch(out io.Writer, on bool) *watch {
	w := &watch{out: out, start: time.Now(), done: make(chan struct{})}
	if !on {
		return w
	}
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-w.done:
				return
			case <-t.C:
				w.mu.Lock()
				p := w.last
				w.mu.Unlock()
				fmt.Fprintln(w.out, progressLine(p, time.Since(w.start)))
			}
		}
	}()
	return w
}

// note is the search's progress callback.
func (w *watch) note(p explore.Progress) {
	w.mu.Lock()
	w.last = p
	w.mu.Unlock()
}

// stop ends the printing and returns the last progress.
func (w *watch) stop() explore.Progress {
	close(w.done)
	w.wg.Wait()
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.last
}

// progressLine is one line of progress: states, depth, rate, time so far.
func progressLine(p explore.Progress, elapsed time.Duration) string {
	return fmt.Sprintf("explore: %d states, depth %d, %.0f states/s, %v", p.States, p.Depth, p.Rate, elapsed.Round(time.Second))
}

func reportFind(o IO, r *explore.Report) int {
	if r.Timeline == "" {
		why := fmt.Sprintf("every history of up to %d steps", r.Depth)
		if r.Bound != "" {
			why = "histories until " + r.Bound
		}
		fmt.Fprintf(o.Stderr, "leaselab explore: nothing found: searched %s (%d states, %v; -steps or -states searches further)\n", why, r.States, r.Elapsed.Round(time.Millisecond))
		return ExitFail
	}
	if !bounded(o.Stdout, o.Stderr, "the explorer's timeline", func(w io.Writer) { io.WriteString(w, r.Timeline) }) {
		return ExitBadInput
	}
	fmt.Fprintf(o.Stderr, "leaselab explore: %s, %d states, %v; confirmed on the engine\n", catalog["en"].plural(len(r.Steps), "step", "steps"), r.States, r.Elapsed.Round(time.Millisecond))
	return ExitPass
}

// scopeFlags are the flags that set the scope, with the defaults of
// explore.DefaultScope.
func scopeFlags(c *command) *explore.Scope {
	sc := explore.DefaultScope()
	c.fs.IntVar(&sc.Workers, "workers", sc.Workers, "how many workers act")
	c.fs.IntVar(&sc.Steps, "steps", sc.Steps, "the longest timeline searched")
	c.fs.Int64Var(&sc.TTL, "ttl", sc.TTL, "the lease of every claim and renew (ms)")
	c.fs.Int64Var(&sc.Jobs[0].MaxAttempts, "max-attempts", sc.Jobs[0].MaxAttempts, "job a's attempts budget (0: unlimited)")
	c.fs.Int64Var(&sc.Jobs[0].Deadline, "deadline", sc.Jobs[0].Deadline, "job a's deadline (ms; 0: none)")
	c.fs.BoolVar(&sc.Jobs[1].Later, "later", sc.Jobs[1].Later, "job b is enqueued by a step (false: declared before the first)")
	c.fs.IntVar(&sc.MaxStates, "states", sc.MaxStates, "stop after this many states")
	return &sc
}

// exploreAll tells every mutant apart and prints a table.
func exploreAll(o IO, sc explore.Scope) int {
	ms := mutant.All()
	if len(ms) == 0 {
		fmt.Fprintln(o.Stderr, "leaselab explore: this build has no mutants; build with the mutants tag: go run -tags mutants . explore -all")
		return ExitBadInput
	}
	rows := [][]string{{"MUTANT", "STEPS", "STATES", "TIME", "STATES/S"}}
	code := ExitPass
	for _, m := range ms {
		r, err := explore.Explore(context.Background(), sc, explore.Goal{Mutant: m.Name}, nil)
		switch {
		case err != nil:
			fmt.Fprintf(o.Stderr, "leaselab explore: %s: %v\n", m.Name, err)
			rows = append(rows, []string{m.Name, "error", "-", "-", "-"})
			code = ExitFail
		case r.Timeline == "":
			rows = append(rows, []string{m.Name, "not found", itoa(int64(r.States)), r.Elapsed.Round(10 * time.Microsecond).String(), rate(r)})
			code = ExitFail
		default:
			rows = append(rows, []string{m.Name, itoa(int64(len(r.Steps))), itoa(int64(r.States)), r.Elapsed.Round(10 * time.Microsecond).String(), rate(r)})
		}
	}
	writeColumns(o.Stdout, "", rows)
	return code
}

func rate(r *explore.Report) string {
	if s := r.Elapsed.Seconds(); s > 0 {
		return fmt.Sprintf("%.0f", float64(r.States)/s)
	}
	return "-"
}
