package engine_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/internal/testkit/nativeonly"
	"github.com/leaselab/leaselab/engine/sqlitedb"
)

var memSeq atomic.Int64

// memDB opens a fresh shared in-memory database, closed when t ends.
func memDB(t testing.TB) *sql.DB {
	t.Helper()
	name := strings.NewReplacer("/", "_", " ", "_").Replace(t.Name()) + "-" + strconv.FormatInt(memSeq.Add(1), 10)
	db, err := sqlitedb.Memory(name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// fileDB opens a fresh file database in t's temporary directory.
func fileDB(t testing.TB) (*sql.DB, string) {
	t.Helper()
	nativeonly.Test(t, "a file database")
	path := filepath.Join(t.TempDir(), "jobs.db")
	db, err := sqlitedb.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, path
}

// newStore opens a store on db with the options every test store gets (in a
// mutants build: the mutant named by LEASELAB_MUTANT) and opts.
func newStore(t testing.TB, db *sql.DB, opts ...engine.Option) *engine.Store {
	t.Helper()
	s, err := engine.New(context.Background(), db, append(testOptions(t), opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// memStore is newStore on a fresh in-memory database.
func memStore(t testing.TB, opts ...engine.Option) *engine.Store {
	t.Helper()
	return newStore(t, memDB(t), opts...)
}
