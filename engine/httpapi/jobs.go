package httpapi

import (
	"fmt"
	"net/http"
	"unicode/utf8"

	"github.com/leaselab/leaselab/engine"
)

func (h *Handler) listJobs(w http.ResponseWriter, r *http.Request) {
	jobs, err := h.store.Jobs(r.Context())
	if err != nil {
		h.fail(w, r, err)
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
	created, err := h.store.Enqueue(ctx, engine.NewJob{ID: req.ID, Qty: req.Qty,
		Deadline: req.Deadline, MaxAttempts: req.MaxAttempts})
	if err != nil {
		h.fail(w, r, err)
		return
	}
	j, err := h.store.Get(ctx, req.ID)
	if err == nil && j == nil {
		err = fmt.Errorf("job %q vanished after enqueue", req.ID)
	}
	if err != nil {
		h.fail(w, r, err)
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
