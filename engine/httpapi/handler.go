package httpapi

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/leaselab/leaselab/engine"
)

// DefaultMaxBodyBytes is the largest request body a Handler reads unless
// WithMaxBodyBytes says otherwise; a larger one is refused with 413.
const DefaultMaxBodyBytes = 64 << 10

// MaxTTL is the longest lease a claim or renew may ask for: the engine's,
// one ms under the limit max_time of package limits (about 11.6 days). A
// ttl beyond it is 400: a caller who could ask for years could hold a job
// for good.
const MaxTTL = engine.MaxTTL

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
	mode     ClockMode
	maxBody  int64
	timeline TimelineFunc
	noTL     string
	runFor   time.Duration // the longest one timeline run may take
	runs     chan struct{} // one token per timeline running now
	maxRuns  int
	lists    chan struct{} // one token per job list being read now
	maxLists int
	log      *log.Logger
	mux      *http.ServeMux
	serve    http.Handler // mux behind the cross-origin check
}

// New returns the API over store. The handler answers every path under
// /api/ (and a JSON 404 for any other path that reaches it).
func New(store *engine.Store, opts ...Option) *Handler {
	h := &Handler{
		store:    store,
		now:      func() int64 { return time.Now().UnixMilli() },
		mode:     ClientClock,
		maxBody:  DefaultMaxBodyBytes,
		noTL:     "this server runs no timelines",
		runFor:   DefaultTimelineDeadline,
		maxRuns:  DefaultTimelineRuns(),
		maxLists: DefaultListsAtOnce(),
		log:      log.Default(),
		mux:      http.NewServeMux(),
	}
	for _, o := range opts {
		o(h)
	}
	h.runs = make(chan struct{}, h.maxRuns)
	h.lists = make(chan struct{}, h.maxLists)
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
	h.serve = crossOrigin(h.mux)
	return h
}

// ServeHTTP answers one request. A browser's write from a page of another
// origin is refused first (403, see crossOrigin). Every answer carries
// X-Content-Type-Options: nosniff: a browser takes it as the JSON it says.
// A panic while answering is the server's failure: 500, the panic in the
// log (the engine hands back a panic in a goroutine of its own as an
// error, engine.ErrPanicked, which is a 500 too).
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if p := recover(); p != nil {
			if p == http.ErrAbortHandler {
				panic(p)
			}
			h.internal(w, r, codeDatabase, fmt.Errorf("panic: %v", p))
		}
	}()
	w.Header().Set("X-Content-Type-Options", "nosniff")
	h.serve.ServeHTTP(w, r)
}

// route registers pattern for the given methods, and HEAD beside GET (the
// GET answer without its body); any other method is 405 with Allow.
func (h *Handler) route(pattern string, methods map[string]http.HandlerFunc) {
	if get, ok := methods[http.MethodGet]; ok {
		methods[http.MethodHead] = func(w http.ResponseWriter, r *http.Request) {
			get(headWriter{w}, r)
		}
	}
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
// that lost every race for its row or met the database locked past its
// busy timeout (503 with Retry-After: nothing changed), or the database's
// failure (500, see internal).
func (h *Handler) fail(w http.ResponseWriter, r *http.Request, err error) {
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
	case errors.Is(err, engine.ErrBusy):
		w.Header().Set("Retry-After", "1")
		writeError(w, http.StatusServiceUnavailable, codeDatabaseBusy, errBusyMessage)
	default:
		h.internal(w, r, codeDatabase, err)
	}
}

// errInternalMessage is the message of every 500: the cause goes to the
// server's log, never to the client (a database's error text names its
// files, tables and statements).
const errInternalMessage = "the server failed to answer; its log says why"

// errBusyMessage is the message of a 503 database_busy: like a 500's, it
// says nothing of the database's own error text.
const errBusyMessage = "the database is busy: other writers held it locked past its busy timeout; this call changed nothing, retry it"

// internal logs err with the request's method and path and answers 500
// with code and a message that says nothing of err.
func (h *Handler) internal(w http.ResponseWriter, r *http.Request, code string, err error) {
	h.log.Printf("httpapi: %s %s: %s: %v", r.Method, r.URL.Path, code, err)
	writeError(w, http.StatusInternalServerError, code, errInternalMessage)
}

// ServerError answers 500 "database" as a Handler answers a failure of its
// own (JSON, Cache-Control: no-store, X-Content-Type-Options: nosniff, a
// message that says nothing of the cause), for a server that fails before
// it has a Handler to answer with: the caller logs the cause.
func ServerError(w http.ResponseWriter) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	writeError(w, http.StatusInternalServerError, codeDatabase, errInternalMessage)
}

// headWriter answers HEAD: the headers and status GET would send, and no
// body (a server that sends one anyway is not HTTP).
type headWriter struct{ http.ResponseWriter }

func (headWriter) Write(p []byte) (int, error) { return len(p), nil }
