package engine

// Status is a job's stored status.
type Status string

const (
	StatusPending     Status = "pending"     // never claimed, or released
	StatusLeased      Status = "leased"      // claimed; stays "leased" after the lease ends until the job is reclaimed, released, completed or quarantined
	StatusDone        Status = "done"        // completed; final
	StatusQuarantined Status = "quarantined" // budget used up; final
)

// Quarantine reasons, stored in Job.Reason.
const (
	ReasonAttempts = "attempts" // max_attempts > 0 and attempts >= max_attempts
	ReasonDeadline = "deadline" // now >= deadline
)

// NewJob is what Enqueue takes. Qty 0 means 1; Deadline 0 means none;
// MaxAttempts 0 means unlimited. Negative values are invalid.
type NewJob struct {
	ID                         string
	Qty, Deadline, MaxAttempts int64
}

// Row is the job Enqueue stores for j when it creates it: pending, never
// claimed, its Qty 1 when j's is 0.
func (j NewJob) Row() Job {
	qty := j.Qty
	if qty == 0 {
		qty = 1
	}
	return Job{ID: j.ID, Qty: qty, Deadline: j.Deadline, MaxAttempts: j.MaxAttempts, Status: StatusPending}
}

// Job is one row of the jobs table as stored.
type Job struct {
	ID, Owner, Result, Reason                               string // Owner "" when unowned; Reason: why quarantined ("attempts", "deadline"), else ""
	Qty, LeaseUntil, Token, Attempts, MaxAttempts, Deadline int64  // Deadline 0: none; MaxAttempts 0: unlimited
	Status                                                  Status // stored status; a leased job whose lease ended still says "leased"
}

// Lease is what a successful claim hands the worker, and what it presents to
// renew, complete or release. Token is the claim's generation; Attempt is the
// job's attempts count after this claim.
type Lease struct {
	JobID, Owner                    string
	Qty, Token, Attempt, LeaseUntil int64
}

// heldAt reports whether the lease recorded in j is valid at now.
func (j *Job) heldAt(now int64) bool { return j.Owner != "" && now < j.LeaseUntil }
