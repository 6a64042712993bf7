// Package faultdb opens SQLite pools whose driver panics on demand: the
// fault a test injects to show what a panic inside the driver (an
// allocation failure while opening a connection, say) does to the engine
// and to a server above it. Tests only.
package faultdb

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"net/url"
	"sync/atomic"

	"github.com/leaselab/leaselab/engine/sqlitedb"
)

// Panic is the value an armed Connector panics with.
const Panic = "faultdb: injected panic in the driver's connect"

// Connector opens connections to one shared in-memory database and, once
// armed, panics in one connect instead.
type Connector struct {
	drv      driver.Driver
	dsn      string
	keeper   *sql.DB      // holds the in-memory database alive
	connects atomic.Int64 // connects so far, the panicking one included
	panicAt  atomic.Int64 // the connect that panics; 0: none
}

// Memory opens the shared in-memory database called name through a
// Connector (native builds: the memdb VFS) and returns its pool; closing
// the pool closes the database.
func Memory(name string) (*sql.DB, *Connector, error) {
	keeper, err := sqlitedb.Memory(name)
	if err != nil {
		return nil, nil, err
	}
	c := &Connector{drv: keeper.Driver(), dsn: "file:/" + url.PathEscape(name) +
		"?vfs=memdb&_pragma=" + url.QueryEscape("busy_timeout(10000)") + "&_txlock=immediate"}
	c.keeper = keeper
	db := sql.OpenDB(c)
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, nil, err
	}
	db.SetMaxIdleConns(64)
	return db, c, nil
}

// PanicOnConnect makes the n-th connect from now (1: the next) panic with
// Panic; the others connect. The pool keeps up to 64 idle connections, so
// a connect is a connection more open at once than the pool had.
func (c *Connector) PanicOnConnect(n int) { c.panicAt.Store(c.connects.Load() + int64(n)) }

// Connect opens a connection, or panics if it is the armed one.
func (c *Connector) Connect(context.Context) (driver.Conn, error) {
	if c.connects.Add(1) == c.panicAt.Load() {
		panic(Panic)
	}
	return c.drv.Open(c.dsn)
}

// Driver is the SQLite driver underneath.
func (c *Connector) Driver() driver.Driver { return c.drv }

// Close releases the database; the pool's Close calls it.
func (c *Connector) Close() error { return c.keeper.Close() }
