package httpapi

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/leaselab/leaselab/engine"
)

// jobJSON is a job on the wire: every field, always present.
type jobJSON struct {
	ID          string `json:"id"`
	Qty         int64  `json:"qty"`
	Owner       string `json:"owner"`
	LeaseUntil  int64  `json:"lease_until"`
	Token       int64  `json:"token"`
	Attempts    int64  `json:"attempts"`
	MaxAttempts int64  `json:"max_attempts"`
	Deadline    int64  `json:"deadline"`
	Status      string `json:"status"`
	Reason      string `json:"reason"`
	Result      string `json:"result"`
}

func toJob(j engine.Job) jobJSON {
	return jobJSON{ID: j.ID, Qty: j.Qty, Owner: j.Owner, LeaseUntil: j.LeaseUntil,
		Token: j.Token, Attempts: j.Attempts, MaxAttempts: j.MaxAttempts,
		Deadline: j.Deadline, Status: string(j.Status), Reason: j.Reason, Result: j.Result}
}

// leaseJSON is a lease on the wire. In a request, Token is a pointer so a
// missing token is told apart from token 0.
type leaseJSON struct {
	JobID      string `json:"job_id"`
	Owner      string `json:"owner"`
	Qty        int64  `json:"qty"`
	Token      *int64 `json:"token"`
	Attempt    int64  `json:"attempt"`
	LeaseUntil int64  `json:"lease_until"`
}

func toLease(l engine.Lease) leaseJSON {
	token := l.Token
	return leaseJSON{JobID: l.JobID, Owner: l.Owner, Qty: l.Qty, Token: &token,
		Attempt: l.Attempt, LeaseUntil: l.LeaseUntil}
}

// errorJSON is every error answer: a code and a message for people.
type errorJSON struct {
	Error   string `json:"error"`
	Message string `json:"message"`
}

// rejectionJSON is a refusal by a rule: the engine's Rejection, flat.
// Current is null when the job does not exist.
type rejectionJSON struct {
	Error     string    `json:"error"`
	Op        string    `json:"op"`
	Reason    string    `json:"reason"`
	Presented leaseJSON `json:"presented"`
	Current   *jobJSON  `json:"current"`
	Now       int64     `json:"now"`
	Message   string    `json:"message"`
}

// Error codes of errorJSON and rejectionJSON.
const (
	codeBadRequest       = "bad_request"
	codeTooLarge         = "too_large"
	codeMethodNotAllowed = "method_not_allowed"
	codeNotFound         = "not_found"
	codeRefused          = "refused"
	codeEmpty            = "empty"
	codeContention       = "contention"
	codeDatabaseBusy     = "database_busy"
	codeBusy             = "busy"
	codeCrossOrigin      = "cross_origin"
	codeMisdirected      = "misdirected"
	codeTimeout          = "timeout"
	codeNotImplemented   = "not_implemented"
	codeDatabase         = "database"
)

// reasonCode names a rejection's sentinel on the wire: the engine's
// vocabulary (engine.RefusalOf).
func reasonCode(reason error) string {
	if r := engine.RefusalOf(reason); r != "" {
		return string(r)
	}
	return "unknown"
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil { // only plain structs reach here; a failure is a bug
		status = http.StatusInternalServerError
		body, _ = json.Marshal(errorJSON{Error: "internal", Message: err.Error()})
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(append(body, '\n'))
}

func writeError(w http.ResponseWriter, status int, code, message string) {
	writeJSON(w, status, errorJSON{Error: code, Message: message})
}

func writeRejection(w http.ResponseWriter, rej *engine.Rejection) {
	status, code := http.StatusConflict, codeRefused
	body := rejectionJSON{Op: rej.Op, Reason: reasonCode(rej.Reason),
		Presented: toLease(rej.Presented), Now: rej.Now, Message: rej.Error()}
	if errors.Is(rej.Reason, engine.ErrNotFound) {
		status, code = http.StatusNotFound, codeNotFound
	} else {
		cur := toJob(rej.Current)
		body.Current = &cur
	}
	body.Error = code
	writeJSON(w, status, body)
}
