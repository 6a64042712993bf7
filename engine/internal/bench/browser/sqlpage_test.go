package main

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/sqlitedb"
)

// TestSQLitePage_RunsTheEnginesOwnStatements holds the official build's
// cycle page to the engine: every statement the engine runs for a store and
// one enqueue -> claim -> complete cycle (schema, INSERT, BEGIN IMMEDIATE,
// SELECT, guarded UPDATE, COMMIT) is in web/bench/sqlite.js verbatim, so
// the two sides of the benchmark run the same SQL.
func TestSQLitePage_RunsTheEnginesOwnStatements(t *testing.T) {
	_, here, _, _ := runtime.Caller(0)
	page, err := os.ReadFile(filepath.Join(filepath.Dir(here), "..", "..", "..", "..", "web", "bench", "sqlite.js"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	db, err := sqlitedb.Memory("browserbench-sqlpage")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var stmts []string
	s, err := engine.New(ctx, db, engine.WithObserver(func(st engine.Statement) { stmts = append(stmts, st.SQL) }))
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := s.Enqueue(ctx, engine.NewJob{ID: "bench-0"}); err != nil || !ok {
		t.Fatalf("enqueue: %v, %v", ok, err)
	}
	l, err := s.Claim(ctx, "bench-0", "w", 0, 30_000)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Complete(ctx, l, 0, "ok"); err != nil {
		t.Fatal(err)
	}
	if len(stmts) < 10 {
		t.Fatalf("the observer saw %d statements, want the schema and a whole cycle: %q", len(stmts), stmts)
	}
	for _, q := range stmts {
		if !strings.Contains(string(page), "`"+q+"`") && !strings.Contains(string(page), "'"+q+"'") {
			t.Errorf("web/bench/sqlite.js does not run the engine's statement verbatim:\n%s", q)
		}
	}
}
