package engine

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"

	"github.com/leaselab/leaselab/engine/internal/mutant"
	"github.com/leaselab/leaselab/engine/limits"
)

// Store is a job queue in one database. It is safe for concurrent use; every
// operation takes a connection from the *sql.DB pool for its own duration.
// A Store prepares each statement once and keeps it until the *sql.DB is
// closed (or, on a driver whose connections run SQL text themselves,
// leaves that to the driver): open one Store per database and
// share it, not one per request.
//
// An operation that reads and then writes a row does so in one short
// BEGIN IMMEDIATE transaction, and its UPDATE is additionally guarded by the
// row version it read (id, token, status, lease_until), so the write applies
// only to the row its decision was made on. A grant that needs no decision
// beyond the rules themselves — a claim that takes the job, a renew,
// complete or release by the current holder — is first tried as one UPDATE
// whose WHERE holds every rule: a single statement is a write
// transaction of its own in SQLite; when it matches nothing, nothing
// changed and the read-then-write path finds the refusal. With an observer
// (WithObserver), every operation reads first, so that its trace shows the
// row each decision was made on. Nothing outside the database (a send, a callback) runs
// inside a transaction. The journal is the database's choice: sqlitedb.Open
// keeps a rollback journal, and sqlitedb.OpenWith takes WAL, about 30 times
// the commits a second on a file.
type Store struct {
	db *sql.DB
	// viaDriver: db's driver connections run SQL text themselves
	// (driverConn), and every operation runs on one of them (querier.go).
	viaDriver bool
	config
	stmts   sync.Map // query text -> *sql.Stmt prepared on db
	pending sync.Map // query text met first inside a transaction, to prepare before the next one
}

// config is what the options set; Store, Receiver and Storage share it.
type config struct {
	observe   func(Statement) // nil: no observer
	noTx      bool            // WithoutTransactions: compare-and-swap writes only
	noFence   bool            // WithoutFencing: a Storage that stores every write
	noDedup   bool            // WithoutIdempotence: a Receiver that applies every delivery
	lockDelay int64           // WithLockDelay: ms a lease that ran out keeps its job
	//lint:ignore U1000 set and read only in builds with the mutants tag (mutants_on.go)
	mutant string // "" in every normal build; see mutants_on.go
}

// Statement is one SQL statement the store ran, with its arguments, as an
// observer sees it. Transaction control is reported too (BEGIN IMMEDIATE,
// COMMIT, ROLLBACK), with no arguments.
type Statement struct {
	SQL  string
	Args []any
	// Table and Key name the one row the statement writes ("jobs" and the
	// job's id, "receipts" and the business id, "storage" and the key);
	// both are "" for a read, for transaction control and for a statement
	// over many rows (the schema).
	Table, Key string
}

// Option configures a Store, a Receiver or a Storage.
//
// WithObserver sees every SQL statement with its arguments;
// WithoutTransactions runs on databases without interactive transactions
// (Cloudflare D1); WithLockDelay keeps a job for a while after its lease
// ran out; WithoutFencing and WithoutIdempotence make a Storage or a
// Receiver of a system that lacks that defence, to show what it prevents.
// A normal build has no other option.
type Option func(*config) error

// WithObserver makes the store call f before every SQL statement it runs,
// in the order it runs them. From ClaimMany f is called concurrently.
func WithObserver(f func(Statement)) Option {
	return func(c *config) error { c.observe = f; return nil }
}

// WithoutTransactions makes the store run without interactive transactions,
// for databases that have none (Cloudflare D1). Every decision is still made
// on one row version and written by a single UPDATE guarded by that version
// (id, token, status, lease_until): if another writer changed the row in
// between, the UPDATE matches nothing and the operation reads the row again
// and decides again. The outcome is the same as under BEGIN IMMEDIATE; what
// differs is that ClaimNext commits each quarantine on its way separately.
//
// A Receiver and a Storage write with one statement each, with or without
// transactions, so the option changes nothing there.
func WithoutTransactions() Option {
	return func(c *config) error { c.noTx = true; return nil }
}

// WithoutFencing makes a Storage store every write, whatever token it
// presents: the storage of a system that does not fence, to show what goes
// wrong without fencing (package engine/check reports each write it takes
// below a token it took before). A Store ignores it.
func WithoutFencing() Option {
	return func(c *config) error { c.noFence = true; return nil }
}

// WithoutIdempotence makes a Receiver apply every delivery, a resend of a
// business id it has applied too: the receiver of a system whose effects
// are not idempotent, to show what at-least-once delivery does to them
// (package engine/check reports the second application). A Store and a Storage ignore it.
func WithoutIdempotence() Option {
	return func(c *config) error { c.noDedup = true; return nil }
}

// WithLockDelay makes a Store keep a job for d more milliseconds after a
// lease of it runs out, as Chubby's lock-delay does: a claim (by id, next
// or many) at now is refused held while now < lease_until + d, the lease
// itself being ended at lease_until (a renew or complete then is refused
// expired), so a late write of the lapsed holder reaches the storage
// before anyone else holds the job. A release or a complete frees the job
// at once, as an unlock does in Chubby. d is 0 (no delay, the default) up
// to MaxTTL; anything else is ErrInvalid. A Receiver and a Storage ignore
// it.
func WithLockDelay(d int64) Option {
	return func(c *config) error {
		if d < 0 || d > MaxTTL {
			return invalid("lock delay %d ms: it is 0 (none) to %d ms", d, int64(MaxTTL))
		}
		c.lockDelay = d
		return nil
	}
}

// apply sets opts on c.
func (c *config) apply(opts []Option) error {
	for _, o := range opts {
		if err := o(c); err != nil {
			return err
		}
	}
	return nil
}

// note reports a statement to the observer.
func (c *config) note(st Statement) {
	if c.observe != nil {
		c.observe(st)
	}
}

// New opens a store on db. It creates the schema if it is missing
// and never resets an existing row, so it is safe to call on every start.
// A nil ctx or db is ErrInvalid.
func New(ctx context.Context, db *sql.DB, opts ...Option) (*Store, error) {
	if err := openArgs(ctx, db); err != nil {
		return nil, err
	}
	s := &Store{db: db}
	if err := s.apply(opts); err != nil {
		return nil, err
	}
	var err error
	if s.viaDriver, err = viaDriver(ctx, db); err != nil {
		return nil, err
	}
	stmts := schemaSQL
	if s.mut(mutant.SchemaReset) {
		stmts = append([]string{`DROP TABLE IF EXISTS jobs`}, stmts...)
	}
	err = runOn(ctx, db, s.viaDriver, func(q querier) error {
		for _, st := range stmts {
			if _, err := s.exec(ctx, q, "", "", st); err != nil {
				return fmt.Errorf("engine: create schema: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// DB returns the database the store runs on.
func (s *Store) DB() *sql.DB {
	if s == nil {
		return nil
	}
	return s.db
}

// beginner starts transactions: a *sql.DB or a *sql.Conn.
type beginner interface {
	sqlRunner
	BeginTx(ctx context.Context, opts *sql.TxOptions) (*sql.Tx, error)
}

// exec runs a statement that writes the row key of table (both "" for a
// statement over no single row) and returns the rows it changed.
func (s *Store) exec(ctx context.Context, q querier, table, key, query string, args ...any) (int64, error) {
	s.note(Statement{SQL: query, Args: args, Table: table, Key: key})
	return q.exec(ctx, s, query, args)
}

// queryRow runs a query that reads at most one row, into dst; false when
// it reads none.
func (s *Store) queryRow(ctx context.Context, q querier, query string, args []any, dst ...any) (bool, error) {
	s.note(Statement{SQL: query, Args: args})
	return q.queryRow(ctx, s, query, args, dst)
}

// prepared returns query as a statement to run on q, prepared once per
// store (and, by database/sql, once per connection that runs it), or nil
// when q runs the text itself: a *sql.Conn, another *sql.DB, or a
// transaction meeting query for the first time. A statement taken into a
// transaction is closed by its commit or rollback.
func (s *Store) prepared(ctx context.Context, q sqlRunner, query string) (*sql.Stmt, error) {
	if s == nil {
		return nil, nil
	}
	switch q := q.(type) {
	case *sql.DB:
		if q == s.db {
			return s.cached(ctx, query)
		}
	case *sql.Tx:
		st, ok := s.stmts.Load(query)
		if !ok {
			// Preparing on s.db now would wait for a second connection
			// while this transaction holds one: forever on a pool of one.
			// Run the text; atomic prepares it before the next transaction.
			s.pending.Store(query, struct{}{})
			return nil, nil
		}
		return q.StmtContext(ctx, st.(*sql.Stmt)), nil
	}
	return nil, nil
}

// cached returns the store's prepared statement for query, preparing it on
// first use.
func (s *Store) cached(ctx context.Context, query string) (*sql.Stmt, error) {
	if st, ok := s.stmts.Load(query); ok {
		return st.(*sql.Stmt), nil
	}
	st, err := s.db.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if prev, loaded := s.stmts.LoadOrStore(query, st); loaded {
		st.Close()
		return prev.(*sql.Stmt), nil
	}
	return st, nil
}

// errConflict: a version-guarded UPDATE matched no row, because another
// writer changed the row after it was read. Inside a write transaction this
// cannot happen; without one, the operation starts over.
var errConflict = errors.New("engine: row changed between read and write")

// maxConflictRetries bounds the start-overs of one operation without
// transactions; each start-over means another writer made progress.
const maxConflictRetries = 64

// atomic runs fn as one atomic unit: inside a BEGIN IMMEDIATE transaction
// on b, or, WithoutTransactions, directly on b, starting over when fn's
// guarded write lost a race. A refusal (see isRefusal) is committed and
// returned; any other error rolls back.
func (s *Store) atomic(ctx context.Context, b beginner, fn func(q querier) error) error {
	if s.noTx {
		wrote := false // a write committed: ClaimNext's quarantines on its way
		for range maxConflictRetries + 1 {
			err := runOn(ctx, b, s.viaDriver, func(q querier) error { return fn(writeNoting{q, &wrote}) })
			if !errors.Is(err, errConflict) {
				if wrote {
					return err
				}
				return busyErr(ctx, err)
			}
		}
		return fmt.Errorf("%w (%d attempts)", ErrContention, maxConflictRetries+1)
	}
	// Every error but a refusal rolled the transaction back (transact).
	return busyErr(ctx, s.transaction(ctx, b, fn))
}

// writeNoting is a querier that notes a write that changed a row.
type writeNoting struct {
	querier
	wrote *bool
}

func (w writeNoting) exec(ctx context.Context, s *Store, query string, args []any) (int64, error) {
	n, err := w.querier.exec(ctx, s, query, args)
	if n > 0 {
		*w.wrote = true
	}
	return n, err
}

// transaction runs fn inside one BEGIN IMMEDIATE transaction on b (see
// atomic).
func (s *Store) transaction(ctx context.Context, b beginner, fn func(q querier) error) error {
	if s.viaDriver {
		return runOn(ctx, b, true, func(q querier) error { return q.(driverQuerier).inTx(ctx, s, fn) })
	}
	if db, ok := b.(*sql.DB); ok && db == s.db {
		s.pending.Range(func(query, _ any) bool { // holding no connection yet
			s.pending.Delete(query)
			s.cached(ctx, query.(string)) // on error the text runs unprepared
			return true
		})
	}
	s.note(Statement{SQL: "BEGIN IMMEDIATE"})
	// Serializable makes go-sqlite3 issue BEGIN IMMEDIATE whatever _txlock
	// the caller's DSN set: the read and the write must hold the write lock
	// together, or two claims could read the same free row.
	tx, err := b.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelSerializable})
	if err != nil {
		return err
	}
	return s.transact(tx, sqlQuerier{tx}, fn)
}

// txn is a transaction begun: database/sql's *sql.Tx, or a driver's
// driver.Tx.
type txn interface {
	Commit() error
	Rollback() error
}

// transact runs fn on q inside tx, which the caller began: a refusal (see
// isRefusal) is committed and returned; any other error rolls back, and so
// does a panic in fn, which then goes on (the connection is not left
// holding the write lock).
func (s *Store) transact(tx txn, q querier, fn func(q querier) error) error {
	returned := false
	defer func() {
		if !returned {
			tx.Rollback()
		}
	}()
	err := fn(q)
	returned = true
	if err != nil && !isRefusal(err) {
		s.note(Statement{SQL: "ROLLBACK"})
		tx.Rollback()
		return err
	}
	s.note(Statement{SQL: "COMMIT"})
	if cerr := tx.Commit(); cerr != nil {
		// A COMMIT that fails (SQLITE_BUSY, SQLITE_FULL, a deferred
		// constraint) may leave the transaction open on the connection:
		// rolled back, none of its writes stays pending for the next
		// operation to commit, and the connection begins afresh. A driver's
		// Tx rolls back here; database/sql's has ended whatever happened
		// (its Rollback is then a no-op), and the driver's own Commit rolls
		// back.
		tx.Rollback()
		return cerr
	}
	return err
}

// isRefusal reports whether err is an outcome to commit, not a failure: a
// *Rejection (a claim's quarantine must stand) or ErrEmpty (so must the
// quarantines ClaimNext made on its way).
func isRefusal(err error) bool {
	var rej *Rejection
	return errors.As(err, &rej) || errors.Is(err, ErrEmpty)
}

// readJob reads one row; nil, nil when there is none.
func (s *Store) readJob(ctx context.Context, q querier, id string) (*Job, error) {
	return s.readOne(ctx, q, selectJob, id)
}

// readOne runs a query of jobColumns and reads its first row; nil, nil
// when there is none.
func (s *Store) readOne(ctx context.Context, q querier, query string, args ...any) (*Job, error) {
	var jc jobCells
	ok, err := s.queryRow(ctx, q, query, args, jc.cells()...)
	if !ok || err != nil {
		return nil, err
	}
	return jc.job(), nil
}

const selectJob = `SELECT ` + jobColumns + ` FROM jobs WHERE id = ?`

// jobCells is a row of jobColumns being read: each column lands in a cell
// (cells.go) rather than in a *string or *int64, so that database/sql hands
// it over through Scanner instead of converting it by reflection.
type jobCells struct {
	j      Job
	status string
}

// cells are the destinations of jobColumns, in order.
func (c *jobCells) cells() []any {
	j := &c.j
	return []any{textCell{&j.ID}, intCell{&j.Qty}, nullTextCell{&j.Owner}, intCell{&j.LeaseUntil}, intCell{&j.Token},
		intCell{&j.Attempts}, intCell{&j.MaxAttempts}, nullIntCell{&j.Deadline}, textCell{&c.status}, nullTextCell{&j.Reason},
		nullTextCell{&j.Result}}
}

// job is the row read.
func (c *jobCells) job() *Job {
	j := c.j
	j.Status = Status(c.status)
	return &j
}

// writeGuarded runs an UPDATE whose WHERE ends with the row version guard
// (id, token, status, lease_until of cur) and reports errConflict when it
// matched nothing.
func (s *Store) writeGuarded(ctx context.Context, q querier, set string, args []any, cur *Job) error {
	query := `UPDATE jobs SET ` + set + ` WHERE id = ? AND token = ? AND status = ? AND lease_until = ?`
	args = append(args, cur.ID, cur.Token, string(cur.Status), cur.LeaseUntil)
	n, err := s.exec(ctx, q, "jobs", cur.ID, query, args...)
	if err != nil {
		return err
	}
	if n != 1 {
		return errConflict
	}
	return nil
}

// Enqueue adds a job in the pending state and returns true, or returns false
// and changes nothing when a job with that id exists (whatever its state: a
// re-enqueue never resets a lease, a token or a result).
func (s *Store) Enqueue(ctx context.Context, j NewJob) (bool, error) {
	if err := s.open(); err != nil {
		return false, err
	}
	if err := checkName("job id", j.ID); err != nil {
		return false, err
	}
	switch {
	case j.Qty < 0:
		return false, invalid("qty %d < 0", j.Qty)
	case j.Deadline < 0:
		return false, invalid("deadline %d < 0", j.Deadline)
	case j.MaxAttempts < 0:
		return false, invalid("max_attempts %d < 0", j.MaxAttempts)
	}
	j.Qty = j.Row().Qty
	var deadline any
	if j.Deadline > 0 {
		deadline = j.Deadline
	}
	query := `INSERT INTO jobs (id, seq, qty, max_attempts, deadline)
VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM jobs), ?, ?, ?)
ON CONFLICT (id) DO NOTHING`
	if s.mut(mutant.EnqueueReplace) {
		query = `INSERT OR REPLACE INTO jobs (id, seq, qty, max_attempts, deadline)
VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM jobs), ?, ?, ?)`
	}
	var n int64
	err := s.on(ctx, s.db, func(q querier) (err error) {
		n, err = s.exec(ctx, q, "jobs", j.ID, query, j.ID, j.Qty, j.MaxAttempts, deadline)
		return err
	})
	return n == 1, err
}

// Get reads one job as stored, over a connection of its own (no cache):
// state. A missing job is not an error: Get returns nil, nil (where Claim
// says ErrNotFound), so check the *Job for nil before you read it.
func (s *Store) Get(ctx context.Context, id string) (*Job, error) {
	if err := s.open(); err != nil {
		return nil, err
	}
	if err := checkName("job id", id); err != nil {
		return nil, err
	}
	var j *Job
	err := s.on(ctx, s.db, func(q querier) (err error) {
		j, err = s.readJob(ctx, q, id)
		return err
	})
	if j == nil && err == nil && s.mut(mutant.StateEmptyRow) {
		return &Job{}, nil
	}
	return j, err
}

// Jobs reads every job in insertion order. It is an inspection read (the
// simulator's table), so the observer does not see it.
func (s *Store) Jobs(ctx context.Context) ([]Job, error) {
	return s.inspect(ctx, `SELECT `+jobColumns+` FROM jobs ORDER BY seq`)
}

// Inspect reads the jobs with the given ids, in insertion order; an id with
// no job is left out. Like Jobs it is an inspection read, unseen by the
// observer: the simulator reads back only the rows a step wrote.
func (s *Store) Inspect(ctx context.Context, ids ...string) ([]Job, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	if len(ids) == 1 {
		// The text of Get and of every operation's read: one statement for
		// SQLite to compile, not two, so that the browser's cold start
		// parses as little as it can.
		return s.inspect(ctx, selectJob, ids[0])
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	marks := placeholders(len(ids))
	return s.inspect(ctx, `SELECT `+jobColumns+` FROM jobs WHERE id IN (`+marks+`) ORDER BY seq`, args...)
}

// JobsAfter reads at most limit jobs (1..limits.Default.ListPageMax, else
// ErrInvalid) in insertion order,
// starting after the job at cursor after (0: from the first), and the
// cursor of the last job read when more jobs follow it, else 0. A cursor is
// a job's place in insertion order, which a job keeps for good: pages read
// one after another by the cursors they return hold every job once, in
// order, however many are enqueued meanwhile (those appear at the end).
// Like Jobs it is an inspection read, unseen by the observer.
func (s *Store) JobsAfter(ctx context.Context, after int64, limit int) (jobs []Job, next int64, err error) {
	if err := s.open(); err != nil {
		return nil, 0, err
	}
	switch {
	case after < 0:
		return nil, 0, invalid("cursor %d < 0", after)
	case limit <= 0 || limit > limits.Default.ListPageMax:
		return nil, 0, invalid("limit %d out of 1..%s", limit, limits.Default.Row("list_page_max"))
	}
	const query = `SELECT seq, ` + jobColumns + ` FROM jobs WHERE seq > ? ORDER BY seq LIMIT ?`
	var seqs []int64
	err = s.on(ctx, s.db, func(q querier) error {
		// One row more than the page says whether another page follows.
		return q.query(ctx, query, []any{after, int64(limit) + 1}, func(scan func(dst ...any) error) error {
			var (
				seq int64
				jc  jobCells
			)
			if err := scan(append([]any{intCell{&seq}}, jc.cells()...)...); err != nil {
				return err
			}
			seqs = append(seqs, seq)
			jobs = append(jobs, *jc.job())
			return nil
		})
	})
	if err != nil {
		return nil, 0, err
	}
	if len(jobs) > limit {
		return jobs[:limit], seqs[limit-1], nil
	}
	return jobs, 0, nil
}

func (s *Store) inspect(ctx context.Context, query string, args ...any) ([]Job, error) {
	if err := s.open(); err != nil {
		return nil, err
	}
	var out []Job
	err := s.on(ctx, s.db, func(q querier) error {
		return q.query(ctx, query, args, func(scan func(dst ...any) error) error {
			var jc jobCells
			if err := scan(jc.cells()...); err != nil {
				return err
			}
			out = append(out, *jc.job())
			return nil
		})
	})
	return out, err
}
