package sqliteapi_test

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
	"github.com/leaselab/leaselab/engine/httpapi/httpapitest"
	"github.com/leaselab/leaselab/engine/httpapi/sqliteapi"
	"github.com/leaselab/leaselab/engine/internal/testkit/redteam"
	"github.com/leaselab/leaselab/engine/limits"
	"github.com/leaselab/leaselab/engine/sqlitedb"
)

// fileDB opens a fresh SQLite file (rollback journal) as serve.go does.
func fileDB(t *testing.T) *sql.DB {
	t.Helper()
	db, err := sqlitedb.Open(filepath.Join(t.TempDir(), "leaselab.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// The contract suite against the handler serve.go mounts at /api/: the
// store on a SQLite file, timelines on fresh in-memory databases.
func TestContract_SQLiteFile(t *testing.T) {
	h, err := sqliteapi.New(context.Background(), fileDB(t))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h) // 127.0.0.1
	defer srv.Close()
	httpapitest.Run(t, httpapitest.Target{BaseURL: srv.URL, Timeline: true})
}

// The same suite with the store in the Worker's mode (no transactions:
// every write a single UPDATE guarded by the row version it decided on),
// natively, with real SQLite locking between the parallel claims.
func TestContract_SQLiteFileWithoutTransactions(t *testing.T) {
	store, err := engine.New(context.Background(), fileDB(t), engine.WithoutTransactions())
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(httpapi.New(store, httpapi.WithTimeline(sqliteapi.RunTimeline)))
	defer srv.Close()
	httpapitest.Run(t, httpapitest.Target{BaseURL: srv.URL, Timeline: true})
}

// The server-clock mode (leaselab serve -clock server): every now is the
// server's, and a request that carries one is refused.
func TestServerClock_SQLiteFile(t *testing.T) {
	h, err := sqliteapi.New(context.Background(), fileDB(t), httpapi.WithClockMode(httpapi.ServerClock))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	httpapitest.RunServerClock(t, srv.URL)
}

// The red team's texts that made answers of hundreds of megabytes are
// refused with 400 naming the limit they pass, before anything runs; the
// same shape within every limit is answered, within trace_bytes. (The
// answer's size is the point, not the run's time: the run may take the
// minute a loaded machine needs, not the server's default 10 s.)
func TestRunTimeline_AnswersAreBoundedNotOnlyInputs(t *testing.T) {
	h, err := sqliteapi.New(context.Background(), fileDB(t), httpapi.WithTimelineDeadline(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		text  string
		code  int
		limit string
	}{
		{"a 100 KB id claimed next 2,000 times (126 KB)", redteam.Amplifier(100_000, 2000), http.StatusBadRequest, "name_bytes"},
		{"a 30 KB id claimed next 1,500 times (46 KB)", redteam.Amplifier(30_000, 1500), http.StatusBadRequest, "name_bytes"},
		{"an id one byte over name_bytes", redteam.Amplifier(limits.Default.NameBytes+1, 1), http.StatusBadRequest, "name_bytes"},
		{"ids of name_bytes claimed next on every step", redteam.Amplifier(limits.Default.NameBytes, limits.Default.Steps), http.StatusOK, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest("POST", "/api/timeline", strings.NewReader(tc.text)))
			if rec.Code != tc.code || !strings.Contains(rec.Body.String(), tc.limit) {
				t.Fatalf("%d %.300s; want %d naming %q", rec.Code, rec.Body, tc.code, tc.limit)
			}
			if rec.Body.Len() > limits.Default.TraceBytes {
				t.Fatalf("an answer of %d bytes, over trace_bytes", rec.Body.Len())
			}
		})
	}
}
