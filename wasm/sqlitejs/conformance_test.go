//go:build js

package sqlitejs_test

import (
	"database/sql"
	"errors"
	"net/url"
	"testing"
	"time"

	"github.com/leaselab/leaselab/engine/drivertest"
	"github.com/leaselab/leaselab/wasm/sqlitejs"
)

// The browser's driver passes the drivers' conformance suite, the one the
// native driver passes (engine/drivertest's tests).
func TestDriver_Conformance(t *testing.T) {
	drivertest.Run(t, drivertest.Driver{
		Open: func(t testing.TB, name string, busy time.Duration) *sql.DB {
			db := sql.OpenDB(&sqlitejs.Connector{
				Filename:    "file:/" + url.PathEscape(name) + "?vfs=memdb",
				BusyTimeout: busy,
			})
			t.Cleanup(func() { db.Close() })
			return db
		},
		Code: func(err error) int {
			var e *sqlitejs.Error
			if errors.As(err, &e) {
				return e.Code
			}
			return 0
		},
	})
}
