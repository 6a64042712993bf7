package grade

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/leaselab/leaselab/engine/internal/lang"
)

// Lab is the fencing lab's functions in Go, for a student who writes them
// in Go and grades them from their own go test with Run. The arguments and
// answers are the Python functions' (see the package doc): a nil fence is
// None, and an error that wraps ErrValue is the ValueError of an invalid
// argument. State answers nil for no row, else the row's columns by name.
// A Lab's failures are reported in Go's terms (GoTerms): its methods, nil,
// true and false.
//
// The grader may call a Lab's methods from two goroutines at once, each
// standing for a process of its own (the races: two processes claiming
// one job, a late call beside a new claim), and a call that outlives the
// per-call limit goes on in its goroutine while the grader moves on: the
// methods must be safe for concurrent use, as two processes on one file
// are.
type Lab interface {
	InitDB(path string) error
	Enqueue(path, jobID string) (bool, error)
	State(path, jobID string) (map[string]any, error)
	Claim(path, jobID, owner string, now, ttl int64) (*int64, error)
	Renew(path, jobID, owner string, fence, now, ttl int64) (bool, error)
	Complete(path, jobID, owner string, fence, now int64, result string) (bool, error)
	Release(path, jobID, owner string, fence int64) (bool, error)
	ClaimMany(path, jobID string, owners []string, now, ttl int64) ([]*int64, error)
}

// Stop is what a Lab's method panics with to end a call that would not
// end by itself (a learner's loop, caught by a budget the Lab keeps): the
// call is reported as a hang, in Stop's words. Any other panic is the
// program's exit.
type Stop string

// ErrValue is the lab's ValueError: a Lab's error that wraps it is an
// invalid argument.
var ErrValue = errors.New("ValueError")

// Run grades lab from a go test: each of Grade's tests is a subtest of t,
// failing with the call, both answers and both tables.
func Run(t *testing.T, lab Lab) {
	t.Helper()
	runGo(t, Options{Lab: lab})
}

// runGo grades o's Go lab from a go test, each of Grade's tests a subtest
// of t, in a temporary directory of its own.
func runGo(t *testing.T, o Options) {
	t.Helper()
	dir, err := TempDir()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	o.Dir = dir
	r, err := Grade(t.Context(), o)
	if err != nil {
		t.Fatal(err)
	}
	for _, test := range r.Tests {
		t.Run(test.Name, func(t *testing.T) {
			switch {
			case test.Skipped != "":
				t.Skip(test.Skipped)
			case test.Failure != nil:
				t.Errorf("%s\n%s", test.Failure.Where, FailureText(test.Failure))
			}
		})
	}
}

// goLab is a Go student's functions as a process calls them: the fencing
// lab's (fencingGo) or the courier's (courierGo).
type goLab interface {
	// dispatch calls fn with the JSON arguments in; callback answers the
	// student's calls back (the courier's deliver), nil refusing them.
	dispatch(fn string, in []json.RawMessage, callback func(fn string, args []json.RawMessage) (any, error)) answer
}

// fencingGo is a fencing Lab as a goLab.
type fencingGo struct{ lab Lab }

func (f fencingGo) dispatch(fn string, in []json.RawMessage, _ func(string, []json.RawMessage) (any, error)) answer {
	return dispatch(f.lab, fn, in)
}

// callLab makes one call on a Go lab as the protocol would, within the
// per-call limit; a panic is the program's exit.
func (p *process) callLab(ctx context.Context, fn string, args []any) (answer, error) {
	what := p.terms.call(fn, args)
	raw, err := json.Marshal(args)
	if err != nil {
		return answer{}, err
	}
	var in []json.RawMessage
	if err := json.Unmarshal(raw, &in); err != nil {
		return answer{}, err
	}
	type result struct {
		a     answer
		panic any
	}
	done := make(chan result, 1)
	callback := p.callback // the caller's for this call: it is reset when the call ends, which a hang outlives
	go func() {
		defer func() {
			if v := recover(); v != nil {
				done <- result{panic: v}
			}
		}()
		done <- result{a: p.lab.dispatch(fn, in, callback)}
	}()
	t := time.NewTimer(p.callMax)
	defer t.Stop()
	select {
	case r := <-done:
		if stop, ok := r.panic.(Stop); ok {
			return answer{}, p.fail(broken("hang", what, lang.P("%s", string(stop))))
		}
		if r.panic != nil {
			return answer{}, p.fail(broken("exit", what, lang.P("panic: %v", r.panic)))
		}
		return r.a, nil
	case <-t.C:
		return answer{}, p.fail(broken("hang", what, lang.P("no answer within %v: the code hangs", p.callMax)))
	case <-ctx.Done():
		return answer{}, p.fail(broken("hang", what, lang.P("the overall time limit ran out%s", lang.Phrase{})))
	}
}

// dispatch calls fn on lab with the JSON arguments in.
func dispatch(lab Lab, fn string, in []json.RawMessage) answer {
	var (
		path, job, owner, result string
		now, ttl, fence          int64
		owners                   []string
		ret                      any
		err                      error
	)
	args := func(ptrs ...any) bool { return fit(in, ptrs...) }
	ok := true
	switch fn {
	case "init_db":
		if ok = args(&path); ok {
			err = lab.InitDB(path)
		}
	case "enqueue":
		if ok = args(&path, &job); ok {
			ret, err = lab.Enqueue(path, job)
		}
	case "state":
		if ok = args(&path, &job); ok {
			var row map[string]any
			row, err = lab.State(path, job)
			if row != nil {
				ret = row
			}
		}
	case "claim":
		if ok = args(&path, &job, &owner, &now, &ttl); ok {
			ret, err = lab.Claim(path, job, owner, now, ttl)
		}
	case "renew":
		if ok = args(&path, &job, &owner, &fence, &now, &ttl); ok {
			ret, err = lab.Renew(path, job, owner, fence, now, ttl)
		}
	case "complete":
		if ok = args(&path, &job, &owner, &fence, &now, &result); ok {
			ret, err = lab.Complete(path, job, owner, fence, now, result)
		}
	case "release":
		if ok = args(&path, &job, &owner, &fence); ok {
			ret, err = lab.Release(path, job, owner, fence)
		}
	case "claim_many":
		if ok = args(&path, &job, &owners, &now, &ttl); ok {
			ret, err = lab.ClaimMany(path, job, owners, now, ttl)
		}
	default:
		return answer{Error: "AttributeError", Message: "no function " + fn}
	}
	return reply(fn, ok, ret, err)
}

// reply is a Go lab's answer to a call of fn: its arguments did not fit
// (!ok), its error (one wrapping ErrValue is the ValueError), or ret.
func reply(fn string, ok bool, ret any, err error) answer {
	switch {
	case !ok:
		return answer{Error: "TypeError", Message: "the arguments of " + fn + " do not fit"}
	case errors.Is(err, ErrValue):
		return answer{Error: "ValueError", Message: err.Error()}
	case err != nil:
		return answer{Error: "error", Message: err.Error()}
	}
	raw, jerr := json.Marshal(ret)
	if jerr != nil {
		return answer{Error: "TypeError", Message: "the return value is not JSON: " + jerr.Error()}
	}
	return answer{Return: raw}
}

// fit unmarshals the JSON arguments in into ptrs, one each: false when
// their count or a type does not fit.
func fit(in []json.RawMessage, ptrs ...any) bool {
	if len(in) != len(ptrs) {
		return false
	}
	for i, p := range ptrs {
		if json.Unmarshal(in[i], p) != nil {
			return false
		}
	}
	return true
}
