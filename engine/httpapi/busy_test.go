package httpapi_test

import (
	"context"
	"database/sql"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/httpapi"
	"github.com/leaselab/leaselab/engine/internal/testkit/nativeonly"
	"github.com/leaselab/leaselab/engine/sqlitedb"
)

// A write that meets the database locked past its busy timeout is 503
// "database_busy" with Retry-After, in the usual error shape and naming
// the busy database, never 500, and the job is as it was: the call
// changed nothing, and the same call succeeds once the lock is gone.
func TestBusyDatabase_Is503WithRetryAfterAndChangesNothing(t *testing.T) {
	nativeonly.Test(t, "a file database")
	file := filepath.Join(t.TempDir(), "jobs.db")
	open := func() *sql.DB {
		db, err := sqlitedb.OpenWith(file, sqlitedb.Options{BusyTimeout: 20 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	s, err := engine.New(context.Background(), open())
	if err != nil {
		t.Fatal(err)
	}
	h := httpapi.New(s)
	if code, v := serve(t, h, "POST", "/api/jobs", `{"id":"held"}`); code != http.StatusCreated {
		t.Fatalf("enqueue: %d %v", code, v)
	}
	other := open()
	for _, call := range []struct{ path, body string }{
		{"/api/jobs", `{"id":"new"}`},
		{"/api/claim", `{"owner":"A","job_id":"held","now":0,"ttl":1000}`},
		{"/api/claim", `{"owner":"A","now":0,"ttl":1000}`},
	} {
		tx, err := other.BeginTx(context.Background(), nil) // BEGIN IMMEDIATE: the write lock
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Exec(`UPDATE jobs SET qty = qty WHERE 0`); err != nil {
			t.Fatal(err)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("POST", call.path, strings.NewReader(call.body)))
		tx.Rollback()
		if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") != "1" ||
			!strings.Contains(rec.Body.String(), `"error":"database_busy"`) || !strings.Contains(rec.Body.String(), "busy") {
			t.Errorf("POST %s %s under a held write lock: %d, Retry-After %q, %s; want 503 database_busy with Retry-After 1",
				call.path, call.body, rec.Code, rec.Header().Get("Retry-After"), rec.Body)
		}
		if code, v := serve(t, h, "GET", "/api/jobs/new", ""); code != http.StatusNotFound {
			t.Errorf("after POST %s: job new %d %v; want it absent", call.path, code, v)
		}
		if code, v := serve(t, h, "GET", "/api/jobs/held", ""); code != http.StatusOK || v["status"] != "pending" || v["token"] != float64(0) {
			t.Errorf("after POST %s: job held %d %v; want it pending, token 0", call.path, code, v)
		}
	}
	if code, v := serve(t, h, "POST", "/api/claim", `{"owner":"A","job_id":"held","now":0,"ttl":1000}`); code != http.StatusOK {
		t.Errorf("the claim once the lock is gone: %d %v", code, v)
	}
}
