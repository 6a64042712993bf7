package lab

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/leaselab/leaselab/engine/limits"
)

// FormatVersion names the JSON form of a Result; it changes whenever a
// field changes meaning or goes away. A new field or measure keeps it (see
// Result): a reader of leaselab-lab/1 skips what it does not know.
const FormatVersion = "leaselab-lab/1"

// Result is a lab's measures, point by point. Its JSON (Encode) is the
// machine-readable answer of leaselab lab -json:
//
//	{"format": "leaselab-lab/1", "name", "title": {"en", "ko"},
//	 "seed": "1" (a string: 64 bits), "runs", "jobs", "workers",
//	 "sweeps": [{"param", "unit", "values": [...]}],   zero, one or two
//	 "plot": ["dup_ms", ...],                          what the plots draw
//	 "metrics": [{"name", "unit", "label": {"en", "ko"}}],
//	 "points": [{"index", "values": [one per sweep],
//	             "stats": {METRIC: {"mean", "lo", "hi", "n"}},
//	             "percentiles": {METRIC: {"p50", "p95", "max"}},
//	             "worst", "typical"}]}
//
// A swept value, in "values" of a sweep and of a point, is a number: ms,
// or attempts for max_attempts, as Policy holds it: heartbeat off and
// deadline off are 0, margin off is -1 (margin 0ms is 0), max_attempts 0
// is unlimited; of the workload's (see the package's doc), a pause is
// its fixed length, delay off and drift off are 0, a drift V the spread
// of the clocks' offsets, -V..V. Points go in sweep order, the last sweep varying fastest. A stat is the
// mean over the n runs that have the measure (a run without a crash has
// no stall) and its 95% confidence interval [lo, hi] (Student's t); n 0
// has all three 0; lo is never below 0, as no measure is. A point's
// percentiles are the same runs' p50, p95 and max, nearest-rank (see
// Percentiles). Numbers are rounded to 3 decimals. worst is the index
// (0-based) of the run with the highest value of plot[0] and typical the
// run at its median, -1 when no run has it: Story replays either.
//
// leaselab-lab/1 grew, keeping every field it had, by two things a reader
// written before them does not find: each point's "percentiles", and the
// measure unfinished (in "metrics", "stats" and "percentiles").
type Result struct {
	Format  string        `json:"format"`
	Name    string        `json:"name"`
	Title   Title         `json:"title"`
	Seed    uint64        `json:"seed,string"`
	Runs    int           `json:"runs"`
	Jobs    int           `json:"jobs"`
	Workers int           `json:"workers"`
	Sweeps  []Axis        `json:"sweeps"`
	Plot    []string      `json:"plot"`
	Metrics []Metric      `json:"metrics"`
	Points  []PointResult `json:"points"`
	// Calls is the engine calls the runs made, all together, as lab_calls
	// counts them (see Lab.Limits); not in the JSON.
	Calls int64 `json:"-"`
}

// Axis is one swept parameter.
type Axis struct {
	Param  string  `json:"param"`
	Unit   string  `json:"unit"` // ms, or attempts for max_attempts
	Values []int64 `json:"values"`
}

// PointResult is one point's measures.
type PointResult struct {
	Index       int                    `json:"index"`
	Values      []int64                `json:"values"`
	Stats       map[string]Stat        `json:"stats"`
	Percentiles map[string]Percentiles `json:"percentiles"` // each measure's, beside its Stat
	Worst       int                    `json:"worst"`
	Typical     int                    `json:"typical"`
}

// Stat is a mean over runs with its 95% confidence interval.
type Stat struct {
	Mean float64 `json:"mean"`
	Lo   float64 `json:"lo"`
	Hi   float64 `json:"hi"`
	N    int     `json:"n"`
}

// Percentiles are a measure's p50, p95 and max over the runs that have it
// (the n of its Stat), nearest-rank: the p-th percentile of n values is
// the value of rank ceil(p×n/100) in ascending order (of 20 runs, p50 is
// the 10th and p95 the 19th; of 21, the 11th and the 20th), max the n-th;
// all 0 when n is 0.
type Percentiles struct {
	P50 float64 `json:"p50"`
	P95 float64 `json:"p95"`
	Max float64 `json:"max"`
}

// Options tune a lab's run, never its numbers.
type Options struct {
	// Parallel is how many runs go at once; 0 is GOMAXPROCS.
	Parallel int
	// Progress, when not nil, hears after each run how many of all are done
	// (from one goroutine at a time, in no fixed order of runs).
	Progress func(done, total int)
}

// Run runs every point of l's sweep l.Runs times on the engine (each run on
// an in-memory database with every table empty: one database a runner,
// emptied between its runs) and measures them. The Result is the same,
// byte for byte in its JSON, for the same lab and seed, whatever Parallel.
// It stops when ctx ends, with its error.
func Run(ctx context.Context, l *Lab, opts Options) (*Result, error) {
	pts := l.Points()
	samples := make([][]measures, len(pts))
	for i := range samples {
		samples[i] = make([]measures, l.Runs)
	}
	total := len(pts) * l.Runs
	par := opts.Parallel
	if par <= 0 {
		par = runtime.GOMAXPROCS(0)
	}
	par = min(par, total)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu       sync.Mutex
		next     int
		done     int
		firstErr error
		wg       sync.WaitGroup
		calls    atomic.Int64
	)
	for range par {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var b *bench // this runner's, opened at its first run
			defer func() {
				if b != nil {
					b.Close()
				}
			}()
			for {
				mu.Lock()
				k := next
				next++
				mu.Unlock()
				if k >= total || ctx.Err() != nil {
					return
				}
				p, r := k/l.Runs, k%l.Runs
				var smp measures
				var err error
				if b == nil {
					b, err = newBench(ctx, pts[p].Policy)
				}
				if err == nil {
					smp, err = runOn(ctx, b, l, pts[p], r, nil, &calls)
				}
				mu.Lock()
				if err != nil {
					switch ex := (*limits.ExceededError)(nil); {
					case firstErr != nil:
					case errors.As(err, &ex) && ex.Limit.Name == "lab_calls":
						firstErr = err // the lab's, whichever run passed it
					default:
						firstErr = fmt.Errorf("point %d, run %d: %w", p+1, r, err)
					}
					cancel()
				} else {
					samples[p][r] = smp
					done++
					if opts.Progress != nil {
						opts.Progress(done, total)
					}
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res := l.result(pts, samples)
	res.Calls = calls.Load()
	return res, nil
}

func (l *Lab) result(pts []Point, samples [][]measures) *Result {
	res := &Result{Format: FormatVersion, Name: l.Name, Title: l.Title, Seed: l.Seed, Runs: l.Runs,
		Jobs: l.Workload.Jobs, Workers: l.Workload.Workers, Plot: l.Plot, Metrics: Metrics, Sweeps: []Axis{}}
	for _, s := range l.Sweeps {
		unit := "ms"
		if s.Param == "max_attempts" {
			unit = "attempts"
		}
		res.Sweeps = append(res.Sweeps, Axis{s.Param, unit, s.Values})
	}
	primary := metricIndex(l.Plot[0])
	for i, p := range pts {
		pr := PointResult{Index: i, Values: append([]int64{}, p.Values...), Stats: map[string]Stat{}, Percentiles: map[string]Percentiles{}}
		if pr.Values == nil {
			pr.Values = []int64{}
		}
		for m, metric := range Metrics {
			var xs []float64
			for _, s := range samples[i] {
				if s.Has[m] {
					xs = append(xs, s.V[m])
				}
			}
			pr.Stats[metric.Name] = stat(xs)
			pr.Percentiles[metric.Name] = percentiles(xs)
		}
		pr.Worst, pr.Typical = pick(samples[i], primary)
		res.Points = append(res.Points, pr)
	}
	return res
}

// pick is the run with the highest value of metric m (the lowest index
// among equals) and the run at the median (the lower one of an even
// count); -1 each when no run has m.
func pick(runs []measures, m int) (worst, typical int) {
	var idx []int
	for r, s := range runs {
		if s.Has[m] {
			idx = append(idx, r)
		}
	}
	if len(idx) == 0 {
		return -1, -1
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch va, vb := runs[a].V[m], runs[b].V[m]; {
		case va < vb:
			return -1
		case va > vb:
			return 1
		}
		return a - b
	})
	top := len(idx) - 1
	for top > 0 && runs[idx[top-1]].V[m] == runs[idx[top]].V[m] {
		top--
	}
	return idx[top], idx[(len(idx)-1)/2]
}

// stat is the mean of xs and its 95% confidence interval.
func stat(xs []float64) Stat {
	n := len(xs)
	if n == 0 {
		return Stat{}
	}
	var sum float64
	for _, x := range xs {
		sum += x
	}
	mean := sum / float64(n)
	if n == 1 {
		return Stat{round3(mean), round3(mean), round3(mean), 1}
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	half := tQuantile(n-1) * math.Sqrt(ss/float64(n-1)/float64(n))
	return Stat{round3(mean), round3(max(0, mean-half)), round3(mean + half), n}
}

// percentiles are xs's p50, p95 and max, nearest-rank (see Percentiles).
func percentiles(xs []float64) Percentiles {
	n := len(xs)
	if n == 0 {
		return Percentiles{}
	}
	sorted := slices.Clone(xs)
	slices.Sort(sorted)
	rank := func(p int) float64 { return round3(sorted[(p*n+99)/100-1]) }
	return Percentiles{P50: rank(50), P95: rank(95), Max: round3(sorted[n-1])}
}

// tQuantile is Student's t at 0.975 for df degrees of freedom.
func tQuantile(df int) float64 {
	table := []float64{12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
		2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
		2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042}
	if df <= len(table) {
		return table[df-1]
	}
	return 1.96 + 2.4/float64(df) // within 0.002 of the true quantile above 30
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

// Story is run number run (0-based) of point (0-based) replayed as a
// timeline that leaselab check and the player play: the same steps on the
// engine, each with the outcome it had as its expectation, and the
// invariants the run broke (a landed stale write, a second application)
// announced. A run of more steps than the limit steps (or a text over
// text_bytes) is an *limits.ExceededError: no timeline could hold it.
func Story(ctx context.Context, l *Lab, point, run int) (string, error) {
	pts := l.Points()
	if point < 0 || point >= len(pts) || run < 0 || run >= l.Runs {
		return "", fmt.Errorf("lab: no run %d of point %d (%d points of %d runs)", run, point, len(pts), l.Runs)
	}
	rec := &recorder{}
	title := l.Title.En
	if title == "" {
		title = l.Name
	}
	var where []string
	for i, s := range l.Sweeps {
		where = append(where, fmt.Sprintf("%s=%s", s.Param, paramValue(s.Param, pts[point].Values[i])))
	}
	at := ""
	if len(where) > 0 {
		at = " (" + strings.Join(where, " ") + ")"
	}
	rec.title = append(rec.title, fmt.Sprintf("%s: point %d%s, run %d, seed %d", title, point, at, run, l.Seed))
	if _, err := runOne(ctx, l, pts[point], run, rec, nil); err != nil {
		return "", err
	}
	steps := 0
	for _, line := range rec.lines {
		if !strings.HasPrefix(line, "#") {
			steps++
		}
	}
	text := rec.text()
	switch {
	case steps > limits.Default.Steps:
		return "", &limits.ExceededError{Limit: limits.Default.Row("steps"), What: fmt.Sprintf("run %d of point %d, %d steps,", run, point, steps)}
	case len(text) > limits.Default.TextBytes:
		return "", &limits.ExceededError{Limit: limits.Default.Row("text_bytes"), What: fmt.Sprintf("run %d of point %d as a timeline", run, point)}
	}
	return text, nil
}

// paramValue writes a parameter's value as a lab does.
func paramValue(param string, v int64) string {
	switch {
	case param == "max_attempts":
		return fmt.Sprint(v)
	case param == "margin" && v < 0, param != "lease" && v == 0 && param != "margin":
		return "off"
	case v >= 1000 && v%1000 == 0:
		return fmt.Sprintf("%ds", v/1000)
	}
	return ms(v)
}
