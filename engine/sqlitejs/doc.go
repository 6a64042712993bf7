// Package sqlitejs is a database/sql driver, for GOOS=js, over SQLite
// compiled to WebAssembly by clang (sqlite3.wasm, built for the engine from
// wasm/sqlite) running beside the Go module in the same JavaScript thread. It reaches SQLite through globalThis.leaselabSQLite,
// which web/sqlite-bridge.js defines when it loads that module; the page's
// engine worker and make wasm-test's Node runner (wasm/node/run.mjs) load it
// before the Go program starts.
//
// Why: the engine's Go module then holds no SQLite of its own. With SQLite
// translated to Go (wasm2go) and compiled by Go's WebAssembly backend, the
// page's module was 10.0 MB (1.96 MB brotli) and V8 spent 518 ms compiling
// its sqlite3_step alone; without it the module is 5.6 MB (1.12 MB), and
// clang's sqlite3.wasm adds 0.88 MB (0.35 MB) of much smaller functions as
// SQLite's official build, 0.53 MB (0.22 MB) as the engine's own, which
// leaves out what the engine never uses (issue 15; make bench measures it).
//
// The contract, as github.com/ncruces/go-sqlite3/driver gives it natively:
//   - a statement runs to its end inside one call into JavaScript, so no
//     other goroutine runs in between and no read holds a lock across a
//     goroutine switch; Query's rows are read whole;
//   - SQLITE_BUSY is waited out in Go (time.Sleep, which lets the goroutine
//     that holds the lock run) up to the connector's busy timeout, then
//     returned as an *Error with Code 5;
//   - transactions are BEGIN IMMEDIATE (BEGIN for read-only ones), whatever
//     isolation level is asked, as the native driver's _txlock=immediate;
//   - integers are exact over all of int64, TEXT is string, BLOB []byte,
//     REAL float64, NULL nil: arguments and answers cross as bytes in a
//     buffer the bridge owns (wire.go), of any size, never as JavaScript
//     values.
//
// On other platforms the package is empty.
package sqlitejs
