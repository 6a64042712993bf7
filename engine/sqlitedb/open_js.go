//go:build js

package sqlitedb

import (
	"database/sql"
	"fmt"
	"net/url"
	"time"

	"github.com/leaselab/leaselab/engine/sqlitejs"
)

// Open reports ErrNoFiles (or ErrName for a name no build accepts): the
// GOOS=js build has no file system to keep a database in.
func Open(path string) (*sql.DB, error) {
	if !validPath(path) {
		return nil, fmt.Errorf("%w: %q", ErrName, path)
	}
	return nil, fmt.Errorf("%w: %q", ErrNoFiles, path)
}

// Memory opens the shared in-memory database called name, as natively:
// every connection of the returned pool, and every other pool opened with
// the same name in this thread, sees the same database, which lives while
// any connection to it is open. It runs on SQLite's official WebAssembly
// build (engine/sqlitejs) and its own memdb VFS, with MemoryPageSize pages
// and BusyTimeoutMillis to wait out another connection's write lock.
func Memory(name string) (*sql.DB, error) {
	if !validName(name) {
		return nil, fmt.Errorf("%w: %q", ErrName, name)
	}
	return pinged(sql.OpenDB(&sqlitejs.Connector{
		Filename:    "file:/" + url.PathEscape(name) + "?vfs=memdb",
		Init:        []string{fmt.Sprintf("PRAGMA page_size = %d", MemoryPageSize)},
		BusyTimeout: BusyTimeoutMillis * time.Millisecond,
	}), nil)
}
