package engine_test

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/internal/testkit/nativeonly"
	"github.com/leaselab/leaselab/engine/sqlitedb"
)

// busyFile opens the file at path with a busy timeout of a few ms, closed
// when t ends.
func busyFile(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sqlitedb.OpenWith(path, sqlitedb.Options{BusyTimeout: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// lock holds, from another pool of the file, the write lock (a write
// transaction begun) or a reader's lock (a read transaction that has read)
// until the returned function is called.
func lock(t *testing.T, other *sql.DB, write bool) (release func()) {
	t.Helper()
	ctx := context.Background()
	tx, err := other.BeginTx(ctx, &sql.TxOptions{ReadOnly: !write})
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM jobs").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return func() { tx.Rollback() }
}

// An operation that meets the database locked by another writer past the
// busy timeout (at BEGIN IMMEDIATE, at its statement) or that cannot
// commit while a reader holds its lock (at COMMIT, which the driver rolls
// back; the observed path shows the COMMIT was reached) returns an
// error matching ErrBusy, and changed nothing: the rows are as before, and
// once the lock is gone the same call succeeds on the same pool. This holds
// on the read-then-write path (observed), on the direct path, and without
// transactions.
func TestBusy_ALockedDatabaseIsErrBusyAndChangesNothing(t *testing.T) {
	nativeonly.Test(t, "a file database")
	ctx := context.Background()
	var seen []string // the statements of the read-then-write path
	for _, path := range []struct {
		name string
		opts []engine.Option
	}{
		{"read then write", []engine.Option{engine.WithObserver(func(st engine.Statement) { seen = append(seen, st.SQL) })}},
		{"direct", nil},
		{"without transactions", []engine.Option{engine.WithoutTransactions()}},
	} {
		for _, held := range []struct {
			name  string
			write bool
		}{{"a writer's lock", true}, {"a reader's lock", false}} {
			t.Run(path.name+"/"+held.name, func(t *testing.T) {
				file := filepath.Join(t.TempDir(), "jobs.db")
				s := newStore(t, busyFile(t, file), path.opts...)
				other := busyFile(t, file)
				enqueueOK(t, s, engine.NewJob{ID: "a"})
				enqueueOK(t, s, engine.NewJob{ID: "b"})
				l, err := s.Claim(ctx, "b", "A", 0, 1000)
				if err != nil {
					t.Fatal(err)
				}
				calls := map[string]func() error{
					"Enqueue":   func() error { _, err := s.Enqueue(ctx, engine.NewJob{ID: "c"}); return err },
					"Claim":     func() error { _, err := s.Claim(ctx, "a", "B", 10, 1000); return err },
					"ClaimNext": func() error { _, err := s.ClaimNext(ctx, "B", 10, 1000); return err },
					"Renew":     func() error { _, err := s.Renew(ctx, l, 10, 1000); return err },
					"Complete":  func() error { return s.Complete(ctx, l, 10, "r") },
					"Release":   func() error { return s.Release(ctx, l) },
				}
				for _, name := range []string{"Enqueue", "Claim", "ClaimNext", "Renew", "Complete", "Release"} {
					before, err := s.Jobs(ctx)
					if err != nil {
						t.Fatal(err)
					}
					release := lock(t, other, held.write)
					seen = nil
					err = calls[name]()
					release()
					if path.name == "read then write" && !held.write && name != "Enqueue" && !slices.Contains(seen, "COMMIT") {
						t.Errorf("%s under a reader's lock did not reach its COMMIT: %q", name, seen)
					}
					if !errors.Is(err, engine.ErrBusy) {
						t.Errorf("%s under %s: %v, want ErrBusy", name, held.name, err)
					}
					after, err := s.Jobs(ctx)
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(before, after) {
						t.Errorf("%s refused busy changed the rows:\n%v\n%v", name, before, after)
					}
					if name != "Enqueue" && name != "ClaimNext" && name != "Claim" {
						continue // the lease's calls run once each below
					}
					if err := calls[name](); err != nil {
						t.Errorf("%s once the lock is gone: %v", name, err)
					}
				}
				if err := calls["Complete"](); err != nil {
					t.Errorf("Complete once the lock is gone: %v", err)
				}
			})
		}
	}
}
