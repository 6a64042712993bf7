package check_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/check"
)

// claim is an accepted claim of job a by owner with token, granted at now
// until until, invoked at start and answered at end.
func hClaim(owner string, token, now, until, start, end int64) check.Call {
	return check.Call{Op: check.Op{Kind: engine.OpClaim, JobID: "a", Owner: owner, Now: now, Accepted: true,
		Lease: engine.Lease{JobID: "a", Owner: owner, Qty: 1, Token: token, Attempt: token, LeaseUntil: until}}, Start: start, End: end}
}

func hWrite(kind engine.Op, owner string, token, now, start, end int64) check.Call {
	return check.Call{Op: check.Op{Kind: kind, JobID: "a", Owner: owner, Token: token, Now: now, Accepted: true}, Start: start, End: end}
}

func hRenew(owner string, token, now, until, start, end int64) check.Call {
	c := hWrite(engine.OpRenew, owner, token, now, start, end)
	c.Lease = engine.Lease{JobID: "a", Owner: owner, Qty: 1, Token: token, LeaseUntil: until}
	return c
}

func TestHistory_JudgesOnlyWhatEveryOrderOfTheCallsBreaks(t *testing.T) {
	refusedClaim := check.Call{Op: check.Op{Kind: engine.OpClaim, JobID: "a", Owner: "B", Now: 10}, Start: 10, End: 12}
	for _, tc := range []struct {
		name  string
		calls []check.Call
		want  string   // "" for none; else the first violation's invariant
		in    []int    // its calls
		words []string // what its detail says
	}{
		{"a claim and a refused rival overlapping", []check.Call{hClaim("A", 1, 10, 1010, 10, 11), refusedClaim}, "", nil, nil},
		{"a token granted twice", []check.Call{hClaim("A", 1, 10, 1010, 10, 20), hClaim("B", 1, 15, 1015, 15, 25)},
			check.TokensIncrease, []int{0, 1}, []string{"token 1 granted twice", "call 0 (claim by A, 10..20)"}},
		{"a lower token after a higher one", []check.Call{hClaim("A", 2, 10, 1010, 10, 20), hClaim("B", 1, 2000, 3000, 2000, 2010)},
			check.TokensIncrease, []int{0, 1}, []string{"B#1 granted by call 1"}},
		// A's complete is stale only if B's grant surely came first.
		{"stale complete, the grant ended 1 ms before it started", []check.Call{
			hClaim("A", 1, 0, 1000, 0, 1), hClaim("B", 2, 1000, 2000, 1000, 1010), hWrite(engine.OpComplete, "A", 1, 999, 1011, 1020)},
			check.NoStaleWrite, []int{1, 2}, []string{"complete by A#1 accepted by call 2", "after B#2 was granted by call 1"}},
		{"stale complete? the grant ended as it started: either order", []check.Call{
			hClaim("A", 1, 0, 1000, 0, 1), hClaim("B", 2, 1000, 2000, 1000, 1010), hWrite(engine.OpComplete, "A", 1, 999, 1010, 1020)},
			"", nil, nil},
		{"a complete with another owner's token", []check.Call{
			hClaim("A", 1, 0, 1000, 0, 1), hWrite(engine.OpComplete, "B", 1, 10, 10, 11)},
			check.NoStaleWrite, []int{0, 1}, []string{"token 1 is A's"}},
		{"a renew after a release of the same lease", []check.Call{
			hClaim("A", 1, 0, 1000, 0, 1), hWrite(engine.OpRelease, "A", 1, 0, 5, 6), hRenew("A", 1, 10, 1010, 10, 11)},
			check.NoStaleWrite, []int{1, 2}, []string{"after call 1 (release by A, 5..6) ended that lease"}},
		{"complete just before lease_until", []check.Call{hClaim("A", 1, 0, 1000, 0, 1), hWrite(engine.OpComplete, "A", 1, 999, 999, 1000)}, "", nil, nil},
		{"complete at lease_until", []check.Call{hClaim("A", 1, 0, 1000, 0, 1), hWrite(engine.OpComplete, "A", 1, 1000, 1000, 1001)},
			check.NoLateWrite, []int{1}, []string{"accepted at 1000", "the lease ended at 1000"}},
		{"complete after a renew that may have come first", []check.Call{
			hClaim("A", 1, 0, 1000, 0, 1), hRenew("A", 1, 900, 1900, 900, 1100), hWrite(engine.OpComplete, "A", 1, 1000, 1000, 1001)}, "", nil, nil},
		{"a claim 1 ms before the first lease ends", []check.Call{hClaim("A", 1, 0, 1000, 0, 1), hClaim("B", 2, 999, 1999, 999, 1000)},
			check.SingleLease, []int{0, 1}, []string{"B#2 granted at 999", "while A#1, granted by call 0 (claim by A, 0..1), was valid until 1000"}},
		{"a claim at lease_until", []check.Call{hClaim("A", 1, 0, 1000, 0, 1), hClaim("B", 2, 1000, 2000, 1000, 1001)}, "", nil, nil},
		{"a claim after a renew surely came first", []check.Call{
			hClaim("A", 1, 0, 1000, 0, 1), hRenew("A", 1, 900, 1900, 900, 901), hClaim("B", 2, 1500, 2500, 1500, 1501)},
			check.SingleLease, []int{0, 2}, []string{"valid until 1900"}},
		{"a claim after a release that may have come first", []check.Call{
			hClaim("A", 1, 0, 1000, 0, 1), hWrite(engine.OpRelease, "A", 1, 0, 400, 600), hClaim("B", 2, 500, 1500, 500, 501)}, "", nil, nil},
		// Clients pass their own nows: a slow claim invoked at 48 is granted
		// after C#2 took over A#1's expired lease at 52 and released it, so
		// the row it saw held C#2's, not A#1's; A#1's end at 50 does not judge it.
		{"a grant after a later token superseded the earlier lease", []check.Call{
			hClaim("A", 1, 44, 50, 44, 45), hClaim("C", 2, 52, 58, 52, 53), hWrite(engine.OpRelease, "C", 2, 0, 54, 55),
			hClaim("B", 3, 48, 54, 48, 81)}, "", nil, nil},
		{"the same grant overlapping the lease just before it", []check.Call{
			hClaim("A", 1, 44, 50, 44, 45), hClaim("C", 2, 52, 58, 52, 53), hClaim("B", 3, 55, 61, 55, 81)},
			check.SingleLease, []int{1, 2}, []string{"B#3 granted at 55", "while C#2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vs := check.History(tc.calls)
			if tc.want == "" {
				if len(vs) != 0 {
					t.Fatalf("violations %v, want none", vs)
				}
				return
			}
			if len(vs) == 0 {
				t.Fatalf("no violation, want %s", tc.want)
			}
			v := vs[0]
			if v.Invariant != tc.want || !slices.Equal(v.Calls, tc.in) {
				t.Fatalf("first violation %s with calls %v, want %s with %v (all: %v)", v.Invariant, v.Calls, tc.want, tc.in, vs)
			}
			for _, w := range tc.words {
				if !strings.Contains(v.Detail, w) {
					t.Errorf("%q lacks %q", v.Detail, w)
				}
			}
		})
	}
}
