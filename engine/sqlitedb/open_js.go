//go:build js

package sqlitedb

import (
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/leaselab/leaselab/wasm/sqlitejs"
)

// Open reports ErrNoFiles (or ErrName for a name no build accepts): the
// GOOS=js build has no file system to keep a database in.
func Open(path string) (*sql.DB, error) { return OpenWith(path, Options{}) }

// OpenWith reports ErrNoFiles, as Open.
func OpenWith(path string, _ Options) (*sql.DB, error) {
	if !validPath(path) {
		return nil, fmt.Errorf("%w: %q", ErrName, path)
	}
	return nil, fmt.Errorf("%w: %q", ErrNoFiles, path)
}

// Memory opens the shared in-memory database called name, as natively:
// every connection of the returned pool, and every other pool opened with
// the same name in this thread, sees the same database, which lives while
// any connection to it is open. It runs on the engine's SQLite in
// WebAssembly (wasm/sqlitejs) and its memdb VFS, with MemoryPageSize pages
// and BusyTimeoutMillis to wait out another connection's write lock.
func Memory(name string) (*sql.DB, error) {
	if !validName(name) {
		return nil, fmt.Errorf("%w: %q", ErrName, name)
	}
	return pinged(sql.OpenDB(&sqlitejs.Connector{
		Filename:    "file:/" + escapeURIPath(name) + "?vfs=memdb",
		Init:        []string{fmt.Sprintf("PRAGMA page_size = %d", MemoryPageSize)},
		BusyTimeout: BusyTimeoutMillis * time.Millisecond,
	}), nil)
}

// escapeURIPath percent-encodes every byte of name but ASCII letters,
// digits and -._~, for the path of an SQLite URI filename (which decodes
// %HH). net/url's PathEscape does the same with more kept as is, but the
// package brings net/netip and its start-up work into the browser's module.
func escapeURIPath(name string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := range len(name) {
		c := name[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}
