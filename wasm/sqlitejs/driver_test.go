//go:build js

package sqlitejs_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"strings"
	"syscall/js"
	"testing"
	"time"

	"github.com/leaselab/leaselab/wasm/sqlitejs"
)

// open opens a pool on a memory database of this test's own.
func open(t *testing.T, busy time.Duration) *sql.DB {
	t.Helper()
	db := sql.OpenDB(&sqlitejs.Connector{
		Filename:    "file:/" + strings.ReplaceAll(t.Name(), "/", "_") + "?vfs=memdb",
		BusyTimeout: busy,
	})
	t.Cleanup(func() { db.Close() })
	if err := db.Ping(); err != nil {
		t.Fatal(err)
	}
	return db
}

// untilBlocked runs f in a goroutine and returns once f blocks (GOOS=js has
// one thread: the caller goes on only then; here, once f waits out a lock),
// with a channel that gets f's error.
func untilBlocked(f func() error) <-chan error {
	started := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		close(started)
		done <- f()
	}()
	<-started
	return done
}

// Integers cross the bridge exactly over all of int64: at, below and above
// 2^53, where a JavaScript number stops being exact, both as arguments and
// as results, and through arithmetic SQLite does itself.
func TestDriver_IntegersAreExactOverInt64(t *testing.T) {
	db := open(t, 0)
	const safe = 1<<53 - 1
	for _, v := range []int64{0, 1, -1, safe - 1, safe, safe + 1, safe + 2, -safe - 1, -safe, -safe + 1,
		1 << 62, math.MaxInt64 - 1, math.MaxInt64, math.MinInt64, math.MinInt64 + 1} {
		var got, typ int64
		var kind string
		if err := db.QueryRow(`SELECT ?, typeof(?), ? - 0`, v, v, v).Scan(&got, &kind, &typ); err != nil {
			t.Fatalf("%d: %v", v, err)
		}
		if got != v || typ != v || kind != "integer" {
			t.Errorf("%d: got %d (%s), %d after arithmetic", v, got, kind, typ)
		}
	}
	var max int64
	if err := db.QueryRow(`SELECT 9223372036854775807`).Scan(&max); err != nil || max != math.MaxInt64 {
		t.Errorf("a literal MaxInt64: %d, %v", max, err)
	}
}

// Each storage class comes back as the native driver gives it: TEXT as a
// string (any Unicode, and an embedded NUL), BLOB as bytes, REAL as a float
// (also an integral one), NULL as nil; a bool goes in as 0 or 1.
func TestDriver_StorageClassesRoundTrip(t *testing.T) {
	db := open(t, 0)
	if _, err := db.Exec(`CREATE TABLE v (t TEXT, b BLOB, r REAL, n INTEGER, f INTEGER)`); err != nil {
		t.Fatal(err)
	}
	text := "lease ☂ 리스 \x00 end"
	blob := []byte{0, 1, 2, 255}
	if _, err := db.Exec(`INSERT INTO v VALUES (?, ?, ?, ?, ?)`, text, blob, 2.0, nil, true); err != nil {
		t.Fatal(err)
	}
	var got struct {
		t string
		b []byte
		r any
		n any
		f int
	}
	if err := db.QueryRow(`SELECT t, b, r, n, f FROM v`).Scan(&got.t, &got.b, &got.r, &got.n, &got.f); err != nil {
		t.Fatal(err)
	}
	if got.t != text || string(got.b) != string(blob) || got.r != 2.0 || got.n != nil || got.f != 1 {
		t.Errorf("got %q %v %#v %#v %d", got.t, got.b, got.r, got.n, got.f)
	}
	if _, ok := got.r.(float64); !ok {
		t.Errorf("REAL 2.0 came back as %T, not float64", got.r)
	}
}

// A statement is refused, not guessed at, when its arguments do not fit:
// a named argument, a type the driver does not map, the wrong count.
func TestDriver_RefusesArgumentsItCannotBind(t *testing.T) {
	db := open(t, 0)
	for name, args := range map[string][]any{
		"named":     {sql.Named("a", 1)},
		"a struct":  {struct{}{}},
		"too few":   {},
		"too many":  {1, 2},
		"a channel": {make(chan int)},
	} {
		var n int
		if err := db.QueryRow(`SELECT ?`, args...).Scan(&n); err == nil {
			t.Errorf("%s: accepted, gave %d", name, n)
		}
	}
	var n int
	if err := db.QueryRow(`SELECT ?`, 7).Scan(&n); err != nil || n != 7 {
		t.Errorf("after the refusals: %d, %v", n, err)
	}
}

// SQLite's failures read as the native driver's: its text for the code,
// then the message, and the extended code on the *Error.
func TestDriver_ErrorsReadAsNatively(t *testing.T) {
	db := open(t, 0)
	if _, err := db.Exec(`CREATE TABLE t (a INTEGER PRIMARY KEY); INSERT INTO t VALUES (1)`); err != nil {
		t.Fatal(err)
	}
	_, err := db.Exec(`INSERT INTO t VALUES (?)`, 1)
	var e *sqlitejs.Error
	if !errors.As(err, &e) || e.Code != 1555 { // SQLITE_CONSTRAINT_PRIMARYKEY
		t.Fatalf("duplicate key: %v (%#v)", err, e)
	}
	if want := "sqlite3: constraint failed: UNIQUE constraint failed: t.a"; err.Error() != want {
		t.Errorf("got %q, want %q", err, want)
	}
	if _, err := db.Exec(`SELEC 1`); err == nil || err.Error() != `sqlite3: SQL logic error: near "SELEC": syntax error` {
		t.Errorf("syntax error: %v", err)
	}
	if _, err := db.Prepare(`SELEC ?`); err == nil || err.Error() != `sqlite3: SQL logic error: near "SELEC": syntax error` {
		t.Errorf("syntax error, prepared: %v", err)
	}
	// A prepared statement knows its parameters: database/sql refuses the
	// wrong count before it runs, and runs the right one.
	st, err := db.Prepare(`SELECT ? + ?`)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var n int
	if err := st.QueryRow(1).Scan(&n); err == nil || !strings.Contains(err.Error(), "expected 2 arguments, got 1") {
		t.Errorf("one argument of two: %v", err)
	}
	if err := st.QueryRow(1, 2).Scan(&n); err != nil || n != 3 {
		t.Errorf("two arguments: %d, %v", n, err)
	}
}

// Exec without arguments runs every statement of its text; the SQL texts a
// connection keeps prepared are bounded, and evicting one changes nothing
// a caller sees.
func TestDriver_ExecRunsEveryStatementAndTheCacheEvicts(t *testing.T) {
	db := open(t, 0)
	db.SetMaxOpenConns(1)
	res, err := db.Exec(`CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1); INSERT INTO t VALUES (2), (3)`)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := res.RowsAffected(); n != 2 {
		t.Errorf("rows affected by the last statement: %d, want 2", n)
	}
	for round := range 3 {
		for i := range 100 { // more distinct texts than the bridge keeps
			var got int
			q := fmt.Sprintf(`SELECT count(*) + %d FROM t WHERE a > ?`, i)
			if err := db.QueryRow(q, round).Scan(&got); err != nil || got != i+3-round {
				t.Fatalf("round %d, %d: %d, %v", round, i, got, err)
			}
		}
	}
	res, err = db.Exec(`INSERT INTO t VALUES (?)`, 4)
	if err != nil {
		t.Fatal(err)
	}
	if id, _ := res.LastInsertId(); id != 4 {
		t.Errorf("last insert rowid %d, want 4", id)
	}
}

// A write meeting another connection's write lock waits until that one
// commits, and then succeeds; with the lock held past the busy timeout it
// fails with SQLITE_BUSY, and the connection stays usable.
func TestDriver_BusyIsWaitedOutUpToTheTimeout(t *testing.T) {
	ctx := context.Background()
	db := open(t, 200*time.Millisecond)
	if _, err := db.Exec(`CREATE TABLE t (a INTEGER)`); err != nil {
		t.Fatal(err)
	}
	holder, err := db.BeginTx(ctx, nil) // BEGIN IMMEDIATE: the write lock
	if err != nil {
		t.Fatal(err)
	}
	done := untilBlocked(func() error {
		_, err := db.Exec(`INSERT INTO t VALUES (?)`, 1) // another connection
		return err
	})
	if _, err := holder.Exec(`INSERT INTO t VALUES (?)`, 0); err != nil {
		t.Fatal(err)
	}
	if err := holder.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("the waiting write: %v", err)
	}

	holder, err = db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = db.Exec(`INSERT INTO t VALUES (?)`, 2)
	var e *sqlitejs.Error
	if !errors.As(err, &e) || e.Code&0xff != 5 {
		t.Fatalf("past the busy timeout: %v, want SQLITE_BUSY", err)
	}
	if err := holder.Rollback(); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM t`).Scan(&n); err != nil || n != 2 {
		t.Fatalf("rows: %d, %v; want 2", n, err)
	}
}

// An Exec of several statements that meets another connection's lock at
// its second statement waits, then runs from that statement: the first
// one (a write to the connection's own TEMP database, which needs no shared
// lock) ran once, not once per attempt.
func TestDriver_ExecWaitsOutBusyFromTheStatementThatMetIt(t *testing.T) {
	ctx := context.Background()
	db := open(t, 2*time.Second)
	if _, err := db.Exec(`CREATE TABLE t (a INTEGER)`); err != nil {
		t.Fatal(err)
	}
	c, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.ExecContext(ctx, `CREATE TEMP TABLE attempts (n INTEGER)`); err != nil {
		t.Fatal(err)
	}
	holder, err := db.BeginTx(ctx, nil) // another connection takes the write lock
	if err != nil {
		t.Fatal(err)
	}
	done := untilBlocked(func() error {
		_, err := c.ExecContext(ctx, `INSERT INTO temp.attempts VALUES (1); INSERT INTO main.t VALUES (7)`)
		return err
	})
	if err := holder.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	var attempts, rows int
	if err := c.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM temp.attempts), (SELECT count(*) FROM main.t)`).Scan(&attempts, &rows); err != nil {
		t.Fatal(err)
	}
	if attempts != 1 || rows != 1 {
		t.Errorf("the first statement ran %d times, the second wrote %d rows; want 1 and 1", attempts, rows)
	}
}

// Without the bridge (no SQLite loaded before the Go program), opening
// says so.
func TestDriver_WithoutTheBridgeOpeningSaysSo(t *testing.T) {
	g := js.Global()
	saved := g.Get("leaselabSQLite")
	g.Delete("leaselabSQLite")
	defer g.Set("leaselabSQLite", saved)
	db := sql.OpenDB(&sqlitejs.Connector{Filename: ":memory:"})
	defer db.Close()
	if err := db.Ping(); !errors.Is(err, sqlitejs.ErrNoBridge) {
		t.Fatalf("got %v, want ErrNoBridge", err)
	}
}

// An *Error is its primary result code and its extended one for
// errors.Is, as natively, and no other code.
func TestError_IsItsPrimaryAndExtendedCode(t *testing.T) {
	busySnapshot := &sqlitejs.Error{Code: 517, Message: "database is locked"}
	wrapped := fmt.Errorf("engine: %w", busySnapshot)
	for _, c := range []struct {
		target error
		want   bool
	}{
		{sqlitejs.BUSY, true},
		{sqlitejs.ErrorCode(517), true},
		{sqlitejs.ErrorCode(261), false},
		{sqlitejs.LOCKED, false},
		{sqlitejs.ErrorCode(4), false},
		{errors.New("database is locked"), false},
	} {
		if got := errors.Is(wrapped, c.target); got != c.want {
			t.Errorf("errors.Is(SQLITE_BUSY_SNAPSHOT, %v) = %v, want %v", c.target, got, c.want)
		}
	}
	_, err := open(t, 0).Exec(`INSERT INTO nowhere VALUES (1)`)
	if !errors.Is(err, sqlitejs.ERROR) || errors.Is(err, sqlitejs.BUSY) {
		t.Errorf("a missing table: %v is not SQLITE_ERROR alone", err)
	}
}

// A read-only transaction that the caller's own ROLLBACK (or COMMIT) ended
// early leaves its connection writable once Commit or Rollback reports
// that no transaction is open: the pool's one connection takes writes
// again (natively it stays read-only).
func TestDriver_AReadOnlyTransactionEndedEarlyLeavesItsConnectionWritable(t *testing.T) {
	ctx := context.Background()
	db := open(t, 0)
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(`CREATE TABLE t (a INTEGER)`); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ inside, end string }{
		{"", "Commit"},
		{"ROLLBACK", "Commit"},
		{"ROLLBACK", "Rollback"},
		{"COMMIT", "Commit"},
		{"COMMIT", "Rollback"},
	} {
		tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		if c.inside != "" {
			if _, err := tx.Exec(c.inside); err != nil {
				t.Fatal(err)
			}
		}
		if c.end == "Commit" {
			err = tx.Commit()
		} else {
			err = tx.Rollback()
		}
		if (c.inside == "") != (err == nil) {
			t.Errorf("%s inside, then %s: %v", c.inside, c.end, err)
		}
		if _, err := db.Exec(`INSERT INTO t VALUES (?)`, 1); err != nil {
			t.Errorf("%s inside, then %s: a write after it: %v", c.inside, c.end, err)
		}
	}
}
