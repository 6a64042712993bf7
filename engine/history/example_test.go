package history_test

import (
	"context"
	"fmt"
	"sync"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/history"
	"github.com/leaselab/leaselab/engine/sqlitedb"
)

// Two workers claim one job at once on the engine, each call recorded
// from its own goroutine: one wins, and the history is linearizable.
func ExampleRecorder() {
	ctx := context.Background()
	db, _ := sqlitedb.Memory("history-example")
	defer db.Close()
	store, _ := engine.New(ctx, db)
	rec := history.NewRecorder()
	h := rec.Invoke("setup", engine.OpEnqueue, history.Args{Job: "order-7"})
	rec.Return(h, history.EnqueueAnswer(store.Enqueue(ctx, engine.NewJob{ID: "order-7"})))
	var wg sync.WaitGroup
	for _, w := range []string{"A", "B"} {
		wg.Go(func() {
			h := rec.Invoke(w, engine.OpClaim, history.Args{Job: "order-7", Owner: w, Now: 0, TTL: 1000})
			rec.Return(h, history.LeaseAnswer(store.Claim(ctx, "order-7", w, 0, 1000)))
		})
	}
	wg.Wait()
	res, _ := history.Check(rec.History())
	fmt.Print(res)
	// Output:
	// linearizable: 3 calls of 3 clients
}

// A's complete at 999 and B's claim at 1000, where A's lease ends, overlap
// and both succeed: whichever took effect first, the other must have been
// refused.
func ExampleCheck() {
	ok := history.Answer{Outcome: engine.OutcomeOK}
	res, _ := history.Check(history.History{
		{Client: "setup", Call: engine.OpEnqueue, Args: history.Args{Job: "a"}, Invoke: 0, Return: 1,
			Answer: history.Answer{Outcome: engine.OutcomeOK, Created: true}},
		{Client: "A", Call: engine.OpClaim, Args: history.Args{Job: "a", Owner: "A", Now: 0, TTL: 1000}, Invoke: 2, Return: 3,
			Answer: history.Answer{Outcome: engine.OutcomeOK, Token: 1, LeaseUntil: 1000}},
		{Client: "A", Call: engine.OpComplete, Args: history.Args{Job: "a", Owner: "A", Token: 1, Now: 999}, Invoke: 10, Return: 20,
			Answer: ok},
		{Client: "B", Call: engine.OpClaim, Args: history.Args{Job: "a", Owner: "B", Now: 1000, TTL: 1000}, Invoke: 11, Return: 19,
			Answer: history.Answer{Outcome: engine.OutcomeOK, Token: 2, LeaseUntil: 2000}},
	})
	fmt.Print(res)
	// Output:
	// not linearizable: 4 calls of 3 clients; no order of the calls on job a fits the contract's model.
	// The smallest failing part found, 4 calls, in the order they were invoked
	// (! the first call no order can place, * a call overlapping it, ? in flight at the cut: any answer):
	//      call 1  setup  [0, 1]    enqueue a                         → ok created=true
	//      call 2  A      [2, 3]    claim a by A now=0 ttl=1000       → ok token=1 lease_until=1000
	//   *  call 3  A      [10, 20]  complete a A#1 now=999 result=""  → ok
	//   !  call 4  B      [11, 19]  claim a by B now=1000 ttl=1000    → ok token=2 lease_until=2000
	// The model's rows after the longest order of them it accepts (calls 1, 2, 3, in some order):
	//   a done qty=1 owner="A" lease_until=1000 token=1 attempts=1 max_attempts=0 deadline=0 reason="" result=""
}
