package grade

import (
	"encoding/json"
	"errors"
	"testing"
)

// CourierLab is the courier lab's functions in Go, for a student who
// writes them in Go and grades them from their own go test with
// RunCourier. The arguments and answers are the Python functions' (see
// the package doc): a nil deadline, marker or send's answer is None, and
// an error that wraps ErrValue is the ValueError of an invalid argument.
// State answers nil for no row, else the row's columns by name.
//
// Send calls deliver once with the claim's marker, after the claim is
// committed and outside any transaction; deliver answers the instant the
// delivery ended, at which Send finishes, or an error when the grader
// offers no deliver there.
//
// The grader may call a CourierLab's methods from two goroutines at once,
// each standing for a process of its own (two processes calling
// ClaimNext, a late Finish beside a new claim), and a call that outlives
// the per-call limit goes on in its goroutine while the grader moves on:
// the methods must be safe for concurrent use, as two processes on one
// file are.
type CourierLab interface {
	InitDB(path string) error
	Enqueue(path, jobID string, qty int64, deadline *int64, maxAttempts int64) (bool, error)
	State(path, jobID string) (map[string]any, error)
	ClaimNext(path, owner string, now, leaseMs int64) (*Marker, error)
	Finish(path string, marker Marker, now int64, result string) (bool, error)
	Send(path, owner string, now, leaseMs int64, deliver func(Marker) (int64, error)) (*bool, error)
	Receive(path, businessID string, qty int64) (bool, error)
}

// Marker is a courier's claim as ClaimNext answers it and Finish and
// deliver take it: the Python marker's keys.
type Marker struct {
	ID         string `json:"id"`
	Qty        int64  `json:"qty"`
	Owner      string `json:"owner"`
	Token      int64  `json:"token"`
	Attempt    int64  `json:"attempt"`
	LeaseUntil int64  `json:"lease_until"`
}

// RunCourier grades lab, the courier lab's functions, from a go test:
// each of Grade's tests is a subtest of t, failing with the call, both
// answers and both tables.
func RunCourier(t *testing.T, lab CourierLab) {
	t.Helper()
	runGo(t, Options{CourierLab: lab})
}

// courierGo is a CourierLab as a goLab.
type courierGo struct{ lab CourierLab }

func (c courierGo) dispatch(fn string, in []json.RawMessage, callback func(string, []json.RawMessage) (any, error)) answer {
	var (
		path, job, owner, result string
		now, leaseMs, qty, most  int64
		deadline                 *int64
		marker                   Marker
		deliver                  callbackArg
		ret                      any
		err                      error
		ok                       bool
	)
	switch fn {
	case "init_db":
		if ok = fit(in, &path); ok {
			err = c.lab.InitDB(path)
		}
	case "enqueue":
		if ok = fit(in, &path, &job, &qty, &deadline, &most); ok {
			ret, err = c.lab.Enqueue(path, job, qty, deadline, most)
		}
	case "state":
		if ok = fit(in, &path, &job); ok {
			var row map[string]any
			if row, err = c.lab.State(path, job); row != nil {
				ret = row
			}
		}
	case "claim_next":
		if ok = fit(in, &path, &owner, &now, &leaseMs); ok {
			ret, err = c.lab.ClaimNext(path, owner, now, leaseMs)
		}
	case "finish":
		if ok = fit(in, &path, &marker, &now, &result); ok {
			ret, err = c.lab.Finish(path, marker, now, result)
		}
	case "send":
		if ok = fit(in, &path, &owner, &now, &leaseMs, &deliver) && deliver.Callback != ""; ok {
			ret, err = c.lab.Send(path, owner, now, leaseMs, deliverer(deliver.Callback, callback))
		}
	case "receive":
		if ok = fit(in, &path, &job, &qty); ok {
			ret, err = c.lab.Receive(path, job, qty)
		}
	default:
		return answer{Error: "AttributeError", Message: "no function " + fn}
	}
	return reply(fn, ok, ret, err)
}

// deliverer is the deliver function a Go courier's Send calls: it calls
// back the grader's callback name with the marker, and answers the instant
// the grader answers.
func deliverer(name string, callback func(string, []json.RawMessage) (any, error)) func(Marker) (int64, error) {
	return func(m Marker) (int64, error) {
		if callback == nil {
			return 0, errors.New("the grader offers no callback " + name + " here")
		}
		raw, err := json.Marshal(m)
		if err != nil {
			return 0, err
		}
		v, err := callback(name, []json.RawMessage{raw})
		if err != nil {
			return 0, err
		}
		back, err := json.Marshal(v)
		if err != nil {
			return 0, err
		}
		var at int64
		if err := json.Unmarshal(back, &at); err != nil {
			return 0, errors.New(name + " answered " + string(back) + ", not an instant")
		}
		return at, nil
	}
}
