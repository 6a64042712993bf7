package grade

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/internal/lang"
	"github.com/leaselab/leaselab/engine/model"
)

// labQueue is the student's implementation of the lab's functions as a
// leasetest.Queue, so that the conformance machinery plays it beside the
// reference model. The lab's functions say less than the engine's
// operations: a claim answers a fence or None, renew, complete and
// release answer a bool, and no answer names why it refused. labQueue maps
// them thus:
//
//   - a refusal by the student where the contract refuses too takes the
//     contract's reason (the lab cannot name it, so it cannot be wrong);
//     a refusal where the contract grants is an answer of its own;
//   - ValueError is engine.ErrInvalid;
//   - a renew's lease, and every row, are read from the student's table
//     (columns id, owner, until, fence, result, done: owner NULL is none,
//     fence is the token, done=1 the status done, else leased with an
//     owner and pending without); the row's fields the lab has no column
//     for (qty, attempts, max_attempts, deadline, reason) are the
//     contract's;
//   - claim-next is claim on each job in the order they were enqueued,
//     until one grants or the job the contract takes is refused;
//   - reopen is init_db again over the same file.
//
// shadow is the reference model played in step with the student, which
// gives those reasons and fields. last holds the last call in the lab's
// terms, with the student's answer and the contract's, for the report.
type labQueue struct {
	p      *process
	path   string
	db     *sql.DB
	shadow *model.Model
	last   labCall
	// courier: the table is the courier's (courierQueue), not the fencing
	// lab's.
	courier bool
	// said are the calls made and answered since the last step of a
	// timeline ended (calls, "call → answer"); seen is the table as the
	// last read found it.
	said []string
	seen []engine.Job
	// markers are the courier's claims, by job, owner and token: finish
	// presents the marker its claim answered, not the current one with
	// an older token.
	markers map[markerKey]engine.Lease
}

// markerKey names one claim of a job.
type markerKey struct {
	job, owner string
	token      int64
}

// labCall is one call of a lab function in the student's terms: the
// call, the answer the contract gives and the one the student gave; fn is
// the function called, and why says how an answer is not of the
// function's form ("" when it is).
type labCall struct {
	Call, Want, Got string
	fn              string
	why             lang.Phrase
}

// malformed records that the last call's answer is not of its function's
// form, and is the error that ends the call.
func (q *labQueue) malformed(p lang.Phrase) error {
	q.last.why = p
	return errors.New(p.String())
}

func newLabQueue(ctx context.Context, p *process, path string) (*labQueue, error) {
	q := &labQueue{p: p, path: path, shadow: model.New()}
	if _, err := q.raw(ctx, p.terms.none(), "init_db", path); err != nil {
		return nil, err
	}
	return q, nil
}

// Close closes the reader of the student's file.
func (q *labQueue) Close() error {
	if q.db != nil {
		return q.db.Close()
	}
	return nil
}

// t are the terms the student's code is reported in.
func (q *labQueue) t() Terms { return q.p.terms }

// raw calls fn, records it beside want, and returns the student's answer;
// an exception is an error whose text is its kind.
func (q *labQueue) raw(ctx context.Context, want, fn string, args ...any) (answer, error) {
	a, err := q.p.call(ctx, fn, args...)
	q.last = labCall{Call: q.t().call(fn, args), Want: want, fn: fn}
	switch {
	case err != nil:
		q.last.Got = err.Error()
	case a.Error != "":
		q.last.Got = q.t().raised(a)
	default:
		q.last.Got = q.t().json(a.Return)
	}
	q.said = append(q.said, q.last.Call+" → "+q.last.Got)
	if q.p.observe != nil {
		q.p.observe(Observed{Call: q.last.Call, Want: want, Got: q.last.Got, WantRows: q.shadow.Jobs()})
	}
	return a, err
}

var errNotLab = errors.New("grade: the lab's enqueue takes only an id")

func (q *labQueue) Enqueue(ctx context.Context, j engine.NewJob) (bool, error) {
	if j.Qty > 1 || j.Deadline != 0 || j.MaxAttempts != 0 {
		return false, errNotLab
	}
	ok, serr := q.shadow.Enqueue(j)
	return q.boolRaw(ctx, q.t().boolWant(ok, serr), "enqueue", q.path, j.ID)
}

func (q *labQueue) Get(ctx context.Context, id string) (*engine.Job, error) {
	ret, err := q.state(ctx, id, q.t().fencingDict)
	if ret == nil || err != nil {
		return nil, err
	}
	var r map[string]any
	if err := json.Unmarshal(ret, &r); err != nil {
		return nil, q.malformed(lang.P("%s returned %s, not a dict of the row", q.t().fn("state"), q.t().json(ret)))
	}
	rid, _ := r["id"].(string)
	until, okU := number(r["until"])
	fence, okF := number(r["fence"])
	done, okD := number(r["done"])
	if rid == "" || !okU || !okF || !okD {
		return &engine.Job{}, nil // {} or a dict without the row's keys: no row
	}
	owner, result := optString(r["owner"]), optString(r["result"])
	row := q.job(rid, owner, until, int64(fence), result, int64(done))
	return &row, nil
}

// state calls the student's state(path, id), the contract's answer worded
// by dict, and returns what it returned: nil for None, else the JSON of
// the dict to read; an exception is the student's error.
func (q *labQueue) state(ctx context.Context, id string, dict func(*engine.Job) string) (json.RawMessage, error) {
	sj, _ := q.shadow.Get(id)
	want := q.t().none()
	if sj != nil {
		want = dict(sj)
	}
	a, err := q.raw(ctx, want, "state", q.path, id)
	if err != nil {
		return nil, err
	}
	if a.Error != "" {
		return nil, studentErr(a)
	}
	if string(a.Return) == "null" {
		return nil, nil
	}
	return a.Return, nil
}

// number is a JSON number, or a bool as 0 or 1 (done may be one).
func number(v any) (float64, bool) {
	switch v := v.(type) {
	case float64:
		return v, true
	case bool:
		if v {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

// optString is a string, or nil for null.
func optString(v any) *string {
	if s, ok := v.(string); ok {
		return &s
	}
	return nil
}

func (q *labQueue) Claim(ctx context.Context, id, owner string, now, ttl int64) (engine.Lease, error) {
	sl, serr := q.shadow.Claim(id, owner, now, ttl)
	want := q.t().none()
	switch {
	case serr == nil:
		want = fmt.Sprint(sl.Token)
	case errors.Is(serr, engine.ErrInvalid):
		want = q.t().raise("ValueError")
	}
	a, err := q.raw(ctx, want, "claim", q.path, id, owner, now, ttl)
	if err != nil {
		return engine.Lease{}, err
	}
	if a.Error != "" {
		return engine.Lease{}, studentErr(a)
	}
	if string(a.Return) == "null" {
		return engine.Lease{}, refusal(serr, "claim returned None")
	}
	var fence int64
	if json.Unmarshal(a.Return, &fence) != nil {
		return engine.Lease{}, q.malformed(lang.P("%s returned %s, not a fence or %s", q.t().fn("claim"), q.t().json(a.Return), q.t().none()))
	}
	return q.lease(ctx, id, owner, fence, sl)
}

// lease is the lease the student granted: its fence, and the row's until.
func (q *labQueue) lease(ctx context.Context, id, owner string, fence int64, sl engine.Lease) (engine.Lease, error) {
	l := engine.Lease{JobID: id, Owner: owner, Qty: 1, Token: fence, Attempt: sl.Attempt}
	rows, err := q.Jobs(ctx)
	if err != nil {
		return l, err
	}
	for _, r := range rows {
		if r.ID == id {
			l.LeaseUntil = r.LeaseUntil
		}
	}
	return l, nil
}

// ClaimNext is claim on each job in the order they were enqueued, each
// answered beside the contract's answer to it: None for a job before the
// one the contract takes, that one's fence; it ends at the first that
// grants, and at the one the contract takes.
func (q *labQueue) ClaimNext(ctx context.Context, owner string, now, ttl int64) (engine.Lease, error) {
	order := q.shadow.Jobs()
	sl, serr := q.shadow.ClaimNext(owner, now, ttl)
	for _, j := range order {
		want, taken := q.t().none(), serr == nil && j.ID == sl.JobID
		switch {
		case taken:
			want = fmt.Sprint(sl.Token)
		case errors.Is(serr, engine.ErrInvalid):
			want = q.t().raise("ValueError")
		}
		a, err := q.raw(ctx, want, "claim", q.path, j.ID, owner, now, ttl)
		if err != nil {
			return engine.Lease{}, err
		}
		if a.Error != "" {
			return engine.Lease{}, studentErr(a)
		}
		var fence int64
		if string(a.Return) != "null" && json.Unmarshal(a.Return, &fence) == nil {
			return q.lease(ctx, j.ID, owner, fence, sl)
		}
		if taken {
			return engine.Lease{}, errors.New("claim returned None")
		}
	}
	if serr == nil {
		serr = engine.ErrEmpty
	}
	if errors.Is(serr, engine.ErrEmpty) || errors.Is(serr, engine.ErrInvalid) {
		return engine.Lease{}, serr
	}
	return engine.Lease{}, engine.ErrEmpty
}

func (q *labQueue) Renew(ctx context.Context, l engine.Lease, now, ttl int64) (engine.Lease, error) {
	sl, serr := q.shadow.Renew(l, now, ttl)
	ok, err := q.boolCall(ctx, serr, "renew", q.path, l.JobID, l.Owner, l.Token, now, ttl)
	if err != nil || !ok {
		return engine.Lease{}, err
	}
	return q.lease(ctx, l.JobID, l.Owner, l.Token, sl)
}

func (q *labQueue) Complete(ctx context.Context, l engine.Lease, now int64, result string) error {
	serr := q.shadow.Complete(l, now, result)
	_, err := q.boolCall(ctx, serr, "complete", q.path, l.JobID, l.Owner, l.Token, now, result)
	return err
}

func (q *labQueue) Release(ctx context.Context, l engine.Lease) error {
	serr := q.shadow.Release(l)
	_, err := q.boolCall(ctx, serr, "release", q.path, l.JobID, l.Owner, l.Token)
	return err
}

// boolCall calls a function that answers True or False: False is the
// contract's refusal when it refuses too.
func (q *labQueue) boolCall(ctx context.Context, serr error, fn string, args ...any) (bool, error) {
	b, err := q.boolRaw(ctx, q.t().boolWant(serr == nil, serr), fn, args...)
	if err == nil && !b {
		return false, refusal(serr, fn+" returned False")
	}
	return b, err
}

// boolRaw calls a function that answers a bool.
func (q *labQueue) boolRaw(ctx context.Context, want, fn string, args ...any) (bool, error) {
	a, err := q.raw(ctx, want, fn, args...)
	if err != nil {
		return false, err
	}
	if a.Error != "" {
		return false, studentErr(a)
	}
	var b bool
	if json.Unmarshal(a.Return, &b) != nil {
		return false, q.malformed(lang.P("%s returned %s, not a bool", q.t().fn(fn), q.t().json(a.Return)))
	}
	return b, nil
}

// Reopen is init_db again over the same file.
func (q *labQueue) Reopen(ctx context.Context) error {
	q.shadow.Reopen()
	a, err := q.raw(ctx, q.t().none(), "init_db", q.path)
	if err != nil {
		return err
	}
	if a.Error != "" {
		return studentErr(a)
	}
	return nil
}

// Jobs reads the student's table from their file, in the order the rows
// were inserted.
func (q *labQueue) Jobs(ctx context.Context) ([]engine.Job, error) {
	rows, err := q.readJobs(ctx)
	if err == nil {
		q.seen = rows
	}
	return rows, err
}

func (q *labQueue) readJobs(ctx context.Context) ([]engine.Job, error) {
	if q.db == nil {
		open := openTable
		if q.p.speaker != nil {
			open = speakerOf{q.p.speaker}.table
		}
		db, err := open(q.path)
		if err != nil {
			return nil, fmt.Errorf("reading the table: %w", err)
		}
		db.SetMaxOpenConns(1)
		q.db = db
	}
	if q.courier {
		return q.courierJobs(ctx)
	}
	rows, err := q.db.QueryContext(ctx, "SELECT id, owner, until, fence, result, done FROM jobs ORDER BY rowid")
	if err != nil {
		return nil, fmt.Errorf("reading the table jobs(id, owner, until, fence, result, done): %w", err)
	}
	defer rows.Close()
	var out []engine.Job
	for rows.Next() {
		var (
			id            string
			owner, result sql.NullString
			until         float64
			fence, done   int64
		)
		if err := rows.Scan(&id, &owner, &until, &fence, &result, &done); err != nil {
			return nil, fmt.Errorf("reading the table: %w", err)
		}
		var o, r *string
		if owner.Valid {
			o = &owner.String
		}
		if result.Valid {
			r = &result.String
		}
		out = append(out, q.job(id, o, until, fence, r, done))
	}
	return out, rows.Err()
}

// job maps a row of the lab's table onto the engine's row.
func (q *labQueue) job(id string, owner *string, until float64, fence int64, result *string, done int64) engine.Job {
	j := engine.Job{ID: id, LeaseUntil: int64(until), Token: fence, Qty: 1, Status: engine.StatusPending}
	if sj, _ := q.shadow.Get(id); sj != nil {
		j.Qty, j.Attempts, j.MaxAttempts, j.Deadline, j.Reason = sj.Qty, sj.Attempts, sj.MaxAttempts, sj.Deadline, sj.Reason
	}
	if owner != nil {
		j.Owner = *owner
		j.Status = engine.StatusLeased
	}
	if result != nil {
		j.Result = *result
	}
	if done != 0 {
		j.Status = engine.StatusDone
	}
	return j
}

// refusal is the contract's refusal when it refused too, else an error
// saying what the student answered.
func refusal(serr error, said string) error {
	if serr != nil && engine.RefusalOf(serr) != "" {
		return serr
	}
	return errors.New(said)
}

// studentErr is an exception the student's function raised: ValueError is
// the contract's invalid argument.
func studentErr(a answer) error {
	if a.Error == "ValueError" {
		return fmt.Errorf("%w: ValueError: %s", engine.ErrInvalid, a.Message)
	}
	return fmt.Errorf("raised %s: %s", a.Error, a.Message)
}

// boolWant is the contract's answer of a function that answers a bool:
// ok, or the exception of an invalid argument.
func (t Terms) boolWant(ok bool, err error) string {
	if errors.Is(err, engine.ErrInvalid) {
		return t.raise("ValueError")
	}
	return t.truth(ok)
}

// fencingDict is a row as the fencing lab's state answers it.
func (t Terms) fencingDict(j *engine.Job) string {
	d := map[string]any{"id": j.ID, "owner": nil, "until": j.LeaseUntil, "fence": j.Token, "result": nil, "done": 0}
	if j.Owner != "" {
		d["owner"] = j.Owner
	}
	if j.Status == engine.StatusDone || j.Result != "" {
		d["result"] = j.Result
	}
	if j.Status == engine.StatusDone {
		d["done"] = 1
	}
	return t.value(d)
}
