//go:build !js

package sqlitedb

import (
	"database/sql"
	"fmt"
	"net/url"
	"strings"

	_ "github.com/ncruces/go-sqlite3/driver" // registers "sqlite3"
	_ "github.com/ncruces/go-sqlite3/vfs/memdb"
)

// Open opens (creating if missing) the SQLite file at path with a busy
// timeout, a rollback journal (journal_mode=DELETE: the database stays one
// file, with no -wal or -shm file beside it), synchronous=FULL (every
// commit survives power loss) and BEGIN IMMEDIATE write transactions. It is
// OpenWith(path, Options{}); a service that needs more commits a second
// asks OpenWith for WAL.
func Open(path string) (*sql.DB, error) { return OpenWith(path, Options{}) }

// OpenWith is Open with the journal, the sync, the pool and the busy
// timeout of o.
func OpenWith(path string, o Options) (*sql.DB, error) {
	if !validPath(path) {
		return nil, fmt.Errorf("%w: %q", ErrName, path)
	}
	u := url.URL{Scheme: "file", Path: path, OmitHost: true}
	if !strings.HasPrefix(path, "/") {
		u = url.URL{Scheme: "file", Opaque: (&url.URL{Path: path}).EscapedPath()}
	}
	journal, sync := "DELETE", "FULL"
	if o.WAL {
		journal = "WAL"
		if !o.Durable {
			sync = "NORMAL"
		}
	}
	dsn := u.String() + "?" + pragmas(
		fmt.Sprintf("busy_timeout(%d)", o.busyMillis()),
		"journal_mode("+journal+")",
		"synchronous("+sync+")",
		"foreign_keys(1)",
	) + "&_txlock=immediate"
	db, err := sql.Open("sqlite3", dsn)
	if err == nil && o.MaxOpenConns > 0 {
		db.SetMaxOpenConns(o.MaxOpenConns)
	}
	return pinged(db, err)
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
	if !validName(name) {
		return nil, fmt.Errorf("%w: %q", ErrName, name)
	}
	dsn := "file:/" + url.PathEscape(name) + "?vfs=memdb&" + pragmas(
		fmt.Sprintf("busy_timeout(%d)", BusyTimeoutMillis),
		fmt.Sprintf("page_size(%d)", MemoryPageSize),
	) + "&_txlock=immediate"
	return pinged(sql.Open("sqlite3", dsn))
}

// busyMillis is o's busy timeout in ms.
func (o Options) busyMillis() int64 {
	if ms := o.BusyTimeout.Milliseconds(); ms > 0 {
		return ms
	}
	return BusyTimeoutMillis
}

func pragmas(ps ...string) string {
	q := make([]string, len(ps))
	for i, p := range ps {
		q[i] = "_pragma=" + url.QueryEscape(p)
	}
	return strings.Join(q, "&")
}
