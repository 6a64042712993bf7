package grade

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/internal/lang"
	"github.com/leaselab/leaselab/engine/leasetest"
	"github.com/leaselab/leaselab/engine/sqlitedb"
)

// The labs Grade grades (Options.LabName).
const (
	Fencing = "fencing"
	Courier = "courier"
)

// Labs are the labs' names, the fencing lab first (the default).
func Labs() []string { return []string{Fencing, Courier} }

// labFunctions are each lab's functions, in the order its steps introduce
// them.
var labFunctions = map[string][]string{
	Fencing: {"init_db", "enqueue", "state", "claim", "renew", "complete", "release", "claim_many"},
	Courier: {"init_db", "enqueue", "state", "claim_next", "finish", "send", "receive"},
}

// courierQueue is the student's courier queue as a leasetest.Queue: the
// columns of its table are the engine's, so a row is read as it stands;
// claim_next's marker is the lease, and finish presents a lease as its
// marker. The courier claims no job by id, and has no renew or release:
// those calls are errNotLab, and the stories that make them are skipped.
type courierQueue struct{ *labQueue }

// asQueue is q as leasetest plays it: the courier's functions or the
// fencing lab's.
func asQueue(q *labQueue) leasetest.Queue {
	if q.courier {
		return &courierQueue{q}
	}
	return q
}

func (q *courierQueue) Enqueue(ctx context.Context, j engine.NewJob) (bool, error) {
	ok, serr := q.shadow.Enqueue(j)
	qty := max(j.Qty, 1)
	var deadline any
	if j.Deadline != 0 {
		deadline = j.Deadline
	}
	return q.boolRaw(ctx, q.t().boolWant(ok, serr), "enqueue", q.path, j.ID, qty, deadline, j.MaxAttempts)
}

func (q *courierQueue) Get(ctx context.Context, id string) (*engine.Job, error) {
	ret, err := q.state(ctx, id, q.t().courierDict)
	if ret == nil || err != nil {
		return nil, err
	}
	var r courierRow
	if err := json.Unmarshal(ret, &r); err != nil || r.ID == "" {
		return &engine.Job{}, nil // not a dict of the row: no row
	}
	j := r.job()
	return &j, nil
}

// courierRow is state's dict, and a row of the courier's table.
type courierRow struct {
	ID          string  `json:"id"`
	Qty         int64   `json:"qty"`
	Owner       *string `json:"owner"`
	LeaseUntil  float64 `json:"lease_until"`
	Token       int64   `json:"token"`
	Attempts    int64   `json:"attempts"`
	MaxAttempts int64   `json:"max_attempts"`
	Deadline    *int64  `json:"deadline"`
	Status      string  `json:"status"`
	Reason      *string `json:"reason"`
	Result      *string `json:"result"`
}

func (r courierRow) job() engine.Job {
	j := engine.Job{ID: r.ID, Qty: r.Qty, LeaseUntil: int64(r.LeaseUntil), Token: r.Token, Attempts: r.Attempts,
		MaxAttempts: r.MaxAttempts, Status: engine.Status(r.Status)}
	if r.Owner != nil {
		j.Owner = *r.Owner
	}
	if r.Deadline != nil {
		j.Deadline = *r.Deadline
	}
	if r.Reason != nil {
		j.Reason = *r.Reason
	}
	if r.Result != nil {
		j.Result = *r.Result
	}
	return j
}

func (q *courierQueue) ClaimNext(ctx context.Context, owner string, now, ttl int64) (engine.Lease, error) {
	sl, serr := q.shadow.ClaimNext(owner, now, ttl)
	want := q.t().none()
	switch {
	case serr == nil:
		want = q.t().value(markerOf(sl))
		if q.markers == nil {
			q.markers = map[markerKey]engine.Lease{}
		}
		q.markers[markerKey{sl.JobID, sl.Owner, sl.Token}] = sl
	case errors.Is(serr, engine.ErrInvalid):
		want = q.t().raise("ValueError")
	}
	a, err := q.raw(ctx, want, "claim_next", q.path, owner, now, ttl)
	if err != nil {
		return engine.Lease{}, err
	}
	if a.Error != "" {
		return engine.Lease{}, studentErr(a)
	}
	if string(a.Return) == "null" {
		if serr != nil && !errors.Is(serr, engine.ErrInvalid) {
			return engine.Lease{}, serr
		}
		return engine.Lease{}, errors.New("claim_next returned None")
	}
	var m struct {
		ID         string  `json:"id"`
		Qty        int64   `json:"qty"`
		Owner      string  `json:"owner"`
		Token      int64   `json:"token"`
		Attempt    int64   `json:"attempt"`
		LeaseUntil float64 `json:"lease_until"`
	}
	if json.Unmarshal(a.Return, &m) != nil || m.ID == "" {
		return engine.Lease{}, q.malformed(lang.P("%s returned %s, not a marker {id, qty, owner, token, attempt, lease_until} or %s", "claim_next", q.t().json(a.Return), q.t().none()))
	}
	return engine.Lease{JobID: m.ID, Qty: m.Qty, Owner: m.Owner, Token: m.Token, Attempt: m.Attempt, LeaseUntil: int64(m.LeaseUntil)}, nil
}

// markerOf is a lease as claim_next's marker.
func markerOf(l engine.Lease) map[string]any {
	return map[string]any{"id": l.JobID, "qty": l.Qty, "owner": l.Owner, "token": l.Token, "attempt": l.Attempt, "lease_until": l.LeaseUntil}
}

func (q *courierQueue) Complete(ctx context.Context, l engine.Lease, now int64, result string) error {
	if m, ok := q.markers[markerKey{l.JobID, l.Owner, l.Token}]; ok {
		l = m // a lease with an older token is that claim's whole marker
	}
	serr := q.shadow.Complete(l, now, result)
	_, err := q.boolCall(ctx, serr, "finish", q.path, markerOf(l), now, result)
	return err
}

var errNotCourier = errors.New("grade: the courier claims the next job and has no renew or release")

func (q *courierQueue) Claim(context.Context, string, string, int64, int64) (engine.Lease, error) {
	return engine.Lease{}, errNotCourier
}

func (q *courierQueue) Renew(context.Context, engine.Lease, int64, int64) (engine.Lease, error) {
	return engine.Lease{}, errNotCourier
}

func (q *courierQueue) Release(context.Context, engine.Lease) error { return errNotCourier }

// courierJobs reads the courier's table from the student's file.
func (q *labQueue) courierJobs(ctx context.Context) ([]engine.Job, error) {
	rows, err := q.db.QueryContext(ctx, "SELECT id, qty, owner, lease_until, token, attempts, max_attempts, deadline, status, reason, result FROM jobs ORDER BY rowid")
	if err != nil {
		return nil, fmt.Errorf("reading the table jobs(%s): %w", courierColumns, err)
	}
	defer rows.Close()
	var out []engine.Job
	for rows.Next() {
		var r courierRow
		var owner, reason, result sql.NullString
		var deadline sql.NullInt64
		if err := rows.Scan(&r.ID, &r.Qty, &owner, &r.LeaseUntil, &r.Token, &r.Attempts, &r.MaxAttempts, &deadline, &r.Status, &reason, &result); err != nil {
			return nil, fmt.Errorf("reading the table: %w", err)
		}
		r.Owner, r.Reason, r.Result = nullable(owner), nullable(reason), nullable(result)
		if deadline.Valid {
			r.Deadline = &deadline.Int64
		}
		out = append(out, r.job())
	}
	return out, rows.Err()
}

// courierColumns are the courier table's columns, as the report prints a
// row.
const courierColumns = "id, qty, owner, lease_until, token, attempts, max_attempts, deadline, status, reason, result"

func nullable(s sql.NullString) *string {
	if s.Valid {
		return &s.String
	}
	return nil
}

// courierDict is a row as the courier's state answers it.
func (t Terms) courierDict(j *engine.Job) string {
	d := map[string]any{"id": j.ID, "qty": j.Qty, "owner": nil, "lease_until": j.LeaseUntil, "token": j.Token,
		"attempts": j.Attempts, "max_attempts": j.MaxAttempts, "deadline": nil, "status": string(j.Status), "reason": nil, "result": nil}
	if j.Owner != "" {
		d["owner"] = j.Owner
	}
	if j.Deadline != 0 {
		d["deadline"] = j.Deadline
	}
	if j.Reason != "" {
		d["reason"] = j.Reason
	}
	if j.Status == engine.StatusDone || j.Result != "" {
		d["result"] = j.Result
	}
	return t.value(d)
}

// courierRowText is a row as the courier's table holds it.
func courierRowText(j *engine.Job) string {
	null := func(s string) string {
		if s == "" {
			return "NULL"
		}
		return s
	}
	deadline := "NULL"
	if j.Deadline != 0 {
		deadline = fmt.Sprint(j.Deadline)
	}
	result := "NULL"
	if j.Result != "" || j.Status == engine.StatusDone {
		result = fmt.Sprintf("%q", j.Result)
	}
	return fmt.Sprintf("%-8s %3d %-6s %6d %3d %3d %3d %6s %-11s %-8s %s", j.ID, j.Qty, null(j.Owner), j.LeaseUntil, j.Token,
		j.Attempts, j.MaxAttempts, deadline, j.Status, null(j.Reason), result)
}

// writeLockFree reports whether a write transaction can begin on the
// student's file at once: false while another connection holds its lock
// (a claim's transaction left open).
func (q *labQueue) writeLockFree(ctx context.Context) (bool, error) {
	if _, err := q.Jobs(ctx); err != nil { // opens the reader
		return false, err
	}
	if q.p.speaker != nil {
		rows, err := q.db.QueryContext(ctx, "BEGIN IMMEDIATE") // see Speaker.Rows
		if err == nil {
			rows.Close()
		}
		return lockFree(err)
	}
	c, err := q.db.Conn(ctx)
	if err != nil {
		return false, err
	}
	defer c.Close()
	if _, err := c.ExecContext(ctx, "PRAGMA busy_timeout=0"); err != nil {
		return false, err
	}
	defer c.ExecContext(ctx, fmt.Sprintf("PRAGMA busy_timeout=%d", sqlitedb.BusyTimeoutMillis))
	if _, err := c.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		return lockFree(err)
	}
	_, err = c.ExecContext(ctx, "ROLLBACK")
	return true, err
}

// lockFree reads the error of a BEGIN IMMEDIATE that may not wait: the
// write lock is free (nil), held by another connection (busy, locked),
// or the error is another's.
func lockFree(err error) (free bool, _ error) {
	if err == nil {
		return true, nil
	}
	low := strings.ToLower(err.Error())
	if strings.Contains(low, "busy") || strings.Contains(low, "locked") {
		return false, nil
	}
	return false, err
}

// callbackArg is a function argument the grader answers (the courier's
// deliver): the adapter passes the student a function that calls back.
type callbackArg struct {
	Callback string `json:"callback"`
}
