package sqlitedb_test

import (
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/sqlitedb"
)

// Everything the engine's SQL uses works on either build (natively,
// ncruces/go-sqlite3; under GOOS=js, the engine's SQLite, wasm/sqlite):
// a WITHOUT ROWID table with CHECK and UNIQUE constraints, a partial index,
// upserts, INSERT OR REPLACE, UPDATE ... RETURNING, scalar subqueries and
// the aggregates, BEGIN IMMEDIATE, savepoints and DROP TABLE.
func TestSQLite_WhatTheEngineUses(t *testing.T) {
	db, err := sqlitedb.Memory("uses-" + t.Name())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		`CREATE TABLE j (id TEXT PRIMARY KEY NOT NULL, seq INTEGER NOT NULL UNIQUE,
			n INTEGER NOT NULL DEFAULT 0 CHECK (n >= 0), s TEXT NOT NULL DEFAULT 'p'
			CHECK (s IN ('p', 'l', 'd'))) WITHOUT ROWID`,
		`CREATE INDEX IF NOT EXISTS j_open ON j (seq) WHERE s IN ('p', 'l')`,
		`INSERT INTO j (id, seq) VALUES ('a', (SELECT COALESCE(MAX(seq), 0) + 1 FROM j)) ON CONFLICT (id) DO NOTHING`,
		`INSERT INTO j (id, seq) VALUES ('b', (SELECT COALESCE(MAX(seq), 0) + 1 FROM j)) ON CONFLICT (id) DO NOTHING`,
		`INSERT INTO j (id, seq) VALUES ('a', 9) ON CONFLICT (id) DO UPDATE SET n = n + excluded.seq`,
		`INSERT OR REPLACE INTO j (id, seq, n) VALUES ('c', 3, 1)`,
		`BEGIN IMMEDIATE`, `SAVEPOINT x`, `UPDATE j SET n = n + 1`, `ROLLBACK TO x`, `RELEASE x`, `COMMIT`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	var id string
	var n int
	if err := db.QueryRow(`UPDATE j SET s = 'l', n = n + 1 WHERE id = (SELECT id FROM j WHERE s IN ('p', 'l') ORDER BY seq LIMIT 1) RETURNING id, n`).Scan(&id, &n); err != nil || id != "a" || n != 10 {
		t.Fatalf("UPDATE ... RETURNING: %q %d, %v; want a 10", id, n, err)
	}
	var count, sum int
	if err := db.QueryRow(`SELECT count(*), COALESCE(SUM(n), 0) FROM j WHERE id IN (?, ?, ?)`, "a", "b", "c").Scan(&count, &sum); err != nil || count != 3 || sum != 11 {
		t.Fatalf("count, sum: %d %d, %v; want 3 11", count, sum, err)
	}
	if _, err := db.Exec(`UPDATE j SET n = -1 WHERE id = 'a'`); err == nil || !strings.Contains(err.Error(), "CHECK") {
		t.Fatalf("a CHECK violation: %v", err)
	}
	if _, err := db.Exec(`DROP TABLE IF EXISTS j`); err != nil {
		t.Fatal(err)
	}
}

// The browser's SQLite is the native one's version: natively
// ncruces/go-sqlite3's translation, under GOOS=js the engine's own build
// (wasm/sqlite), both SQLite 3.54.1 from the same check-in, so that a trace
// computed on either is computed by the same SQLite. Bumping one without
// the other fails here.
func TestSQLite_SameVersionNativelyAndInTheBrowser(t *testing.T) {
	db, err := sqlitedb.Memory("version-" + t.Name())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var version, source string
	if err := db.QueryRow(`SELECT sqlite_version(), sqlite_source_id()`).Scan(&version, &source); err != nil {
		t.Fatal(err)
	}
	const wantVersion, wantCheckin = "3.54.1", "555e07ef33f69a0957d24d8e555b702464a131d6f1607f4c3c1e4551e8e6ca76"
	if version != wantVersion || !strings.Contains(source, wantCheckin) {
		t.Errorf("SQLite %s (%s), want %s from check-in %s", version, source, wantVersion, wantCheckin)
	}
}
