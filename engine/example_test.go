package engine_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/sqlitedb"
)

// The late courier: A claims order-7, stalls past its lease, B reclaims it
// at the instant A's lease ends, and A's late complete is refused because
// its token is stale. B's record is untouched.
func Example_staleCompletion() {
	ctx := context.Background()
	db, err := sqlitedb.Memory("example-stale-completion")
	if err != nil {
		panic(err)
	}
	defer db.Close()
	store, err := engine.New(ctx, db)
	if err != nil {
		panic(err)
	}
	store.Enqueue(ctx, engine.NewJob{ID: "order-7", Qty: 2})

	a, _ := store.Claim(ctx, "order-7", "A", 0, 1000)
	fmt.Printf("0ms     A claim    -> token=%d lease_until=%d\n", a.Token, a.LeaseUntil)

	b, _ := store.Claim(ctx, "order-7", "B", 1000, 1000)
	fmt.Printf("1000ms  B claim    -> token=%d lease_until=%d\n", b.Token, b.LeaseUntil)

	err = store.Complete(ctx, a, 1001, "A's result")
	fmt.Println("1001ms  A complete ->", errors.Is(err, engine.ErrSuperseded), err)

	err = store.Complete(ctx, b, 1200, "B's result")
	fmt.Println("1200ms  B complete ->", err)

	j, _ := store.Get(ctx, "order-7")
	fmt.Println(j.Status, j.Owner, j.Token, j.Result)
	// Output:
	// 0ms     A claim    -> token=1 lease_until=1000
	// 1000ms  B claim    -> token=2 lease_until=2000
	// 1001ms  A complete -> true complete refused (superseded): presented A#1, current B#2 until 2000, now 1001
	// 1200ms  B complete -> <nil>
	// done B 2 B's result
}
