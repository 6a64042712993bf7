//go:build js

package sqlitejs_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/leaselab/leaselab/wasm/sqlitejs"
)

// These tests hold the memdb VFS (wasm/sqlite/sqlite.c) at its boundaries
// as SQL reaches them: the 1 GiB limit and the memory the module may grow
// to, journals kept in the VFS (unaligned records across chunks), the
// longest name, and the locks between connections to one name.

// gib is the VFS's limit on a file's size.
const gib = 1 << 30

// openShared opens a pool on the shared database "/name".
func openShared(t *testing.T, name string) *sql.DB {
	t.Helper()
	db := sql.OpenDB(&sqlitejs.Connector{Filename: "file:/" + name + "?vfs=memdb", BusyTimeout: time.Millisecond})
	t.Cleanup(func() { db.Close() })
	if err := db.Ping(); err != nil {
		t.Fatal(err)
	}
	return db
}

// exec runs queries on db, failing tb on the first error.
func exec(tb testing.TB, db *sql.DB, queries ...string) {
	tb.Helper()
	for _, q := range queries {
		if _, err := db.Exec(q); err != nil {
			tb.Fatalf("%s: %v", q, err)
		}
	}
}

// fillUntil inserts rows of size zero bytes, ids from *id on, until an
// insert fails, and returns that failure.
func fillUntil(db *sql.DB, id *int, size int) error {
	for ; ; *id++ {
		if _, err := db.Exec(`INSERT INTO t (id, v) VALUES (?, zeroblob(?))`, *id, size); err != nil {
			return err
		}
	}
}

// A file grows to exactly 1 GiB and not a byte more: with 64 KiB pages
// (one page a chunk) the page that ends at the limit is written, and the
// next one SQLite writes (past the lock-byte page at 1 GiB, which it never
// writes) is refused with SQLITE_FULL, leaving the database whole. (What
// an allocation failure does beside it, at the module's 2 GiB, is left
// untested: the test would hold 2 GB of a CI machine's memory.)
func TestMemoryVFS_GrowsToExactlyOneGiBThenFull(t *testing.T) {
	big := openShared(t, t.Name()+"-big")
	big.SetMaxOpenConns(1)
	exec(t, big, `PRAGMA page_size = 65536`, `VACUUM`, `CREATE TABLE t (id INTEGER PRIMARY KEY, v BLOB)`)
	id := 0
	// Before the limit: a 4 MiB row that does not fit is refused whole.
	if err := fillUntil(big, &id, 4<<20); !errors.Is(err, sqlitejs.FULL) {
		t.Fatalf("4 MiB rows up to the limit: %v, want SQLITE_FULL", err)
	}
	if n := pageBytes(t, big); n >= gib || n < gib-4<<20 {
		t.Fatalf("after the first refusal the database is %d bytes, want within 4 MiB under %d", n, gib)
	}
	// At and after: rows of one page each fill it to exactly the limit.
	if err := fillUntil(big, &id, 60000); !errors.Is(err, sqlitejs.FULL) {
		t.Fatalf("one-page rows up to the limit: %v, want SQLITE_FULL", err)
	}
	if n := pageBytes(t, big); n != gib {
		t.Fatalf("full at %d bytes, want exactly %d", n, gib)
	}
	var ok string
	var rows, total int64
	if err := big.QueryRow(`SELECT count(*), sum(length(v)) FROM t`).Scan(&rows, &total); err != nil || rows != int64(id) {
		t.Fatalf("%d rows (%v), want the %d inserted", rows, err, id)
	}
	if err := big.QueryRow(`PRAGMA quick_check`).Scan(&ok); err != nil || ok != "ok" {
		t.Fatalf("quick_check at the limit: %q, %v", ok, err)
	}

}

// A journal mode other than memory keeps the rollback journal in the VFS
// (as "/name-journal"): its records, a page and 8 bytes each after a
// header padded to a sector, lie across chunk boundaries at every offset
// inside a chunk, and a rollback reads every one back. Each mode, at page
// sizes under, at and over the chunk's divisors, rolls a transaction that
// rewrote every page back to the bytes before it, and leaves the journal
// where the next transaction finds it (deleted, truncated or kept).
func TestMemoryVFS_RollsBackThroughAJournalKeptInTheVFS(t *testing.T) {
	for _, mode := range []string{"delete", "truncate", "persist"} {
		for _, page := range []int{512, 4096, 65536} {
			t.Run(fmt.Sprintf("%s/%d", mode, page), func(t *testing.T) {
				db := open(t, 0)
				db.SetMaxOpenConns(1)
				exec(t, db, fmt.Sprintf(`PRAGMA page_size = %d`, page), `VACUUM`)
				var got string
				if err := db.QueryRow(`PRAGMA journal_mode = ` + mode).Scan(&got); err != nil || got != mode {
					t.Fatalf("journal_mode %s: %q, %v", mode, got, err)
				}
				exec(t, db, `CREATE TABLE t (id INTEGER PRIMARY KEY, v BLOB)`)
				want := map[int]int{}
				for i, size := range []int{chunk + 3, 700, 3*chunk - 1} {
					fill(t, db, 10*i, 10, size)
					for k := 10 * i; k < 10*i+10; k++ {
						want[k] = size
					}
				}
				if n := pageBytes(t, db); n < 8*chunk {
					t.Fatalf("the database is %d bytes: its journal would not cross chunks", n)
				}
				for round := range 2 {
					ctx := context.Background()
					c, err := db.Conn(ctx)
					if err != nil {
						t.Fatal(err)
					}
					for _, q := range []string{`BEGIN`, `UPDATE t SET v = zeroblob(length(v) + 1)`, `DELETE FROM t WHERE id % 3 = 0`,
						`INSERT INTO t (id, v) SELECT id + 1000, v FROM t`, `ROLLBACK`} {
						if _, err := c.ExecContext(ctx, q); err != nil {
							t.Fatalf("round %d: %s: %v", round, q, err)
						}
					}
					c.Close()
					check(t, db, want)
				}
			})
		}
	}
}

// A name's path is the VFS's whole name or no name: SQLite needs room for
// "-journal" after it within the VFS's 1024 bytes, so a path of 1016 bytes
// opens and a longer one is refused (SQLITE_CANTOPEN), never cut to a
// prefix that another long name shares.
func TestMemoryVFS_RefusesANameTooLongToKeepWhole(t *testing.T) {
	const cantOpen = sqlitejs.ErrorCode(14)
	for _, tc := range []struct {
		path int // bytes of "/name"
		ok   bool
	}{{1015, true}, {1016, true}, {1017, false}, {1024, false}, {1025, false}, {1101, false}} {
		db := sql.OpenDB(&sqlitejs.Connector{Filename: "file:/" + strings.Repeat("n", tc.path-1) + "?vfs=memdb"})
		err := db.Ping()
		if tc.ok && err != nil {
			t.Errorf("a %d-byte path: %v", tc.path, err)
		}
		if !tc.ok && !errors.Is(err, cantOpen) {
			t.Errorf("a %d-byte path: %v, want SQLITE_CANTOPEN", tc.path, err)
		}
		db.Close()
	}
}

// conn takes one connection of db and runs queries on it.
func conn(t *testing.T, db *sql.DB, queries ...string) *sql.Conn {
	t.Helper()
	c, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	for _, q := range queries {
		if _, err := c.ExecContext(context.Background(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return c
}

// row is the arguments of an INSERT INTO t of the row check expects: size
// bytes, each byte(id).
func row(id, size int) []any { return []any{id, bytes.Repeat([]byte{byte(id)}, size)} }

const insert = `INSERT INTO t (id, v) VALUES (?, ?)`

func count(t *testing.T, db *sql.DB) int {
	t.Helper()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM t`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// Two connections to one name: while one holds the write lock the other
// can neither read nor write (SQLITE_BUSY, no partial state seen); while
// one reads, the other's write cannot commit; once each lock is released
// the other goes on, and the file stays whole.
func TestMemoryVFS_TheWriteLockHoldsTheOtherConnectionOff(t *testing.T) {
	a, b := openShared(t, t.Name()), openShared(t, t.Name())
	exec(t, a, `CREATE TABLE t (id INTEGER PRIMARY KEY, v BLOB)`)
	fill(t, a, 0, 3, chunk)
	ctx := context.Background()

	// A writer's transaction: the other connection's read and write are busy.
	w := conn(t, a, `BEGIN IMMEDIATE`)
	if _, err := w.ExecContext(ctx, insert, row(10, 70000)...); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := b.QueryRow(`SELECT count(*) FROM t`).Scan(&n); !errors.Is(err, sqlitejs.BUSY) {
		t.Errorf("a read during another connection's write transaction: %d rows, %v, want busy", n, err)
	}
	if _, err := b.Exec(insert, row(11, 1)...); !errors.Is(err, sqlitejs.BUSY) {
		t.Errorf("a write during another connection's write transaction: %v, want busy", err)
	}
	if _, err := w.ExecContext(ctx, `COMMIT`); err != nil {
		t.Fatal(err)
	}
	if got := count(t, b); got != 4 {
		t.Errorf("after the commit the other connection reads %d rows, want 4", got)
	}

	// A reader's transaction: the other connection's write cannot commit.
	r := conn(t, a, `BEGIN`)
	if err := r.QueryRowContext(ctx, `SELECT count(*) FROM t`).Scan(&n); err != nil || n != 4 {
		t.Fatalf("the reader: %d rows, %v", n, err)
	}
	if _, err := b.Exec(insert, row(12, 1)...); !errors.Is(err, sqlitejs.BUSY) {
		t.Errorf("a commit beside another connection's read transaction: %v, want busy", err)
	}
	if err := r.QueryRowContext(ctx, `SELECT count(*) FROM t`).Scan(&n); err != nil || n != 4 {
		t.Errorf("the reader after the refused write: %d rows, %v, want 4", n, err)
	}
	if _, err := r.ExecContext(ctx, `COMMIT`); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Exec(insert, row(12, 1)...); err != nil {
		t.Errorf("the write once the reader is done: %v", err)
	}
	check(t, a, map[int]int{0: chunk, 1: chunk, 2: chunk, 10: 70000, 12: 1})
}

// Closing a connection that is inside a write transaction rolls it back and
// releases its locks: the other connection then writes, and never sees the
// rows. Closing the other connection while one writes leaves the writer's
// database in place; the last close frees it, and the name then opens empty.
func TestMemoryVFS_ClosingAConnectionReleasesItsLocksAndTheLastFreesTheFile(t *testing.T) {
	name := t.Name()
	a, b := openShared(t, name), openShared(t, name)
	exec(t, a, `CREATE TABLE t (id INTEGER PRIMARY KEY, v BLOB)`)
	fill(t, a, 0, 2, 2*chunk)

	w := conn(t, a, `BEGIN IMMEDIATE`)
	if _, err := w.ExecContext(context.Background(), insert, row(10, 200000)...); err != nil {
		t.Fatal(err)
	}
	w.Close() // back to the pool, still in its transaction
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Exec(insert, row(11, 1)...); err != nil {
		t.Fatalf("a write after the writer closed mid-transaction: %v", err)
	}
	check(t, b, map[int]int{0: 2 * chunk, 1: 2 * chunk, 11: 1})

	c := openShared(t, name)
	w = conn(t, b, `BEGIN IMMEDIATE`)
	if _, err := w.ExecContext(context.Background(), insert, row(12, 300000)...); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := w.ExecContext(context.Background(), `COMMIT`); err != nil {
		t.Fatalf("a commit after another connection closed: %v", err)
	}
	w.Close()
	d := openShared(t, name)
	check(t, d, map[int]int{0: 2 * chunk, 1: 2 * chunk, 11: 1, 12: 300000})
	b.Close()
	d.Close()
	e := openShared(t, name)
	var n int
	if err := e.QueryRow(`SELECT count(*) FROM sqlite_schema`).Scan(&n); err != nil || n != 0 {
		t.Errorf("after the last close the name opens %d schema rows (%v), want an empty database", n, err)
	}
}
