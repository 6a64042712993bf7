package engine

import (
	"context"
	"database/sql"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/leaselab/leaselab/engine/sqlitedb"
)

// Every statement the store runs on the jobs table, on the direct path and
// on the read-then-write path, opens no ephemeral table but the one its
// RETURNING clause gathers its rows in. SQLite opens one (a b-tree of its
// own, built and freed on every execution) for a constant IN list of more
// than two terms, wherever it is evaluated: in a WHERE, and in a CHECK that
// an INSERT or an UPDATE of that column evaluates. The jobs table's CHECK on
// status once held such a list, and opening and freeing its table was an
// eighth of the memdb job cycle (make bench). EXPLAIN shows each such table
// as OpenEphemeral.
func TestJobStatements_OpenNoEphemeralTable(t *testing.T) {
	db, texts := statementsOf(t, func(s *Store, prefix string) { everyOperation(t, s, prefix) })
	checked := 0
	for _, q := range texts {
		switch q {
		case "BEGIN IMMEDIATE", "COMMIT", "ROLLBACK":
			continue
		}
		checked++
		allowed := 0
		if strings.Contains(q, "RETURNING") {
			allowed = 1 // the table RETURNING gathers its rows in
		}
		ops := opcodes(t, db, q)
		if n := count(ops, "OpenEphemeral"); n > allowed {
			t.Errorf("opens %d ephemeral tables on every execution (at most %d):\n%s", n, allowed, q)
		}
	}
	// The direct path's four grants and the enqueue, and the read-then-write
	// path's reads and writes: far more than a handful of statements.
	if checked < 10 {
		t.Fatalf("checked %d statements: the store ran fewer than it should have: %q", checked, texts)
	}
}

// statementsOf runs ops on two stores over one fresh in-memory database,
// one on the direct path and one with an observer (the read-then-write
// path), each with a prefix of its own for its job ids, and returns the
// database and every statement text either store ran, sorted, once each.
func statementsOf(t *testing.T, ops func(s *Store, prefix string)) (*sql.DB, []string) {
	t.Helper()
	ctx := context.Background()
	db, err := sqlitedb.Memory(t.Name())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })

	var (
		mu       sync.Mutex // ClaimMany's claims run at once
		observed []string
	)
	watched, err := New(ctx, db, WithObserver(func(st Statement) {
		mu.Lock()
		defer mu.Unlock()
		observed = append(observed, st.SQL)
	}))
	if err != nil {
		t.Fatal(err)
	}
	direct, err := New(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range []*Store{direct, watched} {
		ops(s, string(rune('a'+i)))
	}
	texts := slices.Clone(observed)
	direct.stmts.Range(func(q, _ any) bool { texts = append(texts, q.(string)); return true })
	slices.Sort(texts)
	return db, slices.Compact(texts)
}

// everyOperation runs each of the store's operations once on jobs named
// with prefix: enqueue, claim by id, claim next, renew, release, complete, a
// refused stale complete, a quarantine and a claim_many.
func everyOperation(t *testing.T, s *Store, prefix string) {
	t.Helper()
	ctx := context.Background()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	a, b, q := prefix+"-a", prefix+"-b", prefix+"-q"
	for _, j := range []NewJob{{ID: a}, {ID: b}, {ID: q, MaxAttempts: 1}} {
		ok, err := s.Enqueue(ctx, j)
		must(err)
		if !ok {
			t.Fatalf("enqueue %s: not taken", j.ID)
		}
	}
	l, err := s.Claim(ctx, a, "w1", 0, 10)
	must(err)
	l, err = s.Renew(ctx, l, 5, 10)
	must(err)
	must(s.Release(ctx, l))
	l, err = s.ClaimNext(ctx, "w2", 6, 10)
	must(err)
	must(s.Complete(ctx, l, 7, "ok"))
	if err := s.Complete(ctx, l, 8, "again"); err == nil {
		t.Fatal("a second complete of a done job was taken")
	}
	ql, err := s.Claim(ctx, q, "w1", 0, 10)
	must(err)
	if _, err := s.Claim(ctx, q, "w2", ql.LeaseUntil, 10); err == nil {
		t.Fatal("a claim past max_attempts was taken")
	}
	if _, err := s.ClaimMany(ctx, b, []string{"w1", "w2"}, 20, 10); err != nil {
		t.Fatal(err)
	}
}

// count is how many of ops are op.
func count(ops []string, op string) int {
	n := 0
	for _, o := range ops {
		if o == op {
			n++
		}
	}
	return n
}

// opcodes is the program SQLite compiles query to, opcode by opcode. Its
// parameters are bound to NULL (the store's texts hold no '?' but theirs).
func opcodes(t *testing.T, db *sql.DB, query string) []string {
	t.Helper()
	rows, err := db.Query("EXPLAIN "+query, make([]any, strings.Count(query, "?"))...)
	if err != nil {
		t.Fatalf("EXPLAIN %s: %v", query, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil || len(cols) < 2 || !strings.EqualFold(cols[1], "opcode") {
		t.Fatalf("EXPLAIN %s: columns %q, %v", query, cols, err)
	}
	var ops []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		op, _ := vals[1].(string)
		ops = append(ops, op)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(ops, "Init") { // every program starts with Init
		t.Fatalf("EXPLAIN %s: no program read (opcodes %q)", query, ops)
	}
	return ops
}
