package check_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/check"
)

// st is one step of a history: what ran and the rows after it.
type st struct {
	ops  []check.Op
	rows []engine.Job
}

func pending(id string) engine.Job {
	return engine.Job{ID: id, Qty: 1, Status: engine.StatusPending}
}

func leased(id, owner string, token, until int64) engine.Job {
	return engine.Job{ID: id, Qty: 1, Owner: owner, Token: token, Attempts: token,
		LeaseUntil: until, Status: engine.StatusLeased}
}

func done(id, owner string, token, until int64, result string) engine.Job {
	j := leased(id, owner, token, until)
	j.Status, j.Result = engine.StatusDone, result
	return j
}

func enq(id string) check.Op { return check.Op{Kind: engine.OpEnqueue, JobID: id, Accepted: true} }

func claim(id, owner string, now, token, until int64) check.Op {
	return check.Op{Kind: engine.OpClaim, JobID: id, Owner: owner, Now: now, Accepted: true,
		Lease: engine.Lease{JobID: id, Owner: owner, Qty: 1, Token: token, Attempt: token, LeaseUntil: until}}
}

func refusedClaim(id, owner string, now int64) check.Op {
	return check.Op{Kind: engine.OpClaim, JobID: id, Owner: owner, Now: now}
}

func write(kind engine.Op, id, owner string, token, now int64, accepted bool) check.Op {
	return check.Op{Kind: kind, JobID: id, Owner: owner, Token: token, Now: now, Accepted: accepted}
}

func renew(id, owner string, token, now, until int64) check.Op {
	op := write(engine.OpRenew, id, owner, token, now, true)
	op.Lease = engine.Lease{JobID: id, Owner: owner, Qty: 1, Token: token, Attempt: token, LeaseUntil: until}
	return op
}

// run feeds the steps to a fresh checker and returns the verdicts of each.
func run(steps []st) [][]check.Verdict {
	c := check.New()
	var out [][]check.Verdict
	for _, s := range steps {
		out = append(out, c.Observe(s.ops, s.rows))
	}
	return out
}

// failing returns the invariants a step's verdicts do not hold, and their details.
func failing(vs []check.Verdict) (names []string, details string) {
	for _, v := range vs {
		if !v.OK {
			names = append(names, v.Invariant)
			details += v.Detail + "\n"
		}
	}
	return names, details
}

// The late courier's timeline: claim, reclaim at the
// instant the first lease ends, the late complete refused, the new owner's
// complete accepted. Every invariant holds after every step.
func TestObserve_LateCourierHistoryHoldsEveryInvariant(t *testing.T) {
	steps := []st{
		{[]check.Op{enq("order-7")}, []engine.Job{pending("order-7")}},
		{[]check.Op{claim("order-7", "A", 0, 1, 1000)}, []engine.Job{leased("order-7", "A", 1, 1000)}},
		{nil, []engine.Job{leased("order-7", "A", 1, 1000)}}, // time passes
		{[]check.Op{claim("order-7", "B", 1000, 2, 2000)}, []engine.Job{leased("order-7", "B", 2, 2000)}},
		{[]check.Op{write(engine.OpComplete, "order-7", "A", 1, 1001, false)}, []engine.Job{leased("order-7", "B", 2, 2000)}},
		{[]check.Op{renew("order-7", "B", 2, 1100, 2100)}, []engine.Job{leased("order-7", "B", 2, 2100)}},
		{[]check.Op{write(engine.OpComplete, "order-7", "B", 2, 1200, true)}, []engine.Job{done("order-7", "B", 2, 2100, "ok")}},
		{[]check.Op{write(engine.OpComplete, "order-7", "B", 2, 1300, false), refusedClaim("order-7", "C", 5000)},
			[]engine.Job{done("order-7", "B", 2, 2100, "ok")}},
	}
	for i, vs := range run(steps) {
		if names, details := failing(vs); len(names) > 0 {
			t.Errorf("step %d: %v\n%s", i, names, details)
		}
	}
}

// Each case is a history whose last step breaks exactly the invariants
// named (every earlier step holds them all), or none.
func TestObserve_EachViolationIsReportedAtItsStep(t *testing.T) {
	a1 := leased("a", "A", 1, 1000)
	cases := []struct {
		name   string
		steps  []st
		broken []string
		detail string // a substring of the details
	}{
		// single-lease, at the boundary now == lease_until.
		{"claim before lease_until grants a second valid lease", []st{
			{[]check.Op{enq("a"), claim("a", "A", 0, 1, 1000)}, []engine.Job{a1}},
			{[]check.Op{claim("a", "B", 999, 2, 1999)}, []engine.Job{leased("a", "B", 2, 1999)}},
		}, []string{check.SingleLease}, "job a: B#2 granted at 999 while A#1 is valid until 1000"},
		{"claim at lease_until takes an ended lease", []st{
			{[]check.Op{enq("a"), claim("a", "A", 0, 1, 1000)}, []engine.Job{a1}},
			{[]check.Op{claim("a", "B", 1000, 2, 2000)}, []engine.Job{leased("a", "B", 2, 2000)}},
		}, nil, ""},
		{"claim after lease_until takes an ended lease", []st{
			{[]check.Op{enq("a"), claim("a", "A", 0, 1, 1000)}, []engine.Job{a1}},
			{[]check.Op{claim("a", "B", 1001, 2, 2001)}, []engine.Job{leased("a", "B", 2, 2001)}},
		}, nil, ""},
		// no-late-write, at the boundary now == lease_until, nobody reclaiming.
		{"complete just before lease_until is on time", []st{
			{[]check.Op{enq("a"), claim("a", "A", 0, 1, 1000)}, []engine.Job{a1}},
			{[]check.Op{write(engine.OpComplete, "a", "A", 1, 999, true)}, []engine.Job{done("a", "A", 1, 1000, "r")}},
		}, nil, ""},
		{"complete at lease_until is late", []st{
			{[]check.Op{enq("a"), claim("a", "A", 0, 1, 1000)}, []engine.Job{a1}},
			{[]check.Op{write(engine.OpComplete, "a", "A", 1, 1000, true)}, []engine.Job{done("a", "A", 1, 1000, "r")}},
		}, []string{check.NoLateWrite}, "job a: complete by A#1 accepted at 1000, but the lease ended at 1000"},
		{"renew after lease_until is late", []st{
			{[]check.Op{enq("a"), claim("a", "A", 0, 1, 1000)}, []engine.Job{a1}},
			{[]check.Op{{Kind: engine.OpRenew, JobID: "a", Owner: "A", Token: 1, Now: 1001, Accepted: true,
				Lease: engine.Lease{JobID: "a", Owner: "A", Token: 1, Attempt: 1, LeaseUntil: 2001}}},
				[]engine.Job{leased("a", "A", 1, 2001)}},
		}, []string{check.NoLateWrite}, "job a: renew by A#1 accepted at 1001, but the lease ended at 1000"},
		{"claim after a release needs no expiry", []st{
			{[]check.Op{enq("a"), claim("a", "A", 0, 1, 1000)}, []engine.Job{a1}},
			{[]check.Op{write(engine.OpRelease, "a", "A", 1, 0, true)},
				[]engine.Job{{ID: "a", Qty: 1, Token: 1, Attempts: 1, Status: engine.StatusPending}}},
			{[]check.Op{claim("a", "B", 10, 2, 1010)}, []engine.Job{leased("a", "B", 2, 1010)}},
		}, nil, ""},
		{"two winners of one concurrent claim", []st{
			{[]check.Op{enq("a")}, []engine.Job{pending("a")}},
			{[]check.Op{refusedClaim("a", "A", 5), claim("a", "B", 5, 1, 1005), claim("a", "C", 5, 2, 1005)},
				[]engine.Job{leased("a", "C", 2, 1005)}},
		}, []string{check.SingleLease}, "C#2 granted at 5 while B#1 is valid until 1005"},
		{"a row shows a new holder no operation explains", []st{
			{[]check.Op{enq("a"), claim("a", "A", 0, 1, 1000)}, []engine.Job{a1}},
			{[]check.Op{refusedClaim("a", "B", 500)}, []engine.Job{leased("a", "B", 2, 1500)}},
		}, []string{check.SingleLease}, "row holds B#2 while A#1 is valid until 1000 (now 500)"},

		// tokens-increase.
		{"release resets the token", []st{
			{[]check.Op{enq("a"), claim("a", "A", 0, 1, 1000)}, []engine.Job{a1}},
			{[]check.Op{write(engine.OpRelease, "a", "A", 1, 0, true)}, []engine.Job{pending("a")}},
		}, []string{check.TokensIncrease}, "job a: token went from 1 to 0"},
		{"a token number handed out twice", []st{
			{[]check.Op{enq("a"), claim("a", "A", 0, 2, 1000)}, []engine.Job{leased("a", "A", 2, 1000)}},
			{[]check.Op{claim("a", "B", 1000, 2, 2000)}, []engine.Job{leased("a", "B", 2, 2000)}},
		}, []string{check.TokensIncrease}, "job a: token 2 granted at 1000, not above 2"},
		{"a token skipping ahead still increases", []st{
			{[]check.Op{enq("a"), claim("a", "A", 0, 1, 1000)}, []engine.Job{a1}},
			{[]check.Op{claim("a", "B", 1000, 5, 2000)}, []engine.Job{leased("a", "B", 5, 2000)}},
		}, nil, ""},

		// no-stale-write.
		{"late complete with a superseded token accepted", []st{
			{[]check.Op{enq("a"), claim("a", "A", 0, 1, 1000)}, []engine.Job{a1}},
			{[]check.Op{claim("a", "B", 1000, 2, 2000)}, []engine.Job{leased("a", "B", 2, 2000)}},
			{[]check.Op{write(engine.OpComplete, "a", "A", 1, 1001, true)}, []engine.Job{done("a", "B", 2, 2000, "A's")}},
		}, []string{check.NoStaleWrite}, "job a: complete by A#1 accepted, latest grant B#2"},
		{"renew by the right token under another owner accepted", []st{
			{[]check.Op{enq("a"), claim("a", "A", 0, 1, 1000)}, []engine.Job{a1}},
			{[]check.Op{renew("a", "B", 1, 10, 1010)}, []engine.Job{leased("a", "A", 1, 1010)}},
		}, []string{check.NoStaleWrite}, "renew by B#1 accepted, latest grant A#1"},
		{"second release of one lease accepted", []st{
			{[]check.Op{enq("a"), claim("a", "A", 0, 1, 1000)}, []engine.Job{a1}},
			{[]check.Op{write(engine.OpRelease, "a", "A", 1, 0, true)},
				[]engine.Job{{ID: "a", Qty: 1, Token: 1, Attempts: 1, Status: engine.StatusPending}}},
			{[]check.Op{write(engine.OpRelease, "a", "A", 1, 0, true)},
				[]engine.Job{{ID: "a", Qty: 1, Token: 1, Attempts: 1, Status: engine.StatusPending}}},
		}, []string{check.NoStaleWrite}, "release by A#1 accepted after the lease was released"},
		{"complete of a job never claimed accepted", []st{
			{[]check.Op{enq("a")}, []engine.Job{pending("a")}},
			{[]check.Op{write(engine.OpComplete, "a", "A", 0, 5, true)},
				[]engine.Job{{ID: "a", Qty: 1, Status: engine.StatusDone}}},
		}, []string{check.NoStaleWrite}, "complete by A#0 accepted, but no lease was granted"},
		{"refused stale writes break nothing", []st{
			{[]check.Op{enq("a"), claim("a", "A", 0, 1, 1000)}, []engine.Job{a1}},
			{[]check.Op{claim("a", "B", 1000, 2, 2000)}, []engine.Job{leased("a", "B", 2, 2000)}},
			{[]check.Op{write(engine.OpComplete, "a", "A", 1, 1001, false), write(engine.OpRenew, "a", "A", 1, 1001, false),
				write(engine.OpRelease, "a", "A", 1, 0, false)}, []engine.Job{leased("a", "B", 2, 2000)}},
		}, nil, ""},

		// final-is-final.
		{"a second complete overwrites the result", []st{
			{[]check.Op{enq("a"), claim("a", "A", 0, 1, 1000)}, []engine.Job{a1}},
			{[]check.Op{write(engine.OpComplete, "a", "A", 1, 10, true)}, []engine.Job{done("a", "A", 1, 1000, "first")}},
			{[]check.Op{write(engine.OpComplete, "a", "A", 1, 20, true)}, []engine.Job{done("a", "A", 1, 1000, "second")}},
		}, []string{check.NoStaleWrite, check.FinalIsFinal}, `job a was done; changed: result "first" -> "second"`},
		{"a quarantined job becomes pending again", []st{
			{[]check.Op{enq("a")}, []engine.Job{{ID: "a", Qty: 1, Status: engine.StatusQuarantined, Reason: engine.ReasonDeadline, Deadline: 5}}},
			{nil, []engine.Job{{ID: "a", Qty: 1, Status: engine.StatusPending, Deadline: 5}}},
		}, []string{check.FinalIsFinal}, `job a was quarantined; changed: status quarantined -> pending, reason "deadline" -> ""`},

		// attempts-bounded: before, at and after max_attempts.
		{"attempts below max_attempts", []st{
			{nil, []engine.Job{{ID: "a", Attempts: 1, MaxAttempts: 2, Status: engine.StatusPending}}},
		}, nil, ""},
		{"attempts at max_attempts", []st{
			{nil, []engine.Job{{ID: "a", Attempts: 2, MaxAttempts: 2, Status: engine.StatusPending}}},
		}, nil, ""},
		{"attempts above max_attempts", []st{
			{nil, []engine.Job{{ID: "a", Attempts: 3, MaxAttempts: 2, Status: engine.StatusPending}}},
		}, []string{check.AttemptsBounded}, "job a: attempts 3 > max_attempts 2"},
		{"max_attempts 0 is unlimited", []st{
			{nil, []engine.Job{{ID: "a", Attempts: 99, Status: engine.StatusPending}}},
		}, nil, ""},

		// lease-within-deadline: before, at and after the deadline.
		{"lease ends before the deadline", []st{
			{[]check.Op{enq("a")}, []engine.Job{{ID: "a", Qty: 1, Deadline: 100, Status: engine.StatusPending}}},
			{[]check.Op{claim("a", "A", 0, 1, 99)}, []engine.Job{{ID: "a", Qty: 1, Deadline: 100, Owner: "A", Token: 1, Attempts: 1, LeaseUntil: 99, Status: engine.StatusLeased}}},
		}, nil, ""},
		{"lease ends at the deadline", []st{
			{[]check.Op{enq("a")}, []engine.Job{{ID: "a", Qty: 1, Deadline: 100, Status: engine.StatusPending}}},
			{[]check.Op{claim("a", "A", 0, 1, 100)}, []engine.Job{{ID: "a", Qty: 1, Deadline: 100, Owner: "A", Token: 1, Attempts: 1, LeaseUntil: 100, Status: engine.StatusLeased}}},
		}, nil, ""},
		{"lease ends after the deadline", []st{
			{[]check.Op{enq("a")}, []engine.Job{{ID: "a", Qty: 1, Deadline: 100, Status: engine.StatusPending}}},
			{[]check.Op{claim("a", "A", 0, 1, 1000)}, []engine.Job{{ID: "a", Qty: 1, Deadline: 100, Owner: "A", Token: 1, Attempts: 1, LeaseUntil: 1000, Status: engine.StatusLeased}}},
		}, []string{check.LeaseWithinDeadline}, "job a: lease A#1 until 1000, past deadline 100"},
		{"renew past the deadline", []st{
			{[]check.Op{enq("a")}, []engine.Job{{ID: "a", Qty: 1, Deadline: 100, Status: engine.StatusPending}}},
			{[]check.Op{claim("a", "A", 0, 1, 50)}, []engine.Job{{ID: "a", Qty: 1, Deadline: 100, Owner: "A", Token: 1, Attempts: 1, LeaseUntil: 50, Status: engine.StatusLeased}}},
			{[]check.Op{renew("a", "A", 1, 40, 140)}, []engine.Job{{ID: "a", Qty: 1, Deadline: 100, Owner: "A", Token: 1, Attempts: 1, LeaseUntil: 140, Status: engine.StatusLeased}}},
		}, []string{check.LeaseWithinDeadline}, "job a: lease A#1 until 140, past deadline 100"},
		{"a stored lease_until past the deadline", []st{
			{nil, []engine.Job{{ID: "a", Qty: 1, Deadline: 100, Owner: "A", Token: 1, Attempts: 1, LeaseUntil: 101, Status: engine.StatusLeased}}},
		}, []string{check.LeaseWithinDeadline}, "job a: lease_until 101 > deadline 100"},

		// no-job-lost.
		{"a job disappears", []st{
			{[]check.Op{enq("a"), enq("b")}, []engine.Job{pending("a"), pending("b")}},
			{nil, []engine.Job{pending("b")}},
		}, []string{check.NoJobLost}, "job a is missing"},
		{"an accepted enqueue leaves no row", []st{
			{[]check.Op{enq("a")}, nil},
		}, []string{check.NoJobLost}, "job a is missing"},
		{"a job appears twice", []st{
			{[]check.Op{enq("a")}, []engine.Job{pending("a"), pending("a")}},
		}, []string{check.NoJobLost}, "job a appears more than once"},
		{"re-enqueue of an existing id accepted", []st{
			{[]check.Op{enq("a")}, []engine.Job{pending("a")}},
			{[]check.Op{enq("a")}, []engine.Job{pending("a")}},
		}, []string{check.NoJobLost}, "enqueue of existing job a accepted"},
		{"re-enqueue of an existing id refused", []st{
			{[]check.Op{enq("a")}, []engine.Job{pending("a")}},
			{[]check.Op{{Kind: engine.OpEnqueue, JobID: "a"}}, []engine.Job{pending("a")}},
		}, nil, ""},
		{"re-enqueue replacing a leased row", []st{
			{[]check.Op{enq("a"), claim("a", "A", 0, 1, 1000)}, []engine.Job{a1}},
			{[]check.Op{enq("a")}, []engine.Job{pending("a")}},
		}, []string{check.TokensIncrease, check.NoJobLost}, "token went from 1 to 0"},

		// dispatch: a claim-next and a complete in one op.
		{"dispatch claims and completes", []st{
			{[]check.Op{enq("a")}, []engine.Job{pending("a")}},
			{[]check.Op{{Kind: engine.OpSend, Owner: "A", Now: 5, Accepted: true,
				Lease: engine.Lease{JobID: "a", Owner: "A", Qty: 1, Token: 1, Attempt: 1, LeaseUntil: 1005}}},
				[]engine.Job{done("a", "A", 1, 1005, engine.ResultSent)}},
		}, nil, ""},
		{"dispatch claims a job held by a valid lease", []st{
			{[]check.Op{enq("a"), claim("a", "A", 0, 1, 1000)}, []engine.Job{a1}},
			{[]check.Op{{Kind: engine.OpSend, Owner: "B", Now: 5, Accepted: true,
				Lease: engine.Lease{JobID: "a", Owner: "B", Qty: 1, Token: 2, Attempt: 2, LeaseUntil: 1005}}},
				[]engine.Job{done("a", "B", 2, 1005, engine.ResultSent)}},
		}, []string{check.SingleLease}, "B#2 granted at 5 while A#1 is valid until 1000"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			verdicts := run(tc.steps)
			for i, vs := range verdicts[:len(verdicts)-1] {
				if names, details := failing(vs); len(names) > 0 {
					t.Fatalf("step %d (before the last): %v\n%s", i, names, details)
				}
			}
			names, details := failing(verdicts[len(verdicts)-1])
			if !reflect.DeepEqual(names, tc.broken) {
				t.Fatalf("broken = %v, want %v\n%s", names, tc.broken, details)
			}
			if !strings.Contains(details, tc.detail) {
				t.Fatalf("details do not mention %q:\n%s", tc.detail, details)
			}
		})
	}
}

// Observe returns one verdict per invariant, in the order of Invariants,
// and the same history gives byte-identical JSON every time.
func TestObserve_VerdictsInFixedOrderAndDeterministic(t *testing.T) {
	steps := []st{
		{[]check.Op{enq("a"), enq("b"), enq("c"), claim("a", "A", 0, 1, 1000), claim("b", "A", 0, 1, 1000)},
			[]engine.Job{leased("a", "A", 1, 1000), leased("b", "A", 1, 1000), pending("c")}},
		{[]check.Op{claim("a", "B", 10, 2, 1010), claim("b", "B", 10, 2, 1010)}, // two violations, in op order
			[]engine.Job{leased("a", "B", 2, 1010), leased("b", "B", 2, 1010)}}, // and c lost
	}
	first, err := json.Marshal(run(steps))
	if err != nil {
		t.Fatal(err)
	}
	for range 20 {
		again, _ := json.Marshal(run(steps))
		if string(again) != string(first) {
			t.Fatalf("verdicts differ between runs:\n%s\n%s", first, again)
		}
	}
	last := run(steps)[1]
	var names []string
	for _, v := range last {
		names = append(names, v.Invariant)
	}
	if !reflect.DeepEqual(names, check.Invariants()) {
		t.Fatalf("verdict order %v, want %v", names, check.Invariants())
	}
	want := "job a: B#2 granted at 10 while A#1 is valid until 1000; job b: B#2 granted at 10 while A#1 is valid until 1000"
	if last[0].Detail != want {
		t.Fatalf("single-lease detail\n got %q\nwant %q", last[0].Detail, want)
	}
	if nl := last[7]; nl.Invariant != check.NoJobLost || nl.OK || nl.Detail != "job c is missing" {
		t.Fatalf("no-job-lost verdict %+v", nl)
	}
	b, _ := json.Marshal(check.Verdict{Invariant: check.NoJobLost, OK: true})
	if string(b) != `{"invariant":"no-job-lost","ok":true}` {
		t.Fatalf("an OK verdict marshals as %s", b)
	}
}

// A history that starts on a store already holding leases is taken as it
// stands: the first rows' leases are the latest grants.
func TestObserve_FirstRowsAreTakenAsTheyStand(t *testing.T) {
	c := check.New()
	vs := c.Observe(nil, []engine.Job{leased("a", "A", 7, 1000)})
	if names, details := failing(vs); len(names) > 0 {
		t.Fatalf("first rows: %v\n%s", names, details)
	}
	vs = c.Observe([]check.Op{write(engine.OpComplete, "a", "A", 7, 10, true)}, []engine.Job{done("a", "A", 7, 1000, "r")})
	if names, details := failing(vs); len(names) > 0 {
		t.Fatalf("complete by the standing lease: %v\n%s", names, details)
	}
	c = check.New()
	c.Observe(nil, []engine.Job{leased("a", "A", 7, 1000)})
	vs = c.Observe([]check.Op{claim("a", "B", 10, 8, 1010)}, []engine.Job{leased("a", "B", 8, 1010)})
	if names, _ := failing(vs); !reflect.DeepEqual(names, []string{check.SingleLease}) {
		t.Fatalf("claim over the standing lease: broken %v, want [%s]", names, check.SingleLease)
	}
}

// The storage accepts a write whose token is at least the highest it
// accepted for the key; an accepted write below it breaks storage-fenced,
// a refused one breaks nothing, and keys are judged apart.
func TestObserve_StorageFenced(t *testing.T) {
	w := func(key, owner string, token int64, accepted bool) check.Op {
		return check.Op{Kind: engine.OpWrite, JobID: key, Owner: owner, Token: token, Accepted: accepted}
	}
	for _, tc := range []struct {
		name  string
		token int64
		ok    bool
	}{{"below", 1, false}, {"at", 2, true}, {"above", 3, true}} {
		t.Run(tc.name, func(t *testing.T) {
			c := check.New()
			c.Observe([]check.Op{w("f", "B", 2, true), w("g", "A", 9, true)}, nil)
			vs := c.Observe([]check.Op{w("f", "A", tc.token, true)}, nil)
			names, details := failing(vs)
			if tc.ok != (len(names) == 0) {
				t.Fatalf("accepted write f#%d after f#2: broken %v\n%s", tc.token, names, details)
			}
			if !tc.ok && (!reflect.DeepEqual(names, []string{check.StorageFenced}) ||
				!strings.Contains(details, "storage f: write by A#1 accepted after a write with token 2 was accepted")) {
				t.Fatalf("broken %v: %s", names, details)
			}
			if names, _ := failing(c.Observe([]check.Op{w("f", "C", 0, false)}, nil)); len(names) > 0 {
				t.Fatalf("a refused write broke %v", names)
			}
		})
	}
}

// With clocks out of step, a reclaim the engine rightly grants (the
// claimant's clock says the lease ended) can still overlap the first
// holder's lease in true time: single-lease reports it and says why.
func TestObserve_SkewBreaksSingleLeaseOnTrueTime(t *testing.T) {
	for _, tc := range []struct {
		name   string
		offset int64 // B's clock, ahead of true time
		at     int64 // B's claim, on B's clock
		broken bool
	}{
		{"clocks agree, claim at lease_until", 0, 1000, false},
		{"B 200 ms ahead, claim when B reads 1000 (true 800)", 200, 1000, true},
		{"B 200 ms ahead, claim when B reads 1200 (true 1000)", 200, 1200, false},
		{"B 200 ms behind, claim when B reads 800 (true 1000)", -200, 800, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := check.New()
			c.SetClock("B", tc.offset)
			c.Observe([]check.Op{enq("a")}, []engine.Job{pending("a")})
			c.Observe([]check.Op{claim("a", "A", 0, 1, 1000)}, []engine.Job{leased("a", "A", 1, 1000)})
			vs := c.Observe([]check.Op{claim("a", "B", tc.at, 2, tc.at+1000)}, []engine.Job{leased("a", "B", 2, tc.at+1000)})
			names, details := failing(vs)
			if tc.broken != (len(names) > 0) {
				t.Fatalf("broken %v, want broken=%v\n%s", names, tc.broken, details)
			}
			if tc.broken && (!reflect.DeepEqual(names, []string{check.SingleLease}) || !strings.Contains(details, "B's clock is 200 ms ahead")) {
				t.Fatalf("broken %v: %s", names, details)
			}
			// Fencing still holds: A's stale complete is refused, and nothing else breaks.
			if names, _ := failing(c.Observe([]check.Op{write(engine.OpComplete, "a", "A", 1, 900, false)},
				[]engine.Job{leased("a", "B", 2, tc.at+1000)})); len(names) > 0 {
				t.Fatalf("refused stale complete broke %v", names)
			}
		})
	}
}

// ObserveChanged gives the same verdicts as Observe when the caller passes
// only the rows a step changed.
func TestObserveChanged_SameVerdictsAsObserve(t *testing.T) {
	whole, delta := check.New(), check.New()
	steps := []struct {
		ops     []check.Op
		all     []engine.Job
		changed []engine.Job
	}{
		{[]check.Op{enq("a"), enq("b")}, []engine.Job{pending("a"), pending("b")}, []engine.Job{pending("a"), pending("b")}},
		{[]check.Op{claim("a", "A", 0, 1, 1000)}, []engine.Job{leased("a", "A", 1, 1000), pending("b")}, []engine.Job{leased("a", "A", 1, 1000)}},
		{[]check.Op{claim("a", "B", 10, 2, 1010)}, []engine.Job{leased("a", "B", 2, 1010), pending("b")}, []engine.Job{leased("a", "B", 2, 1010)}},
		{[]check.Op{write(engine.OpComplete, "a", "A", 1, 20, true)}, []engine.Job{done("a", "B", 2, 1010, "A's"), pending("b")}, []engine.Job{done("a", "B", 2, 1010, "A's")}},
		{nil, []engine.Job{done("a", "B", 2, 1010, "A's"), pending("b")}, nil},
	}
	for i, st := range steps {
		a, b := whole.Observe(st.ops, st.all), delta.ObserveChanged(st.ops, st.changed)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("step %d:\n Observe        %+v\n ObserveChanged %+v", i, a, b)
		}
	}
}

// A skew violation's detail puts each instant on the clock it was read on,
// with its true time: the grant on the claimant's clock, the old lease's
// end on its holder's.
func TestObserve_SkewDetailNamesEachInstantsClock(t *testing.T) {
	c := check.New()
	c.SetClock("A", -400) // A's lease_until 1100 is true time 1500
	c.SetClock("B", 0)
	c.Observe([]check.Op{enq("a")}, []engine.Job{pending("a")})
	c.Observe([]check.Op{claim("a", "A", 100, 1, 1100)}, []engine.Job{leased("a", "A", 1, 1100)})
	vs := c.Observe([]check.Op{claim("a", "B", 1100, 2, 2100)}, []engine.Job{leased("a", "B", 2, 2100)})
	_, details := failing(vs)
	const want = "job a: B#2 granted at 1100 on B's clock (true time 1100) while A#1 is valid until 1100 on A's clock (true time 1500) (B's clock is right, A's 400 ms behind; fencing must stop the stale holder)"
	if !strings.Contains(details, want) {
		t.Fatalf("detail %q\nwant it to contain %q", details, want)
	}
}

// The receiver applies each job's effect once: a second applied delivery
// breaks applied-once; a resend it recognises (not applied) and a first
// delivery of another job do not.
func TestObserve_AppliedOnce(t *testing.T) {
	deliver := func(job, owner string, token int64, applied bool) check.Op {
		return check.Op{Kind: engine.OpDeliver, JobID: job, Owner: owner, Token: token, Accepted: applied}
	}
	for _, tc := range []struct {
		name   string
		second check.Op
		broken bool
	}{
		{"a resend the receiver recognises", deliver("a", "B", 2, false), false},
		{"another job's first delivery", deliver("b", "B", 1, true), false},
		{"the same job applied again", deliver("a", "B", 2, true), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := check.New()
			c.Observe([]check.Op{enq("a"), enq("b")}, []engine.Job{pending("a"), pending("b")})
			if names, _ := failing(c.ObserveChanged([]check.Op{deliver("a", "A", 1, true)}, nil)); len(names) > 0 {
				t.Fatalf("a first delivery broke %v", names)
			}
			names, details := failing(c.ObserveChanged([]check.Op{tc.second}, nil))
			if tc.broken != (len(names) > 0) {
				t.Fatalf("broken %v, want broken=%v", names, tc.broken)
			}
			if tc.broken && (!reflect.DeepEqual(names, []string{check.AppliedOnce}) ||
				!strings.Contains(details, "job a: the receiver applied it again for B#2, after A#1")) {
				t.Fatalf("broken %v: %s", names, details)
			}
		})
	}
}

// A service clock that jumps: set again before a step, the clock reads
// every lease where it stands then. A jumps 500 ms ahead at true 500, so
// B's grant at the service's 999, 1000 and 1001 (true 499, 500, 501) is
// judged against A's lease_until 1000 on the moved clock. Were only B's
// clock moved (A's lease read on the clock before the jump), the grant at
// true 500 would be a second valid lease.
func TestSetClock_AgainAfterAJumpJudgesOnTheMovedClock(t *testing.T) {
	for _, tc := range []struct {
		at     int64 // B's claim, on the service's clock after the jump
		movedA bool  // A's clock was set again too
		broken bool
	}{
		{999, true, true},
		{1000, true, false},
		{1001, true, false},
		{1001, false, true},
	} {
		c := check.New()
		c.SetClock("A", 0)
		c.SetClock("B", 0)
		c.Observe([]check.Op{enq("a")}, []engine.Job{pending("a")})
		c.Observe([]check.Op{claim("a", "A", 0, 1, 1000)}, []engine.Job{leased("a", "A", 1, 1000)})
		c.SetClock("B", 500)
		if tc.movedA {
			c.SetClock("A", 500)
		}
		vs := c.Observe([]check.Op{claim("a", "B", tc.at, 2, tc.at+1000)}, []engine.Job{leased("a", "B", 2, tc.at+1000)})
		if names, details := failing(vs); tc.broken != (len(names) > 0) {
			t.Errorf("claim at %d (A's clock moved %v): broken %v, want %v\n%s", tc.at, tc.movedA, names, tc.broken, details)
		}
	}
}

// A storage write the fenced storage accepts with a token below its job's
// latest grant is a stale write that landed: no-stale-write, whether or not
// the newer holder wrote yet; once storage-fenced reports it, it is not
// reported twice. Before the newer grant, at it and after the newer
// holder's own write; a write that names no job is not judged against one.
func TestObserve_StaleStorageWriteThatLandsBreaksNoStaleWrite(t *testing.T) {
	store := func(owner string, token int64, job string) check.Op {
		return check.Op{Kind: engine.OpWrite, JobID: "f", Owner: owner, Token: token, Accepted: true, Lease: engine.Lease{JobID: job}}
	}
	for _, tc := range []struct {
		name   string
		steps  [][]check.Op // after A#1's grant
		broken []string     // by the last step
	}{
		{"before B's grant", [][]check.Op{{store("A", 1, "j")}}, nil},
		{"after B's grant", [][]check.Op{{claim("j", "B", 1000, 2, 2000)}, {store("A", 1, "j")}}, []string{check.NoStaleWrite}},
		{"B's own write", [][]check.Op{{claim("j", "B", 1000, 2, 2000)}, {store("B", 2, "j")}}, nil},
		{"after B wrote", [][]check.Op{{claim("j", "B", 1000, 2, 2000)}, {store("B", 2, "j")}, {store("A", 1, "j")}}, []string{check.StorageFenced}},
		{"no job named", [][]check.Op{{claim("j", "B", 1000, 2, 2000)}, {store("A", 1, "")}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := check.New()
			c.Observe([]check.Op{enq("j")}, []engine.Job{pending("j")})
			c.Observe([]check.Op{claim("j", "A", 0, 1, 1000)}, []engine.Job{leased("j", "A", 1, 1000)})
			row := leased("j", "B", 2, 2000) // the job's row once B's grant came
			if tc.name == "before B's grant" {
				row = leased("j", "A", 1, 1000)
			}
			var vs []check.Verdict
			for _, ops := range tc.steps {
				vs = c.ObserveChanged(ops, []engine.Job{row})
			}
			names, details := failing(vs)
			if !reflect.DeepEqual(names, tc.broken) {
				t.Errorf("broken %v, want %v\n%s", names, tc.broken, details)
			}
			if tc.name == "after B's grant" && !strings.Contains(details, "storage f: write by A#1 accepted after B#2 was granted the lease of j") {
				t.Errorf("detail %q", details)
			}
		})
	}
}

// With a lock-delay of 500 ms, A's lease of a (until 1000) keeps the job
// until 1500 unless it is released: single-lease reports a grant before
// then, at and after the lease's end alike.
func TestSetLockDelay_AGrantBeforeLeaseUntilPlusTheDelayBreaksSingleLease(t *testing.T) {
	cases := []struct {
		at     int64
		detail string // "" when every invariant holds
	}{
		{999, "job a: B#2 granted at 999 while A#1 is valid until 1000"},
		{1000, "job a: B#2 granted at 1000, 0 ms after A#1 ran out, within the lock-delay of 500 ms"},
		{1499, "job a: B#2 granted at 1499, 499 ms after A#1 ran out, within the lock-delay of 500 ms"},
		{1500, ""},
		{1501, ""},
	}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.at), func(t *testing.T) {
			ch := check.New()
			ch.SetLockDelay(500)
			ch.Observe([]check.Op{enq("a"), claim("a", "A", 0, 1, 1000)}, []engine.Job{leased("a", "A", 1, 1000)})
			names, details := failing(ch.Observe([]check.Op{claim("a", "B", c.at, 2, c.at+1000)},
				[]engine.Job{leased("a", "B", 2, c.at+1000)}))
			if c.detail == "" {
				if len(names) > 0 {
					t.Fatalf("grant at %d: %v\n%s; want every invariant held", c.at, names, details)
				}
				return
			}
			if len(names) != 1 || names[0] != check.SingleLease || !strings.Contains(details, c.detail) {
				t.Fatalf("grant at %d: %v\n%s; want single-lease: %s", c.at, names, details, c.detail)
			}
		})
	}
	t.Run("released", func(t *testing.T) {
		ch := check.New()
		ch.SetLockDelay(500)
		ch.Observe([]check.Op{enq("a"), claim("a", "A", 0, 1, 1000)}, []engine.Job{leased("a", "A", 1, 1000)})
		ch.Observe([]check.Op{write(engine.OpRelease, "a", "A", 1, 100, true)}, []engine.Job{pending("a")})
		if names, details := failing(ch.Observe([]check.Op{claim("a", "B", 200, 2, 1200)},
			[]engine.Job{leased("a", "B", 2, 1200)})); len(names) > 0 {
			t.Fatalf("grant after a release: %v\n%s; want every invariant held", names, details)
		}
	})
}

// A second client's majority while the first still believes it holds the
// lock breaks single-lease; after the first's belief ran out, or after it
// released the lock, it does not.
func TestAcquired_AMajorityWhileAnotherBelievesItHoldsTheLockBreaksSingleLease(t *testing.T) {
	cases := []struct {
		name     string
		released bool
		at       int64
		broken   bool
	}{
		{"inside the first's belief", false, 9999, true},
		{"at its end", false, 10000, false},
		{"after a release", true, 500, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ch := check.New()
			ch.Observe(nil, nil)
			ch.Acquired("lock", "client1", 0, 10000)
			if c.released {
				ch.Released("lock", "client1")
			}
			ch.Acquired("lock", "client2", c.at, c.at+10000)
			names, details := failing(ch.Observe(nil, nil))
			if c.broken != (len(names) == 1 && names[0] == check.SingleLease) {
				t.Fatalf("%v\n%s; want single-lease broken: %v", names, details, c.broken)
			}
			if c.broken && !strings.Contains(details, "lock lock: client2 acquired a majority of the nodes at 9999 while client1, which acquired one at 0, believes it holds the lock until 10000") {
				t.Fatalf("detail %q", details)
			}
		})
	}
}
