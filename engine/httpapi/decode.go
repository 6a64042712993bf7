package httpapi

import (
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/limits"
)

// body reads the whole request body (the Workers runtime cannot stream
// one), refusing one over limit bytes with 413.
func body(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, bool) {
	if r.ContentLength > limit {
		tooLarge(w, limit)
		return nil, false
	}
	if r.Body == nil {
		return nil, true
	}
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		tooLarge(w, limit)
		return nil, false
	case err != nil:
		writeError(w, http.StatusBadRequest, codeBadRequest, "reading the body: "+err.Error())
		return nil, false
	}
	return b, true
}

func tooLarge(w http.ResponseWriter, limit int64) {
	writeError(w, http.StatusRequestEntityTooLarge, codeTooLarge,
		fmt.Sprintf("request body over %d bytes", limit))
}

// decode reads the body as exactly one JSON object into dst, with no
// unknown fields and nothing after it; on failure it answers 400 (or 413)
// and returns false.
func (h *Handler) decode(w http.ResponseWriter, r *http.Request, dst any) bool {
	b, ok := body(w, r, h.maxBody)
	if !ok {
		return false
	}
	if err := decodeJSON(b, dst); err != nil {
		writeError(w, http.StatusBadRequest, codeBadRequest, err.Error())
		return false
	}
	return true
}

// safe checks that a number the API takes is within 0..MaxSafeInteger
// (the engine refuses negative ones too; this says which field).
func safe(field string, v int64) error {
	if v < 0 || v > MaxSafeInteger {
		return fmt.Errorf("%s: %d is out of range 0..%d", field, v, int64(MaxSafeInteger))
	}
	return nil
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// times resolves now and a required ttl in 1..MaxSafeInteger-now.
func (h *Handler) times(w http.ResponseWriter, now nowField, ttl *int64) (int64, int64, bool) {
	n, ok := h.clock(w, now)
	if !ok {
		return 0, 0, false
	}
	var err error
	switch {
	case ttl == nil:
		err = errors.New("ttl is required: the lease's length in milliseconds, > 0")
	case *ttl <= 0:
		err = fmt.Errorf("%w: ttl %d <= 0", engine.ErrInvalid, *ttl)
	case *ttl > MaxTTL:
		err = fmt.Errorf("ttl %d is over %d ms, one under %s: a lease that long would hold a job for good", *ttl, int64(MaxTTL), limits.Default.Row("max_time"))
	case *ttl > MaxSafeInteger-n:
		err = fmt.Errorf("now+ttl: %d+%d is over %d", n, *ttl, int64(MaxSafeInteger))
	}
	if err != nil {
		writeError(w, http.StatusBadRequest, codeBadRequest, err.Error())
		return 0, 0, false
	}
	return n, *ttl, true
}

// presented turns the request's lease into the engine's; job_id, owner and
// token are required, the rest is ignored (the row decides it).
func presented(w http.ResponseWriter, l *leaseJSON) (engine.Lease, bool) {
	var err error
	switch {
	case l == nil:
		err = errors.New("lease is required: the lease a claim returned")
	case l.JobID == "":
		err = errors.New("lease.job_id is required")
	case l.Owner == "":
		err = errors.New("lease.owner is required")
	case l.Token == nil:
		err = errors.New("lease.token is required")
	default:
		err = safe("lease.token", *l.Token)
	}
	if err != nil {
		writeError(w, http.StatusBadRequest, codeBadRequest, err.Error())
		return engine.Lease{}, false
	}
	return engine.Lease{JobID: l.JobID, Owner: l.Owner, Qty: l.Qty, Token: *l.Token,
		Attempt: l.Attempt, LeaseUntil: l.LeaseUntil}, true
}
