//go:build js

package sqlitejs

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"io"
	"strconv"
	"syscall/js"
	"time"
	"unicode/utf8"
)

func init() { sql.Register("sqlitejs", Driver{}) }

// Driver opens a connection by SQLite URI filename, with no init
// statements and DefaultBusyTimeout. Use a Connector to set those.
type Driver struct{}

// Open opens a connection to the database at the SQLite URI filename name.
func (Driver) Open(name string) (driver.Conn, error) {
	return (&Connector{Filename: name}).Connect(context.Background())
}

// DefaultBusyTimeout is how long a connection waits out another one's lock
// when its Connector does not say.
const DefaultBusyTimeout = 5 * time.Second

// Connector opens connections to one database: sql.OpenDB(&Connector{...}).
type Connector struct {
	// Filename is SQLite's URI filename, e.g. "file:/jobs?vfs=memdb" for a
	// memory database every connection in this thread shares.
	Filename string
	// Init are statements each new connection runs first, in order
	// (e.g. PRAGMA page_size = 4096). A failing one fails the connection.
	Init []string
	// BusyTimeout is how long a statement waits out another connection's
	// lock before it fails with SQLITE_BUSY; 0 means DefaultBusyTimeout.
	BusyTimeout time.Duration
}

// Connect opens one connection and runs the Init statements on it.
func (c *Connector) Connect(ctx context.Context) (driver.Conn, error) {
	b, err := bridge()
	if err != nil {
		return nil, err
	}
	a := b.Call("open", c.Filename)
	if err := answer(a); err != nil {
		return nil, err
	}
	cn := &conn{b: b, id: a.Index(1).Int(), idv: a.Index(1), busy: c.BusyTimeout}
	if cn.busy <= 0 {
		cn.busy = DefaultBusyTimeout
	}
	for _, q := range c.Init {
		if _, err := cn.ExecContext(ctx, q, nil); err != nil {
			cn.Close()
			return nil, err
		}
	}
	return cn, nil
}

// Driver returns Driver{}.
func (c *Connector) Driver() driver.Driver { return Driver{} }

// conn is one SQLite connection (a sqlite3* on the bridge side).
type conn struct {
	b      js.Value
	id     int      // the bridge's handle of the connection
	idv    js.Value // id as a JavaScript number, made once
	busy   time.Duration
	closed bool
	stuck  bool    // a Tx ended and left its transaction open
	trace  js.Func // the Trace callback, released when replaced or closed
}

var (
	_ driver.ConnBeginTx        = (*conn)(nil)
	_ driver.ConnPrepareContext = (*conn)(nil)
	_ driver.ExecerContext      = (*conn)(nil)
	_ driver.QueryerContext     = (*conn)(nil)
	_ driver.Pinger             = (*conn)(nil)
	_ driver.SessionResetter    = (*conn)(nil)
	_ driver.Validator          = (*conn)(nil)
)

// call runs method on the bridge, waiting out SQLITE_BUSY up to c.busy; the
// answer's result code is checked.
func (c *conn) call(ctx context.Context, method string, args ...any) (js.Value, error) {
	var a js.Value
	err := c.retry(ctx, func() error {
		a = c.b.Call(method, args...)
		return answer(a)
	})
	return a, err
}

// retry calls try until it fails with other than SQLITE_BUSY, with a
// SQLITE_BUSY SQLite returned without asking the busy handler (one that
// breaks a deadlock: waiting would not end it, and SQLite would not wait
// natively), or c.busy has passed.
func (c *conn) retry(ctx context.Context, try func() error) error {
	if c.closed {
		return driver.ErrBadConn
	}
	var deadline time.Time
	wait := time.Millisecond
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		err := try()
		if e, ok := err.(*Error); !ok || e.Code&0xff != codeBusy || !c.b.Call("busyAsked").Bool() {
			return err
		}
		now := time.Now()
		if deadline.IsZero() {
			deadline = now.Add(c.busy)
		}
		if !now.Before(deadline) {
			return err
		}
		// Another connection holds the lock; sleeping lets its goroutine run.
		time.Sleep(min(wait, deadline.Sub(now)))
		wait = min(2*wait, 16*time.Millisecond)
	}
}

// run runs a statement (a prepared one's handle, or SQL text the bridge
// prepares once and keeps, as sqlKey makes it) with args to its end,
// waiting out SQLITE_BUSY; exec says it runs for an Exec (its last insert
// rowid starts at 0).
func (c *conn) run(ctx context.Context, key js.Value, args []driver.NamedValue, exec bool) (outcome, error) {
	var o outcome
	err := c.retry(ctx, func() error {
		var err error
		o, err = c.runOnce(key, args, exec)
		return err
	})
	return o, err
}

func (c *conn) Prepare(query string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), query)
}

// PrepareContext prepares query, one statement (ErrMultipleStatements) of
// UTF-8 (ErrNotUTF8).
func (c *conn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	if !utf8.ValidString(query) {
		return nil, ErrNotUTF8
	}
	a, err := c.call(ctx, "prepare", c.id, query)
	if err != nil {
		return nil, err
	}
	return &stmt{c: c, id: a.Index(1).Int(), key: a.Index(1), inputs: a.Index(2).Int()}, nil
}

// ExecContext runs query, UTF-8 (ErrNotUTF8); without arguments it may hold
// several statements, run in turn, and with arguments one only
// (ErrMultipleStatements). Waiting out SQLITE_BUSY, it runs the text again
// from the statement that met it: those before it ran once.
func (c *conn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	if !utf8.ValidString(query) {
		return nil, ErrNotUTF8
	}
	if len(args) == 0 {
		return c.exec(ctx, query)
	}
	o, err := c.run(ctx, sqlKey(query), args, true)
	if err != nil {
		return nil, err
	}
	return newResult(o.changes, o.lastID), nil
}

// exec runs query, any number of statements without arguments, in turn.
func (c *conn) exec(ctx context.Context, query string) (driver.Result, error) {
	rest := query
	var a js.Value
	err := c.retry(ctx, func() error {
		a = c.b.Call("exec", c.id, rest)
		if a.Index(0).Int()&0xff == codeBusy {
			rest = rest[min(a.Index(2).Int(), len(rest)):]
		}
		return answer(a)
	})
	if err != nil {
		return nil, err
	}
	changes, err := strconv.ParseInt(a.Index(1).String(), 10, 64)
	if err != nil {
		return nil, err
	}
	lastID, err := strconv.ParseInt(a.Index(2).String(), 10, 64)
	if err != nil {
		return nil, err
	}
	return newResult(changes, lastID), nil
}

// QueryContext runs query, one statement (ErrMultipleStatements) of UTF-8
// (ErrNotUTF8), and reads its rows whole.
func (c *conn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	if !utf8.ValidString(query) {
		return nil, ErrNotUTF8
	}
	o, err := c.run(ctx, sqlKey(query), args, false)
	if err != nil {
		return nil, err
	}
	return &rows{columns: o.columns, rows: o.rows}, nil
}

func (c *conn) Begin() (driver.Tx, error) {
	return c.BeginTx(context.Background(), driver.TxOptions{})
}

// BeginTx starts a transaction, as the native driver with _txlock=immediate
// does: at sql.LevelDefault BEGIN IMMEDIATE (BEGIN when read-only), at
// sql.LevelSerializable BEGIN IMMEDIATE, at sql.LevelLinearizable BEGIN
// EXCLUSIVE; any other level is refused (ErrIsolation). A read-only
// transaction refuses writes (PRAGMA query_only, until it ends).
func (c *conn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	q := "BEGIN IMMEDIATE"
	switch sql.IsolationLevel(opts.Isolation) {
	case sql.LevelDefault:
		if opts.ReadOnly {
			q = "BEGIN"
		}
	case sql.LevelSerializable:
	case sql.LevelLinearizable:
		q = "BEGIN EXCLUSIVE"
	default:
		return nil, ErrIsolation
	}
	if opts.ReadOnly {
		if _, err := c.exec(ctx, q+"; PRAGMA query_only = on"); err != nil {
			if !c.autocommit() {
				c.exec(context.Background(), "ROLLBACK; PRAGMA query_only = off")
			}
			return nil, err
		}
		return tx{c: c, readOnly: true}, nil
	}
	if _, err := c.run(ctx, sqlKey(q), nil, false); err != nil {
		return nil, err
	}
	return tx{c: c}, nil
}

// autocommit reports whether c is outside a transaction.
func (c *conn) autocommit() bool { return c.b.Call("autocommit", c.idv).Bool() }

func (c *conn) Ping(ctx context.Context) error {
	if c.closed {
		return driver.ErrBadConn
	}
	return ctx.Err()
}

// ResetSession discards (driver.ErrBadConn) a connection that a
// transaction of its left inside it (its COMMIT failed, and so did the
// ROLLBACK after it): the pool then opens another. A transaction begun by
// the caller's own BEGIN stays, as natively.
func (c *conn) ResetSession(context.Context) error {
	if !c.IsValid() {
		return driver.ErrBadConn
	}
	return nil
}

// IsValid reports whether c is open and no transaction of its was left
// open when it ended.
func (c *conn) IsValid() bool { return !c.closed && !c.stuck }

// Close closes the connection and finalizes its statements.
func (c *conn) Close() error {
	if c.closed {
		return nil
	}
	c.closed = true
	err := answer(c.b.Call("close", c.id))
	if c.trace.Truthy() {
		c.trace.Release()
	}
	return err
}

// tx is the open transaction of a connection.
type tx struct {
	c        *conn
	readOnly bool // query_only is on until the transaction ends
}

// Commit commits; when COMMIT fails and leaves the transaction open, it
// rolls it back, so that the connection is left outside a transaction
// whatever happens, as natively.
func (t tx) Commit() error {
	err := t.end("COMMIT")
	if err != nil && !t.c.closed && !t.c.autocommit() {
		t.Rollback()
	}
	return err
}

// Rollback rolls back; should the transaction stay open, the connection is
// discarded (ResetSession).
func (t tx) Rollback() error {
	err := t.end("ROLLBACK")
	if err != nil && !t.c.closed && !t.c.autocommit() {
		t.c.stuck = true
	}
	return err
}

// end runs COMMIT or ROLLBACK, turning query_only off after a read-only
// transaction, also one that a statement of the caller's ended early (its
// COMMIT or ROLLBACK then fails, and the PRAGMA after it would not run).
func (t tx) end(q string) error {
	ctx := context.Background()
	if t.readOnly {
		_, err := t.c.exec(ctx, q+"; PRAGMA query_only = off")
		if err != nil && !t.c.closed && t.c.autocommit() {
			t.c.exec(ctx, "PRAGMA query_only = off")
		}
		return err
	}
	_, err := t.c.run(ctx, sqlKey(q), nil, false)
	return err
}

// stmt is a statement prepared on a connection.
type stmt struct {
	c      *conn
	id     int      // the bridge's handle of the statement
	key    js.Value // id as a JavaScript number, made once
	inputs int
	closed bool
}

var (
	_ driver.StmtExecContext  = (*stmt)(nil)
	_ driver.StmtQueryContext = (*stmt)(nil)
)

func (s *stmt) Close() error {
	if s.closed || s.c.closed {
		return nil
	}
	s.closed = true
	return answer(s.c.b.Call("finalize", s.id))
}

func (s *stmt) NumInput() int { return s.inputs }

func (s *stmt) Exec(args []driver.Value) (driver.Result, error) {
	return s.ExecContext(context.Background(), named(args))
}

func (s *stmt) Query(args []driver.Value) (driver.Rows, error) {
	return s.QueryContext(context.Background(), named(args))
}

func (s *stmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	if s.closed {
		return nil, ErrClosed
	}
	o, err := s.c.run(ctx, s.key, args, true)
	if err != nil {
		return nil, err
	}
	return newResult(o.changes, o.lastID), nil
}

func (s *stmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	if s.closed {
		return nil, ErrClosed
	}
	o, err := s.c.run(ctx, s.key, args, false)
	if err != nil {
		return nil, err
	}
	return &rows{columns: o.columns, rows: o.rows}, nil
}

func named(args []driver.Value) []driver.NamedValue {
	n := make([]driver.NamedValue, len(args))
	for i, v := range args {
		n[i] = driver.NamedValue{Ordinal: i + 1, Value: v}
	}
	return n
}

// result is what an Exec changed.
type result struct{ changes, lastID int64 }

// newResult is an Exec's result as the native driver gives it: the last
// insert rowid only when the statement changed rows.
func newResult(changes, lastID int64) result {
	if changes == 0 {
		lastID = 0
	}
	return result{changes: changes, lastID: lastID}
}

func (r result) LastInsertId() (int64, error) { return r.lastID, nil }
func (r result) RowsAffected() (int64, error) { return r.changes, nil }

// rows are a query's rows, read whole when it ran.
type rows struct {
	columns []string
	rows    [][]driver.Value
}

func (r *rows) Columns() []string { return r.columns }
func (r *rows) Close() error      { r.rows = nil; return nil }

func (r *rows) Next(dest []driver.Value) error {
	if len(r.rows) == 0 {
		return io.EOF
	}
	copy(dest, r.rows[0])
	r.rows = r.rows[1:]
	return nil
}

// Tracer is what a connection of this driver offers through sql.Conn.Raw:
// Trace calls f with the expanded SQL of each statement SQLite starts on it
// (SQLITE_TRACE_STMT), transaction control included, until Trace(nil).
// f runs inside the statement's run, so it must not run statements itself
// (on any connection of this driver): that would wait for itself forever.
type Tracer interface {
	Trace(f func(expandedSQL string)) error
}

var _ Tracer = (*conn)(nil)

func (c *conn) Trace(f func(expandedSQL string)) error {
	if c.closed {
		return driver.ErrBadConn
	}
	if c.trace.Truthy() {
		c.trace.Release()
		c.trace = js.Func{}
	}
	arg := js.Null()
	if f != nil {
		c.trace = js.FuncOf(func(_ js.Value, args []js.Value) any {
			f(args[0].String())
			return nil
		})
		arg = c.trace.Value
	}
	return answer(c.b.Call("trace", c.id, arg))
}
