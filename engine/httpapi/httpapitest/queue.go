package httpapitest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/leasetest"
	"github.com/leaselab/leaselab/engine/timeline"
)

// The lease part of the suite is the conformance suite (package
// engine/leasetest) run over the API: every library timeline and seeded
// random call sequences, each call beside the reference model, on a Queue
// that speaks HTTP. What the rest of the suite checks is the web's: status
// codes, the wire's shapes, strict JSON, origins, methods, limits.

// drainAt and drainTTL are the instant and ttl of the claims that empty
// the server before each Queue: every job another test left claimable is
// then held until 2×10⁹-1 ms (or quarantined, or done), after the last
// instant a timeline may name (limits' max_time, 10⁹).
const (
	drainAt  = engine.SecondsFrom
	drainTTL = engine.MaxTTL
)

// testLease runs the conformance suite's timelines and Sequences random
// sequences, from leasetest's seed, on the API.
func (s *suite) testLease(t *testing.T) {
	for _, name := range timeline.LibraryNames() {
		t.Run("timeline/"+name, func(t *testing.T) {
			tl, err := timeline.LoadLibrary(name)
			if err != nil {
				t.Fatal(err)
			}
			leaseReport(t, func() (*leasetest.Difference, error) { return leasetest.Timeline(t.Context(), tl, s.queue(t)) })
		})
	}
	t.Run("sequences", func(t *testing.T) {
		leaseReport(t, func() (*leasetest.Difference, error) {
			return leasetest.Sequences(t.Context(), func() (leasetest.Queue, error) { return s.queue(t), nil },
				leasetest.SequenceOptions{Seed: leasetest.Seed, Sequences: s.Sequences})
		})
	})
}

// testConcurrent plays the conformance suite's concurrent rounds over the
// API: several clients' calls at once, at instants that straddle the
// leases' ends and a deadline, each round's history checked for
// linearizability against the reference model. A server that checks a
// lease in one statement and writes in another fails it.
func (s *suite) testConcurrent(t *testing.T) {
	res, err := leasetest.Concurrent(t.Context(), func() (leasetest.Queue, error) { return s.queue(t), nil },
		leasetest.ConcurrentOptions{Seed: leasetest.Seed})
	if err != nil {
		t.Fatal(err)
	}
	if res != nil {
		t.Errorf("calls made at once cannot be put in any order the contract allows:\n%s", res)
	}
}

func leaseReport(t *testing.T, run func() (*leasetest.Difference, error)) {
	t.Helper()
	d, err := run()
	if err != nil {
		t.Fatal(err)
	}
	if d != nil {
		t.Error(d)
	}
}

// queue drains the server and returns an empty Queue over it: its job ids
// carry a prefix of their own, and it lists only the jobs it enqueued.
func (s *suite) queue(t *testing.T) leasetest.Queue {
	t.Helper()
	s.drain(t, drainAt)
	s.queues++
	return &apiQueue{c: s.c, prefix: s.prefix + "q" + strconv.Itoa(s.queues) + "-"}
}

// apiQueue is the API as a leasetest.Queue. A job id is sent with the
// queue's prefix (the empty id as it is, so that it stays invalid) and
// read back without it.
type apiQueue struct {
	c      *client
	prefix string
	mu     sync.Mutex
	ids    []string // the ids it enqueued, in order
}

func (q *apiQueue) wire(id string) string {
	if id == "" {
		return ""
	}
	return q.prefix + id
}

func (q *apiQueue) local(id string) string {
	if rest, ok := strings.CutPrefix(id, q.prefix); ok {
		return rest
	}
	return id // another's job: the rows will show it
}

func (q *apiQueue) send(ctx context.Context, method, path string, body any) (answer, error) {
	if err := ctx.Err(); err != nil {
		return answer{}, err
	}
	var raw []byte
	if body != nil {
		var err error
		if raw, err = json.Marshal(body); err != nil {
			return answer{}, err
		}
	}
	return q.c.try(method, path, "application/json", raw)
}

// refusal is the error an answer that is no success stands for: a 409 or a
// 404 with a rejection is its reason's sentinel, 404 empty is
// engine.ErrEmpty, 400 is engine.ErrInvalid; anything else is the
// answer itself.
func refusal(a answer) error {
	var e rejection
	if json.Unmarshal(a.body, &e) != nil {
		return fmt.Errorf("%v", a)
	}
	switch {
	case a.status == http.StatusBadRequest:
		return fmt.Errorf("%w: %s", engine.ErrInvalid, e.Message)
	case a.status == http.StatusNotFound && e.Error == "empty":
		return fmt.Errorf("%w: %s", engine.ErrEmpty, e.Message)
	case (a.status == http.StatusConflict || a.status == http.StatusNotFound) && engine.Refusal(e.Reason).Valid():
		return fmt.Errorf("%w: %s", engine.Refusal(e.Reason).Err(), e.Message)
	}
	return fmt.Errorf("%v", a)
}

func decode[T any](a answer, status int) (T, error) {
	var v T
	if a.status != status {
		return v, refusal(a)
	}
	if err := json.Unmarshal(a.body, &v); err != nil {
		return v, fmt.Errorf("%v: %w", a, err)
	}
	return v, nil
}

func (q *apiQueue) Enqueue(ctx context.Context, j engine.NewJob) (bool, error) {
	a, err := q.send(ctx, http.MethodPost, "/api/jobs",
		obj{"id": q.wire(j.ID), "qty": j.Qty, "deadline": j.Deadline, "max_attempts": j.MaxAttempts})
	if err != nil {
		return false, err
	}
	if a.status == http.StatusOK {
		return false, nil
	}
	if _, err := decode[enqueued](a, http.StatusCreated); err != nil {
		return false, err
	}
	q.mu.Lock()
	q.ids = append(q.ids, j.ID)
	q.mu.Unlock()
	return true, nil
}

func (q *apiQueue) Get(ctx context.Context, id string) (*engine.Job, error) {
	a, err := q.send(ctx, http.MethodGet, "/api/jobs/"+url.PathEscape(q.wire(id)), nil)
	if err != nil || a.status == http.StatusNotFound {
		return nil, err
	}
	j, err := decode[job](a, http.StatusOK)
	if err != nil {
		return nil, err
	}
	row := q.row(j)
	return &row, nil
}

func (q *apiQueue) row(j job) engine.Job {
	return engine.Job{ID: q.local(j.ID), Qty: j.Qty, Owner: j.Owner, LeaseUntil: j.LeaseUntil, Token: j.Token,
		Attempts: j.Attempts, MaxAttempts: j.MaxAttempts, Deadline: j.Deadline, Status: engine.Status(j.Status),
		Reason: j.Reason, Result: j.Result}
}

// leased posts body to path and reads the lease granted.
func (q *apiQueue) leased(ctx context.Context, path string, body obj) (engine.Lease, error) {
	a, err := q.send(ctx, http.MethodPost, path, body)
	if err != nil {
		return engine.Lease{}, err
	}
	ans, err := decode[leaseAnswer](a, http.StatusOK)
	if err != nil {
		return engine.Lease{}, err
	}
	return q.lease(ans.Lease), nil
}

func (q *apiQueue) lease(l lease) engine.Lease {
	return engine.Lease{JobID: q.local(l.JobID), Owner: l.Owner, Qty: l.Qty, Token: l.Token, Attempt: l.Attempt, LeaseUntil: l.LeaseUntil}
}

// presented is l as a request carries it.
func (q *apiQueue) presented(l engine.Lease) lease {
	return lease{JobID: q.wire(l.JobID), Owner: l.Owner, Qty: l.Qty, Token: l.Token, Attempt: l.Attempt, LeaseUntil: l.LeaseUntil}
}

func (q *apiQueue) Claim(ctx context.Context, id, owner string, now, ttl int64) (engine.Lease, error) {
	return q.leased(ctx, "/api/claim", obj{"job_id": q.wire(id), "owner": owner, "now": now, "ttl": ttl})
}

func (q *apiQueue) ClaimNext(ctx context.Context, owner string, now, ttl int64) (engine.Lease, error) {
	return q.leased(ctx, "/api/claim", obj{"owner": owner, "now": now, "ttl": ttl})
}

func (q *apiQueue) Renew(ctx context.Context, l engine.Lease, now, ttl int64) (engine.Lease, error) {
	return q.leased(ctx, "/api/renew", obj{"lease": q.presented(l), "now": now, "ttl": ttl})
}

func (q *apiQueue) Complete(ctx context.Context, l engine.Lease, now int64, result string) error {
	return q.done(ctx, "/api/complete", obj{"lease": q.presented(l), "now": now, "result": result})
}

func (q *apiQueue) Release(ctx context.Context, l engine.Lease) error {
	return q.done(ctx, "/api/release", obj{"lease": q.presented(l)})
}

func (q *apiQueue) done(ctx context.Context, path string, body obj) error {
	a, err := q.send(ctx, http.MethodPost, path, body)
	if err != nil {
		return err
	}
	_, err = decode[okAnswer](a, http.StatusOK)
	return err
}

// Jobs reads every job the queue enqueued, in that order: the server's
// list holds every other test's jobs too.
func (q *apiQueue) Jobs(ctx context.Context) ([]engine.Job, error) {
	q.mu.Lock()
	ids := slices.Clone(q.ids)
	q.mu.Unlock()
	rows := make([]engine.Job, 0, len(ids))
	for _, id := range ids {
		j, err := q.Get(ctx, id)
		if err != nil {
			return nil, err
		}
		if j == nil {
			return nil, fmt.Errorf("job %q was enqueued and is gone", id)
		}
		rows = append(rows, *j)
	}
	return rows, nil
}
