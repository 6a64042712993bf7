package history

import (
	"sync"
	"time"

	"github.com/leaselab/leaselab/engine"
)

// Recorder records a history from any number of goroutines: each call's
// client calls Invoke just before the call and Return with its answer
// just after. Times are nanoseconds of the monotonic clock since the
// recorder was made, strictly increasing across all its events, so a call
// that returned before another was invoked is ordered before it.
type Recorder struct {
	mu    sync.Mutex
	start time.Time
	last  int64
	ops   History
	open  []bool // ops[i] has no answer yet
}

// Handle is one invoked call, for Return.
type Handle struct{ i int }

// NewRecorder returns an empty recorder whose clock starts now.
func NewRecorder() *Recorder { return &Recorder{start: time.Now(), last: -1} }

// now is the next instant: the clock, or one past the last instant given.
// r.mu is held.
func (r *Recorder) now() int64 {
	r.last = max(r.last+1, int64(time.Since(r.start)))
	return r.last
}

// Invoke records that client invokes call with args now, and returns the
// handle its answer is recorded with.
func (r *Recorder) Invoke(client string, call engine.Op, args Args) Handle {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ops = append(r.ops, Operation{Client: client, Call: call, Args: args, Invoke: r.now()})
	r.open = append(r.open, true)
	return Handle{len(r.ops) - 1}
}

// Return records the answer of the call h and that it returned now. A
// second Return of the same handle changes nothing.
func (r *Recorder) Return(h Handle, a Answer) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.open[h.i] {
		return
	}
	r.open[h.i] = false
	r.ops[h.i].Answer, r.ops[h.i].Return = a, r.now()
}

// History returns a copy of the calls recorded so far, in the order they
// were invoked. A call still waiting for its answer is in it as one that
// answered error ("no answer yet", returning now): it may or may not take
// effect.
func (r *Recorder) History() History {
	r.mu.Lock()
	defer r.mu.Unlock()
	h := make(History, len(r.ops))
	copy(h, r.ops)
	var at int64 = -1
	for i := range h {
		if r.open[i] {
			if at < 0 {
				at = r.now()
			}
			h[i].Answer, h[i].Return = Answer{Outcome: engine.OutcomeError, Error: "no answer yet"}, at
		}
	}
	return h
}
