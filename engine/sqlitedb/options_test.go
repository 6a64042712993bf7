package sqlitedb_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/testkit/nativeonly"
	"github.com/leaselab/leaselab/engine/sqlitedb"
)

// OpenWith sets the journal and the sync on every connection of the pool,
// and caps the pool.
func TestOpenWith_SetsJournalSyncAndPoolOnEveryConnection(t *testing.T) {
	nativeonly.Test(t, "a file database")
	for _, tc := range []struct {
		name          string
		o             sqlitedb.Options
		journal       string
		sync, maxOpen int // synchronous: 1 NORMAL, 2 FULL
	}{
		{"zero is Open's", sqlitedb.Options{}, "delete", 2, 0},
		{"WAL", sqlitedb.Options{WAL: true}, "wal", 1, 0},
		{"WAL durable", sqlitedb.Options{WAL: true, Durable: true}, "wal", 2, 0},
		{"durable alone changes nothing", sqlitedb.Options{Durable: true}, "delete", 2, 0},
		{"a pool of 2", sqlitedb.Options{WAL: true, MaxOpenConns: 2}, "wal", 1, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, err := sqlitedb.OpenWith(filepath.Join(t.TempDir(), "jobs.db"), tc.o)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if got := db.Stats().MaxOpenConnections; got != tc.maxOpen {
				t.Errorf("MaxOpenConnections %d, want %d", got, tc.maxOpen)
			}
			ctx := context.Background()
			for range 2 {
				conn, err := db.Conn(ctx)
				if err != nil {
					t.Fatal(err)
				}
				defer conn.Close()
				var journal string
				var sync int
				if err := conn.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&journal); err != nil {
					t.Fatal(err)
				}
				if err := conn.QueryRowContext(ctx, "PRAGMA synchronous").Scan(&sync); err != nil {
					t.Fatal(err)
				}
				if journal != tc.journal || sync != tc.sync {
					t.Fatalf("journal_mode=%s synchronous=%d, want %s and %d", journal, sync, tc.journal, tc.sync)
				}
			}
		})
	}
}
