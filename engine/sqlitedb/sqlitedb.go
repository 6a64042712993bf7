// Package sqlitedb opens the SQLite databases the engine runs on: natively
// through github.com/ncruces/go-sqlite3 (pure Go), and under GOOS=js through
// wasm/sqlitejs, SQLite in WebAssembly (wasm/sqlite) beside the Go module
// (files are native only there: Open reports ErrNoFiles).
//
// Open opens a file with a rollback journal and every commit synced;
// OpenWith takes WAL and a pool size for a service that needs more commits
// a second (Options has the measured figures); Memory opens a shared
// in-memory database for tests. Each returns a *sql.DB ready for
// engine.New; the engine runs as well on any other *sql.DB of SQLite.
//
// Natively, both openers put busy_timeout first in the DSN: SQLite applies
// DSN pragmas in order, and a new pool connection that meets a held write
// lock before its busy timeout is set fails at once with "database is
// locked".
//
// Write transactions are BEGIN IMMEDIATE (the driver's default _txlock); the
// engine additionally asks for serializable isolation, which this driver maps
// to IMMEDIATE whatever _txlock says.
package sqlitedb

import (
	"database/sql"
	"errors"
	"strings"
	"time"
)

// BusyTimeoutMillis is how long a connection waits for another one's write
// lock before it gives up with SQLITE_BUSY.
const BusyTimeoutMillis = 10000

// MemoryPageSize is the page size, in bytes, of the databases Memory opens.
const MemoryPageSize = 4096

// ErrName reports a database name or path the openers refuse.
var ErrName = errors.New("sqlitedb: invalid database name")

// ErrNoFiles reports a file database asked of the GOOS=js build, which has
// memory databases only.
var ErrNoFiles = errors.New("sqlitedb: file databases are native only; GOOS=js has memory databases (Memory)")

// Options are how OpenWith opens a file database; the zero value is Open's.
//
// Measured with make bench's BenchmarkFileJournal (one goroutine; enqueue,
// claim, complete on a file; two 2 s runs on a 2-core machine): the
// default, a rollback journal with synchronous=FULL, ran 335 and 483 cycles
// a second; WAL with synchronous=NORMAL 13,458 and 13,817, about 30 times
// more, since it syncs only at a checkpoint; WAL with Durable 3,023 and
// 3,046. The engine keeps its contract on both: every operation is
// one short BEGIN IMMEDIATE transaction, and WAL changes only how a commit
// reaches the disk.
type Options struct {
	// WAL selects journal_mode=WAL, with synchronous=NORMAL: a commit
	// survives the process crashing, and the last commits before a power
	// loss may be rolled back (never half-applied). The database is then
	// three files (-wal and -shm beside it) and every process must reach
	// it through one machine's shared memory (no network file systems).
	WAL bool
	// Durable keeps synchronous=FULL under WAL: each commit survives power
	// loss too, at a sync per commit. Without WAL it changes nothing (FULL
	// is already Open's).
	Durable bool
	// MaxOpenConns caps the connections of the pool (sql.DB's
	// SetMaxOpenConns); 0 leaves database/sql's default, no cap. SQLite
	// runs one writer at a time whatever the pool: a cap bounds the
	// connections waiting on the write lock (each waits up to
	// the busy timeout) and the memory they hold.
	MaxOpenConns int
	// BusyTimeout is how long a connection waits for another one's lock
	// before it gives up with SQLITE_BUSY, in whole milliseconds; under
	// 1 ms is BusyTimeoutMillis.
	BusyTimeout time.Duration
}

// validPath reports whether the openers accept path as a file name.
func validPath(path string) bool { return path != "" && !strings.ContainsRune(path, 0) }

// validName reports whether Memory accepts name.
func validName(name string) bool { return name != "" && !strings.ContainsAny(name, "/?#\x00") }

// pinged returns db once a connection to it opens, or the error that kept it
// from opening (db closed).
func pinged(db *sql.DB, err error) (*sql.DB, error) {
	if err != nil {
		return nil, err
	}
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}
