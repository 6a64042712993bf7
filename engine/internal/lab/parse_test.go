package lab_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/lab"
	"github.com/leaselab/leaselab/engine/limits"
)

// parseErr is Parse's whole error text for src, "" when it parses.
func parseErr(src string) string {
	_, err := lab.Parse("t.lab", src)
	if err == nil {
		return ""
	}
	return err.Error()
}

// wantParse checks src's parse error got ("" none) against want: "" to
// parse, else a substring of the error.
func wantParse(t *testing.T, src, got, want string) {
	t.Helper()
	switch {
	case want == "" && got != "":
		t.Errorf("%q: %s; want it to parse", src, got)
	case want != "" && !strings.Contains(got, want):
		t.Errorf("%q: %q; want an error with %q", src, got, want)
	}
}

// Each bound of the format, before, at and after it: the last good value
// parses, the first bad one is an error at its line and column.
func TestParse_Boundaries(t *testing.T) {
	for _, c := range []struct {
		name, src, want string // want "" parses; else a substring of the error
	}{
		{"jobs below 1", "jobs 0", "t.lab:1:6: jobs 0 is below 1"},
		{"jobs at 1", "jobs 1", ""},
		{"jobs at the limit", "jobs 1000\nruns 100", ""},
		{"jobs over the limit", "jobs 1001", "t.lab:1:6: jobs 1001: over the limit jobs (1000"},
		{"workers at the limit", "workers 100", ""},
		{"workers over the limit", "workers 101", "over the limit workers (100"},
		{"runs at the limit", "jobs 1\nruns 1000", ""},
		{"runs over the limit", "jobs 1\nruns 1001", "t.lab:2:6: runs 1001: over the limit lab_runs (1000"},
		{"points at the limit", "jobs 1\nsweep lease 1ms..10ms step 1ms\nsweep max_attempts 1..10 step 1", ""},
		{"points over the limit", "jobs 1\nsweep lease 1ms..10ms step 1ms\nsweep max_attempts 1..11 step 1", "t.lab:3:1: 110 points: over the limit lab_points (100"},
		{"one sweep over the limit", "sweep lease 1ms..101ms step 1ms", "t.lab:1:13: 101 values: over the limit lab_points"},
		{"work before the limit", "jobs 101\nruns 990", ""},
		{"work at the limit", "jobs 100\nruns 1000", ""},
		{"work over the limit", "jobs 101\nruns 991", "t.lab:2:1: 1 points × 991 runs × 101 jobs is 100091 job-runs: over the limit lab_work"},
		{"lease below 1ms", "lease 0ms", "t.lab:1:7: 0ms is below 1ms"},
		{"heartbeat 0ms points at off", "heartbeat 0ms", "t.lab:1:11: 0ms is below 1ms: write `heartbeat off` for none"},
		{"deadline 0s points at off", "deadline 0s", "t.lab:1:10: 0s is below 1ms: write `deadline off` for none"},
		{"sweep heartbeat 0ms points at off", "sweep heartbeat off 0ms", "t.lab:1:21: 0ms is below 1ms: write `heartbeat off` for none"},
		{"lease at 1ms", "lease 1ms", ""},
		{"lease at max_time", "lease 1000000000ms", ""},
		{"lease over max_time", "lease 1000000001ms", "over the limit max_time"},
		{"a duration without a unit", "lease 1000", `t.lab:1:7: "1000": a duration needs a unit`},
		{"a fraction of a ms", "lease 1.5ms", "not a whole number of ms"},
		{"seconds with a fraction", "lease 1.5s", ""},
		{"minutes", "horizon 2m", ""},
		{"a misspelt word", "jobs 3\nleese 1s", "t.lab:2:1: unknown word \"leese\" (did you mean lease?)"},
		{"a misspelt distribution", "work lognormall 1s 0.5", `t.lab:1:6: unknown distribution "lognormall" (did you mean lognormal?)`},
		{"uniform backwards", "work uniform 2s 1s", "t.lab:1:17: uniform's end 1s is before its start 2s"},
		{"uniform of one value", "work uniform 1s 1s", ""},
		{"spread at 3", "work lognormal 1s 3", ""},
		{"spread over 3", "work lognormal 1s 3.1", "t.lab:1:19: lognormal's spread"},
		{"a mixture", "work mixture 0.9 fixed 1s | 0.1 uniform 5s 10s", ""},
		{"a mixture of one part", "work mixture 1 fixed 1s", "a mixture has two parts or more"},
		{"a negative drift", "drift uniform -50ms 50ms", ""},
		{"a negative work", "work fixed -1ms", "t.lab:1:12: -1ms is below 0ms"},
		{"gc without pause", "gc every fixed 1s", `no "pause"`},
		{"gc off", "gc off", ""},
		{"a third sweep", "sweep lease 1s 2s\nsweep margin 0ms 1ms\nsweep heartbeat 1s 2s", "t.lab:3:1: a lab sweeps at most two parameters"},
		{"sweep values that go down", "sweep lease 2s 1s", "t.lab:1:16: the values go up"},
		{"sweep of margin off", "sweep margin off 0ms 100ms", ""},
		{"an unknown metric", "plot dup", `unknown metric "dup"`},
		{"a line twice", "jobs 2\njobs 3", "t.lab:2:1: jobs is set twice (line 1)"},
		{"storage misspelt", "storage fenced-ish", `unknown storage "fenced-ish"`},
		{"an unterminated title", `title ko "리스`, "t.lab:1:10: unterminated quote"},
	} {
		t.Run(c.name, func(t *testing.T) { wantParse(t, c.src, parseErr(c.src), c.want) })
	}
}

// Every bad line is its own error, one a line, in line order; a limit's
// error carries the limit.
func TestParse_ReportsEveryBadLineOnce(t *testing.T) {
	_, err := lab.Parse("t.lab", "jobs x y\nworkers 0\nfoo 1\nruns 2000\n")
	var list lab.ErrorList
	if !errors.As(err, &list) || len(list) != 4 || !errors.Is(err, lab.ErrBadInput) {
		t.Fatalf("%v; want four errors matching ErrBadInput", err)
	}
	for i, e := range list {
		if e.Line != i+1 {
			t.Errorf("error %d at line %d, want %d", i, e.Line, i+1)
		}
	}
	if !errors.Is(err, limits.ErrExceeded) {
		t.Errorf("%v: the runs over lab_runs do not match limits.ErrExceeded", err)
	}
}

func TestParse_TitlesAndDefaults(t *testing.T) {
	l, err := lab.Parse("t.lab", "# Leases\ntitle ko \"리스\"\n# not the title\njobs 3\n")
	if err != nil {
		t.Fatal(err)
	}
	if l.Title.En != "Leases" || l.Title.Ko != "리스" || l.Workload.Jobs != 3 || l.Policy.Margin != -1 || !l.Policy.Fenced || len(l.Points()) != 1 {
		t.Errorf("%+v", l)
	}
}

// The library's labs parse, each with an English and a Korean title.
func TestLibrary_LabsParseWithBothTitles(t *testing.T) {
	names := lab.LibraryNames()
	if len(names) != 3 {
		t.Fatalf("library %v, want three labs", names)
	}
	for _, n := range names {
		l, err := lab.LoadLibrary(n)
		if err != nil {
			t.Fatal(err)
		}
		if l.Title.En == "" || l.Title.Ko == "" {
			t.Errorf("%s: titles %+v, want en and ko", n, l.Title)
		}
	}
}

// A heartbeat renews a lease only while it runs: a heartbeat not shorter
// than the lease is refused, at every point of a sweep, at the value that
// makes it so and naming both values, before, at and after the lease.
func TestParse_RefusesAHeartbeatNotShorterThanTheLease(t *testing.T) {
	const why = ": a renew at or after the lease's end can never keep it"
	for _, c := range []struct {
		name, src, want string // want "" parses; else the whole error
	}{
		{"before the lease", "lease 1s\nheartbeat 999ms", ""},
		{"at the lease", "lease 1s\nheartbeat 1s", "t.lab:2:11: heartbeat 1s is not shorter than the lease 1s (line 1)" + why},
		{"after the lease", "lease 1s\nheartbeat 1001ms", "t.lab:2:11: heartbeat 1001ms is not shorter than the lease 1s (line 1)" + why},
		{"written before the lease", "heartbeat 2s\nlease 2s", "t.lab:1:11: heartbeat 2s is not shorter than the lease 2s (line 2)" + why},
		{"at the default lease", "heartbeat 1s", "t.lab:1:11: heartbeat 1s is not shorter than the lease 1s (the default)" + why},
		{"off at any lease", "lease 1ms\nheartbeat off", ""},
		{"a swept heartbeat below the lease", "lease 1s\nsweep heartbeat off 500ms 999ms", ""},
		{"a swept heartbeat at the lease", "lease 1s\nsweep heartbeat 500ms 1s 2s", "t.lab:2:23: heartbeat 1s is not shorter than the lease 1s (line 1)" + why},
		{"a swept range reaching the lease", "sweep heartbeat 200ms..1s step 200ms", "t.lab:1:17: heartbeat 1s is not shorter than the lease 1s (the default)" + why},
		{"a swept lease above the heartbeat", "heartbeat 500ms\nsweep lease 501ms 1s", ""},
		{"a swept lease at the heartbeat", "heartbeat 500ms\nsweep lease 250ms 500ms 1s", "t.lab:2:13: lease 250ms is not longer than the heartbeat 500ms (line 1)" + why},
		{"a grid's corner", "sweep lease 1s 2s\nsweep heartbeat 500ms 1500ms", "t.lab:2:23: heartbeat 1500ms is not shorter than the lease 1s (line 1)" + why},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := parseErr(c.src)
			if got != c.want {
				t.Errorf("%q: %q; want %q", c.src, got, c.want)
			}
		})
	}
}

// A lab's engine calls are estimated before it runs — a run is charged 50
// calls for its fresh database, then enqueues, claims, writes, delivers
// and completes each job once and renews it every heartbeat of its mean
// work, its workers busy at most to the horizon — and a lab estimated
// over lab_calls is refused, naming the limit and the estimate. Before,
// at and after a bound of 1,000 calls, without a heartbeat (ten jobs: 100
// calls a run) and with one (a job of 1 s renewed every 100 ms: 65).
func TestParse_RefusesALabEstimatedOverLabCalls(t *testing.T) {
	lim := limits.Default
	lim.LabCalls = 1000
	for _, c := range []struct {
		name, src, want string // want "" parses; else a substring of the error
	}{
		{"before the bound", "jobs 10\nruns 9", ""},
		{"at the bound", "jobs 10\nruns 10", ""},
		{"after the bound", "jobs 10\nruns 11", "t.lab:2:1: 1 points × 11 runs of up to 100 engine calls is about 1100 calls: over the limit lab_calls (1000"},
		{"renews before the bound", "jobs 1\nwork fixed 1s\nheartbeat 100ms\nsweep lease 1s 2s\nruns 7", ""},
		{"renews after the bound", "jobs 1\nwork fixed 1s\nheartbeat 100ms\nsweep lease 1s 2s\nruns 8", "t.lab:5:1: 2 points × 8 runs of up to 65 engine calls is about 1040 calls: over the limit lab_calls"},
		{"renews cut at the horizon", "jobs 1\nwork fixed 1m\nheartbeat 100ms\nhorizon 3s\nruns 11", ""},
		{"renews cut at the horizon, after the bound", "jobs 1\nwork fixed 1m\nheartbeat 100ms\nhorizon 3s\nruns 12", "t.lab:5:1: 1 points × 12 runs of up to 85 engine calls is about 1020 calls"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := ""
			if _, err := lab.ParseLimits("t.lab", c.src, lim); err != nil {
				got = err.Error()
			}
			wantParse(t, c.src, got, c.want)
		})
	}
}

// 100 points of 1,000 runs of one job renewed every 10 ms for 3 minutes
// keeps within lab_points, lab_runs, lab_work and, run by run, lab_ops
// (18,000 renews), and would call the engine 1.8 billion times: hours.
// It is refused before it runs, with the limit and the estimate; the
// library's labs and the benchmark's sweep fit.
func TestParse_RefusesALabThatWouldRunForHours(t *testing.T) {
	_, err := lab.Parse("t.lab", "jobs 1\nwork fixed 10m\nheartbeat 10ms\nhorizon 3m\nruns 1000\nsweep lease 1s..100s step 1s\n")
	var ex *limits.ExceededError
	want := "t.lab:6:1: 100 points × 1000 runs of up to 18055 engine calls is about 1805500000 calls: over the limit lab_calls"
	if err == nil || !strings.Contains(err.Error(), want) || !errors.As(err, &ex) || ex.Limit.Name != "lab_calls" {
		t.Errorf("%v; want %q", err, want)
	}
	for _, name := range lab.LibraryNames() {
		if _, err := lab.LoadLibrary(name); err != nil {
			t.Error(err)
		}
	}
	text, err := os.ReadFile(filepath.Join("testdata", "bench.lab"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lab.Parse("bench.lab", string(text)); err != nil {
		t.Error(err)
	}
}
