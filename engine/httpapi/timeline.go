package httpapi

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"runtime"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/leaselab/leaselab/engine/limits"
)

// DefaultTimelineDeadline is how long one POST /api/timeline may run
// unless WithTimelineDeadline says otherwise. A timeline at every limit of
// limits.Default runs in about a second natively.
const DefaultTimelineDeadline = 10 * time.Second

// DefaultTimelineRuns is how many timelines may run at once unless
// WithTimelineRuns says otherwise: two per processor Go may use.
func DefaultTimelineRuns() int { return 2 * runtime.GOMAXPROCS(0) }

// runOutcome is what a TimelineFunc returned.
type runOutcome struct {
	trace []byte
	err   error
}

// runTimeline answers POST /api/timeline: the text (at most
// limits.Default.TextBytes, UTF-8, not blank) runs under a context that
// ends at the run's deadline or when the client leaves, in one of a fixed
// number of slots; with every slot taken the answer is 503 "busy" with
// Retry-After.
func (h *Handler) runTimeline(w http.ResponseWriter, r *http.Request) {
	if h.timeline == nil {
		// Refuse before reading: nothing in the body can change the answer.
		writeError(w, http.StatusNotImplemented, codeNotImplemented, h.noTL)
		return
	}
	text, ok := timelineText(w, r)
	if !ok {
		return
	}
	select {
	case h.runs <- struct{}{}:
	default:
		w.Header().Set("Retry-After", "1")
		writeError(w, http.StatusServiceUnavailable, codeBusy,
			fmt.Sprintf("%d timelines are running, the most this server runs at once; try again", cap(h.runs)))
		return
	}
	// The slot is given back when both the runner has returned and its
	// answer has been written: a trace waiting on a client that reads
	// slowly, or not at all, holds its slot, so the answers held in memory
	// are at most the slots' number, each at most the limit trace_bytes.
	release := releaseAfter(2, func() { <-h.runs })
	defer release()
	ctx, cancel := context.WithTimeout(r.Context(), h.runFor)
	defer cancel()
	out := make(chan runOutcome, 1)
	go h.run(ctx, text, out, release)
	var res runOutcome
	select {
	case res = <-out:
	case <-ctx.Done(): // a runner that does not stop is not waited for
	}
	switch {
	case r.Context().Err() != nil:
		// The client left: nobody reads an answer.
	case ctx.Err() != nil:
		writeError(w, http.StatusServiceUnavailable, codeTimeout,
			fmt.Sprintf("the timeline ran for %v, the most one run may take, and was stopped", h.runFor))
	case errors.Is(res.err, ErrTimelineInput):
		writeError(w, http.StatusBadRequest, codeBadRequest, res.err.Error())
	case res.err != nil:
		h.internal(w, r, codeDatabase, res.err)
	default:
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusOK)
		w.Write(res.trace)
	}
}

// run runs one timeline in a slot taken by the caller and calls release
// when the runner returns, however late: the number of runs at once counts
// the runs that really go on. It releases before it hands the outcome
// over, so once the handler has written the answer and returned, the slot
// is free. A panic is the server's error.
func (h *Handler) run(ctx context.Context, text string, out chan<- runOutcome, release func()) {
	var res runOutcome
	func() {
		defer func() {
			if p := recover(); p != nil {
				res = runOutcome{err: fmt.Errorf("timeline runner panicked: %v", p)}
			}
		}()
		res.trace, res.err = h.timeline(ctx, text)
	}()
	release()
	out <- res // out holds one: the send never waits
}

// timelineText reads a timeline's text: at most limits.Default.TextBytes
// (413 over it), UTF-8 and not blank (400).
func timelineText(w http.ResponseWriter, r *http.Request) (string, bool) {
	b, ok := body(w, r, int64(limits.Default.TextBytes))
	if !ok {
		return "", false
	}
	var err error
	switch {
	case len(bytes.TrimSpace(b)) == 0:
		err = errors.New("empty body: want a timeline's text")
	case !utf8.Valid(b):
		err = errors.New("the timeline's text is not UTF-8")
	}
	if err != nil {
		writeError(w, http.StatusBadRequest, codeBadRequest, err.Error())
		return "", false
	}
	return string(b), true
}

// releaseAfter returns a function that runs free on its n-th call, and
// does nothing on the others.
func releaseAfter(n int32, free func()) func() {
	var calls atomic.Int32
	return func() {
		if calls.Add(1) == n {
			free()
		}
	}
}
