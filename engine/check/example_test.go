package check_test

import (
	"fmt"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/check"
)

// A Checker judges one step at a time: the operations the step ran, as the
// caller saw them, and every row after it. Here a store accepts B's claim
// while A's lease still runs.
func ExampleChecker() {
	c := check.New()
	a := engine.Lease{JobID: "order-7", Owner: "A", Token: 1, Attempt: 1, LeaseUntil: 1000}
	b := engine.Lease{JobID: "order-7", Owner: "B", Token: 2, Attempt: 2, LeaseUntil: 1500}
	row := func(l engine.Lease) []engine.Job {
		return []engine.Job{{ID: "order-7", Owner: l.Owner, Token: l.Token, Attempts: l.Attempt,
			LeaseUntil: l.LeaseUntil, Qty: 1, Status: engine.StatusLeased}}
	}

	c.Observe([]check.Op{{Kind: engine.OpEnqueue, JobID: "order-7", Accepted: true}},
		[]engine.Job{{ID: "order-7", Qty: 1, Status: engine.StatusPending}})
	c.Observe([]check.Op{{Kind: engine.OpClaim, JobID: "order-7", Owner: "A", Now: 0, Accepted: true, Lease: a}}, row(a))
	verdicts := c.Observe([]check.Op{{Kind: engine.OpClaim, JobID: "order-7", Owner: "B", Now: 500, Accepted: true, Lease: b}}, row(b))
	for _, v := range verdicts {
		if !v.OK {
			fmt.Println(v.Invariant+":", v.Detail)
		}
	}
	// Output:
	// single-lease: job order-7: B#2 granted at 500 while A#1 is valid until 1000
}
