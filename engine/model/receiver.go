package model

import "github.com/leaselab/leaselab/engine"

// Receiver models the receiving side of a dispatch: it applies a business
// id's quantity once, whoever sends it and however often.
type Receiver struct {
	got   map[string]bool
	total int64
}

// NewReceiver returns a receiver that has received nothing.
func NewReceiver() *Receiver { return &Receiver{got: make(map[string]bool)} }

// Deliver applies l.Qty for l.JobID and returns true the first time; a
// resend of the same id returns false and adds nothing. An empty id or a
// negative quantity is invalid.
func (r *Receiver) Deliver(l engine.Lease) (bool, error) {
	if l.JobID == "" || l.Qty < 0 {
		return false, invalid("deliver %+v", l)
	}
	if r.got[l.JobID] {
		return false, nil
	}
	r.got[l.JobID] = true
	r.total += l.Qty
	return true, nil
}

// Total is the sum of the quantities received.
func (r *Receiver) Total() int64 { return r.total }
