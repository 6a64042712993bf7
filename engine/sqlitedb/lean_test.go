package sqlitedb_test

import (
	"database/sql"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/sqlitedb"
)

// lean reports whether db runs on the browser build's SQLite (wasm/sqlite,
// selected by wasm/sqlite/browser.mod), which omits the compile-option
// diagnostics along with everything else the engine never uses.
func lean(db *sql.DB) bool {
	var used int
	return db.QueryRow(`SELECT sqlite_compileoption_used('SQLITE_OMIT_JSON')`).Scan(&used) != nil
}

// Everything the engine's SQL uses works on either build: a WITHOUT ROWID
// table with CHECK and UNIQUE constraints, a partial index, upserts, INSERT
// OR REPLACE, UPDATE ... RETURNING, scalar subqueries and the aggregates,
// BEGIN IMMEDIATE, savepoints and DROP TABLE.
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

// On the browser build, each statement of a feature it omits fails, with
// the connection still usable after it; on the native build this only
// checks that the same statements are accepted there.
func TestSQLite_BrowserBuildRefusesWhatItOmits(t *testing.T) {
	db, err := sqlitedb.Memory("omits-" + t.Name())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(`CREATE TABLE t (a INTEGER, b TEXT)`); err != nil {
		t.Fatal(err)
	}
	if !lean(db) {
		t.Skip("the native build keeps every feature")
	}
	for _, q := range []string{
		`CREATE VIEW v AS SELECT a FROM t`,
		`ANALYZE`,
		`REINDEX`,
		`VACUUM`,
		`ATTACH 'file:/x?vfs=memdb' AS x`,
		`DETACH x`,
		`ALTER TABLE t ADD COLUMN c`,
		`ALTER TABLE t RENAME TO u`,
		`CREATE VIRTUAL TABLE v USING fts5(a)`,
		`SELECT row_number() OVER (ORDER BY a) FROM t`,
		`SELECT sum(a) OVER w FROM t WINDOW w AS (ORDER BY a ROWS 2 PRECEDING)`,
		`SELECT count(*) FILTER (WHERE a > 1) FROM t`,
		`SELECT sum(a) OVER w FROM t WINDOW w AS (PARTITION BY b)`,
		`WITH c(x) AS (SELECT 1) SELECT x FROM c`,
		`WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3) SELECT x FROM c`,
		`SELECT a FROM t UNION SELECT a FROM t`,
		`EXPLAIN SELECT a FROM t`,
		`CREATE TEMP TABLE tt (x)`,
		`SELECT json('{}')`,
		`SELECT date('now')`,
		`SELECT x'00'`,
		`EXPLAIN QUERY PLAN SELECT a FROM t`,
		`CREATE TABLE f (x INTEGER PRIMARY KEY AUTOINCREMENT)`,
		`CREATE TABLE g (x REFERENCES t (a))`,
	} {
		for range 50 { // a leak or a bad free in a refusal path would show in time
			rows, err := db.Query(q)
			if err == nil {
				for rows.Next() {
				}
				err = rows.Err()
				rows.Close()
			}
			if err == nil {
				t.Errorf("%s: accepted on the browser build", q)
				break
			}
			if msg := err.Error(); !strings.Contains(msg, "is not supported by this build") && !strings.Contains(msg, "no such") {
				t.Errorf("%s: %v; want a refusal", q, err)
				break
			}
		}
	}
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM t`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("after the refusals: %d, %v", n, err)
	}
	var ts sql.NullString
	if err := db.QueryRow(`SELECT CURRENT_TIMESTAMP`).Scan(&ts); err != nil || ts.Valid {
		t.Fatalf("CURRENT_TIMESTAMP on the browser build: %v, %v; want NULL", ts, err)
	}
}
