package httpapi_test

import (
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"

	"github.com/leaselab/leaselab/engine/httpapi"
)

// Job lists at once are capped: while lists hold every slot (each waiting
// for the database's only connection) the next is 503 "busy" with
// Retry-After, and the slots come back when those lists are answered.
func TestListJobs_BeyondTheCapIs503Busy(t *testing.T) {
	const most = 2
	store := newStore(t)
	db := store.DB()
	db.SetMaxOpenConns(1)
	h := httpapi.New(store, httpapi.WithListsAtOnce(most))
	list := func() *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/jobs", nil))
		return rec
	}
	conn, err := db.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	answers := make(chan int, most)
	for i := range most { // below the cap, then at it: both taken, both waiting
		go func() { answers <- list().Code }()
		for db.Stats().WaitCount < int64(i+1) {
			runtime.Gosched()
		}
	}
	rec := list()
	if rec.Code != http.StatusServiceUnavailable || errorCode(t, rec) != "busy" || rec.Header().Get("Retry-After") == "" {
		t.Fatalf("a list beyond the cap: %d %s, Retry-After %q; want 503 busy with Retry-After",
			rec.Code, rec.Body, rec.Header().Get("Retry-After"))
	}
	conn.Close()
	for range most {
		if code := <-answers; code != http.StatusOK {
			t.Errorf("a list within the cap answered %d, want 200", code)
		}
	}
	if rec := list(); rec.Code != http.StatusOK {
		t.Fatalf("after the lists were answered: %d %s", rec.Code, rec.Body)
	}
}
