package engine_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/sqlitedb"
)

// A stale completion: A claims order-7, stalls past its lease, B reclaims
// it at the instant A's lease ends, and A's late complete is refused
// because its token is stale. B's record is untouched.
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

// A refusal is a *Rejection: errors.Is names the rule, errors.As gives what
// the caller presented and the row as it stood.
func ExampleRejection() {
	ctx := context.Background()
	db, _ := sqlitedb.Memory("example-rejection")
	defer db.Close()
	store, _ := engine.New(ctx, db)
	store.Enqueue(ctx, engine.NewJob{ID: "order-7"})
	store.Claim(ctx, "order-7", "A", 0, 1000)

	_, err := store.Claim(ctx, "order-7", "B", 400, 1000)
	var rej *engine.Rejection
	if errors.As(err, &rej) {
		fmt.Println(rej.Refusal(), errors.Is(err, engine.ErrHeld))
		fmt.Printf("%s asked at %d; %s holds token %d until %d\n",
			rej.Presented.Owner, rej.Now, rej.Current.Owner, rej.Current.Token, rej.Current.LeaseUntil)
	}
	// Output:
	// held true
	// B asked at 400; A holds token 1 until 1000
}

// Dispatch claims the oldest job, sends it outside any transaction and
// completes it. A send that outlives its lease is refused at the complete,
// after the next worker has resent the job: the Receiver applies a
// business id once, so the resend adds nothing.
func ExampleStore_Dispatch() {
	ctx := context.Background()
	db, _ := sqlitedb.Memory("example-dispatch")
	defer db.Close()
	store, _ := engine.New(ctx, db)
	receiver, _ := engine.NewReceiver(ctx, db)
	store.Enqueue(ctx, engine.NewJob{ID: "order-7", Qty: 2})

	var clock engine.VirtualClock // a deployment passes engine.WallClock{}
	slow := func(ctx context.Context, l engine.Lease) error {
		receiver.Deliver(ctx, l)
		clock.Advance(1500) // the send takes longer than the lease
		if l.Owner == "A" { // meanwhile B's Dispatch resends the job
			b, err := store.Dispatch(ctx, "B", &clock, 1000, func(ctx context.Context, l engine.Lease) error {
				applied, err := receiver.Deliver(ctx, l)
				fmt.Println("B's delivery applied:", applied)
				return err
			})
			fmt.Println("B:", b.Token, err)
		}
		return nil
	}
	_, err := store.Dispatch(ctx, "A", &clock, 1000, slow)
	fmt.Println("A:", err)
	total, _ := receiver.Total(ctx)
	fmt.Println("total:", total)
	// Output:
	// B's delivery applied: false
	// B: 2 <nil>
	// A: complete refused (superseded): presented A#1, current B#2 until 2500 done, now 1500
	// total: 2
}

// A Storage refuses a write whose token is below the highest it has
// accepted for the key: the stale holder's work cannot overwrite the new
// holder's, even though it reaches the storage after its lease ended.
func ExampleStorage() {
	ctx := context.Background()
	db, _ := sqlitedb.Memory("example-storage")
	defer db.Close()
	store, _ := engine.New(ctx, db)
	storage, _ := engine.NewStorage(ctx, db)
	store.Enqueue(ctx, engine.NewJob{ID: "file-f"})

	a, _ := store.Claim(ctx, "file-f", "A", 0, 1000)
	b, _ := store.Claim(ctx, "file-f", "B", 1000, 1000)
	fmt.Println(storage.Write(ctx, "file-f", b, "B's data"))
	err := storage.Write(ctx, "file-f", a, "A's stale data")
	fmt.Println(errors.Is(err, engine.ErrFenced), err)
	v, _ := storage.Read(ctx, "file-f")
	fmt.Println(v.Value, v.Token)
	// Output:
	// <nil>
	// true write refused (fenced): presented A#1 for file-f, stored B#2
	// B's data 2
}
