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

// Storage models the fenced storage: a key's value is replaced by a write
// whose token is at least the highest accepted for that key; a lower token
// is refused (ErrFenced) and changes nothing.
type Storage struct {
	vals map[string]engine.Stored
}

// NewStorage returns an empty storage.
func NewStorage() *Storage { return &Storage{vals: make(map[string]engine.Stored)} }

// Write stores value under key for l's owner and token, or refuses it.
func (s *Storage) Write(key string, l engine.Lease, value string) error {
	if key == "" || l.Owner == "" || l.Token < 0 {
		return invalid("write %q %+v", key, l)
	}
	cur, ok := s.vals[key]
	if ok && l.Token < cur.Token {
		return &engine.Rejection{Op: string(engine.OpWrite), Reason: engine.ErrFenced,
			Presented: engine.Lease{JobID: key, Owner: l.Owner, Token: l.Token},
			Current:   engine.Job{ID: key, Owner: cur.Owner, Token: cur.Token, Result: cur.Value}}
	}
	s.vals[key] = engine.Stored{Key: key, Value: value, Owner: l.Owner, Token: l.Token}
	return nil
}

// Read returns the value under key, or nil.
func (s *Storage) Read(key string) *engine.Stored {
	v, ok := s.vals[key]
	if !ok {
		return nil
	}
	return &v
}
