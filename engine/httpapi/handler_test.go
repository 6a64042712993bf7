package httpapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/httpapi"
	"github.com/leaselab/leaselab/engine/sqlitedb"
)

var dbSeq atomic.Int64

func newStore(t testing.TB) *engine.Store {
	t.Helper()
	db, err := sqlitedb.Memory("httpapi-" + strconv.FormatInt(dbSeq.Add(1), 10))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	s, err := engine.New(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// serve runs one request through h and decodes the JSON answer.
func serve(t *testing.T, h http.Handler, method, path, body string) (int, map[string]any) {
	t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
		t.Fatalf("%s %s: Content-Type %q\n%s", method, path, ct, rec.Body)
	}
	var v map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
		t.Fatalf("%s %s: %v\n%s", method, path, err, rec.Body)
	}
	return rec.Code, v
}

// A request without now runs at the server's clock, and says so; a request
// with now runs at it, whatever the server's clock reads.
func TestNow_OmittedIsTheServerClock_GivenIsTheClient(t *testing.T) {
	clock := int64(5000)
	h := httpapi.New(newStore(t), httpapi.WithClock(func() int64 { return clock }))
	serve(t, h, "POST", "/api/jobs", `{"id":"j"}`)
	for _, tc := range []struct {
		name, body       string
		wantNow, wantEnd int64
	}{
		{"omitted", `{"owner":"A","job_id":"j","ttl":100}`, 5000, 5100},
		{"null", `{"owner":"B","job_id":"j","now":null,"ttl":100}`, 5100, 5200},
		{"given-differs-from-the-server", `{"owner":"C","job_id":"j","now":5200,"ttl":100}`, 5200, 5300},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "null" {
				clock = 5100 // A's lease ends: B may claim
			}
			code, v := serve(t, h, "POST", "/api/claim", tc.body)
			if code != http.StatusOK {
				t.Fatalf("%d %v", code, v)
			}
			lease := v["lease"].(map[string]any)
			if v["now"] != float64(tc.wantNow) || lease["lease_until"] != float64(tc.wantEnd) {
				t.Fatalf("now %v lease_until %v, want %d and %d", v["now"], lease["lease_until"], tc.wantNow, tc.wantEnd)
			}
		})
	}
}

// A server clock outside 0..2^53-1 is refused like a client's now.
func TestNow_ServerClockOutOfRangeIs400(t *testing.T) {
	h := httpapi.New(newStore(t), httpapi.WithClock(func() int64 { return -1 }))
	serve(t, h, "POST", "/api/jobs", `{"id":"j"}`)
	code, v := serve(t, h, "POST", "/api/claim", `{"owner":"A","job_id":"j","ttl":100}`)
	if code != http.StatusBadRequest || !strings.Contains(v["message"].(string), "server clock") {
		t.Fatalf("%d %v", code, v)
	}
}

func TestMaxBodyBytes_RefusesOnlyOverTheLimit(t *testing.T) {
	const limit = 100
	h := httpapi.New(newStore(t), httpapi.WithMaxBodyBytes(limit))
	for _, tc := range []struct {
		name string
		size int
		want int
	}{
		{"below", limit - 1, http.StatusCreated},
		{"at", limit, http.StatusCreated},
		{"over", limit + 1, http.StatusRequestEntityTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := fmt.Sprintf(`{"id":%q}`, tc.name)
			body += strings.Repeat(" ", tc.size-len(body))
			code, v := serve(t, h, "POST", "/api/jobs", body)
			if code != tc.want {
				t.Fatalf("%d-byte body: %d %v, want %d", tc.size, code, v, tc.want)
			}
		})
	}
	// A body that lies about its length is still cut at the limit.
	req := httptest.NewRequest("POST", "/api/jobs", strings.NewReader(`{"id":"x"}`+strings.Repeat(" ", limit)))
	req.ContentLength = -1
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusRequestEntityTooLarge {
		t.Fatalf("unknown length over the limit: %d %s", rec.Code, rec.Body)
	}
}

// A database that fails is 500 "database", never a client's status; the
// cause goes to the server's log, not to the client.
func TestDatabaseFailure_Is500(t *testing.T) {
	db, err := sqlitedb.Memory("httpapi-closed")
	if err != nil {
		t.Fatal(err)
	}
	s, err := engine.New(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	var logged strings.Builder
	h := httpapi.New(s, httpapi.WithErrorLog(log.New(&logged, "", 0)))
	for _, tc := range []struct{ method, path, body string }{
		{"GET", "/api/jobs/x", ""},
		{"GET", "/api/jobs", ""},
		{"POST", "/api/jobs", `{"id":"x"}`},
		{"POST", "/api/claim", `{"owner":"A","now":0,"ttl":1}`},
		{"POST", "/api/complete", `{"lease":{"job_id":"x","owner":"A","token":1},"now":0}`},
	} {
		logged.Reset()
		code, v := serve(t, h, tc.method, tc.path, tc.body)
		if code != http.StatusInternalServerError || v["error"] != "database" {
			t.Errorf("%s %s on a closed database: %d %v", tc.method, tc.path, code, v)
		}
		msg, _ := v["message"].(string)
		if strings.Contains(msg, "closed") || strings.Contains(msg, "sql") || msg == "" {
			t.Errorf("%s %s: the 500's message %q shows the database's error", tc.method, tc.path, msg)
		}
		if !strings.Contains(logged.String(), tc.path) || !strings.Contains(logged.String(), "closed") {
			t.Errorf("%s %s: the server's log %q lacks the request and the cause", tc.method, tc.path, logged.String())
		}
	}
}

// Without transactions (D1), a claim whose guarded write loses the race for
// the row on every attempt is 503 "contention" with Retry-After, and the job
// is as it was. A trigger that drops every UPDATE of jobs (RAISE(IGNORE))
// stands in for a writer that always gets there first.
func TestContention_Is503WithRetryAfterAndChangesNothing(t *testing.T) {
	db, err := sqlitedb.Memory("httpapi-contention")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	s, err := engine.New(context.Background(), db, engine.WithoutTransactions())
	if err != nil {
		t.Fatal(err)
	}
	h := httpapi.New(s)
	if code, v := serve(t, h, "POST", "/api/jobs", `{"id":"x"}`); code != http.StatusCreated && code != http.StatusOK {
		t.Fatalf("enqueue: %d %v", code, v)
	}
	if _, err := db.Exec(`CREATE TRIGGER always_lose BEFORE UPDATE ON jobs BEGIN SELECT RAISE(IGNORE); END`); err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest("POST", "/api/claim", strings.NewReader(`{"owner":"A","job_id":"x","now":0,"ttl":1000}`))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var v map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
		t.Fatalf("%v: %s", err, rec.Body)
	}
	if rec.Code != http.StatusServiceUnavailable || v["error"] != "contention" || rec.Header().Get("Retry-After") != "1" {
		t.Errorf("claim that always loses its race: %d, Retry-After %q, %v; want 503 contention, Retry-After 1",
			rec.Code, rec.Header().Get("Retry-After"), v)
	}
	if code, v := serve(t, h, "GET", "/api/jobs/x", ""); code != http.StatusOK || v["status"] != "pending" || v["token"] != float64(0) {
		t.Errorf("the job after the lost claim: %d %v; want it pending with token 0", code, v)
	}
}

func TestTimeline_AnswersByTheRunnersOutcome(t *testing.T) {
	errDisk := errors.New("disk on fire")
	run := func(_ context.Context, text string) ([]byte, error) {
		switch text {
		case "good":
			return []byte(`{"steps":[]}`), nil
		case "bad":
			return nil, fmt.Errorf("t:2:5: unknown verb %q: %w", "frob", httpapi.ErrTimelineInput)
		}
		return nil, errDisk
	}
	for _, tc := range []struct {
		name string
		opts []httpapi.Option
		body string
		want int
		part string
	}{
		{"trace", []httpapi.Option{httpapi.WithTimeline(run)}, "good", http.StatusOK, `{"steps":[]}`},
		{"author-error", []httpapi.Option{httpapi.WithTimeline(run)}, "bad", http.StatusBadRequest, "t:2:5"},
		{"server-error", []httpapi.Option{httpapi.WithTimeline(run), httpapi.WithErrorLog(nil)}, "other", http.StatusInternalServerError, `"database"`},
		{"no-runner", nil, "good", http.StatusNotImplemented, "no timelines"},
		{"without", []httpapi.Option{httpapi.WithTimeline(run), httpapi.WithoutTimeline("D1 is shared")}, "good", http.StatusNotImplemented, "D1 is shared"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := httpapi.New(newStore(t), tc.opts...)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest("POST", "/api/timeline", strings.NewReader(tc.body)))
			if rec.Code != tc.want || !strings.Contains(rec.Body.String(), tc.part) ||
				rec.Header().Get("Content-Type") != "application/json" {
				t.Fatalf("%d %q %s, want %d containing %q", rec.Code, rec.Header().Get("Content-Type"), rec.Body, tc.want, tc.part)
			}
		})
	}
}

// Every refusal maps to its reason code and status; the body is the
// rejection with the row as it stood.
func TestRejection_StatusAndReasonPerRule(t *testing.T) {
	h := httpapi.New(newStore(t))
	post := func(path, body string) (int, map[string]any) { return serve(t, h, "POST", path, body) }
	post("/api/jobs", `{"id":"j","max_attempts":1}`)
	post("/api/jobs", `{"id":"d"}`)
	post("/api/claim", `{"owner":"A","job_id":"j","now":0,"ttl":100}`)
	post("/api/claim", `{"owner":"A","job_id":"d","now":0,"ttl":100}`)
	post("/api/complete", `{"lease":{"job_id":"d","owner":"A","token":1},"now":1}`)
	for _, tc := range []struct {
		name, path, body string
		want             int
		reason           string
	}{
		{"not-found", "/api/claim", `{"owner":"B","job_id":"none","now":0,"ttl":100}`, http.StatusNotFound, "not_found"},
		{"held", "/api/claim", `{"owner":"B","job_id":"j","now":99,"ttl":100}`, http.StatusConflict, "held"},
		{"superseded", "/api/renew", `{"lease":{"job_id":"j","owner":"B","token":1},"now":50,"ttl":100}`, http.StatusConflict, "superseded"},
		{"expired", "/api/complete", `{"lease":{"job_id":"j","owner":"A","token":1},"now":100}`, http.StatusConflict, "expired"},
		{"done", "/api/release", `{"lease":{"job_id":"d","owner":"A","token":1}}`, http.StatusConflict, "done"},
		{"quarantined", "/api/claim", `{"owner":"B","job_id":"j","now":100,"ttl":100}`, http.StatusConflict, "quarantined"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, v := post(tc.path, tc.body)
			if code != tc.want || v["reason"] != tc.reason {
				t.Fatalf("%d %v, want %d reason %s", code, v, tc.want, tc.reason)
			}
			for _, k := range []string{"error", "op", "reason", "presented", "current", "now", "message"} {
				if _, ok := v[k]; !ok {
					t.Fatalf("rejection lacks %q: %v", k, v)
				}
			}
		})
	}
}
