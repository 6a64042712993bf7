// Command benchratio summarises `go test -bench` output of BenchmarkCycle
// (package engine/internal/bench/cycle): one row per storage with the median over
// runs (-count) of every metric the benchmark reported, and, for each
// storage given a goal, whether every ratio to goqite (units "x-goqite",
// "next-x-goqite") reaches it; with -floor, whether the engine's distance
// to the floor (unit "x-floor": the floor's cycles/s over the engine's, so
// how many times the floor's time a cycle takes the engine) stays at most
// that on every storage. It reads the output on stdin:
//
//	go test -run '^$' -bench '^BenchmarkCycle$' ./engine/internal/bench/cycle/ |
//		go run ./engine/internal/bench/ratio -goal memdb=2.0 -goal file=1.0 -floor 1.5
//
// A missed goal is printed, not an error: the figures are measurements of a
// shared machine. It fails only when the input holds no benchmark result.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
)

func main() {
	goals := goals{}
	flag.Var(goals, "goal", "`storage=ratio`: the least ratio to goqite for that storage (repeatable)")
	floor := flag.Float64("floor", 0, "the most the engine's x-floor may be on every storage (0: no goal)")
	flag.Parse()
	res, err := parse(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchratio:", err)
		os.Exit(1)
	}
	if err := res.write(os.Stdout, goals, *floor); err != nil {
		fmt.Fprintln(os.Stderr, "benchratio:", err)
		os.Exit(1)
	}
}

// goals maps a storage to the least ratio its ratios must reach.
type goals map[string]float64

func (g goals) String() string { return fmt.Sprint(map[string]float64(g)) }

func (g goals) Set(s string) error {
	storage, v, ok := strings.Cut(s, "=")
	if !ok || storage == "" {
		return fmt.Errorf("goal %q: want storage=ratio", s)
	}
	r, err := strconv.ParseFloat(v, 64)
	if err != nil || r <= 0 {
		return fmt.Errorf("goal %q: ratio must be a positive number", s)
	}
	g[storage] = r
	return nil
}

// results holds, per storage, each metric's values over runs.
type results struct {
	storages []string                        // in order of first appearance
	units    []string                        // in order of first appearance
	values   map[string]map[string][]float64 // storage -> unit -> one value per run
}

// benchLine matches "BenchmarkCycle/memdb-2   123   4.5 unit   6 unit ...".
var benchLine = regexp.MustCompile(`^Benchmark[^/\s]*/(\S+?)(?:-\d+)?\s+\d+\s+(.*)$`)

var errNoResults = errors.New("no benchmark results in the input")

// parse reads go test -bench output; lines that are not a sub-benchmark's
// result are skipped.
func parse(r io.Reader) (*results, error) {
	res := &results{values: map[string]map[string][]float64{}}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		m := benchLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		storage, fields := m[1], strings.Fields(m[2])
		if len(fields)%2 != 0 {
			return nil, fmt.Errorf("odd value/unit fields: %q", sc.Text())
		}
		if res.values[storage] == nil {
			res.storages = append(res.storages, storage)
			res.values[storage] = map[string][]float64{}
		}
		for i := 0; i < len(fields); i += 2 {
			v, err := strconv.ParseFloat(fields[i], 64)
			if err != nil {
				return nil, fmt.Errorf("value %q: %w", fields[i], err)
			}
			unit := fields[i+1]
			if unit == "ns/op" && v == 0 {
				continue
			}
			if !slices.Contains(res.units, unit) {
				res.units = append(res.units, unit)
			}
			res.values[storage][unit] = append(res.values[storage][unit], v)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(res.storages) == 0 {
		return nil, errNoResults
	}
	return res, nil
}

// floorUnit is the unit of the engine's distance to the floor.
const floorUnit = "x-floor"

// isRatio reports whether unit is a ratio (to goqite or to the floor).
func isRatio(unit string) bool {
	return strings.HasPrefix(unit, "x-") || strings.Contains(unit, "-x-")
}

// verdict says whether every ratio to goqite of one storage reaches goal:
// "" when there is no goal.
func verdict(medians map[string]float64, goal float64) string {
	if goal == 0 {
		return ""
	}
	var missed []string
	for unit, v := range medians {
		if isRatio(unit) && strings.HasSuffix(unit, "x-goqite") && v < goal {
			missed = append(missed, fmt.Sprintf("%s %.2f", unit, v))
		}
	}
	if len(missed) > 0 {
		slices.Sort(missed)
		return fmt.Sprintf("MISSED >= %.2fx (%s)", goal, strings.Join(missed, ", "))
	}
	return fmt.Sprintf("met >= %.2fx", goal)
}

// floorVerdict says whether one storage's distance to the floor is at most
// most: "" when there is no goal, MISSED when the storage has no figure.
func floorVerdict(medians map[string]float64, most float64) string {
	if most == 0 {
		return ""
	}
	v, ok := medians[floorUnit]
	switch {
	case !ok:
		return fmt.Sprintf("MISSED <= %.2fx (no %s)", most, floorUnit)
	case v > most:
		return fmt.Sprintf("MISSED <= %.2fx (%s %.2f)", most, floorUnit, v)
	}
	return fmt.Sprintf("met <= %.2fx", most)
}

// write prints the table: medians over runs, ratios as "2.10x", the
// verdict on the goal to goqite and, when floor is not 0, on the floor.
func (res *results) write(w io.Writer, g goals, floor float64) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "storage\truns\t")
	for _, u := range res.units {
		fmt.Fprintf(tw, "%s\t", u)
	}
	fmt.Fprint(tw, "goal\t")
	if floor != 0 {
		fmt.Fprint(tw, "floor goal\t")
	}
	fmt.Fprintln(tw)
	for _, s := range res.storages {
		medians := map[string]float64{}
		runs := 0
		fmt.Fprintf(tw, "%s\t", s)
		var cells []string
		for _, u := range res.units {
			vs := res.values[s][u]
			runs = max(runs, len(vs))
			if len(vs) == 0 {
				cells = append(cells, "-")
				continue
			}
			m := median(vs)
			medians[u] = m
			if isRatio(u) {
				cells = append(cells, fmt.Sprintf("%.2fx", m))
			} else {
				cells = append(cells, strconv.FormatFloat(m, 'f', -1, 64))
			}
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t", runs, strings.Join(cells, "\t"), verdict(medians, g[s]))
		if floor != 0 {
			fmt.Fprintf(tw, "%s\t", floorVerdict(medians, floor))
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

// median of xs (not empty); xs is left as it was.
func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	m := len(s) / 2
	if len(s)%2 == 0 {
		return (s[m-1] + s[m]) / 2
	}
	return s[m]
}
