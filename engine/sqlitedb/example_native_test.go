//go:build !js

package sqlitedb_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/sqlitedb"
)

// A service's queue on a file in WAL mode, with a bounded pool: about 30
// times the commits a second of Open's rollback journal.
func ExampleOpenWith() {
	dir, _ := os.MkdirTemp("", "sqlitedb-example")
	defer os.RemoveAll(dir)
	db, err := sqlitedb.OpenWith(filepath.Join(dir, "jobs.db"), sqlitedb.Options{WAL: true, MaxOpenConns: 8})
	if err != nil {
		panic(err)
	}
	defer db.Close()

	var mode string
	db.QueryRow("PRAGMA journal_mode").Scan(&mode)
	fmt.Println(mode, db.Stats().MaxOpenConnections)

	ctx := context.Background()
	store, _ := engine.New(ctx, db)
	fmt.Println(store.Enqueue(ctx, engine.NewJob{ID: "order-7"}))
	// Output:
	// wal 8
	// true <nil>
}
