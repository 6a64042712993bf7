//go:build !js

package sqlitedb_test

import (
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/leaselab/leaselab/engine/drivertest"
)

// The native driver (ncruces/go-sqlite3, as Memory opens it: memdb,
// busy_timeout first, IMMEDIATE write transactions) passes the drivers'
// conformance suite; wasm/sqlitejs passes the same suite under GOOS=js.
func TestNativeDriver_Conformance(t *testing.T) {
	drivertest.Run(t, drivertest.Driver{
		Open: func(t testing.TB, name string, busy time.Duration) *sql.DB {
			dsn := "file:/" + url.PathEscape(name) + "?vfs=memdb&_pragma=" +
				url.QueryEscape(fmt.Sprintf("busy_timeout(%d)", busy.Milliseconds())) + "&_txlock=immediate"
			db, err := sql.Open("sqlite3", dsn)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			return db
		},
		Code: func(err error) int {
			var x sqlite3.ExtendedErrorCode
			var c sqlite3.ErrorCode
			switch {
			case errors.As(err, &x):
				return int(x)
			case errors.As(err, &c):
				return int(c)
			}
			return 0
		},
	})
}
