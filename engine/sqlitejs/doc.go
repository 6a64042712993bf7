// Package sqlitejs is a database/sql driver, for GOOS=js, over SQLite's
// official WebAssembly build (clang-compiled, npm @sqlite.org/sqlite-wasm)
// running beside the Go module in the same JavaScript thread. It reaches
// SQLite through the bridge web/sqlite-bridge.js installs as
// globalThis.leaselabSQLite; the page's engine worker and make wasm-test's
// Node runner install it before the Go program starts.
//
// Why: the engine's Go module then holds no SQLite of its own. SQLite
// translated to Go and compiled by Go's WebAssembly backend made the module
// six times larger and its hot functions several times costlier for V8 to
// compile than clang's build of the same C (see issue 15 and make bench).
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
//   - integers are exact over all of int64 (beyond 2^53 they cross as
//     decimal text), TEXT is string, BLOB []byte, REAL float64, NULL nil.
//
// On other platforms the package is empty.
package sqlitejs
