package lab_test

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/lab"
)

// onePoint is a result of the given sweeps whose points have dup_ms's
// means, each with the interval [mean-1, mean+1] over 3 runs (n 0 for a
// mean below 0).
func onePoint(title string, sweeps []lab.Axis, means ...float64) *lab.Result {
	r := &lab.Result{Format: lab.FormatVersion, Name: "t.lab", Title: lab.Title{En: title}, Runs: 3, Jobs: 3, Workers: 2,
		Sweeps: sweeps, Plot: []string{"dup_ms"}, Metrics: lab.Metrics}
	for i, m := range means {
		st := lab.Stat{Mean: m, Lo: m - 1, Hi: m + 1, N: 3}
		if m < 0 {
			st = lab.Stat{}
		}
		var values []int64
		for _, s := range sweeps {
			values = append(values, s.Values[i%len(s.Values)])
		}
		r.Points = append(r.Points, lab.PointResult{Index: i, Values: values, Stats: map[string]lab.Stat{"dup_ms": st}})
	}
	return r
}

var descRE = regexp.MustCompile(`<desc>(.*)</desc>`)

// A plot's description says where each measure is lowest and highest
// along the sweep; a lab of one point (no sweep, or a sweep of one value)
// has no lowest and highest, and says its one mean and interval instead,
// in English and Korean, or that no run has the measure.
func TestWriteSVG_DescribesALabOfOnePointByItsMean(t *testing.T) {
	lease1 := []lab.Axis{{Param: "lease", Unit: "ms", Values: []int64{1000}}}
	lease2 := []lab.Axis{{Param: "lease", Unit: "ms", Values: []int64{1000, 2000}}}
	for _, tc := range []struct {
		name, lang string
		r          *lab.Result
		want       string
	}{
		{"no sweep", "en", onePoint("Tiny", []lab.Axis{}, 4471),
			"duplicate work: ms of work done again (ms), the lab's one point (it sweeps nothing): mean 4471, 95% interval [4470, 4472]."},
		{"no sweep, in Korean", "ko", onePoint("Tiny", []lab.Axis{}, 4471),
			"중복 작업: 다시 한 작업의 시간(ms), 실험의 한 점(훑는 매개변수 없음): 평균 4471, 95% 구간 [4470, 4472]."},
		{"no sweep, no run has it", "en", onePoint("Tiny", []lab.Axis{}, -1),
			"duplicate work: ms of work done again (ms), the lab's one point (it sweeps nothing): no run has this measure."},
		{"no sweep, no run has it, in Korean", "ko", onePoint("Tiny", []lab.Axis{}, -1),
			"중복 작업: 다시 한 작업의 시간(ms), 실험의 한 점(훑는 매개변수 없음): 이 측정값을 낸 실행이 없습니다."},
		{"a sweep of one value", "en", onePoint("Tiny", lease1, 7),
			"duplicate work: ms of work done again (ms), the lab's one point (lease=1s): mean 7, 95% interval [6, 8]."},
		{"a sweep of two values", "en", onePoint("Tiny", lease2, 7, 3),
			"duplicate work: ms of work done again (ms), mean with its 95% interval by lease: lowest 3 at lease=2s, highest 7 at lease=1s."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := tc.r.WriteSVG(&b, tc.lang); err != nil {
				t.Fatal(err)
			}
			m := descRE.FindStringSubmatch(b.String())
			if m == nil {
				t.Fatalf("no <desc> in\n%s", b.String())
			}
			if got := strings.ReplaceAll(m[1], "&#39;", "'"); got != tc.want {
				t.Errorf("\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

// The table's legend names the lab by its title, or, untitled, by its
// name: it never starts with a bare colon.
func TestWriteTable_LegendNamesAnUntitledLab(t *testing.T) {
	for _, tc := range []struct{ title, want string }{
		{"Tiny", "\nTiny: 3 runs a point of 3 jobs, 2 workers, seed 0;"},
		{"", "\nt.lab: 3 runs a point of 3 jobs, 2 workers, seed 0;"},
	} {
		var b bytes.Buffer
		if err := onePoint(tc.title, []lab.Axis{}, 1).WriteTable(&b); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), tc.want) {
			t.Errorf("title %q: no %q in\n%s", tc.title, tc.want, b.String())
		}
	}
}
