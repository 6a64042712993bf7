package timeline_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/limits"
	"github.com/leaselab/leaselab/engine/timeline"
	"github.com/leaselab/leaselab/engine/timeline/memrun"
)

const epoch = 1764806400000 // 2025-12-04 00:00 UTC in Unix ms

func TestEpoch_StepTimesAreRealInstantsFromIt(t *testing.T) {
	maxTime := limits.Default.MaxTime
	for _, tc := range []struct {
		name string
		at   int64
		want string // "" parses; else the error's text holds it
	}{
		{"before the epoch", epoch - 1, "is before the epoch"},
		{"at the epoch", epoch, ""},
		{"one after", epoch + 1, ""},
		{"at the limit after the epoch", epoch + maxTime, ""},
		{"one past the limit", epoch + maxTime + 1, "over the limit max_time"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "epoch 1764806400000\njob a\n" + itoa(tc.at) + " A claim a ttl=1000\n"
			tl, err := timeline.Parse("e.tl", src)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.want == "" && (tl.Epoch != epoch || tl.Steps[0].Time != tc.at):
				t.Fatalf("epoch %d, time %d; want %d, %d", tl.Epoch, tl.Steps[0].Time, int64(epoch), tc.at)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "e.tl:3:1: ")):
				t.Fatalf("err %v, want one at e.tl:3:1 saying %q", err, tc.want)
			}
		})
	}
}

func TestEpoch_WithoutItARealInstantIsRefusedWithTheWayOut(t *testing.T) {
	_, err := timeline.Parse("e.tl", "job a\n1764806400000 A claim a ttl=1000\n")
	if !errors.Is(err, timeline.ErrBadInput) || !strings.Contains(err.Error(), "an `epoch T` line") {
		t.Fatalf("err %v, want the limit naming the epoch line", err)
	}
}

func TestEpoch_HeaderMistakesAreErrorsAtTheirLine(t *testing.T) {
	for _, src := range []string{
		"job a\nepoch 1764806400000\n", // after a job line
		"epoch 1\nepoch 2\n",           // twice
		"epoch\n",                      // no instant
		"epoch 0\n",                    // not after 0
		"epoch soon\n",                 // malformed
		"epoch 1764806400000\njob a deadline=5\n", // a deadline before it
	} {
		if _, err := timeline.Parse("e.tl", src); !errors.Is(err, timeline.ErrBadInput) {
			t.Errorf("%q: err %v, want bad input", src, err)
		}
	}
}

func TestEpoch_AHistoryWithRealTimesRunsAndHoldsItsExpectations(t *testing.T) {
	src := `epoch 1764806400000
lease 1000ms
job a deadline=+1500ms
1764806400000 A claim a -> ok token=1 lease_until=1764806401000
+1000ms       B claim a -> ok token=2 lease_until=1764806401500
+1ms          A complete a -> refused superseded
`
	tr, err := memrun.RunSource(t.Context(), "e.tl", src, timeline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !tr.Summary.Passed || tr.Summary.Expectations != 3 {
		t.Fatalf("summary %+v", tr.Summary)
	}
}

func itoa(n int64) string {
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// An epoch is under engine.MicrosFrom by three max_time (a step's instant,
// its worker's clock offset and a lease from it), so no instant a timeline
// derives from it is one the engine takes for Unix microseconds, wraps
// around int64 or passes the largest integer the page and the HTTP API
// carry exactly (2^53-1); a later epoch is refused at its column, not run
// with times refused or clamped to another instant than written.
func TestEpoch_LatestKeepsEveryInstantExact(t *testing.T) {
	maxTime := limits.Default.MaxTime
	latest := int64(engine.MicrosFrom) - 1 - 3*maxTime
	for _, tc := range []struct {
		name  string
		epoch int64
		ok    bool
	}{
		{"one before the latest", latest - 1, true},
		{"the latest", latest, true},
		{"one after the latest", latest + 1, false},
		{"near the end of int64", 9223372036854775797, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "epoch " + itoa(tc.epoch) + "\nclock B +" + itoa(maxTime) + "ms\njob a\n"
			if tc.ok {
				last := tc.epoch + maxTime
				src += itoa(tc.epoch) + " A claim a ttl=1000ms\n" +
					itoa(last) + " B claim a ttl=" + itoa(engine.MaxTTL) + "ms -> ok lease_until=" + itoa(last+maxTime+engine.MaxTTL) + "\n"
			}
			tr, err := memrun.RunSource(t.Context(), "e.tl", src, timeline.Options{})
			if !tc.ok {
				if err == nil || !strings.HasPrefix(err.Error(), "e.tl:1:7: ") || !strings.Contains(err.Error(), "the latest epoch is "+itoa(latest)) {
					t.Fatalf("err %v, want one at e.tl:1:7 naming the latest epoch %d", err, latest)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !tr.Summary.Passed {
				t.Fatalf("summary %+v", tr.Summary)
			}
		})
	}
}
