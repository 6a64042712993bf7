package sqlitedb_test

import (
	"context"
	"fmt"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/sqlitedb"
)

// Every pool opened with the same name shares one in-memory database, while
// any of its connections is open.
func ExampleMemory() {
	ctx := context.Background()
	db1, _ := sqlitedb.Memory("example-memory")
	defer db1.Close()
	store1, _ := engine.New(ctx, db1)
	store1.Enqueue(ctx, engine.NewJob{ID: "order-7"})

	db2, _ := sqlitedb.Memory("example-memory")
	defer db2.Close()
	store2, _ := engine.New(ctx, db2)
	j, _ := store2.Get(ctx, "order-7")
	fmt.Println(j.ID, j.Status)
	// Output:
	// order-7 pending
}
