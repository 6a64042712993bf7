package engine

import (
	"context"
	"errors"
	"fmt"
)

// ResultSent is the result Dispatch stores on a job it delivered.
const ResultSent = "sent"

// Dispatch sends one job: it claims the oldest claimable job for
// owner at clock.Now() (ClaimNext) and commits, then calls send outside any
// transaction, so a slow send holds no lock and other workers keep claiming;
// then it completes the job at clock.Now() (read again: the send took time)
// with result "sent".
//
// A send error releases the lease (the token is kept, so the next claim gets
// a new one) and is returned with the lease. A Complete refused after a good
// send — the lease ran out while sending, and maybe the job was reclaimed —
// returns that *Rejection with the lease: the receiver may already have the
// delivery, which is why it must be idempotent (see Receiver).
func (s *Store) Dispatch(ctx context.Context, owner string, clock Clock, ttl int64,
	send func(context.Context, Lease) error) (Lease, error) {
	if clock == nil || send == nil {
		return Lease{}, invalid("nil clock or send")
	}
	l, err := s.ClaimNext(ctx, owner, clock.Now(), ttl)
	if err != nil {
		return Lease{}, err
	}
	if serr := send(ctx, l); serr != nil {
		if rerr := s.Release(ctx, l); rerr != nil {
			var rej *Rejection
			if !errors.As(rerr, &rej) {
				return l, errors.Join(serr, fmt.Errorf("engine: release after failed send: %w", rerr))
			}
		}
		return l, serr
	}
	return l, s.Complete(ctx, l, clock.Now(), ResultSent)
}
