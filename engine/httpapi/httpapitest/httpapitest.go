// Package httpapitest is the HTTP contract suite of the engine's API: one
// suite, run against any server of it by base URL — natively (leaselab
// serve's handler over a SQLite file, under httptest) and on the Cloudflare Worker
// (wrangler dev with a local D1). Both must pass it unchanged.
//
// The suite needs nothing from the server but the API: it makes its own
// job ids (unique per run, so a persistent store may be reused), uses the
// client's virtual clock (instants from 0, in the past of the server's
// clock) everywhere but in the tests of the server's clock and of how far
// ahead of it a client's now may be, and drains the queue before testing
// claim-next, which sees every job.
//
// Its lease part ("Lease") is the conformance suite of package
// engine/leasetest run over the API: every library timeline and seeded
// random call sequences, each call beside the reference model, with the
// rows and the invariants compared after every step, on a leasetest.Queue
// that speaks HTTP (each on an emptied server, its job ids prefixed, its
// rows read job by job). A difference names the timeline's line or the
// shortest sequence, the call, and both answers and rows. The other parts
// check what is the web's: status codes, the wire's shapes, strict JSON,
// origins, methods, limits and clocks.
package httpapitest

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/leaselab/leaselab/engine/httpapi"
)

// Target is a running server of the API.
type Target struct {
	// BaseURL is the server's root, e.g. "http://127.0.0.1:8788".
	BaseURL string
	// Timeline: the server runs timelines. If false, POST /api/timeline
	// must answer 501 with a reason.
	Timeline bool
	// MaxBodyBytes is the server's body limit; 0 means
	// httpapi.DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// Rounds and Parallel shape the one-winner test: Parallel claims of one
	// job at once, Rounds times. They default to 20 and 16 and may not be
	// set lower.
	Rounds, Parallel int
	// Sequences is how many of the conformance suite's random call
	// sequences (engine/leasetest, from its Seed) the lease part plays
	// over the API; 0 means 60.
	Sequences int
}

// requestTimeout bounds one try of one request; a request that takes longer
// is sent again.
const requestTimeout = 20 * time.Second

// Run runs the contract suite against target as subtests of t.
func Run(t *testing.T, target Target) {
	if target.MaxBodyBytes == 0 {
		target.MaxBodyBytes = httpapi.DefaultMaxBodyBytes
	}
	if target.Rounds < 20 {
		target.Rounds = 20
	}
	if target.Parallel < 16 {
		target.Parallel = 16
	}
	if target.Sequences <= 0 {
		target.Sequences = 60
	}
	u, err := url.Parse(target.BaseURL)
	if err != nil {
		t.Fatalf("base URL: %v", err)
	}
	if ip := net.ParseIP(u.Hostname()); ip == nil || !ip.IsLoopback() {
		t.Fatalf("base URL %q: the suite talks to loopback only", target.BaseURL)
	}
	s := &suite{
		Target: target,
		c: &client{base: target.BaseURL, hc: &http.Client{
			Timeout:   requestTimeout,
			Transport: &http.Transport{MaxIdleConnsPerHost: 64},
		}},
		prefix: "c" + strconv.FormatInt(time.Now().UnixNano(), 36) + "-",
	}
	defer s.c.hc.CloseIdleConnections()
	for _, tc := range []struct {
		name string
		f    func(*testing.T)
	}{
		{"Enqueue_NewIs201_ExistingIs200AndChangesNothing", s.testEnqueue},
		{"Get_UnknownIs404_AnyIDRoundTrips", s.testGet},
		{"Claim_HeldBeforeLeaseUntil_FreeAtIt", s.testClaimBoundary},
		{"Complete_StaleTokenIs409WithTheRejection", s.testStaleComplete},
		{"RenewAndComplete_ValidOnlyBeforeLeaseUntil", s.testHolderBoundary},
		{"Deadline_CapsTheLeaseAndQuarantinesAtIt", s.testDeadline},
		{"MaxAttempts_QuarantinesOnlyAFreeJobWithBudgetUsedUp", s.testMaxAttempts},
		{"Release_FreesTheJobAndKeepsTheToken", s.testRelease},
		{"UnknownJob_Is404ForEveryOp", s.testUnknownJob},
		{"BadInput_Is400WithTheField", s.testBadInput},
		{"NamesAndResults_OverTheirLimitAre400", s.testNameAndResultLimits},
		{"ListJobs_PagesHoldEveryJobOnceInInsertionOrder", s.testListPages},
		{"ListJobs_BadLimitOrCursorIs400", s.testListBadQuery},
		{"StrictJSON_Is400WithTheFieldAndChangesNothing", s.testStrictJSON},
		{"CrossOrigin_WritesAre403_NoCORSHeaders", s.testCrossOrigin},
		{"Numbers_WithinZeroTo2Pow53Minus1", s.testNumberRange},
		{"BodyOverLimit_Is413", s.testBodyLimit},
		{"WrongMethod_Is405WithAllow", s.testMethods},
		{"Head_IsGetWithoutTheBody", s.testHead},
		{"UnknownRoute_Is404JSON", s.testUnknownRoute},
		{"NowOmitted_ServerClockDecides", s.testServerClock},
		{"ClientNow_AtMostMaxClockLeadAhead", s.testClientNowWindow},
		{"ClaimNext_OldestClaimableFirst", s.testClaimNext},
		{"ParallelClaims_ExactlyOneWinnerPerRound", s.testOneWinner},
		{"ParallelClaimNext_EachJobOnce", s.testClaimNextParallel},
		{"Timeline", s.testTimeline},
		{"Lease", s.testLease},
		{"Concurrent_OverlappingCallsFitTheContract", s.testConcurrent},
	} {
		t.Run(tc.name, tc.f)
	}
	t.Logf("%s: %d answers 503 and %d timed-out requests retried", target.BaseURL, s.c.retries.Load(), s.c.timeouts.Load())
}

type suite struct {
	Target
	c      *client
	prefix string
	queues int // the lease part's Queues so far
}

// obj is a JSON object to post.
type obj = map[string]any

// id makes a job id unique to this run.
func (s *suite) id(name string) string { return s.prefix + name }

func (s *suite) enqueue(t testing.TB, body obj) job {
	t.Helper()
	return want[enqueued](t, s.c.post(t, "/api/jobs", body), http.StatusCreated).Job
}

// newJob enqueues a job named name with the given extra fields.
func (s *suite) newJob(t testing.TB, name string, fields ...any) string {
	t.Helper()
	body := obj{"id": s.id(name)}
	for i := 0; i+1 < len(fields); i += 2 {
		body[fields[i].(string)] = fields[i+1]
	}
	s.enqueue(t, body)
	return s.id(name)
}

func (s *suite) job(t testing.TB, id string) job {
	t.Helper()
	return want[job](t, s.c.get(t, "/api/jobs/"+url.PathEscape(id)), http.StatusOK)
}

func (s *suite) claim(t testing.TB, id, owner string, now, ttl int64) answer {
	t.Helper()
	return s.c.post(t, "/api/claim", obj{"job_id": id, "owner": owner, "now": now, "ttl": ttl})
}

func (s *suite) mustClaim(t testing.TB, id, owner string, now, ttl int64) lease {
	t.Helper()
	a := want[leaseAnswer](t, s.claim(t, id, owner, now, ttl), http.StatusOK)
	if a.Now != now {
		t.Fatalf("claim at %d answered now %d", now, a.Now)
	}
	return a.Lease
}

func (s *suite) renew(t testing.TB, l lease, now, ttl int64) answer {
	t.Helper()
	return s.c.post(t, "/api/renew", obj{"lease": l, "now": now, "ttl": ttl})
}

func (s *suite) complete(t testing.TB, l lease, now int64, result string) answer {
	t.Helper()
	return s.c.post(t, "/api/complete", obj{"lease": l, "now": now, "result": result})
}

func (s *suite) release(t testing.TB, l lease) answer {
	t.Helper()
	return s.c.post(t, "/api/release", obj{"lease": l})
}

func wantLease(t testing.TB, got lease, jobID, owner string, token, until int64) {
	t.Helper()
	if got.JobID != jobID || got.Owner != owner || got.Token != token || got.LeaseUntil != until {
		t.Fatalf("lease %+v, want %s %s#%d until %d", got, jobID, owner, token, until)
	}
}

func (j job) String() string {
	return fmt.Sprintf("%s %s %s#%d until %d attempts %d/%d deadline %d reason %q result %q",
		j.ID, j.Status, j.Owner, j.Token, j.LeaseUntil, j.Attempts, j.MaxAttempts, j.Deadline, j.Reason, j.Result)
}
