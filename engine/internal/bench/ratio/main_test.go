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

func TestVerdict_GoalIsALowerBoundInclusive(t *testing.T) {
	for _, c := range []struct {
		name   string
		ratios map[string]float64
		goal   float64
		want   string // prefix
	}{
		{"below", map[string]float64{"x-goqite": 1.99}, 2, "MISSED"},
		{"at", map[string]float64{"x-goqite": 2.0}, 2, "met"},
		{"above", map[string]float64{"x-goqite": 2.01}, 2, "met"},
		{"one of two below", map[string]float64{"x-goqite": 2.5, "next-x-goqite": 1.5}, 2, "MISSED"},
		{"rates are not ratios", map[string]float64{"x-goqite": 2.5, "goqite-cycles/s": 1}, 2, "met"},
		{"no goal", map[string]float64{"x-goqite": 0.1}, 0, ""},
	} {
		got := verdict(c.ratios, c.goal)
		if !strings.HasPrefix(got, c.want) || (c.want == "" && got != "") {
			t.Errorf("%s: verdict %q, want %q...", c.name, got, c.want)
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
	if err := res.write(&b, goals{"memdb": 2, "file": 1.1}); err != nil {
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
