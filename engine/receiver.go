package engine

import (
	"context"
	"database/sql"
	"fmt"
)

// Receiver is the receiving side of Dispatch: it records each business id
// (the job id) with its quantity once, in its own table (receipts). The
// queue's fencing cannot undo a delivery that already reached the receiver,
// and a lease that ran out mid-send leads to a resend by the next worker;
// the receiver's idempotency is what makes that resend harmless.
type Receiver struct {
	db      *sql.DB
	observe func(Statement) // WithObserver; nil: none
	mutant  string
}

// NewReceiver creates the receipts table if it is missing (idempotent). It
// takes the Store's options: WithObserver sees its statements too.
func NewReceiver(ctx context.Context, db *sql.DB, opts ...Option) (*Receiver, error) {
	if db == nil {
		return nil, invalid("nil *sql.DB")
	}
	var s Store
	for _, o := range opts {
		if err := o(&s); err != nil {
			return nil, err
		}
	}
	r := &Receiver{db: db, observe: s.observe, mutant: s.mutant}
	for _, q := range receiptsSQL {
		r.note(q)
		if _, err := db.ExecContext(ctx, q); err != nil {
			return nil, fmt.Errorf("engine: create receipts: %w", err)
		}
	}
	return r, nil
}

func (r *Receiver) note(q string, args ...any) {
	if r.observe != nil {
		r.observe(Statement{SQL: q, Args: args})
	}
}

// Deliver applies l.Qty for business id l.JobID once: true the first time,
// false (and nothing added) for a resend of the same id, whoever sends it.
func (r *Receiver) Deliver(ctx context.Context, l Lease) (bool, error) {
	if l.JobID == "" {
		return false, invalid("empty job id")
	}
	if l.Qty < 0 {
		return false, invalid("qty %d < 0", l.Qty)
	}
	query := `INSERT INTO receipts (job_id, qty, owner, token) VALUES (?, ?, ?, ?)
ON CONFLICT (job_id) DO NOTHING`
	args := []any{l.JobID, l.Qty, l.Owner, l.Token}
	if mutantOn(r.mutant, MutantReceiverNotIdempotent) {
		query = `INSERT INTO receipts (job_id, qty, owner, token) VALUES (?, ?, ?, ?)
ON CONFLICT (job_id) DO UPDATE SET qty = qty + excluded.qty`
	}
	r.note(query, args...)
	res, err := r.db.ExecContext(ctx, query, args...)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, err
	}
	if mutantOn(r.mutant, MutantReceiverNotIdempotent) {
		return true, nil
	}
	return n == 1, nil
}

// Total is the sum of the quantities received.
func (r *Receiver) Total(ctx context.Context) (int64, error) {
	var n int64
	const query = `SELECT COALESCE(SUM(qty), 0) FROM receipts`
	r.note(query)
	err := r.db.QueryRowContext(ctx, query).Scan(&n)
	return n, err
}
