package engine

import (
	"context"
	"database/sql"
	"errors"

	"github.com/leaselab/leaselab/engine/internal/mutant"
)

// Storage is the fenced storage the holder of a lease writes its work to:
// the storage service of Kleppmann's fencing story, at the point of effect.
// The queue's fencing refuses a stale worker's renew and complete, but what
// the worker does with its lease — writing a file, charging a card —
// happens elsewhere, and only that place can refuse a stale write.
//
// A write presents the writer's lease token. The storage accepts it iff the
// token is at least the highest it has accepted for that key (equal: the
// same holder writing again), and then stores the value with the lease's
// owner and token; otherwise it refuses it with ErrFenced and changes
// nothing. The decision and the write are one guarded statement.
//
// Its limit: the storage knows only the tokens that reached it. A stale
// worker whose token is still the highest the storage has seen — the new
// holder has not written yet — is accepted.
type Storage struct{ table }

// Stored is one key's value as the storage holds it, with the lease of the
// write that stored it.
type Stored struct {
	Key, Value, Owner string
	Token             int64
}

// NewStorage creates the storage table if it is missing (idempotent; never
// resets a value or a token). It takes the Store's options.
func NewStorage(ctx context.Context, db *sql.DB, opts ...Option) (*Storage, error) {
	if db == nil {
		return nil, invalid("nil *sql.DB")
	}
	s := &Storage{}
	if err := s.open(ctx, db, opts, "storage", storageSQL); err != nil {
		return nil, err
	}
	return s, nil
}

// Write stores value under key for the holder of l (its Owner and Token;
// the rest of the lease is not looked at): accepted iff no write with a
// higher token was accepted for key before. A refusal is a *Rejection with
// Op "write", Reason ErrFenced, the key as Presented.JobID, and the stored
// value as Current (ID key, Owner, Token, Result value). It takes no time.
func (s *Storage) Write(ctx context.Context, key string, l Lease, value string) error {
	switch {
	case key == "":
		return invalid("empty key")
	case l.Owner == "":
		return invalid("empty owner")
	case l.Token < 0:
		return invalid("token %d < 0", l.Token)
	}
	query := `INSERT INTO storage (key, value, owner, token) VALUES (?, ?, ?, ?)
ON CONFLICT (key) DO UPDATE SET value = excluded.value, owner = excluded.owner, token = excluded.token
WHERE excluded.token >= storage.token`
	if s.noFence || s.mut(mutant.StorageUnfenced) {
		query = `INSERT INTO storage (key, value, owner, token) VALUES (?, ?, ?, ?)
ON CONFLICT (key) DO UPDATE SET value = excluded.value, owner = excluded.owner, token = excluded.token`
	}
	args := []any{key, value, l.Owner, l.Token}
	s.note(Statement{SQL: query, Args: args, Table: "storage", Key: key})
	var n int64
	err := s.on(ctx, func(q querier) (err error) {
		n, err = q.exec(ctx, nil, query, args)
		return err
	})
	if err != nil || n == 1 {
		return err
	}
	cur, err := s.Read(ctx, key)
	if err != nil {
		return err
	}
	if cur == nil { // a fenced write implies a row; never deleted
		return errors.New("engine: storage refused a write to a key it does not hold")
	}
	return &Rejection{Op: string(OpWrite), Reason: ErrFenced,
		Presented: Lease{JobID: key, Owner: l.Owner, Token: l.Token},
		Current:   Job{ID: key, Owner: cur.Owner, Token: cur.Token, Result: cur.Value}}
}

// Read returns the value stored under key, or nil, nil when there is none.
func (s *Storage) Read(ctx context.Context, key string) (*Stored, error) {
	if key == "" {
		return nil, invalid("empty key")
	}
	const query = `SELECT key, value, owner, token FROM storage WHERE key = ?`
	s.note(Statement{SQL: query, Args: []any{key}})
	var (
		v     Stored
		found bool
	)
	err := s.on(ctx, func(q querier) (err error) {
		found, err = q.queryRow(ctx, nil, query, []any{key}, []any{&v.Key, &v.Value, &v.Owner, &v.Token})
		return err
	})
	if !found || err != nil {
		return nil, err
	}
	return &v, nil
}

// All reads every stored value in key order. It is an inspection read,
// unseen by the observer.
func (s *Storage) All(ctx context.Context, keys ...string) ([]Stored, error) {
	query := `SELECT key, value, owner, token FROM storage`
	args := make([]any, len(keys))
	for i, k := range keys {
		args[i] = k
	}
	if len(keys) > 0 {
		query += ` WHERE key IN (` + placeholders(len(keys)) + `)`
	}
	var out []Stored
	err := s.on(ctx, func(q querier) error {
		return q.query(ctx, query+` ORDER BY key`, args, func(scan func(dst ...any) error) error {
			var v Stored
			if err := scan(&v.Key, &v.Value, &v.Owner, &v.Token); err != nil {
				return err
			}
			out = append(out, v)
			return nil
		})
	})
	return out, err
}
