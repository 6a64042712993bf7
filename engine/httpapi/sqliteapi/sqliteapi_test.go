package sqliteapi_test

import (
	"context"
	"database/sql"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/httpapi"
	"github.com/leaselab/leaselab/engine/httpapi/httpapitest"
	"github.com/leaselab/leaselab/engine/httpapi/sqliteapi"
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
