//go:build js

package sqlitejs

import (
	"errors"
	"strconv"
)

// Error is a failure SQLite reported: its extended result code and message.
// errors.Is(err, code) holds for its ErrorCode, primary or extended
// (errors.Is(err, sqlitejs.BUSY)), as natively for sqlite3.ErrorCode.
type Error struct {
	Code    int
	Message string
}

func (e *Error) Error() string { return "sqlite3: " + e.Message }

// Is reports whether target is e's result code: its extended code, or its
// primary one.
func (e *Error) Is(target error) bool {
	c, ok := target.(ErrorCode)
	return ok && (int(c) == e.Code || int(c) == e.Code&0xff)
}

// ErrorCode is an SQLite result code, for errors.Is.
type ErrorCode int

// The result codes a caller of the engine tells apart.
const (
	ERROR      ErrorCode = 1
	BUSY       ErrorCode = 5
	LOCKED     ErrorCode = 6
	READONLY   ErrorCode = 8
	INTERRUPT  ErrorCode = 9
	FULL       ErrorCode = 13
	CONSTRAINT ErrorCode = 19
)

func (c ErrorCode) Error() string { return "sqlite3: result code " + strconv.Itoa(int(c)) }

// codeBusy is SQLITE_BUSY, the primary result code the driver waits out.
const codeBusy = int(BUSY)

// codeTail is the bridge's result code for SQL text of more than one
// statement where one is taken.
const codeTail = -1

// ErrNoBridge reports that globalThis.leaselabSQLite is missing: the page or
// runner did not load SQLite's WebAssembly build before the Go program.
var ErrNoBridge = errors.New("sqlitejs: SQLite is not loaded (globalThis.leaselabSQLite is missing; see web/sqlite-bridge.js)")

// ErrClosed reports a call on a closed connection or statement.
var ErrClosed = errors.New("sqlitejs: closed")

// ErrMultipleStatements refuses SQL text of more than one statement given
// with arguments, to Query, or to Prepare (an Exec without arguments runs
// them all), in the native driver's words.
var ErrMultipleStatements = errors.New("sqlite3: multiple statements")

// ErrNotUTF8 refuses SQL text that is not UTF-8: it reaches SQLite as a
// JavaScript string, which holds only Unicode, so its other bytes would
// reach it as U+FFFD instead (natively they run as they are). Arguments
// cross as bytes: text that is not UTF-8 is bound as it is.
var ErrNotUTF8 = errors.New("sqlitejs: SQL text is not UTF-8")

// ErrIsolation refuses an isolation level SQLite cannot give, in the native
// driver's words: transactions are serializable; sql.LevelDefault and
// sql.LevelSerializable begin IMMEDIATE (deferred when read-only at the
// default level), sql.LevelLinearizable EXCLUSIVE.
var ErrIsolation = errors.New("sqlite3: unsupported isolation level")
