package httpapitest

import (
	"net/http"
	"strconv"
	"testing"
	"time"
)

// RunServerClock checks a server in the server-clock mode (httpapi.
// ServerClock) at baseURL: every request that carries "now", null
// included, is 400 naming now and changes nothing; without now, claim,
// renew and complete run at the server's clock.
func RunServerClock(t *testing.T, baseURL string) {
	s := &suite{
		Target: Target{BaseURL: baseURL},
		c:      &client{base: baseURL, hc: &http.Client{Timeout: requestTimeout}},
		prefix: "s" + strconv.FormatInt(time.Now().UnixNano(), 36) + "-",
	}
	defer s.c.hc.CloseIdleConnections()
	id := s.newJob(t, "server-clock-only")
	far := int64(9_000_000_000_000) // the year 2255: a claim there would hold the job for centuries
	for _, body := range []obj{
		{"owner": "A", "job_id": id, "now": far, "ttl": 1000},
		{"owner": "A", "job_id": id, "now": nil, "ttl": 1000},
		{"owner": "A", "now": 0, "ttl": 1000},
	} {
		wantError(t, s.c.post(t, "/api/claim", body), http.StatusBadRequest, "bad_request", "now", "server")
	}
	if got := s.job(t, id); (got != job{ID: id, Qty: 1, Status: "pending"}) {
		t.Fatalf("refused claims changed the job: %v", got)
	}
	t0 := time.Now().UnixMilli()
	c := want[leaseAnswer](t, s.c.post(t, "/api/claim", obj{"owner": "A", "job_id": id, "ttl": 60000}), http.StatusOK)
	if c.Now < t0-5000 || c.Now > time.Now().UnixMilli()+5000 {
		t.Fatalf("claim without now ran at %d, the client's clock read %d", c.Now, t0)
	}
	wantError(t, s.c.post(t, "/api/renew", obj{"lease": c.Lease, "now": c.Now, "ttl": 1000}), http.StatusBadRequest, "bad_request", "now")
	wantError(t, s.c.post(t, "/api/complete", obj{"lease": c.Lease, "now": c.Now}), http.StatusBadRequest, "bad_request", "now")
	want[leaseAnswer](t, s.c.post(t, "/api/renew", obj{"lease": c.Lease, "ttl": 60000}), http.StatusOK)
	want[okAnswer](t, s.c.post(t, "/api/complete", obj{"lease": c.Lease, "result": "r"}), http.StatusOK)
}
