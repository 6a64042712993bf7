package httpapi

import (
	"io"
	"log"
	"time"
)

// Option configures a Handler.
type Option func(*Handler)

// WithClock sets the server's clock, read when a request omits "now".
// The default is time.Now().UnixMilli().
func WithClock(now func() int64) Option {
	return func(h *Handler) { h.now = now }
}

// WithMaxBodyBytes sets the largest request body read; n <= 0 keeps
// DefaultMaxBodyBytes.
func WithMaxBodyBytes(n int64) Option {
	return func(h *Handler) {
		if n > 0 {
			h.maxBody = n
		}
	}
}

// WithTimeline makes POST /api/timeline run timelines with run. Without it
// the route answers 501 with why (see WithoutTimeline).
func WithTimeline(run TimelineFunc) Option {
	return func(h *Handler) { h.timeline = run }
}

// WithTimelineDeadline sets the longest one POST /api/timeline may run
// (DefaultTimelineDeadline); d <= 0 keeps the default. At the deadline the
// run's context ends and the answer is 503 "timeout".
func WithTimelineDeadline(d time.Duration) Option {
	return func(h *Handler) {
		if d > 0 {
			h.runFor = d
		}
	}
}

// WithTimelineRuns sets how many timelines may run at once
// (DefaultTimelineRuns); one more is answered 503 "busy" with
// Retry-After. n <= 0 keeps the default.
func WithTimelineRuns(n int) Option {
	return func(h *Handler) {
		if n > 0 {
			h.maxRuns = n
		}
	}
}

// WithListsAtOnce sets how many GET /api/jobs may be read at once
// (DefaultListsAtOnce); one more is answered 503 "busy" with Retry-After.
// n <= 0 keeps the default.
func WithListsAtOnce(n int) Option {
	return func(h *Handler) {
		if n > 0 {
			h.maxLists = n
		}
	}
}

// WithErrorLog sets where a 500's cause is logged (the client hears only
// that the server failed). The default is log.Default(); nil discards.
func WithErrorLog(l *log.Logger) Option {
	return func(h *Handler) {
		if l == nil {
			l = log.New(io.Discard, "", 0)
		}
		h.log = l
	}
}

// WithoutTimeline makes POST /api/timeline answer 501 with why as its
// message, for a deployment that has no private database to run one on.
func WithoutTimeline(why string) Option {
	return func(h *Handler) { h.timeline, h.noTL = nil, why }
}
