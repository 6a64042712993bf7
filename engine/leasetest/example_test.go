package leasetest_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/leasetest"
	"github.com/leaselab/leaselab/engine/timeline"
)

// A test of your own queue is one call; newQueue gives an empty queue
// each time.
func ExampleRun() {
	testMyQueue := func(t *testing.T) {
		leasetest.Run(t, func(t *testing.T) leasetest.Queue {
			return leasetest.Engine(t) // your implementation here
		})
	}
	_ = testMyQueue
}

// byIDOnly completes a job whoever presents it: the fencing token is not
// compared.
type byIDOnly struct{ leasetest.Queue }

func (q byIDOnly) Complete(ctx context.Context, l engine.Lease, now int64, result string) error {
	if j, err := q.Get(ctx, l.JobID); err == nil && j != nil {
		l.Owner, l.Token = j.Owner, j.Token
	}
	return q.Queue.Complete(ctx, l, now, result)
}

// Timeline finds the step where a queue parts from the contract.
func ExampleTimeline() {
	tl, _ := timeline.LoadLibrary("01-late-courier.tl")
	d, _ := leasetest.Timeline(context.Background(), tl, byIDOnly{leasetest.Model()})
	fmt.Println(d.Where)
	fmt.Println(d.Call)
	fmt.Println("want", d.Want, "got", d.Got)
	// Output:
	// 01-late-courier.tl:12
	// Complete(order-7 A#1, now=1001, "A")
	// want refused superseded got ok
}
