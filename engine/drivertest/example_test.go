//go:build !js

package drivertest_test

import (
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"
	_ "github.com/ncruces/go-sqlite3/driver"
	_ "github.com/ncruces/go-sqlite3/vfs/memdb"

	"github.com/leaselab/leaselab/engine/drivertest"
)

// native is the native driver, github.com/ncruces/go-sqlite3, opened as
// sqlitedb.Memory opens it: memdb, busy_timeout first, IMMEDIATE write
// transactions.
var native = drivertest.Driver{
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
}

// A database/sql driver the engine is to run on passes the suite from a
// test: Open gives a pool on a shared in-memory database, Code the SQLite
// result code an error wraps. The native driver's test is this one.
func ExampleRun() {
	testDriver := func(t *testing.T) {
		drivertest.Run(t, native)
	}
	_ = testDriver
}
