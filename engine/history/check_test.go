package history_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/history"
)

// Shorthands for hand-written histories.

func enqueue(client, job string, inv, ret int64) history.Operation {
	return history.Operation{Client: client, Call: engine.OpEnqueue, Args: history.Args{Job: job}, Invoke: inv, Return: ret,
		Answer: history.Answer{Outcome: engine.OutcomeOK, Created: true}}
}

func claim(client, job string, now int64, inv, ret int64, a history.Answer) history.Operation {
	return history.Operation{Client: client, Call: engine.OpClaim, Args: history.Args{Job: job, Owner: client, Now: now, TTL: 1000},
		Invoke: inv, Return: ret, Answer: a}
}

func complete(client, job string, token, now int64, inv, ret int64, a history.Answer) history.Operation {
	return history.Operation{Client: client, Call: engine.OpComplete, Args: history.Args{Job: job, Owner: client, Token: token, Now: now},
		Invoke: inv, Return: ret, Answer: a}
}

func state(client, job string, inv, ret int64, a history.Answer) history.Operation {
	return history.Operation{Client: client, Call: engine.OpState, Args: history.Args{Job: job}, Invoke: inv, Return: ret, Answer: a}
}

func granted(token, until int64) history.Answer {
	return history.Answer{Outcome: engine.OutcomeOK, Token: token, LeaseUntil: until}
}

var (
	ok     = history.Answer{Outcome: engine.OutcomeOK}
	failed = history.Answer{Outcome: engine.OutcomeError, Error: "connection reset"}
)

func refused(r engine.Refusal) history.Answer {
	return history.Answer{Outcome: engine.OutcomeRefused, Refusal: r}
}

func check(t *testing.T, h history.History) *history.Result {
	t.Helper()
	r, err := history.Check(h)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// A claim that was invoked first but took effect second is refused held:
// the overlap lets the checker put it after the claim that won.
func TestCheck_AConcurrentHistoryInEitherOrderIsLinearizable(t *testing.T) {
	h := history.History{
		enqueue("setup", "a", 0, 1),
		claim("B", "a", 0, 10, 30, refused(engine.RefusedHeld)),
		claim("A", "a", 0, 12, 20, granted(1, 1000)),
		state("C", "a", 15, 25, history.Answer{Outcome: engine.OutcomeOK,
			Row: &engine.Job{ID: "a", Qty: 1, Owner: "A", LeaseUntil: 1000, Token: 1, Attempts: 1, Status: engine.StatusLeased}}),
		complete("A", "a", 1, 999, 40, 50, ok),
		claim("B", "a", 1000, 45, 60, refused(engine.RefusedDone)),
	}
	if r := check(t, h); r.Verdict != history.Linearizable || r.Failure != nil {
		t.Errorf("verdict %s:\n%s", r.Verdict, r)
	}
}

// The old holder's complete at lease_until-1 and a new claim at
// lease_until overlap and both succeed: a complete that checks its lease in
// one statement and writes in another. Whichever went first, the other
// must have been refused.
func TestCheck_ACheckThenActCompleteIsNotLinearizable(t *testing.T) {
	h := history.History{
		enqueue("setup", "a", 0, 1),
		claim("A", "a", 0, 2, 3, granted(1, 1000)),
		complete("A", "a", 1, 999, 10, 20, ok),
		claim("B", "a", 1000, 11, 19, granted(2, 2000)),
	}
	r := check(t, h)
	if r.Verdict != history.NotLinearizable || r.Failure == nil {
		t.Fatalf("verdict %s, want not linearizable", r.Verdict)
	}
	f := r.Failure
	if f.Job != "a" || len(f.Calls) != 4 {
		t.Errorf("failure on job %q with %d calls, want job a and 4:\n%s", f.Job, len(f.Calls), r)
	}
	overlapping := map[int]bool{}
	for _, c := range f.Calls {
		if c.Overlaps {
			overlapping[c.Index] = true
		}
	}
	if !overlapping[2] || !overlapping[3] || len(overlapping) != 2 {
		t.Errorf("overlapping calls %v, want the complete (2) and the new claim (3):\n%s", overlapping, r)
	}
	msg := r.String()
	for _, want := range []string{
		"not linearizable: 4 calls of 3 clients; no order of the calls on job a",
		"call 3  A",
		"complete a A#1 now=999",
		"call 4  B",
		"claim a by B now=1000 ttl=1000",
		"→ ok token=2 lease_until=2000",
		"a done qty=1 owner=\"A\" lease_until=1000 token=1",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("the report does not say %q:\n%s", want, msg)
		}
	}
}

// Two claims of one job both granted token 1: a claim that decided on a
// snapshot and wrote later.
func TestCheck_TwoClaimsGrantedTheSameTokenAreNotLinearizable(t *testing.T) {
	h := history.History{
		enqueue("setup", "a", 0, 1),
		claim("A", "a", 0, 10, 20, granted(1, 1000)),
		claim("B", "a", 0, 11, 21, granted(1, 1000)),
	}
	r := check(t, h)
	if r.Verdict != history.NotLinearizable {
		t.Fatalf("verdict %s, want not linearizable", r.Verdict)
	}
	var stuck []int
	for _, c := range r.Failure.Calls {
		if c.Stuck {
			stuck = append(stuck, c.Index)
		}
	}
	if len(stuck) != 1 || (stuck[0] != 1 && stuck[0] != 2) {
		t.Errorf("stuck calls %v, want one of the two claims:\n%s", stuck, r)
	}
}

// No two calls overlap, so the order is the history's, and a renew at
// lease_until (the lease has ended) answered ok is wrong in it.
func TestCheck_SequentialCallsThatAnswerWronglyAreNotLinearizable(t *testing.T) {
	h := history.History{
		enqueue("setup", "a", 0, 1),
		claim("A", "a", 0, 2, 3, granted(1, 1000)),
		{Client: "A", Call: engine.OpRenew, Args: history.Args{Job: "a", Owner: "A", Token: 1, Now: 1000, TTL: 1000},
			Invoke: 4, Return: 5, Answer: granted(1, 2000)},
	}
	r := check(t, h)
	if r.Verdict != history.NotLinearizable {
		t.Fatalf("verdict %s, want not linearizable", r.Verdict)
	}
	last := r.Failure.Calls[len(r.Failure.Calls)-1]
	if last.Index != 2 || !last.Stuck || last.Placed {
		t.Errorf("the renew is %+v, want the stuck call 2:\n%s", last, r)
	}
}

// The lease ends at lease_until (1000): the holder's complete and another
// owner's claim, overlapping, with the answers a store may or may not give
// before, at and after it.
func TestCheck_BoundaryOfTheLease(t *testing.T) {
	for _, tc := range []struct {
		name              string
		completeAt        int64
		completeA, claimA history.Answer
		claimAt           int64
		linearizable      bool
	}{
		{"complete before the end, claim at it: both ok", 999, ok, granted(2, 2000), 1000, false},
		{"complete before the end, claim at it: claim refused done", 999, ok, refused(engine.RefusedDone), 1000, true},
		{"complete before the end, claim at it: complete superseded", 999, refused(engine.RefusedSuperseded), granted(2, 2000), 1000, true},
		{"complete at the end: ok", 1000, ok, refused(engine.RefusedDone), 1000, false},
		{"complete at the end: expired, claim ok", 1000, refused(engine.RefusedExpired), granted(2, 2000), 1000, true},
		{"complete after the end: expired, claim ok", 1001, refused(engine.RefusedExpired), granted(2, 2001), 1001, true},
		{"claim before the end: ok", 500, ok, granted(2, 1999), 999, false},
		{"claim before the end: held", 500, ok, refused(engine.RefusedHeld), 999, true},
		{"claim after the end, complete before: ok and ok", 999, ok, granted(2, 2001), 1001, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := history.History{
				enqueue("setup", "a", 0, 1),
				claim("A", "a", 0, 2, 3, granted(1, 1000)),
				complete("A", "a", 1, tc.completeAt, 10, 20, tc.completeA),
				claim("B", "a", tc.claimAt, 11, 19, tc.claimA),
			}
			if r := check(t, h); (r.Verdict == history.Linearizable) != tc.linearizable {
				t.Errorf("verdict %s, want linearizable %v:\n%s", r.Verdict, tc.linearizable, r)
			}
		})
	}
}

// A job's deadline (1000) caps its lease and ends its claims: at the
// deadline a claim quarantines it.
func TestCheck_BoundaryOfTheDeadline(t *testing.T) {
	for _, tc := range []struct {
		now          int64
		answer       history.Answer
		linearizable bool
	}{
		{999, granted(1, 1000), true},
		{999, refused(engine.RefusedQuarantined), false},
		{1000, granted(1, 1000), false},
		{1000, refused(engine.RefusedQuarantined), true},
		{1001, refused(engine.RefusedQuarantined), true},
	} {
		h := history.History{
			{Client: "setup", Call: engine.OpEnqueue, Args: history.Args{Job: "a", Deadline: 1000}, Invoke: 0, Return: 1,
				Answer: history.Answer{Outcome: engine.OutcomeOK, Created: true}},
			claim("A", "a", tc.now, 2, 3, tc.answer),
		}
		if r := check(t, h); (r.Verdict == history.Linearizable) != tc.linearizable {
			t.Errorf("claim at %d answered %+v: verdict %s, want linearizable %v", tc.now, tc.answer, r.Verdict, tc.linearizable)
		}
	}
}

// A call that answered error may or may not have taken effect, and may
// take effect after it returned.
func TestCheck_ACallThatAnsweredErrorMayHaveTakenEffectOrNot(t *testing.T) {
	for _, tc := range []struct {
		token        int64
		linearizable bool
	}{
		{1, true},  // A's claim did not take effect
		{2, true},  // it did, after the release and before B's claim
		{3, false}, // no claim gives token 3
	} {
		h := history.History{
			enqueue("setup", "a", 0, 1),
			claim("A", "a", 0, 2, 3, failed),
			{Client: "B", Call: engine.OpRelease, Args: history.Args{Job: "a", Owner: "A", Token: 1}, Invoke: 4, Return: 5,
				Answer: history.Answer{Outcome: engine.OutcomeRefused}}, // whichever rule
			claim("B", "a", 1000, 10, 11, granted(tc.token, 2000)),
		}
		if r := check(t, h); (r.Verdict == history.Linearizable) != tc.linearizable {
			t.Errorf("B granted token %d: verdict %s, want linearizable %v\n%s", tc.token, r.Verdict, tc.linearizable, r)
		}
	}
}

// The failure keeps the calls up to the first instant it shows and leaves
// out the reads and refusals that change nothing: of 14 calls, the
// enqueue and the two claims granted token 1.
func TestCheck_TheFailureIsCutAndShrunk(t *testing.T) {
	row := &engine.Job{ID: "a", Qty: 1, Status: engine.StatusPending}
	h := history.History{
		enqueue("setup", "a", 0, 1),
		enqueue("setup", "b", 2, 3),
		state("C", "a", 4, 5, history.Answer{Outcome: engine.OutcomeOK, Row: row}),
		claim("C", "b", 0, 4, 6, granted(1, 1000)),
		claim("A", "a", 0, 10, 20, granted(1, 1000)),
		state("C", "a", 11, 12, history.Answer{Outcome: engine.OutcomeOK, Row: row}),
		claim("B", "a", 0, 13, 22, granted(1, 1000)),
		claim("C", "a", 0, 14, 15, refused(engine.RefusedHeld)),
		complete("C", "a", 7, 10, 16, 17, refused(engine.RefusedSuperseded)),
		complete("A", "a", 1, 10, 30, 31, ok),
		complete("B", "a", 1, 10, 32, 33, refused(engine.RefusedDone)),
		claim("C", "a", 0, 34, 35, refused(engine.RefusedDone)),
		state("C", "a", 36, 37, history.Answer{Outcome: engine.OutcomeEmpty}),
		complete("C", "b", 1, 10, 40, 41, refused(engine.RefusedSuperseded)),
	}
	r := check(t, h)
	if r.Verdict != history.NotLinearizable {
		t.Fatalf("verdict %s, want not linearizable", r.Verdict)
	}
	var got []int
	for _, c := range r.Failure.Calls {
		got = append(got, c.Index)
	}
	if len(got) != 3 || got[0] != 0 || got[1] != 4 || got[2] != 6 {
		t.Errorf("failing calls %v, want [0 4 6]:\n%s", got, r)
	}
	if len(r.Failure.Jobs) != 2 || r.Failure.Jobs[1] != "b" {
		t.Errorf("failing jobs %v, want a then b (C completes b with a token it never had)", r.Failure.Jobs)
	}
}

// A claim_next spans jobs: the calls are checked together, and the
// failure names no one job.
func TestCheck_AHistoryWithClaimNextIsCheckedWhole(t *testing.T) {
	h := history.History{
		enqueue("setup", "a", 0, 1),
		enqueue("setup", "b", 2, 3),
		{Client: "A", Call: engine.OpClaimNext, Args: history.Args{Owner: "A", Now: 0, TTL: 1000}, Invoke: 10, Return: 20,
			Answer: history.Answer{Outcome: engine.OutcomeOK, Job: "b", Token: 1, LeaseUntil: 1000}},
	}
	r := check(t, h)
	if r.Verdict != history.NotLinearizable || r.Failure.Job != "" {
		t.Fatalf("claim_next took b before a: verdict %s:\n%s", r.Verdict, r)
	}
	if !strings.Contains(r.String(), "they span jobs") {
		t.Errorf("the report does not say the calls span jobs:\n%s", r)
	}
}

// Out of time, the verdict is unknown, neither pass nor fail.
func TestCheckTimeout_OutOfTimeIsUnknown(t *testing.T) {
	h := history.History{enqueue("setup", "a", 0, 1)}
	r, err := history.CheckTimeout(h, 0)
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != history.Unknown || !strings.HasPrefix(r.String(), "unknown: 1 calls of 1 clients;") {
		t.Errorf("verdict %s: %s", r.Verdict, r)
	}
}

// A row in the report names its attempts and their bound as the jobs
// table's columns do, so an unlimited job (max_attempts 0) does not read
// as a fraction, "1/0".
func TestResult_StringNamesAttemptsAndMaxAttempts(t *testing.T) {
	for _, maxAttempts := range []int64{0, 1, 3} {
		h := history.History{enqueue("setup", "a", 0, 1),
			claim("A", "a", 0, 10, 20, granted(1, 1000)),
			claim("B", "a", 0, 11, 21, granted(1, 1000))}
		h[0].Args.MaxAttempts = maxAttempts
		msg := check(t, h).String()
		if want := fmt.Sprintf(" attempts=1 max_attempts=%d ", maxAttempts); !strings.Contains(msg, want) {
			t.Errorf("max_attempts %d: the report lacks %q:\n%s", maxAttempts, want, msg)
		}
	}
}

// The visualisation's lanes are numbered, so each call's box names the
// client whose lane it is on, which need not be the call's owner.
func TestResult_WriteHTMLNamesEachCallsClient(t *testing.T) {
	h := history.History{enqueue("setup", "a", 0, 1),
		claim("svc-1", "a", 0, 10, 20, granted(1, 1000)),
		claim("svc-2", "a", 0, 11, 21, granted(1, 1000))}
	h[1].Args.Owner, h[2].Args.Owner = "w7", "w8"
	var b strings.Builder
	if err := check(t, h).WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"setup: enqueue a", "svc-1: claim a by w7 now=0", "svc-2: claim a by w8 now=0"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

// The visualisation is one page that marks the call no order places.
func TestResult_WriteHTMLMarksTheStuckCall(t *testing.T) {
	r := check(t, history.History{
		enqueue("setup", "a", 0, 1),
		claim("A", "a", 0, 10, 20, granted(1, 1000)),
		claim("B", "a", 0, 11, 21, granted(1, 1000)),
	})
	var b strings.Builder
	if err := r.WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{"<html", "no order places it", "claim a by B now=0 ttl=1000"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}
