//go:build js

package sqlitejs

import "errors"

// Error is a failure SQLite reported: its extended result code and message.
type Error struct {
	Code    int
	Message string
}

// codeBusy is SQLITE_BUSY, the primary result code the driver waits out.
const codeBusy = 5

func (e *Error) Error() string { return "sqlite3: " + e.Message }

// ErrNoBridge reports that globalThis.leaselabSQLite is missing: the page or
// runner did not load SQLite's WebAssembly build before the Go program.
var ErrNoBridge = errors.New("sqlitejs: SQLite is not loaded (globalThis.leaselabSQLite is missing; see web/sqlite-bridge.js)")

// ErrClosed reports a call on a closed connection or statement.
var ErrClosed = errors.New("sqlitejs: closed")
