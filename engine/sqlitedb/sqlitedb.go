// Package sqlitedb opens the SQLite databases the engine runs on, through
// github.com/ncruces/go-sqlite3 (pure Go; the same code builds natively and
// for GOOS=js).
//
// Both openers put busy_timeout first in the DSN: SQLite applies DSN pragmas
// in order, and a new pool connection that meets a held write lock before its
// busy timeout is set fails at once with "database is locked".
//
// Write transactions are BEGIN IMMEDIATE (the driver's default _txlock); the
// engine additionally asks for serializable isolation, which this driver maps
// to IMMEDIATE whatever _txlock says.
package sqlitedb

import (
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strings"

	_ "github.com/ncruces/go-sqlite3/driver" // registers "sqlite3"
	_ "github.com/ncruces/go-sqlite3/vfs/memdb"
)

// BusyTimeoutMillis is how long a connection waits for another one's write
// lock before it gives up with SQLITE_BUSY.
const BusyTimeoutMillis = 10000

// MemoryPageSize is the page size, in bytes, of the databases Memory opens.
const MemoryPageSize = 4096

// ErrName reports a database name or path the openers refuse.
var ErrName = errors.New("sqlitedb: invalid database name")

// Open opens (creating if missing) the SQLite file at path with a busy
// timeout, a rollback journal (journal_mode=DELETE, not WAL: a work queue has
// no long readers to protect, and the seeds ask for it), synchronous=FULL and
// BEGIN IMMEDIATE write transactions.
func Open(path string) (*sql.DB, error) {
	if path == "" || strings.ContainsRune(path, 0) {
		return nil, fmt.Errorf("%w: %q", ErrName, path)
	}
	u := url.URL{Scheme: "file", Path: path, OmitHost: true}
	if !strings.HasPrefix(path, "/") {
		u = url.URL{Scheme: "file", Opaque: (&url.URL{Path: path}).EscapedPath()}
	}
	dsn := u.String() + "?" + pragmas(
		fmt.Sprintf("busy_timeout(%d)", BusyTimeoutMillis),
		"journal_mode(DELETE)",
		"synchronous(FULL)",
		"foreign_keys(1)",
	) + "&_txlock=immediate"
	db, err := sql.Open("sqlite3", dsn)
	if err != nil {
		return nil, err
	}
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// Memory opens the shared in-memory database called name (vfs=memdb): every
// connection of the returned pool, and every other pool opened with the same
// name in this process, sees the same database. It lives while any
// connection to it is open. memdb keeps its own journal mode (it cannot use
// DELETE).
//
// Its pages are 4096 bytes (MemoryPageSize), SQLite's default for files,
// where memdb's own default is 8192: every write transaction copies each page
// it changes into the memory journal first, and a job's row is small, so
// halving the page halves that copy (make bench: the memdb cycle went from
// about 31,000 to 37,000 a second). The first connection sets it, before the
// database has a table; later ones find it set.
func Memory(name string) (*sql.DB, error) {
	if name == "" || strings.ContainsAny(name, "/?#\x00") {
		return nil, fmt.Errorf("%w: %q", ErrName, name)
	}
	dsn := "file:/" + url.PathEscape(name) + "?vfs=memdb&" + pragmas(
		fmt.Sprintf("busy_timeout(%d)", BusyTimeoutMillis),
		fmt.Sprintf("page_size(%d)", MemoryPageSize),
	) + "&_txlock=immediate"
	db, err := sql.Open("sqlite3", dsn)
	if err != nil {
		return nil, err
	}
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

func pragmas(ps ...string) string {
	q := make([]string, len(ps))
	for i, p := range ps {
		q[i] = "_pragma=" + url.QueryEscape(p)
	}
	return strings.Join(q, "&")
}
