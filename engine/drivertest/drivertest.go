// Package drivertest is the contract of the engine's SQLite drivers, as
// database/sql shows it: one conformance suite that both builds pass the
// same way, natively on github.com/ncruces/go-sqlite3 (from this
// package's tests) and under GOOS=js on wasm/sqlitejs, SQLite in
// WebAssembly (from its tests, under Node). Where the browser's driver
// cannot do what the native one does, the suite holds it to refusing with
// an error, never to doing something else silently. Another driver a
// service wants the engine on (another SQLite build, a proxy) passes Run to
// show that it keeps what the engine relies on.
//
// The suite covers: SQL text of one statement and of several, SQL text
// that is not UTF-8 or holds a NUL byte, every storage class at its limits
// (int64's extremes and JavaScript's 2^53, floats, text with NUL and any
// UTF-8, blobs, NULL), time.Time as the native driver stores it, BOOLEAN
// columns, a query's columns after the schema changed, LastInsertId and
// RowsAffected, read-only transactions and isolation levels, SQLITE_BUSY
// waited out, past its timeout and breaking a deadlock, a COMMIT that
// fails, a cancelled context, and prepared statements reused and closed.
package drivertest

import (
	"database/sql"
	"strings"
	"testing"
	"time"
)

// Driver is the build under test.
type Driver struct {
	// Open opens a pool on the in-memory database called name, which every
	// pool opened with that name shares; its connections wait out another
	// one's lock up to busy, and begin write transactions IMMEDIATE.
	Open func(t testing.TB, name string, busy time.Duration) *sql.DB
	// Code is the extended result code of the SQLite failure err wraps, 0
	// when err is none.
	Code func(err error) int
}

// SQLite's result codes the suite expects.
const (
	codeBusy              = 5
	codeReadOnly          = 8
	codeForeignKeyOnClose = 787 // SQLITE_CONSTRAINT_FOREIGNKEY
)

// Run runs the suite on d, each part a subtest.
func Run(t *testing.T, d Driver) {
	for _, c := range []struct {
		name string
		run  func(t *testing.T, d Driver)
	}{
		{"StatementsAndTails", statementsAndTails},
		{"SQLTextRunsAsItIsOrIsRefused", sqlTextAsItIs},
		{"SQLTextEndsAtItsFirstNUL", sqlTextEndsAtNUL},
		{"IntegersAreExactOverInt64", integersAreExact},
		{"LastInsertIdAndRowsAffected", lastInsertIDAndRowsAffected},
		{"FloatsTextBlobsAndNulls", floatsTextBlobsAndNulls},
		{"TimeIsStoredAsRFC3339Nano", timeAsRFC3339Nano},
		{"DeclaredTypesAreReadAsNatively", declaredTypes},
		{"ColumnsFollowTheSchema", columnsFollowTheSchema},
		{"ReadOnlyTransactionsRefuseWrites", readOnlyTransactions},
		{"IsolationLevels", isolationLevels},
		{"BusyIsWaitedOutThenReported", busyWaitedOutThenReported},
		{"BusyThatBreaksADeadlockIsReportedAtOnce", busyDeadlock},
		{"FailedCommitLosesNothingAndPoisonsNothing", failedCommit},
		{"CancelledContext", cancelledContext},
		{"PreparedStatementsAreReusedAndClosed", preparedStatements},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t, d) })
	}
}

// name is a database name of t's own.
func name(t testing.TB, suffix string) string {
	return "drivertest-" + strings.NewReplacer("/", "_", " ", "_").Replace(t.Name()) + suffix
}

// open opens a one-connection pool on a database of t's own.
func (d Driver) open(t testing.TB, busy time.Duration) *sql.DB {
	t.Helper()
	db := d.Open(t, name(t, ""), busy)
	db.SetMaxOpenConns(1)
	return db
}

// exec runs statements on db, failing t on the first error.
func exec(t testing.TB, db *sql.DB, stmts ...string) {
	t.Helper()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// count is the number of rows of table.
func count(t testing.TB, db *sql.DB, table string) int {
	t.Helper()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM ` + table).Scan(&n); err != nil {
		t.Fatalf("count %s: %v", table, err)
	}
	return n
}
