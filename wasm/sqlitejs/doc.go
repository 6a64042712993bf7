// Package sqlitejs is a database/sql driver, for GOOS=js, over SQLite
// compiled to WebAssembly by clang (sqlite3.wasm, built for the engine from
// wasm/sqlite) running beside the Go module in the same JavaScript thread. It reaches SQLite through globalThis.leaselabSQLite,
// which web/sqlite-bridge.js defines when it loads that module; the page's
// engine worker and make wasm-test's Node runner (wasm/node/run.mjs) load it
// before the Go program starts.
//
// Why: the engine's Go module then holds no SQLite of its own, and V8
// compiles clang's much smaller functions instead of one SQLite translated
// to Go; the engine's own build leaves out what the engine never uses (see
// engine/DECISIONS.md, "SQLite beside the Go module, built by clang"; make
// bench measures the sizes).
//
// The contract is github.com/ncruces/go-sqlite3/driver's, as the engine
// opens it natively (engine/sqlitedb), held by one conformance suite that
// both drivers pass (engine/drivertest); where this driver cannot
// do what the native one does, it refuses with an error:
//   - a statement runs to its end inside one call into JavaScript, so no
//     other goroutine runs in between and no read holds a lock across a
//     goroutine switch; Query's rows are read whole (so a context cancelled
//     during a statement stops it only before it starts, or while it waits
//     out a lock);
//   - SQL text of more than one statement runs whole from an Exec without
//     arguments, and is refused (ErrMultipleStatements) by Query, Prepare
//     and an Exec with arguments;
//   - SQL text that is not UTF-8 is refused (ErrNotUTF8): it crosses as a
//     JavaScript string, which would turn its other bytes into U+FFFD;
//   - SQLITE_BUSY is waited out in Go (time.Sleep, which lets the goroutine
//     that holds the lock run) up to the connector's busy timeout, then
//     returned as an *Error with Code 5 (errors.Is(err, BUSY)); one SQLite
//     returns to break a deadlock (it asks no busy handler) is returned at
//     once, as natively;
//   - transactions are BEGIN IMMEDIATE at sql.LevelDefault (BEGIN when
//     read-only) and sql.LevelSerializable, BEGIN EXCLUSIVE at
//     sql.LevelLinearizable, and any other level is refused (ErrIsolation);
//     a read-only one refuses writes (PRAGMA query_only);
//   - a COMMIT that fails and leaves the transaction open is rolled back; a
//     connection whose transaction stays open even so is discarded by the
//     pool (ResetSession, IsValid);
//   - integers are exact over all of int64 (LastInsertId and RowsAffected
//     too), TEXT is string, BLOB []byte, REAL float64, NULL nil, a
//     time.Time goes in as time.RFC3339Nano text and such text comes back
//     a time.Time (wire.go says how, and what is refused): arguments and
//     answers cross as bytes in a buffer the bridge owns, of any size,
//     never as JavaScript values.
//
// On other platforms the package is empty.
//
// It is the page's driver, not a library: public only because the
// engine's browser build outside wasm/ opens it, it carries no
// compatibility promise and may change with the page in any release.
package sqlitejs
