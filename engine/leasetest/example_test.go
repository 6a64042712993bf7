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
			return leasetest.Model() // your implementation here
		})
	}
	_ = testMyQueue
}

// byIDOnly completes a held job whoever presents it: the fencing token is
// not compared.
type byIDOnly struct{ leasetest.Queue }

func (q byIDOnly) Complete(ctx context.Context, l engine.Lease, now int64, result string) error {
	if j, err := q.Get(ctx, l.JobID); err == nil && j != nil && j.Owner != "" {
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

// Sequences searches random call sequences for one on which a queue and
// the contract disagree, and shrinks it to the shortest that still does:
// here A completes B's lease with a token it never held.
func ExampleSequences() {
	newQueue := func() (leasetest.Queue, error) { return byIDOnly{leasetest.Model()}, nil }
	d, _ := leasetest.Sequences(context.Background(), newQueue, leasetest.SequenceOptions{Seed: 9, Plain: true})
	for _, c := range d.Sequence {
		fmt.Println(c)
	}
	fmt.Println("want", d.Want, "got", d.Got)
	// Output:
	// Enqueue({ID:a Qty:0 Deadline:0 MaxAttempts:0})
	// ClaimNext("B", now=1500, ttl=1000)
	// Complete(a A#0, now=1750, "r")
	// want refused superseded got ok
}
