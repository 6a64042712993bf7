package httpapi_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/httpapi"
	"github.com/leaselab/leaselab/engine/httpapi/sqliteapi"
)

// fuzzRoutes are the requests FuzzAPI sends, by its route byte; {id} is
// the fuzzed id, escaped into the path.
var fuzzRoutes = []struct{ method, path string }{
	{"GET", "/api/jobs"},
	{"POST", "/api/jobs"},
	{"GET", "/api/jobs/{id}"},
	{"POST", "/api/claim"},
	{"POST", "/api/renew"},
	{"POST", "/api/complete"},
	{"POST", "/api/release"},
	{"POST", "/api/timeline"},
	{"HEAD", "/api/jobs/{id}"},
	{"PUT", "/api/jobs"},
	{"POST", "/api/{id}"},
}

// fuzzSites are the Sec-Fetch-Site headers FuzzAPI sends, by its site
// byte ("" sends none: a client that is no browser).
var fuzzSites = []string{"", "same-origin", "cross-site", "same-site", "none"}

// FuzzAPI sends any body to any route of one store (its seed corpus, in
// testdata/fuzz/FuzzAPI, holds the red team's reproductions) and holds
// two properties: the API never answers 5xx, and an answer 4xx leaves
// the store as it was — except that a refused claim may quarantine the
// jobs whose budget it found used up, as the contract says it must.
func FuzzAPI(f *testing.F) {
	store := newStore(f)
	h := httpapi.New(store, httpapi.WithTimeline(sqliteapi.RunTimeline),
		httpapi.WithClock(func() int64 { return 5000 }), httpapi.WithErrorLog(nil))
	for _, body := range []string{`{"id":"a"}`, `{"id":"b","max_attempts":1}`, `{"id":"c","deadline":6000}`} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("POST", "/api/jobs", bytes.NewReader([]byte(body))))
		if rec.Code != http.StatusCreated {
			f.Fatalf("seeding %s: %d %s", body, rec.Code, rec.Body)
		}
	}
	f.Add(uint8(1), "", []byte(`{"id":"x","qty":2}`), uint8(0))
	f.Add(uint8(3), "", []byte(`{"owner":"A","job_id":"a","now":0,"ttl":1000}`), uint8(1))
	f.Fuzz(func(t *testing.T, route uint8, id string, body []byte, site uint8) {
		rt := fuzzRoutes[int(route)%len(fuzzRoutes)]
		path := rt.path
		if i := bytes.Index([]byte(path), []byte("{id}")); i >= 0 {
			path = path[:i] + url.PathEscape(id)
		}
		req := httptest.NewRequest(rt.method, path, bytes.NewReader(body))
		req.Header.Set("Content-Type", "text/plain")
		if s := fuzzSites[int(site)%len(fuzzSites)]; s != "" {
			req.Header.Set("Sec-Fetch-Site", s)
		}
		before := jobsOf(t, store)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("%s %s %q: %d %s", rt.method, path, body, rec.Code, rec.Body)
		}
		if rec.Header().Get("X-Content-Type-Options") != "nosniff" {
			t.Fatalf("%s %s: %d without nosniff", rt.method, path, rec.Code)
		}
		if rec.Code < 400 {
			return
		}
		after := jobsOf(t, store)
		if err := onlyQuarantined(before, after, rt.path == "/api/claim" && rec.Code != http.StatusBadRequest); err != "" {
			t.Fatalf("%s %s %q answered %d %s and changed the store: %s", rt.method, path, body, rec.Code, rec.Body, err)
		}
	})
}

// onlyQuarantined says how after differs from before, or "" if it does
// not — or, when quarantine is allowed, if every change is a job put in
// quarantine for its budget and nothing else.
func onlyQuarantined(before, after []engine.Job, quarantine bool) string {
	if len(before) != len(after) {
		return "the number of jobs changed"
	}
	for i, b := range before {
		a := after[i]
		if a == b {
			continue
		}
		q := b
		q.Status, q.Reason = engine.StatusQuarantined, a.Reason
		if !quarantine || a != q || (a.Reason != "attempts" && a.Reason != "deadline") {
			return "job " + b.ID + " changed"
		}
	}
	return ""
}
