package httpapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/leaselab/leaselab/engine"
)

// DefaultMaxBodyBytes is the largest request body a Handler reads unless
// WithMaxBodyBytes says otherwise; a larger one is refused with 413.
const DefaultMaxBodyBytes = 64 << 10

// MaxSafeInteger is the largest time, duration, quantity or token the API
// takes (2^53-1): beyond it a JavaScript number, and D1, lose precision.
const MaxSafeInteger = 1<<53 - 1

// ErrTimelineInput marks a timeline the author got wrong (a syntax error, an
// unknown job, time going backwards). A TimelineFunc wraps such errors with
// it; the API answers them with 400 and the error's text.
var ErrTimelineInput = errors.New("bad timeline")

// TimelineFunc runs a timeline's text on a fresh database of its own (never
// the store's: a timeline enqueues and claims jobs of its own) and returns
// its JSON trace. An error wrapping ErrTimelineInput is the author's; any
// other is the server's.
type TimelineFunc func(ctx context.Context, text string) (trace []byte, err error)

// Handler is the JSON API over one Store (see the package documentation).
// It is safe for concurrent use.
type Handler struct {
	store    *engine.Store
	now      func() int64
	maxBody  int64
	timeline TimelineFunc
	noTL     string
	mux      *http.ServeMux
}

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

// WithoutTimeline makes POST /api/timeline answer 501 with why as its
// message, for a deployment that has no private database to run one on.
func WithoutTimeline(why string) Option {
	return func(h *Handler) { h.timeline, h.noTL = nil, why }
}

// New returns the API over store. The handler answers every path under
// /api/ (and a JSON 404 for any other path that reaches it).
func New(store *engine.Store, opts ...Option) *Handler {
	h := &Handler{
		store:   store,
		now:     func() int64 { return time.Now().UnixMilli() },
		maxBody: DefaultMaxBodyBytes,
		noTL:    "this server runs no timelines",
		mux:     http.NewServeMux(),
	}
	for _, o := range opts {
		o(h)
	}
	h.route("/api/jobs", map[string]http.HandlerFunc{
		http.MethodGet:  h.listJobs,
		http.MethodPost: h.enqueue,
	})
	h.route("/api/jobs/{id}", map[string]http.HandlerFunc{http.MethodGet: h.getJob})
	h.route("/api/claim", map[string]http.HandlerFunc{http.MethodPost: h.claim})
	h.route("/api/renew", map[string]http.HandlerFunc{http.MethodPost: h.renew})
	h.route("/api/complete", map[string]http.HandlerFunc{http.MethodPost: h.complete})
	h.route("/api/release", map[string]http.HandlerFunc{http.MethodPost: h.release})
	h.route("/api/timeline", map[string]http.HandlerFunc{http.MethodPost: h.runTimeline})
	h.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, codeNotFound, "no API route "+r.URL.Path)
	})
	return h
}

// ServeHTTP answers one request.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mux.ServeHTTP(w, r)
}

// route registers pattern for the given methods; any other method is 405
// with Allow.
func (h *Handler) route(pattern string, methods map[string]http.HandlerFunc) {
	allowed := make([]string, 0, len(methods))
	for m := range methods {
		allowed = append(allowed, m)
	}
	slices.Sort(allowed)
	allow := strings.Join(allowed, ", ")
	h.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		f, ok := methods[r.Method]
		if !ok {
			w.Header().Set("Allow", allow)
			writeError(w, http.StatusMethodNotAllowed, codeMethodNotAllowed,
				fmt.Sprintf("%s %s: this route takes %s", r.Method, r.URL.Path, allow))
			return
		}
		f(w, r)
	})
}

// fail answers an error from the engine: a rejection (409, or 404 for an
// unknown job), an invalid argument (400), no claimable job (404), a write
// that lost every race for its row (503 with Retry-After: nothing changed),
// or the database's failure (500).
func (h *Handler) fail(w http.ResponseWriter, err error) {
	var rej *engine.Rejection
	switch {
	case errors.As(err, &rej):
		writeRejection(w, rej)
	case errors.Is(err, engine.ErrInvalid):
		writeError(w, http.StatusBadRequest, codeBadRequest, err.Error())
	case errors.Is(err, engine.ErrEmpty):
		writeError(w, http.StatusNotFound, codeEmpty, err.Error())
	case errors.Is(err, engine.ErrContention):
		w.Header().Set("Retry-After", "1")
		writeError(w, http.StatusServiceUnavailable, codeContention, err.Error())
	default:
		writeError(w, http.StatusInternalServerError, codeDatabase, err.Error())
	}
}

func (h *Handler) listJobs(w http.ResponseWriter, r *http.Request) {
	jobs, err := h.store.Jobs(r.Context())
	if err != nil {
		h.fail(w, err)
		return
	}
	out := make([]jobJSON, len(jobs))
	for i, j := range jobs {
		out[i] = toJob(j)
	}
	writeJSON(w, http.StatusOK, struct {
		Jobs []jobJSON `json:"jobs"`
	}{out})
}

func (h *Handler) getJob(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	j, err := h.store.Get(r.Context(), id)
	switch {
	case err != nil:
		h.fail(w, err)
	case j == nil:
		writeError(w, http.StatusNotFound, codeNotFound, fmt.Sprintf("no job %q", id))
	default:
		writeJSON(w, http.StatusOK, toJob(*j))
	}
}

type enqueueRequest struct {
	ID          string `json:"id"`
	Qty         int64  `json:"qty"`
	Deadline    int64  `json:"deadline"`
	MaxAttempts int64  `json:"max_attempts"`
}

func (h *Handler) enqueue(w http.ResponseWriter, r *http.Request) {
	var req enqueueRequest
	if !h.decode(w, r, &req) {
		return
	}
	if err := firstErr(safe("qty", req.Qty), safe("deadline", req.Deadline),
		safe("max_attempts", req.MaxAttempts)); err != nil {
		writeError(w, http.StatusBadRequest, codeBadRequest, err.Error())
		return
	}
	ctx := r.Context()
	created, err := h.store.Enqueue(ctx, engine.NewJob{ID: req.ID, Qty: req.Qty,
		Deadline: req.Deadline, MaxAttempts: req.MaxAttempts})
	if err != nil {
		h.fail(w, err)
		return
	}
	j, err := h.store.Get(ctx, req.ID)
	if err == nil && j == nil {
		err = fmt.Errorf("job %q vanished after enqueue", req.ID)
	}
	if err != nil {
		h.fail(w, err)
		return
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	writeJSON(w, status, struct {
		Created bool    `json:"created"`
		Job     jobJSON `json:"job"`
	}{created, toJob(*j)})
}

type claimRequest struct {
	Owner string  `json:"owner"`
	JobID *string `json:"job_id"` // nil: the next claimable job
	Now   *int64  `json:"now"`
	TTL   *int64  `json:"ttl"`
}

type leaseAnswer struct {
	Lease leaseJSON `json:"lease"`
	Now   int64     `json:"now"`
}

func (h *Handler) claim(w http.ResponseWriter, r *http.Request) {
	var req claimRequest
	if !h.decode(w, r, &req) {
		return
	}
	now, ttl, ok := h.times(w, req.Now, req.TTL)
	if !ok {
		return
	}
	var (
		l   engine.Lease
		err error
	)
	if req.JobID == nil {
		l, err = h.store.ClaimNext(r.Context(), req.Owner, now, ttl)
	} else {
		l, err = h.store.Claim(r.Context(), *req.JobID, req.Owner, now, ttl)
	}
	if err != nil {
		h.fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, leaseAnswer{toLease(l), now})
}

type renewRequest struct {
	Lease *leaseJSON `json:"lease"`
	Now   *int64     `json:"now"`
	TTL   *int64     `json:"ttl"`
}

func (h *Handler) renew(w http.ResponseWriter, r *http.Request) {
	var req renewRequest
	if !h.decode(w, r, &req) {
		return
	}
	l, ok := presented(w, req.Lease)
	if !ok {
		return
	}
	now, ttl, ok := h.times(w, req.Now, req.TTL)
	if !ok {
		return
	}
	out, err := h.store.Renew(r.Context(), l, now, ttl)
	if err != nil {
		h.fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, leaseAnswer{toLease(out), now})
}

type completeRequest struct {
	Lease  *leaseJSON `json:"lease"`
	Now    *int64     `json:"now"`
	Result string     `json:"result"`
}

func (h *Handler) complete(w http.ResponseWriter, r *http.Request) {
	var req completeRequest
	if !h.decode(w, r, &req) {
		return
	}
	l, ok := presented(w, req.Lease)
	if !ok {
		return
	}
	now, ok := h.clock(w, req.Now)
	if !ok {
		return
	}
	if err := h.store.Complete(r.Context(), l, now, req.Result); err != nil {
		h.fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		OK  bool  `json:"ok"`
		Now int64 `json:"now"`
	}{true, now})
}

type releaseRequest struct {
	Lease *leaseJSON `json:"lease"`
}

func (h *Handler) release(w http.ResponseWriter, r *http.Request) {
	var req releaseRequest
	if !h.decode(w, r, &req) {
		return
	}
	l, ok := presented(w, req.Lease)
	if !ok {
		return
	}
	if err := h.store.Release(r.Context(), l); err != nil {
		h.fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		OK bool `json:"ok"`
	}{true})
}

func (h *Handler) runTimeline(w http.ResponseWriter, r *http.Request) {
	if h.timeline == nil {
		// Refuse before reading: nothing in the body can change the answer.
		writeError(w, http.StatusNotImplemented, codeNotImplemented, h.noTL)
		return
	}
	body, ok := h.body(w, r)
	if !ok {
		return
	}
	trace, err := h.timeline(r.Context(), string(body))
	switch {
	case errors.Is(err, ErrTimelineInput):
		writeError(w, http.StatusBadRequest, codeBadRequest, err.Error())
	case err != nil:
		writeError(w, http.StatusInternalServerError, codeDatabase, err.Error())
	default:
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusOK)
		w.Write(trace)
	}
}
