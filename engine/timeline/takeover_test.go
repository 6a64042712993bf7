package timeline_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/timeline"
)

func TestParse_TakeoverObserved(t *testing.T) {
	const steps = "lease 1000ms\njob j\n0ms A claim j\n"
	cases := []struct {
		src string
		err string // a substring of the error; "" when it parses
	}{
		{"takeover observed\n" + steps, ""},
		{"takeover\n" + steps, "a takeover line is `takeover observed`"},
		{"takeover sometimes\n" + steps, "a takeover line is `takeover observed`"},
		{"takeover observed\ntakeover observed\n" + steps, "a second takeover line"},
		{"takeover observed\n" + steps + "10ms B claim\n", "under `takeover observed` a candidate claims a job by id"},
		{"takeover observed\n" + steps + "10ms B,C claim j\n", "under `takeover observed` a candidate claims a job by id"},
		{"takeover observed\n" + steps + "10ms B send\n", "under `takeover observed` a candidate claims a job by id"},
	}
	for _, c := range cases {
		t.Run(strings.ReplaceAll(c.src, "\n", "|"), func(t *testing.T) {
			if c.err == "" {
				if tl := mustParse(t, c.src); tl.Takeover != timeline.TakeoverObserved {
					t.Fatalf("Takeover %q; want %q", tl.Takeover, timeline.TakeoverObserved)
				}
				return
			}
			if got := parseErr(t, c.src); !strings.Contains(got, c.err) {
				t.Fatalf("error %q; want it to contain %q", got, c.err)
			}
		})
	}
}

// Under `takeover observed` a candidate takes a held job over exactly when
// it has seen the record unchanged for the holder's ttl on its own
// stopwatch: one ms before, it hears held; a clock offset moves nothing.
func TestRun_TakeoverObservedWaitsOutTheTTLOnTheCandidatesStopwatch(t *testing.T) {
	for _, clock := range []string{"", "clock B +5s\n", "clock B -70ms\n"} {
		for _, c := range []struct {
			at   int64
			want string
		}{
			{1099, "refused held"}, // B first saw the record at 100 ms
			{1100, "ok"},
			{1101, "ok"},
		} {
			t.Run(fmt.Sprintf("%q at %d", clock, c.at), func(t *testing.T) {
				src := "takeover observed\n" + clock + "lease 1000ms\njob j\n0ms A claim j\n100ms B claim j\n" +
					fmt.Sprintf("%dms B claim j\n", c.at)
				tr := run(t, src)
				st := tr.Steps[2]
				if got := strings.TrimSpace(st.Outcome.Kind + " " + st.Outcome.Reason); got != c.want {
					t.Fatalf("B's claim at %d: %s; want %s\n%s", c.at, got, c.want, st.Explain)
				}
				if st.Watch == nil || st.Watch.Since != 100 || st.Watch.Until != 1100 || st.Watch.Wait != 1000 {
					t.Fatalf("watch %+v; want since 100, until 1100, wait 1000", st.Watch)
				}
				for _, v := range st.Verdicts {
					if !v.OK {
						t.Fatalf("%s broken: %s", v.Invariant, v.Detail)
					}
				}
			})
		}
	}
}

// A renew changes the record: the candidate's wait starts again from when
// it next reads it.
func TestRun_TakeoverObservedStartsAgainWhenTheRecordChanges(t *testing.T) {
	tr := run(t, "takeover observed\nlease 1000ms\njob j\n0ms A claim j\n100ms B claim j\n500ms A renew j\n"+
		"1100ms B claim j\n2099ms B claim j\n2100ms B claim j\n")
	want := []string{"ok", "refused held", "ok", "refused held", "refused held", "ok"}
	for i, st := range tr.Steps {
		if got := strings.TrimSpace(st.Outcome.Kind + " " + st.Outcome.Reason); got != want[i] {
			t.Fatalf("step %d (%s): %s; want %s\n%s", i+1, st.Source, got, want[i], st.Explain)
		}
	}
	if w := tr.Steps[3].Watch; w == nil || w.Since != 1100 || w.Waited != 0 {
		t.Fatalf("the watch after the renew %+v; want it started again at 1100 ms", w)
	}
	if !strings.Contains(tr.Steps[5].Explain, "unchanged for 1000 ms by its own stopwatch") {
		t.Fatalf("the takeover's sentence: %q", tr.Steps[5].Explain)
	}
}

func TestGoTest_ObservesUnderTakeoverObserved(t *testing.T) {
	tl := mustParse(t, "takeover observed\nlease 1000ms\njob j\n0ms A claim j\n100ms B claim j -> refused held\n1100ms B claim j -> ok\n")
	src, err := timeline.GoTest(tl, "TestTakeover")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`observe("B", "j", 100, 100, 1000)`, "store.ClaimSeen(ctx, job, owner, seen, now, ttl)", "ttls[l.JobID] = 1000"} {
		if !strings.Contains(src, want) {
			t.Fatalf("the exported test lacks %s:\n%s", want, src)
		}
	}
}
