package main

import (
	"errors"
	"math"
	"strings"
	"testing"
)

const sample = `goos: linux
goarch: amd64
pkg: github.com/leaselab/leaselab/engine/internal/bench/cycle
cpu: AMD EPYC
BenchmarkCycle/memdb-2         	   26260	      4288 goqite-cycles/s	      8570 leaselab-cycles/s	         1.965 x-goqite
BenchmarkCycle/memdb-2         	   28608	      3467 goqite-cycles/s	      7118 leaselab-cycles/s	         2.095 x-goqite
BenchmarkCycle/memdb-2         	   28000	      4000 goqite-cycles/s	      9000 leaselab-cycles/s	         2.010 x-goqite
BenchmarkCycle/file-2          	     169	        43.79 goqite-cycles/s	        45.41 leaselab-cycles/s	         1.052 x-goqite
BenchmarkCycle/file-2          	    1248	       275.8 goqite-cycles/s	       302.2 leaselab-cycles/s	         1.096 x-goqite
PASS
ok  	github.com/leaselab/leaselab/engine/internal/bench/cycle	99.331s
`

func TestParse_MediansOverRunsPerStorage(t *testing.T) {
	res, err := parse(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(res.storages, ","); got != "memdb,file" {
		t.Fatalf("storages %s, want memdb,file", got)
	}
	for _, c := range []struct {
		storage, unit string
		want          float64
	}{
		{"memdb", "goqite-cycles/s", 4000}, // odd count: the middle one
		{"memdb", "leaselab-cycles/s", 8570},
		{"memdb", "x-goqite", 2.010},
		{"file", "goqite-cycles/s", (43.79 + 275.8) / 2}, // even count: the mean of the middle two
		{"file", "x-goqite", (1.052 + 1.096) / 2},
	} {
		if got := median(res.values[c.storage][c.unit]); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s %s: median %v, want %v", c.storage, c.unit, got, c.want)
		}
	}
}

func TestParse_RefusesInputWithoutResults(t *testing.T) {
	for _, in := range []string{
		"",
		"PASS\nok  \tpkg\t0.1s\n",
		"--- FAIL: BenchmarkCycle/memdb\n    bench_test.go:1: boom\nFAIL\n",
	} {
		if _, err := parse(strings.NewReader(in)); !errors.Is(err, errNoResults) {
			t.Errorf("parse(%q) = %v, want errNoResults", in, err)
		}
	}
}

func TestParse_RefusesMalformedMetrics(t *testing.T) {
	for _, in := range []string{
		"BenchmarkCycle/memdb-2  10  4288 goqite-cycles/s 2.0\n", // a value without a unit
		"BenchmarkCycle/memdb-2  10  many goqite-cycles/s\n",     // not a number
	} {
		if _, err := parse(strings.NewReader(in)); err == nil || errors.Is(err, errNoResults) {
			t.Errorf("parse(%q) = %v, want a format error", in, err)
		}
	}
}

// TestVerdicts_BoundsAreInclusive holds the goal to goqite as a lower
// bound and the floor's as an upper bound, each met at the bound itself.
func TestVerdicts_BoundsAreInclusive(t *testing.T) {
	type m = map[string]float64
	for _, c := range []struct {
		name string
		got  string
		want string // prefix
	}{
		{"goqite: below", verdict(m{"x-goqite": 1.99}, 2), "MISSED"},
		{"goqite: at", verdict(m{"x-goqite": 2.0}, 2), "met"},
		{"goqite: above", verdict(m{"x-goqite": 2.01}, 2), "met"},
		{"goqite: one of two below", verdict(m{"x-goqite": 2.5, "next-x-goqite": 1.5}, 2), "MISSED"},
		{"goqite: rates are not ratios", verdict(m{"x-goqite": 2.5, "goqite-cycles/s": 1}, 2), "met"},
		{"goqite: the floor is not goqite", verdict(m{"x-goqite": 2.5, "x-floor": 1.2}, 2), "met"},
		{"goqite: no goal", verdict(m{"x-goqite": 0.1}, 0), ""},
		{"floor: below", floorVerdict(m{"x-floor": 1.49}, 1.5), "met"},
		{"floor: at", floorVerdict(m{"x-floor": 1.5}, 1.5), "met"},
		{"floor: above", floorVerdict(m{"x-floor": 1.51}, 1.5), "MISSED"},
		{"floor: not measured", floorVerdict(m{"x-goqite": 3}, 1.5), "MISSED"},
		{"floor: ratios to goqite do not count", floorVerdict(m{"x-floor": 1.2, "x-goqite": 9}, 1.5), "met"},
		{"floor: no goal", floorVerdict(m{"x-floor": 9}, 0), ""},
	} {
		if !strings.HasPrefix(c.got, c.want) || (c.want == "" && c.got != "") {
			t.Errorf("%s: verdict %q, want %q...", c.name, c.got, c.want)
		}
	}
}

func TestGoals_RefuseMalformedFlags(t *testing.T) {
	for _, c := range []struct {
		flag string
		ok   bool
	}{
		{"memdb=2.0", true},
		{"file=1", true},
		{"memdb", false},
		{"=2", false},
		{"memdb=two", false},
		{"memdb=0", false},
		{"memdb=-1", false},
	} {
		g := goals{}
		if err := g.Set(c.flag); (err == nil) != c.ok {
			t.Errorf("Set(%q) = %v, want ok=%v", c.flag, err, c.ok)
		}
	}
}

func TestWrite_ShowsRatiosAndVerdictPerStorage(t *testing.T) {
	res, err := parse(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := res.write(&b, goals{"memdb": 2, "file": 1.1}, 0); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("want a header and two rows, got:\n%s", b.String())
	}
	for i, want := range [][]string{
		{"storage", "runs", "goqite-cycles/s", "x-goqite", "goal"},
		{"memdb", " 3 ", "4000", "8570", "2.01x", "met >= 2.00x"},
		{"file", " 2 ", "1.07x", "MISSED >= 1.10x (x-goqite 1.07)"},
	} {
		for _, w := range want {
			if !strings.Contains(lines[i], w) {
				t.Errorf("line %d %q lacks %q", i, lines[i], w)
			}
		}
	}
}

func TestWrite_ShowsTheFloorGoalOnlyWhenGiven(t *testing.T) {
	const in = `BenchmarkCycle/memdb-2  10  9000 floor-cycles/s  6000 leaselab-cycles/s  1.4 x-floor  2.6 x-goqite
BenchmarkCycle/file-2  10  500 floor-cycles/s  300 leaselab-cycles/s  1.7 x-floor  1.3 x-goqite
`
	res, err := parse(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		floor float64
		want  [][]string // per line, what it holds
		not   string     // what no line holds
	}{
		{1.5, [][]string{{"floor goal"}, {"1.40x", "met <= 1.50x"}, {"1.70x", "MISSED <= 1.50x (x-floor 1.70)"}}, ""},
		{0, [][]string{{"goal"}, {"1.40x"}, {"1.70x"}}, "floor goal"},
	} {
		var b strings.Builder
		if err := res.write(&b, goals{"memdb": 2.5}, c.floor); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(b.String()), "\n")
		if len(lines) != 3 {
			t.Fatalf("floor %v: want a header and two rows, got:\n%s", c.floor, b.String())
		}
		for i, want := range c.want {
			for _, w := range want {
				if !strings.Contains(lines[i], w) {
					t.Errorf("floor %v: line %d %q lacks %q", c.floor, i, lines[i], w)
				}
			}
		}
		if c.not != "" && strings.Contains(b.String(), c.not) {
			t.Errorf("floor %v: the table shows %q:\n%s", c.floor, c.not, b.String())
		}
	}
}
