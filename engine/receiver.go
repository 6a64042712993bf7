package engine

import (
	"context"
	"database/sql"

	"github.com/leaselab/leaselab/engine/internal/mutant"
)

// Receiver is the receiving side of Dispatch: it records each business id
// (the job id) with its quantity once, in its own table (receipts). The
// queue's fencing cannot undo a delivery that already reached the receiver,
// and a lease that ran out mid-send leads to a resend by the next worker;
// the receiver's idempotency is what makes that resend harmless.
type Receiver struct{ table }

// NewReceiver creates the receipts table if it is missing (idempotent). It
// takes the Store's options: WithObserver sees its statements too.
func NewReceiver(ctx context.Context, db *sql.DB, opts ...Option) (*Receiver, error) {
	if err := openArgs(ctx, db); err != nil {
		return nil, err
	}
	r := &Receiver{}
	if err := r.open(ctx, db, opts, "receipts", receiptsSQL); err != nil {
		return nil, err
	}
	return r, nil
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
	if r.noDedup || r.mut(mutant.ReceiverNotIdempotent) {
		query = `INSERT INTO receipts (job_id, qty, owner, token) VALUES (?, ?, ?, ?)
ON CONFLICT (job_id) DO UPDATE SET qty = qty + excluded.qty`
	}
	r.note(Statement{SQL: query, Args: args, Table: "receipts", Key: l.JobID})
	var n int64
	err := r.on(ctx, func(q querier) (err error) {
		n, err = q.exec(ctx, nil, query, args)
		return err
	})
	if err != nil {
		return false, err
	}
	if r.noDedup || r.mut(mutant.ReceiverNotIdempotent) {
		return true, nil
	}
	return n == 1, nil
}

// Total is the sum of the quantities received.
func (r *Receiver) Total(ctx context.Context) (int64, error) {
	var n int64
	const query = `SELECT COALESCE(SUM(qty), 0) FROM receipts`
	r.note(Statement{SQL: query})
	err := r.on(ctx, func(q querier) error {
		_, err := q.queryRow(ctx, nil, query, nil, []any{&n})
		return err
	})
	return n, err
}

// Receipt is one row of the receiver's table: a business id received once,
// with the quantity applied and the lease that carried it.
type Receipt struct {
	JobID, Owner string
	Qty, Token   int64
}

// Receipts reads the receipts of the given business ids (every receipt when
// none is given), in id order. It is an inspection read, unseen by the
// observer.
func (r *Receiver) Receipts(ctx context.Context, ids ...string) ([]Receipt, error) {
	query := `SELECT job_id, qty, owner, token FROM receipts`
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	if len(ids) > 0 {
		query += ` WHERE job_id IN (` + placeholders(len(ids)) + `)`
	}
	var out []Receipt
	err := r.on(ctx, func(q querier) error {
		return q.query(ctx, query+` ORDER BY job_id`, args, func(scan func(dst ...any) error) error {
			var rc Receipt
			if err := scan(&rc.JobID, &rc.Qty, &rc.Owner, &rc.Token); err != nil {
				return err
			}
			out = append(out, rc)
			return nil
		})
	})
	return out, err
}
