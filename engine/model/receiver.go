package model

import (
	"slices"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/internal/mutant"
)

// Receiver models the receiving side of a dispatch: it applies a business
// id's quantity once, whoever sends it and however often.
type Receiver struct {
	got    []string // business ids received, in order
	total  int64
	mutant string
}

// NewReceiver returns a receiver that has received nothing.
func NewReceiver() *Receiver { return &Receiver{} }

// Deliver applies l.Qty for l.JobID and returns true the first time; a
// resend of the same id returns false and adds nothing. An empty id or a
// negative quantity is invalid.
func (r *Receiver) Deliver(l engine.Lease) (bool, error) {
	if l.JobID == "" || l.Qty < 0 {
		return false, invalid("deliver %+v", l)
	}
	if r.Got(l.JobID) && r.mutant != mutant.ReceiverNotIdempotent {
		return false, nil
	}
	if !r.Got(l.JobID) {
		r.got = append(r.got, l.JobID)
	}
	r.total += l.Qty
	return true, nil
}

// Total is the sum of the quantities received.
func (r *Receiver) Total() int64 { return r.total }

// Got reports whether business id was received.
func (r *Receiver) Got(id string) bool { return slices.Contains(r.got, id) }

// Clone returns an independent copy of r.
func (r *Receiver) Clone() *Receiver {
	return &Receiver{got: slices.Clone(r.got), total: r.total, mutant: r.mutant}
}

// Storage models the fenced storage: a key's value is replaced by a write
// whose token is at least the highest accepted for that key; a lower token
// is refused (ErrFenced) and changes nothing.
type Storage struct {
	vals   []engine.Stored // one per key, in the order first written
	mutant string
}

// NewStorage returns an empty storage.
func NewStorage() *Storage { return &Storage{} }

// Write stores value under key for l's owner and token, or refuses it.
func (s *Storage) Write(key string, l engine.Lease, value string) error {
	if key == "" || l.Owner == "" || l.Token < 0 {
		return invalid("write %q %+v", key, l)
	}
	i := slices.IndexFunc(s.vals, func(v engine.Stored) bool { return v.Key == key })
	if i >= 0 && l.Token < s.vals[i].Token && s.mutant != mutant.StorageUnfenced {
		cur := s.vals[i]
		return &engine.Rejection{Op: string(engine.OpWrite), Reason: engine.ErrFenced,
			Presented: engine.Lease{JobID: key, Owner: l.Owner, Token: l.Token},
			Current:   engine.Job{ID: key, Owner: cur.Owner, Token: cur.Token, Result: cur.Value}}
	}
	v := engine.Stored{Key: key, Value: value, Owner: l.Owner, Token: l.Token}
	if i < 0 {
		s.vals = append(s.vals, v)
	} else {
		s.vals[i] = v
	}
	return nil
}

// Lookup returns the value under key and whether there is one (Read
// without allocating).
func (s *Storage) Lookup(key string) (engine.Stored, bool) {
	for _, v := range s.vals {
		if v.Key == key {
			return v, true
		}
	}
	return engine.Stored{}, false
}

// Read returns the value under key, or nil.
func (s *Storage) Read(key string) *engine.Stored {
	for _, v := range s.vals {
		if v.Key == key {
			return &v
		}
	}
	return nil
}

// Clone returns an independent copy of s.
func (s *Storage) Clone() *Storage {
	return &Storage{vals: slices.Clone(s.vals), mutant: s.mutant}
}

// CopyFrom makes r a copy of src, reusing r's memory.
func (r *Receiver) CopyFrom(src *Receiver) {
	r.got = append(r.got[:0], src.got...)
	r.total, r.mutant = src.total, src.mutant
}

// CopyFrom makes s a copy of src, reusing s's memory.
func (s *Storage) CopyFrom(src *Storage) {
	s.vals = append(s.vals[:0], src.vals...)
	s.mutant = src.mutant
}
