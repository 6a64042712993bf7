//go:build js

package sqlitejs_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"testing"
	"time"

	"github.com/leaselab/leaselab/wasm/sqlitejs"
)

// The engine's SQLite keeps an in-memory database in chunks of 64 KiB
// (wasm/sqlite/sqlite.c, the memdb VFS). These tests hold it to what a
// file does: every byte read back as written over many chunks,
// shrinking and growing again, one database shared by name while a
// connection to it is open, and gone with the last one.

// chunk is the VFS's chunk size; rows below are sized to cross it.
const chunk = 64 << 10

// fill writes n rows of size bytes each into t, row i's bytes all byte(i).
func fill(tb testing.TB, db *sql.DB, from, n, size int) {
	tb.Helper()
	for i := from; i < from+n; i++ {
		if _, err := db.Exec(`INSERT INTO t (id, v) VALUES (?, ?)`, i, bytes.Repeat([]byte{byte(i)}, size)); err != nil {
			tb.Fatal(err)
		}
	}
}

// check reads every row back and runs SQLite's integrity check.
func check(tb testing.TB, db *sql.DB, want map[int]int) {
	tb.Helper()
	rows, err := db.Query(`SELECT id, v FROM t ORDER BY id`)
	if err != nil {
		tb.Fatal(err)
	}
	defer rows.Close()
	seen := 0
	for rows.Next() {
		var id int
		var v []byte
		if err := rows.Scan(&id, &v); err != nil {
			tb.Fatal(err)
		}
		size, ok := want[id]
		if !ok || !bytes.Equal(v, bytes.Repeat([]byte{byte(id)}, size)) {
			tb.Fatalf("row %d: %d bytes, not the %d bytes of %d written", id, len(v), size, byte(id))
		}
		seen++
	}
	if err := rows.Err(); err != nil {
		tb.Fatal(err)
	}
	if seen != len(want) {
		tb.Fatalf("read %d rows, want %d", seen, len(want))
	}
	var ok string
	if err := db.QueryRow(`PRAGMA integrity_check`).Scan(&ok); err != nil || ok != "ok" {
		tb.Fatalf("integrity_check: %q, %v", ok, err)
	}
}

func pageBytes(tb testing.TB, db *sql.DB) int64 {
	tb.Helper()
	var pages, size int64
	if err := db.QueryRow(`PRAGMA page_count`).Scan(&pages); err != nil {
		tb.Fatal(err)
	}
	if err := db.QueryRow(`PRAGMA page_size`).Scan(&size); err != nil {
		tb.Fatal(err)
	}
	return pages * size
}

func TestMemoryVFS_ReadsBackEveryRowOverManyChunksAfterShrinkingAndGrowing(t *testing.T) {
	db := open(t, 0)
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, v BLOB)`); err != nil {
		t.Fatal(err)
	}
	want := map[int]int{}
	// Rows of a chunk and a half, and of a page and a bit: values that
	// span chunks, on overflow pages spread over many. (SQLite reads and
	// writes whole pages, at most 64 KiB and aligned, and the 100-byte
	// header: no single read or write crosses a chunk.)
	for i, size := range []int{chunk + chunk/2, 4096 + 17, 3*chunk - 1, 100} {
		fill(t, db, 10*i, 10, size)
		for k := 10 * i; k < 10*i+10; k++ {
			want[k] = size
		}
	}
	check(t, db, want)
	grown := pageBytes(t, db)
	if grown < 40*chunk {
		t.Fatalf("the database is %d bytes, too small to cross many chunks", grown)
	}
	// Shrink: VACUUM truncates the file, cutting chunks and part of one.
	if _, err := db.Exec(`DELETE FROM t WHERE id < 30`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`VACUUM`); err != nil {
		t.Fatal(err)
	}
	for k := range 30 {
		delete(want, k)
	}
	check(t, db, want)
	if shrunk := pageBytes(t, db); shrunk >= grown/4 {
		t.Fatalf("VACUUM left %d of %d bytes", shrunk, grown)
	}
	// Grow again over what the truncation cut.
	fill(t, db, 100, 20, 2*chunk+5)
	for k := 100; k < 120; k++ {
		want[k] = 2*chunk + 5
	}
	check(t, db, want)
}

func TestMemoryVFS_ANamedDatabaseIsSharedWhileOpenAndGoneAfter(t *testing.T) {
	name := "file:/" + t.Name() + "?vfs=memdb"
	openNamed := func() *sql.DB {
		db := sql.OpenDB(&sqlitejs.Connector{Filename: name, BusyTimeout: time.Millisecond})
		if err := db.Ping(); err != nil {
			t.Fatal(err)
		}
		return db
	}
	a, b := openNamed(), openNamed()
	if _, err := a.Exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, v BLOB)`); err != nil {
		t.Fatal(err)
	}
	fill(t, a, 0, 5, 3*chunk)
	check(t, b, map[int]int{0: 3 * chunk, 1: 3 * chunk, 2: 3 * chunk, 3: 3 * chunk, 4: 3 * chunk})
	// A write transaction on one connection holds the other's writes off.
	ctx := context.Background()
	ca, err := a.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ca.ExecContext(ctx, `BEGIN IMMEDIATE`); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Exec(`INSERT INTO t (id, v) VALUES (9, x'00')`); !errors.Is(err, sqlitejs.BUSY) {
		t.Errorf("a write beside another connection's write transaction: %v, want busy", err)
	}
	if _, err := ca.ExecContext(ctx, `COMMIT`); err != nil {
		t.Fatal(err)
	}
	ca.Close()
	a.Close()
	b.Close()
	// The last connection closed: the name opens an empty database.
	c := openNamed()
	defer c.Close()
	var n int
	if err := c.QueryRow(`SELECT count(*) FROM sqlite_schema`).Scan(&n); err != nil || n != 0 {
		t.Errorf("after the last connection closed, the database has %d schema rows (%v), want a fresh one", n, err)
	}
}

func TestMemoryVFS_AnUnnamedDatabaseIsItsConnectionsOwn(t *testing.T) {
	dbs := make([]*sql.DB, 2)
	for i := range dbs {
		dbs[i] = sql.OpenDB(&sqlitejs.Connector{Filename: "file:private?vfs=memdb"})
		defer dbs[i].Close()
		dbs[i].SetMaxOpenConns(1)
	}
	if _, err := dbs[0].Exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, v BLOB)`); err != nil {
		t.Fatal(err)
	}
	fill(t, dbs[0], 0, 3, chunk)
	var n int
	err := dbs[1].QueryRow(`SELECT count(*) FROM sqlite_schema`).Scan(&n)
	if err != nil || n != 0 {
		t.Errorf("another connection to the unnamed database sees %d schema rows (%v), want none", n, err)
	}
}
