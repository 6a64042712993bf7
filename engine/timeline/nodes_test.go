package timeline_test

import (
	"strings"
	"testing"
)

func TestParse_ServiceNodes(t *testing.T) {
	const jobs = "lease 1000ms\njob lock\n"
	cases := []struct {
		name, src, err string // err: a substring of the error; "" when it parses
	}{
		{"five nodes", "service nodes 5\n" + jobs + "0ms A claim lock nodes=n1,n2,n3\n", ""},
		{"a node's clock", "service nodes 3\nservice clock n2 +200ms\n" + jobs + "0ms A claim lock\n", ""},
		{"a node's jump", "service nodes 3\n" + jobs + "0ms A claim lock\n10ms service jump n2 +1s\n", ""},
		{"one node", "service nodes 1\n" + jobs, "the nodes are 2 to 9"},
		{"ten nodes", "service nodes 10\n" + jobs, "the nodes are 2 to 9"},
		{"a second line", "service nodes 3\nservice nodes 3\n" + jobs, "a second service nodes line"},
		{"the service's clock", "service clock +0ms\nservice nodes 3\n" + jobs, "a clock per node"},
		{"a clock of no node", "service nodes 3\nservice clock n4 +1s\n" + jobs, "no node n4"},
		{"a clock before the nodes", "service clock n1 +1s\nservice nodes 3\n" + jobs, "declare the nodes first"},
		{"a jump with no node", "service nodes 3\n" + jobs + "0ms A claim lock\n10ms service jump +1s\n", "names the node whose clock moves"},
		{"nodes= without nodes", jobs + "0ms A claim lock nodes=n1\n", "claim takes no nodes="},
		{"an unknown node", "service nodes 3\n" + jobs + "0ms A claim lock nodes=n1,n7\n", "no node \"n7\""},
		{"a node twice", "service nodes 3\n" + jobs + "0ms A claim lock nodes=n1,n1\n", "node n1 is listed twice"},
		{"claim-next", "service nodes 3\n" + jobs + "0ms A claim\n", "claim is not"},
		{"a complete", "service nodes 3\n" + jobs + "0ms A claim lock\n10ms A complete lock\n", "complete is not"},
		{"a fenced write", "service nodes 3\n" + jobs + "0ms A claim lock\n10ms A write lock\n", "needs `storage unfenced`"},
		{"a field", "service nodes 3\n" + jobs + "0ms A claim lock -> ok token=1\n", "expect an outcome"},
		{"a worker named n1", "service nodes 3\n" + jobs + "0ms n1 claim lock\n", "n1 is a node's name"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.err == "" {
				mustParse(t, c.src)
				return
			}
			if got := parseErr(t, c.src); !strings.Contains(got, c.err) {
				t.Fatalf("error %q; want it to contain %q", got, c.err)
			}
		})
	}
}

// A claim holds the lock on more than half the nodes: 3 of 5 is enough, 2
// of 5 is not, and a worker that got 2 gives them back.
func TestRun_NodesGrantTheLockOnAMajority(t *testing.T) {
	for _, c := range []struct {
		reach, want string
		held        int // rows B holds after the step
	}{
		{"n1,n2", "failed", 0},
		{"n1,n2,n3", "ok", 3},
		{"n1,n2,n3,n4,n5", "ok", 5},
	} {
		t.Run(c.reach, func(t *testing.T) {
			tr := run(t, "service nodes 5\nlease 1000ms\njob lock\n0ms B claim lock nodes="+c.reach+"\n")
			if got := strings.TrimSpace(tr.Steps[0].Outcome.Kind + " " + tr.Steps[0].Outcome.Reason); got != c.want {
				t.Fatalf("B's claim on %s: %s; want %s\n%s", c.reach, got, c.want, tr.Steps[0].Explain)
			}
			held := 0
			for _, r := range tr.Final {
				if r.Owner == "B" {
					held++
				}
			}
			if held != c.held {
				t.Fatalf("B holds %d rows after the step; want %d (%+v)", held, c.held, tr.Final)
			}
		})
	}
}

// Only a node's clock jump lets a second majority in while the first
// holder still believes it holds the lock; single-lease reports it.
func TestRun_ANodesClockJumpLetsTwoMajoritiesHoldTheLock(t *testing.T) {
	const head = "service nodes 5\nlease 10s\njob lock\n0ms A claim lock nodes=n1,n2,n3\n"
	for _, c := range []struct {
		jump, want string
		broken     bool
	}{
		{"", "refused held", false},
		{"1000ms service jump n3 +8s\n", "refused held", false}, // n3 reads 9500 at 1500: A's copy is still valid
		{"1000ms service jump n3 +10s\n", "ok", true},
	} {
		t.Run(c.jump, func(t *testing.T) {
			tr := run(t, head+c.jump+"1500ms B claim lock nodes=n3,n4,n5\n")
			st := tr.Steps[len(tr.Steps)-1]
			if got := strings.TrimSpace(st.Outcome.Kind + " " + st.Outcome.Reason); got != c.want {
				t.Fatalf("B's claim: %s; want %s\n%s", got, c.want, st.Explain)
			}
			broken := false
			for _, v := range st.Verdicts {
				if !v.OK {
					broken = v.Invariant == "single-lease" && strings.Contains(v.Detail, "believes it holds the lock")
				}
			}
			if broken != c.broken {
				t.Fatalf("single-lease broken: %v; want %v (%+v)", broken, c.broken, st.Verdicts)
			}
		})
	}
}
