package model_test

import (
	"errors"
	"fmt"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/model"
)

// The model answers as engine.Store does, with the engine's leases,
// sentinels and rows, on plain Go values: a test runs the same calls on both
// and compares them answer by answer.
func ExampleModel() {
	m := model.New()
	m.Enqueue(engine.NewJob{ID: "order-7", MaxAttempts: 2})
	a, _ := m.Claim("order-7", "A", 0, 1000)
	_, err := m.Claim("order-7", "B", 999, 1000)
	fmt.Println(errors.Is(err, engine.ErrHeld), err)
	b, _ := m.Claim("order-7", "B", 1000, 1000)
	fmt.Println(errors.Is(m.Complete(a, 1001, "A"), engine.ErrSuperseded))
	fmt.Println(m.Complete(b, 1999, "B"))
	j, _ := m.Get("order-7")
	fmt.Println(j.Status, j.Owner, j.Token, j.Attempts, j.Result)
	// Output:
	// true claim refused (held): presented B for order-7, current A#1 until 1000 attempts 1/2, now 999
	// true
	// <nil>
	// done B 2 2 B
}

// A Storage of the model fences writes as engine.Storage does.
func ExampleStorage() {
	s := model.NewStorage()
	a := engine.Lease{JobID: "file-f", Owner: "A", Token: 1}
	b := engine.Lease{JobID: "file-f", Owner: "B", Token: 2}
	fmt.Println(s.Write("file-f", b, "B's data"))
	fmt.Println(errors.Is(s.Write("file-f", a, "A's stale data"), engine.ErrFenced))
	fmt.Println(s.Read("file-f").Value)
	// Output:
	// <nil>
	// true
	// B's data
}

// A Receiver of the model applies a business id once.
func ExampleReceiver() {
	r := model.NewReceiver()
	first, _ := r.Deliver(engine.Lease{JobID: "order-7", Owner: "A", Token: 1, Qty: 2})
	resend, _ := r.Deliver(engine.Lease{JobID: "order-7", Owner: "B", Token: 2, Qty: 2})
	fmt.Println(first, resend, r.Total())
	// Output:
	// true false 2
}
