//go:build js

package engine_test

import (
	"database/sql"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/wasm/sqlitejs"
)

// fullDB opens a fresh in-memory database of at most pages pages, and the
// error a write past them answers.
func fullDB(t *testing.T, pages int) (*sql.DB, error) {
	name := strings.NewReplacer("/", "_", "=", "_").Replace(t.Name())
	db := sql.OpenDB(&sqlitejs.Connector{
		Filename: "file:/" + url.PathEscape(name) + "?vfs=memdb",
		Init:     []string{fmt.Sprintf("PRAGMA max_page_count = %d", pages)},
	})
	t.Cleanup(func() { db.Close() })
	return db, sqlitejs.FULL
}
