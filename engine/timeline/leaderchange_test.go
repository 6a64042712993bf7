package timeline_test

import (
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/timeline"
)

func TestParse_ServiceLeaderChange(t *testing.T) {
	const head = "lease 1000ms\njob j\n0ms A claim j\n"
	cases := []struct {
		step   string
		leases string
		err    string
	}{
		{"500ms service leader-change reset\n", timeline.LeasesReset, ""},
		{"500ms service leader-change keep\n", timeline.LeasesKeep, ""},
		{"500ms service leader-change\n", "", "a leader change is `TIME service leader-change reset`"},
		{"500ms service leader-change sometimes\n", "", "a leader change is `TIME service leader-change reset`"},
		{"500ms service leader-change reset -> ok\n", "", "a service leader-change has no outcome to expect"},
	}
	for _, c := range cases {
		t.Run(strings.TrimSpace(c.step), func(t *testing.T) {
			if c.err != "" {
				if got := parseErr(t, head+c.step); !strings.Contains(got, c.err) {
					t.Fatalf("error %q; want it to contain %q", got, c.err)
				}
				return
			}
			s := mustParse(t, head+c.step).Steps[1]
			if s.Verb != timeline.VerbLeaderChange || s.Leases != c.leases || len(s.Actors) != 0 {
				t.Fatalf("step %+v; want a leader change that does %s", s, c.leases)
			}
		})
	}
}

// A leader change with reset renews every valid lease for its ttl from the
// change, and no lease that has ended; with keep, every lease keeps its end.
func TestRun_LeaderChangeResetsOnlyValidLeases(t *testing.T) {
	const head = "lease 1000ms\njob a\njob b\n0ms A claim a\n0ms B claim b ttl=300ms\n"
	for _, c := range []struct {
		leases   string
		untilA   int64 // A's lease_until after the change at 500 ms
		renewed  int
		claimAt  string
		claimOut string
	}{
		{"reset", 1500, 1, "1499ms", "refused held"},
		{"reset", 1500, 1, "1500ms", "ok"},
		{"keep", 1000, 0, "1000ms", "ok"},
	} {
		t.Run(c.leases+" "+c.claimAt, func(t *testing.T) {
			tr := run(t, head+"500ms service leader-change "+c.leases+"\n"+c.claimAt+" C claim a\n")
			st := tr.Steps[2]
			if len(st.Renewed) != c.renewed {
				t.Fatalf("renewed %+v; want %d lease (B's ended at 300 ms)", st.Renewed, c.renewed)
			}
			if c.renewed == 1 && (st.Renewed[0].Owner != "A" || st.Renewed[0].LeaseUntil != c.untilA) {
				t.Fatalf("renewed %+v; want A's until %d", st.Renewed[0], c.untilA)
			}
			if got := strings.TrimSpace(tr.Steps[3].Outcome.Kind + " " + tr.Steps[3].Outcome.Reason); got != c.claimOut {
				t.Fatalf("C's claim at %s: %s; want %s", c.claimAt, got, c.claimOut)
			}
			for _, s := range tr.Steps {
				for _, v := range s.Verdicts {
					if !v.OK {
						t.Fatalf("%s broken at %s: %s", v.Invariant, s.Source, v.Detail)
					}
				}
			}
		})
	}
}

func TestGoTest_RenewsOnALeaderChange(t *testing.T) {
	tl := mustParse(t, "lease 1000ms\njob a\n0ms A claim a\n500ms service leader-change reset\n1499ms B claim a -> refused held\n")
	src, err := timeline.GoTest(tl, "TestLeader")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"newLeader(500, map[string]int64{})", "ttls[l.JobID] = 1000"} {
		if !strings.Contains(src, want) {
			t.Fatalf("the exported test lacks %s:\n%s", want, src)
		}
	}
}
