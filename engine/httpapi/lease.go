package httpapi

import (
	"net/http"

	"github.com/leaselab/leaselab/engine"
)

type claimRequest struct {
	Owner string   `json:"owner"`
	JobID *string  `json:"job_id"` // absent: the next claimable job (null is refused)
	Now   nowField `json:"now"`
	TTL   *int64   `json:"ttl"`
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
		h.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, leaseAnswer{toLease(l), now})
}

type renewRequest struct {
	Lease *leaseJSON `json:"lease"`
	Now   nowField   `json:"now"`
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
		h.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, leaseAnswer{toLease(out), now})
}

type completeRequest struct {
	Lease  *leaseJSON `json:"lease"`
	Now    nowField   `json:"now"`
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
		h.fail(w, r, err)
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
		h.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		OK bool `json:"ok"`
	}{true})
}
