//go:build !js

package engine_test

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/ncruces/go-sqlite3"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/sqlitedb"
)

// faults fails the at-th call (a BEGIN, a statement run, a COMMIT) its
// connections make once armed, with err, and counts the connections the
// pool discarded for being left inside a transaction.
type faults struct {
	mu        sync.Mutex
	armed     bool
	calls, at int
	err       error
	discarded int
}

// fail reports the error the next call answers, if any.
func (f *faults) fail() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.armed {
		return nil
	}
	f.calls++
	if f.calls == f.at {
		return f.err
	}
	return nil
}

// faultConn wraps ncruces's connection: a failing call does nothing but
// fail, and a failing COMMIT leaves the transaction open, as SQLite's COMMIT
// does when it meets SQLITE_BUSY or SQLITE_FULL. Like the browser's driver,
// it has the pool discard a connection left inside a transaction. It
// prepares through database/sql (the store's database/sql path).
type faultConn struct {
	raw  driver.Conn
	f    *faults
	inTx bool
}

func (c *faultConn) Prepare(q string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), q)
}

func (c *faultConn) PrepareContext(ctx context.Context, q string) (driver.Stmt, error) {
	st, err := c.raw.(driver.ConnPrepareContext).PrepareContext(ctx, q)
	if err != nil {
		return nil, err
	}
	return faultStmt{st, c.f}, nil
}

func (c *faultConn) Close() error { return c.raw.Close() }

func (c *faultConn) Begin() (driver.Tx, error) {
	return c.BeginTx(context.Background(), driver.TxOptions{})
}

func (c *faultConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	if err := c.f.fail(); err != nil {
		return nil, err
	}
	tx, err := c.raw.(driver.ConnBeginTx).BeginTx(ctx, opts)
	if err != nil {
		return nil, err
	}
	c.inTx = true
	return faultTx{c, tx}, nil
}

func (c *faultConn) ExecContext(ctx context.Context, q string, args []driver.NamedValue) (driver.Result, error) {
	if len(args) != 0 {
		return nil, driver.ErrSkip
	}
	if err := c.f.fail(); err != nil {
		return nil, err
	}
	return c.raw.(driver.ExecerContext).ExecContext(ctx, q, args)
}

func (c *faultConn) ResetSession(context.Context) error {
	if c.inTx {
		c.f.mu.Lock()
		c.f.discarded++
		c.f.mu.Unlock()
		return driver.ErrBadConn
	}
	return nil
}

// faultTextConn is a faultConn that passes for one running SQL text itself
// (asking for each statement to be prepared): the store's driver path.
type faultTextConn struct{ *faultConn }

func (faultTextConn) QueryContext(context.Context, string, []driver.NamedValue) (driver.Rows, error) {
	return nil, driver.ErrSkip
}

type faultTx struct {
	c   *faultConn
	raw driver.Tx
}

func (t faultTx) Commit() error {
	if err := t.c.f.fail(); err != nil {
		return err // the transaction stays open
	}
	err := t.raw.Commit()
	if err == nil {
		t.c.inTx = false
	}
	return err
}

func (t faultTx) Rollback() error {
	err := t.raw.Rollback()
	if err == nil {
		t.c.inTx = false
	}
	return err
}

type faultStmt struct {
	driver.Stmt
	f *faults
}

func (s faultStmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	if err := s.f.fail(); err != nil {
		return nil, err
	}
	return s.Stmt.(driver.StmtExecContext).ExecContext(ctx, args)
}

func (s faultStmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	if err := s.f.fail(); err != nil {
		return nil, err
	}
	return s.Stmt.(driver.StmtQueryContext).QueryContext(ctx, args)
}

type faultConnector struct {
	dsn  string
	d    driver.Driver
	f    *faults
	text bool
}

func (c faultConnector) Connect(context.Context) (driver.Conn, error) {
	raw, err := c.d.Open(c.dsn)
	if err != nil {
		return nil, err
	}
	fc := &faultConn{raw: raw, f: c.f}
	if c.text {
		return faultTextConn{fc}, nil
	}
	return fc, nil
}

func (c faultConnector) Driver() driver.Driver { return c.d }

// op is one engine operation of faultOps, on s, given the leases taken so far.
type op struct {
	name string
	run  func(ctx context.Context, s *engine.Store, leases map[string]engine.Lease) error
}

// faultOps are every kind of write the engine makes, in an order in which
// each succeeds: enqueue, claim, claim-next, renew, complete, release.
var faultOps = []op{
	{"enqueue a", func(ctx context.Context, s *engine.Store, _ map[string]engine.Lease) error {
		_, err := s.Enqueue(ctx, engine.NewJob{ID: "a"})
		return err
	}},
	{"enqueue b", func(ctx context.Context, s *engine.Store, _ map[string]engine.Lease) error {
		_, err := s.Enqueue(ctx, engine.NewJob{ID: "b", MaxAttempts: 3})
		return err
	}},
	{"claim a", func(ctx context.Context, s *engine.Store, leases map[string]engine.Lease) error {
		l, err := s.Claim(ctx, "a", "w1", 100, 50)
		if err == nil {
			leases["a"] = l
		}
		return err
	}},
	{"claim-next", func(ctx context.Context, s *engine.Store, leases map[string]engine.Lease) error {
		l, err := s.ClaimNext(ctx, "w2", 110, 50)
		if err == nil {
			leases["b"] = l
		}
		return err
	}},
	{"renew a", func(ctx context.Context, s *engine.Store, leases map[string]engine.Lease) error {
		l, err := s.Renew(ctx, leases["a"], 120, 80)
		if err == nil {
			leases["a"] = l
		}
		return err
	}},
	{"complete a", func(ctx context.Context, s *engine.Store, leases map[string]engine.Lease) error {
		return s.Complete(ctx, leases["a"], 130, "done")
	}},
	{"release b", func(ctx context.Context, s *engine.Store, leases map[string]engine.Lease) error {
		return s.Release(ctx, leases["b"])
	}},
}

// rows is the jobs table as text, read by another pool.
func rows(t *testing.T, db *sql.DB) string {
	t.Helper()
	r, err := db.Query(`SELECT * FROM jobs ORDER BY seq`)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cols, _ := r.Columns()
	var b strings.Builder
	for r.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := r.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintln(&b, vals...)
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// Every engine operation (enqueue, claim, claim-next, renew, complete,
// release) that meets a failure at any one of its calls — SQLITE_BUSY or
// SQLITE_FULL at its BEGIN, at each statement, at its COMMIT (which then
// leaves the transaction open) — is applied whole or not at all, and the
// operation tried again, and every one after it, works: the outcome is the
// fault-free run's. On the store's driver path the store rolls back the
// transaction a failed COMMIT left open itself, so the pool discards no
// connection; through database/sql, the driver must (here the pool discards
// it). With and without an observer (transactions, or the direct single
// statements).
func TestFaults_EveryOperationAppliesWholeOrNotAtAll(t *testing.T) {
	ctx := context.Background()
	native, err := sqlitedb.Memory(t.Name() + "-driver")
	if err != nil {
		t.Fatal(err)
	}
	d := native.Driver()
	native.Close()
	for _, path := range []struct {
		name string
		text bool
	}{{"database/sql", false}, {"driver", true}} {
		for _, observed := range []bool{false, true} {
			for _, fault := range []error{sqlite3.BUSY, sqlite3.FULL} {
				t.Run(fmt.Sprintf("%s/observed=%v/%v", path.name, observed, fault), func(t *testing.T) {
					run := func(t *testing.T, at int) (states []string, calls, discarded int) {
						name := fmt.Sprintf("%s-%d-%d", strings.NewReplacer("/", "_", "=", "_", " ", "_").Replace(t.Name()), at, memSeq.Add(1))
						dsn := "file:/" + url.PathEscape(name) + "?vfs=memdb&_pragma=busy_timeout(10000)&_txlock=immediate"
						plain, err := sql.Open("sqlite3", dsn) // keeps the database, and reads it
						if err != nil {
							t.Fatal(err)
						}
						defer plain.Close()
						f := &faults{at: at, err: fault}
						db := sql.OpenDB(faultConnector{dsn: dsn, d: d, f: f, text: path.text})
						defer db.Close()
						var opts []engine.Option
						if observed {
							opts = append(opts, engine.WithObserver(func(engine.Statement) {}))
						}
						s := newStore(t, db, opts...)
						f.mu.Lock()
						f.armed = true
						f.mu.Unlock()
						leases := map[string]engine.Lease{}
						before := rows(t, plain)
						for _, o := range faultOps {
							err := o.run(ctx, s, leases)
							if err != nil {
								if !errors.Is(err, fault) {
									t.Fatalf("fault at call %d: %s: %v, want %v", at, o.name, err, fault)
								}
								if got := rows(t, plain); got != before {
									t.Fatalf("fault at call %d: %s failed but changed the jobs:\n%s\nwere:\n%s", at, o.name, got, before)
								}
								if err := o.run(ctx, s, leases); err != nil {
									t.Fatalf("fault at call %d: %s tried again: %v", at, o.name, err)
								}
							}
							before = rows(t, plain)
							states = append(states, before)
						}
						f.mu.Lock()
						defer f.mu.Unlock()
						return states, f.calls, f.discarded
					}
					want, calls, _ := run(t, 0)
					if calls < len(faultOps) {
						t.Fatalf("the fault-free run made %d calls", calls)
					}
					for at := 1; at <= calls; at++ {
						got, _, discarded := run(t, at)
						for i := range want {
							if got[i] != want[i] {
								t.Fatalf("fault at call %d: after %s the jobs are\n%s\nwant\n%s", at, faultOps[i].name, got[i], want[i])
							}
						}
						if path.text && discarded != 0 {
							t.Errorf("fault at call %d: %d connections discarded: the store left a transaction open", at, discarded)
						}
					}
				})
			}
		}
	}
}

// fullDB opens a fresh in-memory database of at most pages pages, and the
// error a write past them answers.
func fullDB(t *testing.T, pages int) (*sql.DB, error) {
	name := strings.NewReplacer("/", "_", "=", "_").Replace(t.Name())
	dsn := fmt.Sprintf("file:/%s?vfs=memdb&_pragma=busy_timeout(10000)&_pragma=max_page_count(%d)&_txlock=immediate", url.PathEscape(name), pages)
	db, err := sql.Open("sqlite3", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, sqlite3.FULL
}
