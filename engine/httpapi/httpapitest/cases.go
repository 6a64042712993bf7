package httpapitest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/leaselab/leaselab/engine/httpapi"
)

const (
	maxSafe = httpapi.MaxSafeInteger
	maxTTL  = httpapi.MaxTTL
)

func (s *suite) testEnqueue(t *testing.T) {
	id := s.id("enqueue")
	first := s.enqueue(t, obj{"id": id})
	if (first != job{ID: id, Qty: 1, Status: "pending"}) {
		t.Fatalf("new job %v, want pending, qty 1, no owner, token 0", first)
	}
	again := want[enqueued](t, s.c.post(t, "/api/jobs", obj{"id": id, "qty": 5}), http.StatusOK)
	if again.Created || again.Job != first {
		t.Fatalf("re-enqueue: created %v, job %v; want false and %v", again.Created, again.Job, first)
	}
	l := s.mustClaim(t, id, "A", 0, 1000)
	held := s.job(t, id)
	again = want[enqueued](t, s.c.post(t, "/api/jobs", obj{"id": id}), http.StatusOK)
	if again.Created || again.Job != held || held.Token != l.Token || held.Owner != "A" {
		t.Fatalf("re-enqueue of a leased job: created %v, job %v; want false and %v", again.Created, again.Job, held)
	}

	full := s.enqueue(t, obj{"id": s.id("enqueue-full"), "qty": 3, "deadline": 500, "max_attempts": 2})
	if full.Qty != 3 || full.Deadline != 500 || full.MaxAttempts != 2 || full.Status != "pending" {
		t.Fatalf("enqueued %v, want qty 3, deadline 500, max_attempts 2", full)
	}
	_, list := s.lastPage(t)
	i := slices.IndexFunc(list, func(j job) bool { return j.ID == id })
	k := slices.IndexFunc(list, func(j job) bool { return j.ID == full.ID })
	if i < 0 || k < 0 || i > k || list[i] != held || list[k] != full {
		t.Fatalf("GET /api/jobs: %s at %d, %s at %d; want both, in insertion order, as stored", id, i, full.ID, k)
	}
}

func (s *suite) testGet(t *testing.T) {
	wantError(t, s.c.get(t, "/api/jobs/"+url.PathEscape(s.id("never"))), http.StatusNotFound, "not_found", s.id("never"))
	for _, name := range []string{"plain", "with space", "slash/inside", "üñï-çødé", "q?x=1#frag", "%41", "..", "a+b"} {
		id := s.id(name)
		s.enqueue(t, obj{"id": id})
		if got := s.job(t, id); got.ID != id {
			t.Errorf("GET of %q answered job %q", id, got.ID)
		}
	}
}

func (s *suite) testClaimBoundary(t *testing.T) {
	for _, tc := range []struct {
		name   string
		at     int64 // B's claim, A's lease_until is 1000
		wantOK bool
	}{
		{"before", 999, false},
		{"at", 1000, true},
		{"after", 1001, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id := s.newJob(t, "claim-boundary-"+tc.name)
			a := s.mustClaim(t, id, "A", 0, 1000)
			wantLease(t, a, id, "A", 1, 1000)
			if a.Attempt != 1 || a.Qty != 1 {
				t.Fatalf("first claim: attempt %d qty %d, want 1 and 1", a.Attempt, a.Qty)
			}
			ans := s.claim(t, id, "B", tc.at, 1000)
			if !tc.wantOK {
				r := wantRejection(t, ans, "claim", "held")
				if r.Now != tc.at || r.Presented.Owner != "B" || r.Presented.JobID != id ||
					r.Current.Owner != "A" || r.Current.Token != 1 || r.Current.LeaseUntil != 1000 {
					t.Fatalf("held rejection %+v current %v", r, r.Current)
				}
				if got := s.job(t, id); got.Owner != "A" || got.Token != 1 || got.Attempts != 1 {
					t.Fatalf("a refused claim changed the row: %v", got)
				}
				return
			}
			b := want[leaseAnswer](t, ans, http.StatusOK).Lease
			wantLease(t, b, id, "B", 2, tc.at+1000)
			if b.Attempt != 2 {
				t.Fatalf("second claim: attempt %d, want 2", b.Attempt)
			}
		})
	}
}

func (s *suite) testStaleComplete(t *testing.T) {
	id := s.newJob(t, "late-courier", "qty", 2)
	a := s.mustClaim(t, id, "A", 0, 1000)
	b := s.mustClaim(t, id, "B", 1000, 1000)
	wantLease(t, b, id, "B", 2, 2000)

	r := wantRejection(t, s.complete(t, a, 1001, "A's result"), "complete", "superseded")
	if r.Presented != a || r.Now != 1001 {
		t.Fatalf("presented %+v now %d, want %+v now 1001", r.Presented, r.Now, a)
	}
	if c := r.Current; c.Owner != "B" || c.Token != 2 || c.LeaseUntil != 2000 || c.Status != "leased" || c.Qty != 2 {
		t.Fatalf("current %v, want B#2 until 2000", c)
	}
	for _, part := range []string{"superseded", "A#1", "B#2", "1001"} {
		if !strings.Contains(r.Message, part) {
			t.Fatalf("message %q lacks %q", r.Message, part)
		}
	}
	ok := want[okAnswer](t, s.complete(t, b, 1200, "B's result"), http.StatusOK)
	if !ok.OK || ok.Now == nil || *ok.Now != 1200 {
		t.Fatalf("complete answered %+v", ok)
	}
	wantRejection(t, s.complete(t, b, 1300, "again"), "complete", "done")
	if got := s.job(t, id); got.Status != "done" || got.Result != "B's result" || got.Token != 2 {
		t.Fatalf("after the stale and the second complete: %v, want done with B's result", got)
	}
}

func (s *suite) testHolderBoundary(t *testing.T) {
	for _, op := range []string{"renew", "complete"} {
		for _, tc := range []struct {
			name   string
			at     int64 // lease_until is 1000
			wantOK bool
		}{
			{"before", 999, true},
			{"at", 1000, false},
			{"after", 1001, false},
		} {
			t.Run(op+"-"+tc.name, func(t *testing.T) {
				id := s.newJob(t, "holder-"+op+"-"+tc.name)
				l := s.mustClaim(t, id, "A", 0, 1000)
				var ans answer
				if op == "renew" {
					ans = s.renew(t, l, tc.at, 1000)
				} else {
					ans = s.complete(t, l, tc.at, "r")
				}
				got := s.job(t, id)
				if !tc.wantOK {
					r := wantRejection(t, ans, op, "expired")
					if r.Now != tc.at || r.Presented.Token != 1 {
						t.Fatalf("rejection now %d presented %+v", r.Now, r.Presented)
					}
					if got.Status != "leased" || got.LeaseUntil != 1000 || got.Result != "" {
						t.Fatalf("a refused %s changed the row: %v", op, got)
					}
					return
				}
				if op == "renew" {
					nl := want[leaseAnswer](t, ans, http.StatusOK).Lease
					wantLease(t, nl, id, "A", 1, tc.at+1000)
					if got.LeaseUntil != tc.at+1000 {
						t.Fatalf("renewed row %v", got)
					}
					return
				}
				want[okAnswer](t, ans, http.StatusOK)
				if got.Status != "done" || got.Result != "r" {
					t.Fatalf("completed row %v", got)
				}
			})
		}
	}
}

func (s *suite) testDeadline(t *testing.T) {
	t.Run("lease-capped", func(t *testing.T) {
		id := s.newJob(t, "deadline-cap", "deadline", 1500)
		l := s.mustClaim(t, id, "A", 0, 1000)
		wantLease(t, l, id, "A", 1, 1000)
		r := want[leaseAnswer](t, s.renew(t, l, 900, 1000), http.StatusOK).Lease
		wantLease(t, r, id, "A", 1, 1500)
		wantRejection(t, s.complete(t, r, 1500, "late"), "complete", "expired")
	})
	for _, tc := range []struct {
		name   string
		at     int64 // the deadline is 600
		wantOK bool
	}{
		{"before", 599, true},
		{"at", 600, false},
		{"after", 601, false},
	} {
		t.Run("claim-"+tc.name, func(t *testing.T) {
			id := s.newJob(t, "deadline-"+tc.name, "deadline", 600)
			ans := s.claim(t, id, "A", tc.at, 1000)
			if tc.wantOK {
				wantLease(t, want[leaseAnswer](t, ans, http.StatusOK).Lease, id, "A", 1, 600)
				return
			}
			r := wantRejection(t, ans, "claim", "quarantined")
			if r.Current.Status != "quarantined" || r.Current.Reason != "deadline" || r.Current.Token != 0 {
				t.Fatalf("current %v, want quarantined for deadline, no token granted", r.Current)
			}
			if got := s.job(t, id); got.Status != "quarantined" || got.Reason != "deadline" {
				t.Fatalf("the quarantine was not committed: %v", got)
			}
			wantRejection(t, s.claim(t, id, "B", tc.at+5000, 1000), "claim", "quarantined")
		})
	}
}

func (s *suite) testMaxAttempts(t *testing.T) {
	id := s.newJob(t, "attempts", "max_attempts", 2)
	a := s.mustClaim(t, id, "A", 0, 1000)
	wantRejection(t, s.claim(t, id, "B", 500, 1000), "claim", "held")
	b := s.mustClaim(t, id, "B", 1000, 1000)
	wantLease(t, b, id, "B", 2, 2000)
	if b.Attempt != 2 {
		t.Fatalf("attempt %d, want 2", b.Attempt)
	}
	// Budget used up but held: neither handed over nor quarantined.
	wantRejection(t, s.claim(t, id, "C", 1999, 1000), "claim", "held")
	if got := s.job(t, id); got.Status != "leased" || got.Owner != "B" {
		t.Fatalf("a held job changed: %v", got)
	}
	r := wantRejection(t, s.claim(t, id, "C", 2000, 1000), "claim", "quarantined")
	if r.Current.Reason != "attempts" || r.Current.Attempts != 2 || r.Current.Token != 2 {
		t.Fatalf("current %v, want quarantined for attempts at 2/2, token 2", r.Current)
	}
	if got := s.job(t, id); got.Status != "quarantined" || got.Reason != "attempts" || got.Attempts != 2 {
		t.Fatalf("after the refused claim: %v", got)
	}
	wantRejection(t, s.claim(t, id, "D", 9000, 1000), "claim", "quarantined")
	// The last holder hears quarantined; an older token hears that it is
	// stale first.
	wantRejection(t, s.complete(t, b, 1500, "late"), "complete", "quarantined")
	wantRejection(t, s.release(t, b), "release", "quarantined")
	wantRejection(t, s.release(t, a), "release", "superseded")
}

func (s *suite) testRelease(t *testing.T) {
	id := s.newJob(t, "release")
	a := s.mustClaim(t, id, "A", 0, 1000)
	ok := want[okAnswer](t, s.release(t, a), http.StatusOK)
	if !ok.OK || ok.Now != nil {
		t.Fatalf("release answered %+v, want ok and no now (release takes no time)", ok)
	}
	got := s.job(t, id)
	if got.Owner != "" || got.LeaseUntil != 0 || got.Status != "pending" || got.Token != 1 || got.Attempts != 1 {
		t.Fatalf("released row %v, want pending, no owner, lease_until 0, token kept at 1", got)
	}
	r := wantRejection(t, s.release(t, a), "release", "superseded")
	if r.Now != 0 {
		t.Fatalf("release rejection now %d, want 0", r.Now)
	}
	b := s.mustClaim(t, id, "B", 10, 1000)
	wantLease(t, b, id, "B", 2, 1010)
	r = wantRejection(t, s.release(t, a), "release", "superseded")
	if r.Current.Owner != "B" || r.Current.Token != 2 {
		t.Fatalf("current %v, want B#2", r.Current)
	}
	want[okAnswer](t, s.complete(t, b, 20, "done"), http.StatusOK)
	wantRejection(t, s.release(t, b), "release", "done")
}

func (s *suite) testUnknownJob(t *testing.T) {
	id := s.id("no-such-job")
	l := lease{JobID: id, Owner: "A", Token: 1}
	for _, tc := range []struct {
		op  string
		ans answer
	}{
		{"claim", s.claim(t, id, "A", 0, 1000)},
		{"renew", s.renew(t, l, 0, 1000)},
		{"complete", s.complete(t, l, 0, "r")},
		{"release", s.release(t, l)},
	} {
		r := wantRejection(t, tc.ans, tc.op, "not_found")
		if r.Presented.JobID != id || r.Presented.Owner != "A" {
			t.Errorf("%s: presented %+v", tc.op, r.Presented)
		}
	}
}

func (s *suite) testBadInput(t *testing.T) {
	id := s.newJob(t, "bad-input")
	l := obj{"job_id": id, "owner": "A", "token": 0}
	js := func(v any) string {
		b, _ := json.Marshal(v)
		return string(b)
	}
	for _, tc := range []struct {
		name, path, body string
		parts            []string
	}{
		{"empty-id", "/api/jobs", `{"id":""}`, []string{"empty job id"}},
		{"negative-qty", "/api/jobs", `{"id":"x","qty":-1}`, []string{"qty"}},
		{"negative-deadline", "/api/jobs", `{"id":"x","deadline":-5}`, []string{"deadline"}},
		{"negative-max-attempts", "/api/jobs", `{"id":"x","max_attempts":-1}`, []string{"max_attempts"}},
		{"unknown-field", "/api/jobs", `{"id":"x","colour":"red"}`, []string{`unknown field "colour"`}},
		{"truncated", "/api/jobs", `{"id":"x"`, []string{"JSON"}},
		{"malformed", "/api/jobs", `{"id" "x"}`, []string{"invalid JSON"}},
		{"trailing-data", "/api/jobs", `{"id":"x"} {}`, []string{"after the JSON object"}},
		{"empty-body", "/api/jobs", ``, []string{"empty body"}},
		{"array", "/api/jobs", `[1]`, []string{"want a JSON object"}},
		{"id-not-string", "/api/jobs", `{"id":7}`, []string{"id", "string"}},
		{"now-fraction", "/api/claim", js(obj{"owner": "A", "job_id": id, "now": 1.5, "ttl": 10}), []string{"now", "integer"}},
		{"now-string", "/api/claim", js(obj{"owner": "A", "job_id": id, "now": "5", "ttl": 10}), []string{"now", "integer"}},
		{"now-beyond-int64", "/api/claim", `{"owner":"A","job_id":"x","now":9223372036854775808,"ttl":1}`, []string{"now", "integer"}},
		{"now-negative", "/api/claim", js(obj{"owner": "A", "job_id": id, "now": -1, "ttl": 10}), []string{"now"}},
		{"ttl-missing", "/api/claim", js(obj{"owner": "A", "job_id": id, "now": 0}), []string{"ttl is required"}},
		{"ttl-zero", "/api/claim", js(obj{"owner": "A", "job_id": id, "now": 0, "ttl": 0}), []string{"ttl 0"}},
		{"ttl-negative", "/api/claim", js(obj{"owner": "A", "job_id": id, "now": 0, "ttl": -1}), []string{"ttl -1"}},
		{"owner-missing", "/api/claim", js(obj{"job_id": id, "now": 0, "ttl": 10}), []string{"empty owner"}},
		{"job-id-empty", "/api/claim", js(obj{"owner": "A", "job_id": "", "now": 0, "ttl": 10}), []string{"empty job id"}},
		{"lease-missing", "/api/renew", js(obj{"now": 0, "ttl": 10}), []string{"lease is required"}},
		{"lease-token-missing", "/api/renew", js(obj{"lease": obj{"job_id": id, "owner": "A"}, "now": 0, "ttl": 10}), []string{"lease.token is required"}},
		{"lease-owner-missing", "/api/complete", js(obj{"lease": obj{"job_id": id, "token": 1}, "now": 0}), []string{"lease.owner is required"}},
		{"lease-job-id-missing", "/api/release", js(obj{"lease": obj{"owner": "A", "token": 1}}), []string{"lease.job_id is required"}},
		{"lease-token-negative", "/api/complete", js(obj{"lease": obj{"job_id": id, "owner": "A", "token": -1}, "now": 0}), []string{"lease.token"}},
		{"renew-ttl-missing", "/api/renew", js(obj{"lease": l, "now": 0}), []string{"ttl is required"}},
		{"lease-unknown-field", "/api/release", js(obj{"lease": obj{"job_id": id, "owner": "A", "token": 0, "colour": 1}}), []string{`unknown field "colour"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantError(t, s.c.post(t, tc.path, tc.body), http.StatusBadRequest, "bad_request", tc.parts...)
		})
	}
	if got := s.job(t, id); (got != job{ID: id, Qty: 1, Status: "pending"}) {
		t.Fatalf("bad requests changed the job: %v", got)
	}
}

// The strict reading of a body: invalid UTF-8, a field named twice, a
// field named in another case and null where the API defines none are 400
// naming the field, and change nothing (the red team's reproductions).
func (s *suite) testStrictJSON(t *testing.T) {
	id := s.newJob(t, "strict")
	ghost := s.id("strict-ghost") // no request below may create it
	l := fmt.Sprintf(`{"job_id":%q,"owner":"A","token":0}`, id)
	for _, tc := range []struct {
		name, path, body string
		parts            []string
	}{
		{"id-invalid-utf8", "/api/jobs", `{"id":"` + ghost + "\xff" + `"}`, []string{"id", "UTF-8"}},
		{"owner-invalid-utf8", "/api/claim", `{"owner":"A` + "\xfe" + `","job_id":"` + id + `","now":0,"ttl":10}`, []string{"owner", "UTF-8"}},
		{"key-invalid-utf8", "/api/jobs", `{"id":"` + ghost + `","` + "\xff" + `":1}`, []string{"UTF-8"}},
		{"duplicate-id", "/api/jobs", `{"id":"` + ghost + `","id":"` + ghost + `-2"}`, []string{"id", "duplicate"}},
		{"duplicate-ttl", "/api/claim", `{"owner":"A","job_id":"` + id + `","now":0,"ttl":10,"ttl":20}`, []string{"ttl", "duplicate"}},
		{"duplicate-in-lease", "/api/release", `{"lease":{"job_id":"` + id + `","owner":"A","owner":"B","token":0}}`, []string{"lease.owner", "duplicate"}},
		{"upper-case-keys", "/api/jobs", `{"ID":"` + ghost + `","QTY":5}`, []string{`unknown field "ID"`, `"id"`}},
		{"mixed-case-key", "/api/claim", `{"Owner":"A","job_id":"` + id + `","now":0,"ttl":10}`, []string{`unknown field "Owner"`, `"owner"`}},
		{"job-id-null", "/api/claim", `{"owner":"A","job_id":null,"now":0,"ttl":10}`, []string{"job_id", "null"}},
		{"id-null", "/api/jobs", `{"id":null}`, []string{"id", "null"}},
		{"qty-null", "/api/jobs", `{"id":"` + ghost + `","qty":null}`, []string{"qty", "null"}},
		{"owner-null", "/api/claim", `{"owner":null,"job_id":"` + id + `","now":0,"ttl":10}`, []string{"owner", "null"}},
		{"ttl-null", "/api/claim", `{"owner":"A","job_id":"` + id + `","now":0,"ttl":null}`, []string{"ttl", "null"}},
		{"lease-null", "/api/release", `{"lease":null}`, []string{"lease", "null"}},
		{"lease-token-null", "/api/release", `{"lease":{"job_id":"` + id + `","owner":"A","token":null}}`, []string{"lease.token", "null"}},
		{"result-null", "/api/complete", `{"lease":` + l + `,"now":0,"result":null}`, []string{"result", "null"}},
		{"body-null", "/api/jobs", `null`, []string{"want a JSON object"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantError(t, s.c.post(t, tc.path, tc.body), http.StatusBadRequest, "bad_request", tc.parts...)
		})
	}
	wantError(t, s.c.get(t, "/api/jobs/"+url.PathEscape(ghost)+"%FF"), http.StatusBadRequest, "bad_request", "id", "UTF-8")
	for _, gone := range []string{ghost, ghost + "-2", ghost + "\uFFFD"} {
		wantError(t, s.c.get(t, "/api/jobs/"+url.PathEscape(gone)), http.StatusNotFound, "not_found")
	}
	if got := s.job(t, id); (got != job{ID: id, Qty: 1, Status: "pending"}) {
		t.Fatalf("strictly refused requests changed the job: %v", got)
	}
}

// A browser's write from a page of another origin is 403 and changes
// nothing: the red team's cross-site text/plain POST that created a job,
// and its 285-year claim. Same-origin and non-browser writes pass.
func (s *suite) testCrossOrigin(t *testing.T) {
	id := s.newJob(t, "cross-origin")
	for _, tc := range []struct {
		name, site, origin string
		ok                 bool
	}{
		{"cross-site", "cross-site", "http://evil.example", false},
		{"same-site", "same-site", "http://localhost:1", false},
		{"origin-only", "", "http://evil.example", false},
		{"same-origin", "same-origin", s.BaseURL, true},
		{"origin-only-same", "", s.BaseURL, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := http.Header{"Content-Type": {"text/plain"}, "Sec-Fetch-Site": {tc.site}, "Origin": {tc.origin}}
			created := s.id("cross-origin-" + tc.name)
			enq := s.c.doHeader(t, http.MethodPost, "/api/jobs", h, []byte(`{"id":"`+created+`"}`))
			claim := s.c.doHeader(t, http.MethodPost, "/api/claim", h,
				[]byte(`{"owner":"evil","job_id":"`+id+`","now":0,"ttl":1000}`))
			if !tc.ok {
				wantError(t, enq, http.StatusForbidden, "cross_origin")
				wantError(t, claim, http.StatusForbidden, "cross_origin")
				wantError(t, s.c.get(t, "/api/jobs/"+url.PathEscape(created)), http.StatusNotFound, "not_found")
				if got := s.job(t, id); (got != job{ID: id, Qty: 1, Status: "pending"}) {
					t.Fatalf("a refused cross-origin claim changed the job: %v", got)
				}
				return
			}
			want[enqueued](t, enq, http.StatusCreated)
			l := want[leaseAnswer](t, claim, http.StatusOK).Lease
			want[okAnswer](t, s.release(t, l), http.StatusOK)
		})
	}
	// The API sends no CORS headers: a page of another origin may make a
	// read happen but not see its answer, and a preflight is a method no
	// route takes.
	cross := http.Header{"Sec-Fetch-Site": {"cross-site"}, "Origin": {"http://evil.example"}}
	read := s.c.doHeader(t, http.MethodGet, "/api/jobs/"+url.PathEscape(id), cross, nil)
	want[job](t, read, http.StatusOK)
	cross.Set("Access-Control-Request-Method", http.MethodPost)
	preflight := s.c.doHeader(t, http.MethodOptions, "/api/claim", cross, nil)
	wantError(t, preflight, http.StatusMethodNotAllowed, "method_not_allowed")
	for _, a := range []answer{read, preflight} {
		for name := range a.header {
			if strings.HasPrefix(name, "Access-Control-") {
				t.Errorf("%v\nsends the CORS header %s", a, name)
			}
		}
	}
}

func (s *suite) testNumberRange(t *testing.T) {
	for _, tc := range []struct {
		name     string
		now, ttl int64
		wantOK   bool
	}{
		{"ttl-0", 0, 0, false},
		{"ttl-1", 0, 1, true},
		{"now-minus-1", -1, 1, false},
		{"now-0", 0, 1, true},
		{"now-2^53-2 (far past the server's clock)", maxSafe - 2, 1, false},
		{"now-2^53-1", maxSafe, 1, false},
		{"now-over-max", maxSafe + 1, 1, false},
		{"ttl-below-max-ttl", 0, maxTTL - 1, true},
		{"ttl-at-max-ttl", 0, maxTTL, true},
		{"ttl-over-max-ttl (a lease for years)", 0, maxTTL + 1, false},
		{"ttl-9e12 (the red team's 285 years)", 0, 9_000_000_000_000, false},
	} {
		t.Run("claim-"+tc.name, func(t *testing.T) {
			id := s.newJob(t, "range-"+tc.name)
			ans := s.claim(t, id, "A", tc.now, tc.ttl)
			if !tc.wantOK {
				wantError(t, ans, http.StatusBadRequest, "bad_request")
				if got := s.job(t, id); got.Token != 0 {
					t.Fatalf("a refused claim changed the row: %v", got)
				}
				return
			}
			until := tc.now + tc.ttl
			wantLease(t, want[leaseAnswer](t, ans, http.StatusOK).Lease, id, "A", 1, until)
			if got := s.job(t, id); got.LeaseUntil != until {
				t.Fatalf("stored lease_until %d, want %d exactly", got.LeaseUntil, until)
			}
		})
	}
	for _, field := range []string{"qty", "deadline", "max_attempts"} {
		for _, tc := range []struct {
			name   string
			value  int64
			wantOK bool
		}{
			{"below-max", maxSafe - 1, true},
			{"at-max", maxSafe, true},
			{"over-max", maxSafe + 1, false},
		} {
			t.Run(field+"-"+tc.name, func(t *testing.T) {
				id := s.id("range-" + field + "-" + tc.name)
				ans := s.c.post(t, "/api/jobs", obj{"id": id, field: tc.value})
				if !tc.wantOK {
					wantError(t, ans, http.StatusBadRequest, "bad_request", field)
					return
				}
				j := want[enqueued](t, ans, http.StatusCreated).Job
				got := map[string]int64{"qty": j.Qty, "deadline": j.Deadline, "max_attempts": j.MaxAttempts}[field]
				if got != tc.value {
					t.Fatalf("%s %d came back as %d", field, tc.value, got)
				}
				if stored := s.job(t, id); stored != j {
					t.Fatalf("stored %v, answered %v", stored, j)
				}
			})
		}
	}
}

func (s *suite) testBodyLimit(t *testing.T) {
	for _, tc := range []struct {
		name string
		size int64
		want int
	}{
		{"below", s.MaxBodyBytes - 1, http.StatusCreated},
		{"at", s.MaxBodyBytes, http.StatusCreated},
		{"over", s.MaxBodyBytes + 1, http.StatusRequestEntityTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := []byte(fmt.Sprintf(`{"id":%q}`, s.id("body-"+tc.name)))
			body = append(body, strings.Repeat(" ", int(tc.size)-len(body))...)
			ans := s.c.post(t, "/api/jobs", body)
			if tc.want == http.StatusRequestEntityTooLarge {
				wantError(t, ans, tc.want, "too_large", fmt.Sprint(s.MaxBodyBytes))
				wantError(t, s.c.get(t, "/api/jobs/"+url.PathEscape(s.id("body-"+tc.name))), http.StatusNotFound, "not_found")
				return
			}
			want[enqueued](t, ans, tc.want)
		})
	}
}

func (s *suite) testMethods(t *testing.T) {
	for _, tc := range []struct {
		method, path, allow string
	}{
		{http.MethodGet, "/api/claim", "POST"},
		{http.MethodGet, "/api/renew", "POST"},
		{http.MethodPut, "/api/complete", "POST"},
		{http.MethodDelete, "/api/release", "POST"},
		{http.MethodPut, "/api/jobs", "GET, HEAD, POST"},
		{http.MethodDelete, "/api/jobs/x", "GET, HEAD"},
		{http.MethodPost, "/api/jobs/x", "GET, HEAD"},
		{http.MethodHead, "/api/claim", "POST"},
		{http.MethodGet, "/api/timeline", "POST"},
	} {
		t.Run(tc.method+tc.path, func(t *testing.T) {
			ans := s.c.do(t, tc.method, tc.path, "", nil)
			if tc.method == http.MethodHead { // no body to read the error from
				if ans.status != http.StatusMethodNotAllowed || ans.header.Get("Allow") != tc.allow {
					t.Fatalf("%v\nwant 405 with Allow %q", ans, tc.allow)
				}
				return
			}
			wantError(t, ans, http.StatusMethodNotAllowed, "method_not_allowed", tc.allow)
			if got := ans.header.Get("Allow"); got != tc.allow {
				t.Fatalf("Allow %q, want %q", got, tc.allow)
			}
		})
	}
}

// HEAD on a GET route answers as GET would, without the body.
func (s *suite) testHead(t *testing.T) {
	id := s.newJob(t, "head")
	for _, tc := range []struct {
		path string
		want int
	}{
		{"/api/jobs", http.StatusOK},
		{"/api/jobs/" + url.PathEscape(id), http.StatusOK},
		{"/api/jobs/" + url.PathEscape(s.id("head-none")), http.StatusNotFound},
	} {
		get, head := s.c.get(t, tc.path), s.c.do(t, http.MethodHead, tc.path, "", nil)
		if head.status != tc.want || get.status != tc.want || len(head.body) != 0 ||
			head.header.Get("Content-Type") != get.header.Get("Content-Type") ||
			head.header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("HEAD %v (headers %v)\nGET %v\nwant %d, GET's headers, no body", head, head.header, get, tc.want)
		}
	}
}

func (s *suite) testUnknownRoute(t *testing.T) {
	for _, path := range []string{"/api/nope", "/api/claim/extra", "/api/jobs/a/b", "/api/"} {
		wantError(t, s.c.get(t, path), http.StatusNotFound, "not_found")
	}
}

func (s *suite) testServerClock(t *testing.T) {
	const slack = 5000 // ms between the client's and the server's clocks on one machine
	id := s.newJob(t, "server-clock")
	t0 := time.Now().UnixMilli()
	c := want[leaseAnswer](t, s.c.post(t, "/api/claim", obj{"job_id": id, "owner": "A", "ttl": 60000}), http.StatusOK)
	t1 := time.Now().UnixMilli()
	if c.Now < t0-slack || c.Now > t1+slack {
		t.Fatalf("claim without now ran at %d, client clock was %d..%d", c.Now, t0, t1)
	}
	wantLease(t, c.Lease, id, "A", 1, c.Now+60000)
	r := want[leaseAnswer](t, s.c.post(t, "/api/renew", obj{"lease": c.Lease, "now": nil, "ttl": 60000}), http.StatusOK)
	if r.Now < c.Now || r.Lease.LeaseUntil != r.Now+60000 {
		t.Fatalf("renew with now null: now %d lease_until %d after claim at %d", r.Now, r.Lease.LeaseUntil, c.Now)
	}
	done := want[okAnswer](t, s.c.post(t, "/api/complete", obj{"lease": r.Lease, "result": "r"}), http.StatusOK)
	if done.Now == nil || *done.Now < r.Now {
		t.Fatalf("complete without now answered %+v", done)
	}
}

// testClientNowWindow: a request's now may be at most
// httpapi.MaxClockLead past the server's clock (the client mode's window);
// the suite runs on the server's machine, so the client's clock read
// before sending is not ahead of the server's read after receiving. A now
// an hour ahead, which would pass the job's deadline, is 400 naming the
// window and quarantines nothing, for one job and for claim-next.
func (s *suite) testClientNowWindow(t *testing.T) {
	id := s.newJob(t, "now-window", "deadline", time.Now().UnixMilli()+1800_000)
	hour := time.Now().UnixMilli() + 3600_000
	wantError(t, s.claim(t, id, "evil", hour, 1000), http.StatusBadRequest, "bad_request", "now", "ahead")
	wantError(t, s.c.post(t, "/api/claim", obj{"owner": "evil", "now": hour, "ttl": 1000}),
		http.StatusBadRequest, "bad_request", "now", "ahead")
	if got := s.job(t, id); got.Status != "pending" || got.Token != 0 {
		t.Fatalf("refused claims changed the job: %v", got)
	}
	now := time.Now().UnixMilli()
	l := s.mustClaim(t, id, "A", now, 60000)
	wantLease(t, l, id, "A", 1, now+60000)
	wantError(t, s.renew(t, l, hour, 1000), http.StatusBadRequest, "bad_request", "now", "ahead")
	wantError(t, s.complete(t, l, hour, "r"), http.StatusBadRequest, "bad_request", "now", "ahead")
	want[okAnswer](t, s.complete(t, l, time.Now().UnixMilli(), "r"), http.StatusOK)
}

// drain claims every claimable job at now for a lease longer than any
// test that follows, so claim-next sees only the jobs enqueued after it.
func (s *suite) drain(t testing.TB, now int64) {
	t.Helper()
	for range 10000 {
		ans := s.c.post(t, "/api/claim", obj{"owner": "drain", "now": now, "ttl": drainTTL})
		if ans.status == http.StatusNotFound {
			wantError(t, ans, http.StatusNotFound, "empty")
			return
		}
		want[leaseAnswer](t, ans, http.StatusOK)
	}
	t.Fatal("the queue did not drain in 10000 claims")
}

func (s *suite) claimNext(t testing.TB, owner string, now int64) answer {
	t.Helper()
	return s.c.post(t, "/api/claim", obj{"owner": owner, "now": now, "ttl": 1000})
}

func (s *suite) testClaimNext(t *testing.T) {
	const at = 1_000_000_000_000
	s.drain(t, at)
	n1 := s.newJob(t, "next-1", "max_attempts", 1)
	n2 := s.newJob(t, "next-2")
	n3 := s.newJob(t, "next-3")
	s.mustClaim(t, n2, "X", at, 1000)

	wantLease(t, want[leaseAnswer](t, s.claimNext(t, "A", at), http.StatusOK).Lease, n1, "A", 1, at+1000)
	wantLease(t, want[leaseAnswer](t, s.claimNext(t, "B", at), http.StatusOK).Lease, n3, "B", 1, at+1000)
	wantError(t, s.claimNext(t, "C", at), http.StatusNotFound, "empty")

	// At at+1000 every lease has ended: n1's budget is used up, so the
	// claim quarantines it on its way and takes n2.
	wantLease(t, want[leaseAnswer](t, s.claimNext(t, "D", at+1000), http.StatusOK).Lease, n2, "D", 2, at+2000)
	if got := s.job(t, n1); got.Status != "quarantined" || got.Reason != "attempts" {
		t.Fatalf("passed-over exhausted job %v, want quarantined for attempts", got)
	}
	wantLease(t, want[leaseAnswer](t, s.claimNext(t, "E", at+1000), http.StatusOK).Lease, n3, "E", 2, at+2000)
	wantError(t, s.claimNext(t, "F", at+1000), http.StatusNotFound, "empty")
}

// outcome is one claimant's answer in a parallel round.
type outcome struct {
	owner string
	ans   answer
	err   error
}

// race sends one POST /api/claim per body at once and returns the answers.
func (s *suite) race(bodies []obj) []outcome {
	out := make([]outcome, len(bodies))
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i, b := range bodies {
		raw, _ := json.Marshal(b)
		out[i].owner = b["owner"].(string)
		wg.Go(func() {
			<-start
			out[i].ans, out[i].err = s.c.try(http.MethodPost, "/api/claim", "application/json", raw)
		})
	}
	close(start)
	wg.Wait()
	return out
}

func (s *suite) testOneWinner(t *testing.T) {
	const ttl = 1000
	id := s.newJob(t, "one-winner")
	began := time.Now()
	for round := range s.Rounds {
		now := int64(round) * ttl // the previous round's lease has just ended
		bodies := make([]obj, s.Parallel)
		for i := range bodies {
			bodies[i] = obj{"job_id": id, "owner": fmt.Sprintf("w%d-%d", round, i), "now": now, "ttl": ttl}
		}
		var winners []string
		for _, o := range s.race(bodies) {
			if o.err != nil {
				t.Fatalf("round %d: %v", round, o.err)
			}
			switch o.ans.status {
			case http.StatusOK:
				l := want[leaseAnswer](t, o.ans, http.StatusOK).Lease
				wantLease(t, l, id, o.owner, int64(round)+1, now+ttl)
				winners = append(winners, o.owner)
			case http.StatusConflict:
				r := wantRejection(t, o.ans, "claim", "held")
				if r.Current.Owner == o.owner {
					// A retried claim whose first try won: the answer
					// was lost (503), the win was not.
					winners = append(winners, o.owner)
				}
			default:
				t.Fatalf("round %d: %v", round, o.ans)
			}
		}
		got := s.job(t, id)
		if len(winners) != 1 || got.Owner != winners[0] || got.Token != int64(round)+1 || got.Attempts != int64(round)+1 {
			t.Fatalf("round %d: winners %v, row %v; want exactly one winner holding token %d", round, winners, got, round+1)
		}
	}
	n := s.Rounds * s.Parallel
	elapsed := time.Since(began)
	t.Logf("%d rounds x %d parallel claims: exactly one winner each; %d claims in %v (%.0f claims/s)",
		s.Rounds, s.Parallel, n, elapsed.Round(time.Millisecond), float64(n)/elapsed.Seconds())
}

func (s *suite) testClaimNextParallel(t *testing.T) {
	// After testClaimNext's leases (its drain's end just before 1_001_000_000_000),
	// and before the server's clock: a client's now may not be ahead of it.
	const at = 1_500_000_000_000
	s.drain(t, at)
	jobs := make([]string, s.Parallel/2)
	for i := range jobs {
		jobs[i] = s.newJob(t, fmt.Sprintf("next-parallel-%02d", i))
	}
	bodies := make([]obj, s.Parallel)
	for i := range bodies {
		bodies[i] = obj{"owner": fmt.Sprintf("n%d", i), "now": at, "ttl": 1000}
	}
	retriedBefore := s.c.retries.Load() + s.c.timeouts.Load()
	won := map[string]string{} // job -> owner, from the 200 answers
	empty := 0
	for _, o := range s.race(bodies) {
		if o.err != nil {
			t.Fatal(o.err)
		}
		if o.ans.status == http.StatusNotFound {
			wantError(t, o.ans, http.StatusNotFound, "empty")
			empty++
			continue
		}
		l := want[leaseAnswer](t, o.ans, http.StatusOK).Lease
		if prev, dup := won[l.JobID]; dup {
			t.Fatalf("job %s handed to both %s and %s", l.JobID, prev, o.owner)
		}
		if l.Token != 1 || !slices.Contains(jobs, l.JobID) {
			t.Fatalf("%s got %+v: want one of this test's jobs, token 1", o.owner, l)
		}
		won[l.JobID] = o.owner
	}
	for _, id := range jobs {
		got := s.job(t, id)
		if got.Token != 1 || got.Owner == "" || (won[id] != "" && won[id] != got.Owner) {
			t.Fatalf("job %s: row %v, answered winner %q; want claimed exactly once (token 1)", id, got, won[id])
		}
	}
	// A retried claim-next whose first try won (its answer lost) claims
	// again; only without retries must every job have an answered winner.
	retried := s.c.retries.Load() + s.c.timeouts.Load() - retriedBefore
	if retried == 0 && (len(won) != len(jobs) || empty != len(bodies)-len(jobs)) {
		t.Fatalf("%d claimed, %d empty; want %d and %d", len(won), empty, len(jobs), len(bodies)-len(jobs))
	}
}

// lateCourier is the design's first timeline: a stale complete refused.
const lateCourier = `# Late courier: the stale stamp is refused
lease 1000ms
job order-7 qty=2

0ms     A claim order-7            -> ok token=1 lease_until=1000
1000ms  B claim order-7            -> ok token=2
1001ms  A complete order-7         -> refused superseded
1200ms  B complete order-7         -> ok
`

func (s *suite) testTimeline(t *testing.T) {
	if !s.Timeline {
		wantError(t, s.c.post(t, "/api/timeline", lateCourier), http.StatusNotImplemented, "not_implemented")
		return
	}
	ans := s.c.do(t, http.MethodPost, "/api/timeline", "text/plain", []byte(lateCourier))
	if ans.status != http.StatusOK || !strings.HasPrefix(ans.header.Get("Content-Type"), "application/json") {
		t.Fatalf("%v\nwant 200 JSON", ans)
	}
	var trace struct {
		Steps   []json.RawMessage `json:"steps"`
		Summary struct {
			Steps  int  `json:"steps"`
			Passed bool `json:"passed"`
		} `json:"summary"`
	}
	if err := json.Unmarshal(ans.body, &trace); err != nil {
		t.Fatalf("%v\nthe trace is not JSON: %v", ans, err)
	}
	if len(trace.Steps) != 4 || trace.Summary.Steps != 4 || !trace.Summary.Passed {
		t.Fatalf("%v\nwant 4 steps, every expectation holding", ans)
	}
	again := s.c.do(t, http.MethodPost, "/api/timeline", "text/plain", []byte(lateCourier))
	if string(again.body) != string(ans.body) {
		t.Fatalf("the same timeline gave two different traces:\n%s\n%s", ans.body, again.body)
	}
	// An empty body is not a timeline (the red team had it answer 200).
	wantError(t, s.c.do(t, http.MethodPost, "/api/timeline", "text/plain", nil), http.StatusBadRequest, "bad_request", "empty")
	// The author's mistake is 400 with its line and column (2:7).
	wantError(t, s.c.do(t, http.MethodPost, "/api/timeline", "text/plain", []byte("lease 1000ms\n0ms A frobnicate x\n")),
		http.StatusBadRequest, "bad_request", ":2:7:", "frobnicate")
	failing := strings.Replace(lateCourier, "-> refused superseded", "-> ok", 1)
	ans = s.c.do(t, http.MethodPost, "/api/timeline", "text/plain", []byte(failing))
	if err := json.Unmarshal(ans.body, &trace); ans.status != http.StatusOK || err != nil || trace.Summary.Passed {
		t.Fatalf("%v\na failed expectation is in the trace (200, passed false)", ans)
	}
}
