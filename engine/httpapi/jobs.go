package httpapi

import (
	"fmt"
	"net/http"
	"net/url"
	"runtime"
	"strconv"
	"unicode/utf8"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/limits"
)

// DefaultListsAtOnce is how many job lists the API reads at once unless
// WithListsAtOnce says otherwise: two per processor Go may use.
func DefaultListsAtOnce() int { return 2 * runtime.GOMAXPROCS(0) }

// listJobs answers GET /api/jobs: one page of the jobs in insertion order,
// in one of a fixed number of slots; with every slot taken the answer is
// 503 "busy" with Retry-After.
func (h *Handler) listJobs(w http.ResponseWriter, r *http.Request) {
	limit, after, err := pageOf(r.URL.RawQuery)
	if err != nil {
		writeError(w, http.StatusBadRequest, codeBadRequest, err.Error())
		return
	}
	select {
	case h.lists <- struct{}{}:
		defer func() { <-h.lists }()
	default:
		w.Header().Set("Retry-After", "1")
		writeError(w, http.StatusServiceUnavailable, codeBusy,
			fmt.Sprintf("%d job lists are being read, the most this server reads at once; try again", cap(h.lists)))
		return
	}
	jobs, next, err := h.store.JobsAfter(r.Context(), after, limit)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	out := make([]jobJSON, len(jobs))
	for i, j := range jobs {
		out[i] = toJob(j)
	}
	var cursor *string
	if next != 0 {
		c := strconv.FormatInt(next, 10)
		cursor = &c
	}
	writeJSON(w, http.StatusOK, struct {
		Jobs []jobJSON `json:"jobs"`
		Next *string   `json:"next"`
	}{out, cursor})
}

// pageOf reads a job list's query: "limit", 1..limits.Default.ListPageMax
// (limits.Default.ListPage when absent), and "cursor", a "next" an earlier
// page answered (from the first job when absent). Each may be given once;
// any other parameter is an error.
func pageOf(rawQuery string) (limit int, after int64, err error) {
	q, err := url.ParseQuery(rawQuery)
	if err != nil {
		return 0, 0, fmt.Errorf("query: %v", err)
	}
	limit = limits.Default.ListPage
	for name, vs := range q {
		if len(vs) != 1 {
			return 0, 0, fmt.Errorf("%s: given %d times; give it once", name, len(vs))
		}
		v := vs[0]
		switch name {
		case "limit":
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > limits.Default.ListPageMax || strconv.Itoa(n) != v {
				return 0, 0, fmt.Errorf("limit: %q is not a whole number in 1..%d (%s)",
					v, limits.Default.ListPageMax, limits.Default.Row("list_page_max"))
			}
			limit = n
		case "cursor":
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n < 1 || strconv.FormatInt(n, 10) != v {
				return 0, 0, fmt.Errorf("cursor: %q is not a cursor this API answered as \"next\"", v)
			}
			after = n
		default:
			return 0, 0, fmt.Errorf("unknown parameter %q: a job list takes limit and cursor", name)
		}
	}
	return limit, after, nil
}

func (h *Handler) getJob(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if !utf8.ValidString(id) { // as in a body: two ids never become one U+FFFD
		writeError(w, http.StatusBadRequest, codeBadRequest, "id: invalid UTF-8 in the path: ids are UTF-8")
		return
	}
	j, err := h.store.Get(r.Context(), id)
	switch {
	case err != nil:
		h.fail(w, r, err)
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
	nj := engine.NewJob{ID: req.ID, Qty: req.Qty, Deadline: req.Deadline, MaxAttempts: req.MaxAttempts}
	created, err := h.store.Enqueue(ctx, nj)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	// A created job is the row Enqueue wrote: no read after the write
	// that could fail (busy) and answer as if nothing had been written.
	status, j := http.StatusCreated, nj.Row()
	if !created {
		status = http.StatusOK
		cur, err := h.store.Get(ctx, req.ID) // nothing was written
		if err == nil && cur == nil {
			err = fmt.Errorf("job %q vanished after enqueue", req.ID)
		}
		if err != nil {
			h.fail(w, r, err)
			return
		}
		j = *cur
	}
	writeJSON(w, status, struct {
		Created bool    `json:"created"`
		Job     jobJSON `json:"job"`
	}{created, toJob(j)})
}
