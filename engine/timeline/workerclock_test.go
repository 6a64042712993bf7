package timeline_test

import (
	"strings"
	"testing"
)

func TestParse_WorkerClockJumpAndDrift(t *testing.T) {
	const head = "lease 1000ms\njob j\n0ms A claim j\n"
	cases := []struct {
		step, err string
	}{
		{"100ms B jump +5s\n", ""},
		{"100ms B jump -50ms\n", ""},
		{"100ms B drift +100ms/s\n", ""},
		{"100ms B drift +0ms/s\n", ""},
		{"100ms B jump 5s\n", "has no sign"},
		{"100ms B jump +0ms\n", "a jump of 0 ms moves nothing"},
		{"100ms B jump\n", "a worker's jump is `TIME WORKER jump ±D`"},
		{"100ms B drift +1000ms/s\n", "too fast"},
		{"100ms B drift +100ms/s -> ok\n", "has no outcome to expect"},
		{"100ms B jump -5s\n", "a clock reads 0 ms or later"},
	}
	for _, c := range cases {
		t.Run(strings.TrimSpace(c.step), func(t *testing.T) {
			if c.err == "" {
				tl := mustParse(t, head+c.step)
				s := tl.Steps[1]
				if len(s.Actors) != 1 || s.Actors[0] != "B" || s.Node != "B" {
					t.Fatalf("step %+v; want B's own clock", s)
				}
				return
			}
			if got := parseErr(t, head+c.step); !strings.Contains(got, c.err) {
				t.Fatalf("error %q; want it to contain %q", got, c.err)
			}
		})
	}
}

// A worker's clock that jumps or drifts gives the engine its own now: a
// claim on a clock that reads past A's lease_until takes the job early,
// and the checker reports it on true time.
func TestRun_AWorkersClockJumpOrDriftMovesItsOwnNow(t *testing.T) {
	const head = "lease 1000ms\njob j\n0ms A claim j\n"
	for _, c := range []struct {
		clock, at string
		now       int64
		want      string
		early     bool
	}{
		{"", "900ms", 900, "refused held", false},
		{"100ms B jump +99ms\n", "900ms", 999, "refused held", false},
		{"100ms B jump +100ms\n", "900ms", 1000, "ok", true},
		{"0ms B drift +200ms/s\n", "800ms", 960, "refused held", false},
		{"0ms B drift +250ms/s\n", "800ms", 1000, "ok", true},
	} {
		t.Run(c.clock+c.at, func(t *testing.T) {
			tr := run(t, head+c.clock+c.at+" B claim j\n")
			st := tr.Steps[len(tr.Steps)-1]
			if st.Now != c.now {
				t.Fatalf("B's clock reads %d at %s; want %d", st.Now, c.at, c.now)
			}
			if got := strings.TrimSpace(st.Outcome.Kind + " " + st.Outcome.Reason); got != c.want {
				t.Fatalf("B's claim: %s; want %s", got, c.want)
			}
			early := false
			for _, v := range st.Verdicts {
				early = early || (!v.OK && v.Invariant == "single-lease")
			}
			if early != c.early {
				t.Fatalf("single-lease broken %v; want %v (%+v)", early, c.early, st.Verdicts)
			}
		})
	}
}

// Under takeover observed, a candidate's stopwatch is its own clock: one
// that runs fast takes over early, and the checker says so; an offset or
// a jump before it started waiting moves nothing.
func TestRun_AFastStopwatchTakesOverEarly(t *testing.T) {
	const head = "takeover observed\nlease 1000ms\njob j\n0ms A claim j\n"
	for _, c := range []struct {
		clock string
		want  string
		early bool
	}{
		{"", "refused held", false},
		{"50ms B jump +5s\n", "refused held", false},
		{"50ms B drift +200ms/s\n", "ok", true},
	} {
		t.Run(c.clock, func(t *testing.T) {
			tr := run(t, head+c.clock+"100ms B claim j\n950ms B claim j\n")
			st := tr.Steps[len(tr.Steps)-1]
			if got := strings.TrimSpace(st.Outcome.Kind + " " + st.Outcome.Reason); got != c.want {
				t.Fatalf("B's claim at 950 ms: %s; want %s\n%s", got, c.want, st.Explain)
			}
			early := false
			for _, v := range st.Verdicts {
				early = early || (!v.OK && v.Invariant == "single-lease")
			}
			if early != c.early {
				t.Fatalf("single-lease broken %v; want %v", early, c.early)
			}
		})
	}
}
