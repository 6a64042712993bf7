package httpapi

import (
	"errors"
	"net/http"
)

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
		h.internal(w, r, codeDatabase, err)
	default:
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusOK)
		w.Write(trace)
	}
}
