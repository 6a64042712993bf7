package sqlitedb_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"

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

// OpenWith sets the busy timeout on every connection: BusyTimeoutMillis
// unless Options says otherwise, in whole milliseconds.
func TestOpenWith_SetsTheBusyTimeout(t *testing.T) {
	nativeonly.Test(t, "a file database")
	for _, tc := range []struct {
		busy time.Duration
		want int64 // ms
	}{
		{0, sqlitedb.BusyTimeoutMillis},
		{-time.Second, sqlitedb.BusyTimeoutMillis},
		{time.Millisecond - 1, sqlitedb.BusyTimeoutMillis},
		{time.Millisecond, 1},
		{50*time.Millisecond + time.Microsecond, 50},
		{time.Minute, 60000},
	} {
		db, err := sqlitedb.OpenWith(filepath.Join(t.TempDir(), "jobs.db"), sqlitedb.Options{BusyTimeout: tc.busy})
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		var conns []*sql.Conn // two at once: two connections of the pool
		for range 2 {
			conn, err := db.Conn(ctx)
			if err != nil {
				t.Fatal(err)
			}
			conns = append(conns, conn)
			var got int64
			if err := conn.QueryRowContext(ctx, "PRAGMA busy_timeout").Scan(&got); err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("BusyTimeout %v: busy_timeout %d ms, want %d", tc.busy, got, tc.want)
			}
		}
		for _, c := range conns {
			c.Close()
		}
		db.Close()
	}
}
