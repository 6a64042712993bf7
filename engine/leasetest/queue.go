package leasetest

import (
	"context"
	"io"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/model"
)

// Queue is a lease queue under test: the operations of the lease contract,
// with engine.Store's signatures, so that a *engine.Store is one as it
// stands. Time is milliseconds passed by the caller.
//
// A refusal by a rule must match its sentinel with errors.Is
// (engine.ErrSuperseded, ...; an *engine.Rejection does); an invalid
// argument must match engine.ErrInvalid and change nothing; ClaimNext with
// nothing claimable returns engine.ErrEmpty. Get of a missing job returns
// nil, nil. Jobs lists every job in the order they were enqueued. Run's
// concurrent round calls a Queue from several goroutines at once: each
// call must take effect at one instant between its start and its return.
type Queue interface {
	Enqueue(ctx context.Context, j engine.NewJob) (bool, error)
	Get(ctx context.Context, id string) (*engine.Job, error)
	Claim(ctx context.Context, id, owner string, now, ttl int64) (engine.Lease, error)
	ClaimNext(ctx context.Context, owner string, now, ttl int64) (engine.Lease, error)
	Renew(ctx context.Context, l engine.Lease, now, ttl int64) (engine.Lease, error)
	Complete(ctx context.Context, l engine.Lease, now int64, result string) error
	Release(ctx context.Context, l engine.Lease) error
	Jobs(ctx context.Context) ([]engine.Job, error)
}

// Reopener is a Queue that can be opened again over the same data (a
// process restart). A timeline's reopen step calls it; on a Queue that is
// not one the step is skipped, and Run and RunTimeline log which steps of
// which timeline were not played. Every row and token must survive it.
type Reopener interface {
	Reopen(ctx context.Context) error
}

// closeQueue closes q when its timeline or sequence ends, if it is an
// io.Closer or has a Close method with no result (as a connection pool's
// often has).
func closeQueue(q Queue) {
	switch c := q.(type) {
	case io.Closer:
		c.Close()
	case interface{ Close() }:
		c.Close()
	}
}

// Model returns a Queue answering as the contract's reference model (package
// engine/model): the expected answers the suite compares every Queue with.
// It is safe for concurrent use (one call at a time).
func Model() Queue { return &lockedQueue{q: &modelQueue{m: model.New()}} }

type modelQueue struct{ m *model.Model }

func (q *modelQueue) Enqueue(_ context.Context, j engine.NewJob) (bool, error) {
	return q.m.Enqueue(j)
}
func (q *modelQueue) Get(_ context.Context, id string) (*engine.Job, error) { return q.m.Get(id) }
func (q *modelQueue) Claim(_ context.Context, id, owner string, now, ttl int64) (engine.Lease, error) {
	return q.m.Claim(id, owner, now, ttl)
}
func (q *modelQueue) ClaimNext(_ context.Context, owner string, now, ttl int64) (engine.Lease, error) {
	return q.m.ClaimNext(owner, now, ttl)
}
func (q *modelQueue) Renew(_ context.Context, l engine.Lease, now, ttl int64) (engine.Lease, error) {
	return q.m.Renew(l, now, ttl)
}
func (q *modelQueue) Complete(_ context.Context, l engine.Lease, now int64, result string) error {
	return q.m.Complete(l, now, result)
}
func (q *modelQueue) Release(_ context.Context, l engine.Lease) error { return q.m.Release(l) }
func (q *modelQueue) Jobs(context.Context) ([]engine.Job, error)      { return q.m.Jobs(), nil }
func (q *modelQueue) Reopen(context.Context) error                    { q.m.Reopen(); return nil }
