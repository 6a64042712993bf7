package check_test

import (
	"fmt"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/check"
)

// A service's log, each call with the instants it was invoked and
// answered: A's complete started after B's claim had returned, so no order
// explains accepting it.
func ExampleHistory() {
	a := engine.Lease{JobID: "order-7", Owner: "A", Token: 1, LeaseUntil: 1000}
	b := engine.Lease{JobID: "order-7", Owner: "B", Token: 2, LeaseUntil: 2000}
	history := []check.Call{
		{Op: check.Op{Kind: engine.OpClaim, JobID: "order-7", Owner: "A", Now: 0, Accepted: true, Lease: a}, Start: 0, End: 3},
		{Op: check.Op{Kind: engine.OpClaim, JobID: "order-7", Owner: "B", Now: 1000, Accepted: true, Lease: b}, Start: 1000, End: 1004},
		{Op: check.Op{Kind: engine.OpComplete, JobID: "order-7", Owner: "A", Token: 1, Now: 990, Accepted: true}, Start: 1005, End: 1009},
	}
	for _, v := range check.History(history) {
		fmt.Println(v.Invariant, v.Calls)
		fmt.Println(v.Detail)
	}
	// Output:
	// no-stale-write [1 2]
	// job order-7: complete by A#1 accepted by call 2 (complete by A, 1005..1009), after B#2 was granted by call 1 (claim by B, 1000..1004)
}
