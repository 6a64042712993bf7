package engine

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"time"
)

// The two ways the store reaches the database.
//
// Through database/sql (sqlQuerier): the store prepares each statement once
// and database/sql hands every column of a row over by Rows.Scan. This is
// the way for every driver whose connections do not offer the next one.
//
// Through the driver's own connection (driverQuerier), when it runs SQL text
// itself, keeping what it compiles, and starts transactions (driverConn, an
// interface declared here; the browser's driver offers it): the store takes
// a connection from the *sql.DB's pool (sql.Conn.Raw) for one whole
// operation and runs its
// statements and its transaction on it, reading each row's values straight
// into the cells. The statements, their order, the transaction and the
// outcome are the same; what it leaves out is database/sql's per-statement
// machinery, above all the conversion of every scanned column
// (convertAssignRows), a function large enough that V8 recompiles it with
// its optimizing compiler during the browser's cold first trace (see
// engine/DECISIONS.md, "Statements on the driver's own connection").

// querier is where the store runs a statement: database/sql's *sql.DB,
// *sql.Conn or *sql.Tx (sqlQuerier), or a driver's connection
// (driverQuerier). A nil *Store (a Receiver's, a Storage's statements)
// prepares nothing and runs the text.
type querier interface {
	// exec runs a statement and returns the number of rows it changed.
	exec(ctx context.Context, s *Store, query string, args []any) (int64, error)
	// queryRow runs a query and reads its first row into dst (cells.go
	// takes *string, *int64 or a cell); it reports false, dst untouched,
	// when the query has no row.
	queryRow(ctx context.Context, s *Store, query string, args []any, dst []any) (bool, error)
	// query runs a query and calls each for every row, with a function that
	// reads the row into dst as queryRow does.
	query(ctx context.Context, query string, args []any, each func(scan func(dst ...any) error) error) error
}

// sqlRunner is what runs statements in database/sql: a *sql.DB, *sql.Conn
// or *sql.Tx.
type sqlRunner interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// sqlQuerier runs statements through database/sql, prepared once per store
// (Store.prepared).
type sqlQuerier struct{ q sqlRunner }

func (d sqlQuerier) exec(ctx context.Context, s *Store, query string, args []any) (int64, error) {
	st, err := s.prepared(ctx, d.q, query)
	if err != nil {
		return 0, err
	}
	var res sql.Result
	if st == nil {
		res, err = d.q.ExecContext(ctx, query, args...)
	} else {
		res, err = st.ExecContext(ctx, args...)
	}
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func (d sqlQuerier) queryRow(ctx context.Context, s *Store, query string, args []any, dst []any) (bool, error) {
	st, err := s.prepared(ctx, d.q, query)
	if err != nil {
		return false, err
	}
	var row *sql.Row
	if st == nil {
		row = d.q.QueryRowContext(ctx, query, args...)
	} else {
		row = st.QueryRowContext(ctx, args...)
	}
	err = row.Scan(cells(dst...)...)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

func (d sqlQuerier) query(ctx context.Context, query string, args []any, each func(scan func(dst ...any) error) error) error {
	rows, err := d.q.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	scan := func(dst ...any) error { return rows.Scan(cells(dst...)...) }
	for rows.Next() {
		if err := each(scan); err != nil {
			return err
		}
	}
	return rows.Err()
}

// driverConn is a driver connection the store may run an operation on
// itself: it runs SQL text (a driver.ErrSkip is taken as a request to
// prepare it first) and starts transactions.
type driverConn interface {
	driver.Conn
	driver.ExecerContext
	driver.QueryerContext
	driver.ConnBeginTx
}

// driverQuerier runs statements on a driver's connection, held for the
// operation (Store.on).
type driverQuerier struct{ c driverConn }

func (d driverQuerier) exec(ctx context.Context, _ *Store, query string, args []any) (int64, error) {
	nv, err := namedValues(args)
	if err != nil {
		return 0, err
	}
	res, err := d.c.ExecContext(ctx, query, nv)
	if errors.Is(err, driver.ErrSkip) {
		res, err = d.execPrepared(ctx, query, nv)
	}
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func (d driverQuerier) queryRow(ctx context.Context, _ *Store, query string, args []any, dst []any) (bool, error) {
	found := false
	err := d.query(ctx, query, args, func(scan func(dst ...any) error) error {
		if found {
			return nil // the first row only, as sql.Row
		}
		found = true
		return scan(dst...)
	})
	return found && err == nil, err
}

func (d driverQuerier) query(ctx context.Context, query string, args []any, each func(scan func(dst ...any) error) error) error {
	nv, err := namedValues(args)
	if err != nil {
		return err
	}
	rows, err := d.c.QueryContext(ctx, query, nv)
	var st driver.Stmt
	if errors.Is(err, driver.ErrSkip) {
		if st, err = d.prepare(ctx, query); err == nil {
			defer st.Close()
			rows, err = queryStmt(ctx, st, nv)
		}
	}
	if err != nil {
		return err
	}
	defer rows.Close()
	values := make([]driver.Value, len(rows.Columns()))
	scan := func(dst ...any) error { return scanValues(values, dst) }
	for {
		err := rows.Next(values)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := each(scan); err != nil {
			return err
		}
	}
}

// inTx runs fn on d inside a BEGIN IMMEDIATE transaction, as Store.atomic
// does through database/sql (Store.transact).
func (d driverQuerier) inTx(ctx context.Context, s *Store, fn func(q querier) error) error {
	s.note(Statement{SQL: "BEGIN IMMEDIATE"})
	tx, err := d.c.BeginTx(ctx, driver.TxOptions{Isolation: driver.IsolationLevel(sql.LevelSerializable)})
	if err != nil {
		return err
	}
	return s.transact(tx, d, fn)
}

// prepare prepares query on the connection, for a driver that would not run
// its text directly.
func (d driverQuerier) prepare(ctx context.Context, query string) (driver.Stmt, error) {
	if p, ok := d.c.(driver.ConnPrepareContext); ok {
		return p.PrepareContext(ctx, query)
	}
	return d.c.Prepare(query)
}

func (d driverQuerier) execPrepared(ctx context.Context, query string, nv []driver.NamedValue) (driver.Result, error) {
	st, err := d.prepare(ctx, query)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	if e, ok := st.(driver.StmtExecContext); ok {
		return e.ExecContext(ctx, nv)
	}
	//lint:ignore SA1019 a driver's statement that has only the interface of before Go 1.8
	return st.Exec(plainValues(nv))
}

func queryStmt(ctx context.Context, st driver.Stmt, nv []driver.NamedValue) (driver.Rows, error) {
	if q, ok := st.(driver.StmtQueryContext); ok {
		return q.QueryContext(ctx, nv)
	}
	//lint:ignore SA1019 a driver's statement that has only the interface of before Go 1.8
	return st.Query(plainValues(nv))
}

func plainValues(nv []driver.NamedValue) []driver.Value {
	out := make([]driver.Value, len(nv))
	for i, v := range nv {
		out[i] = v.Value
	}
	return out
}

// namedValues is args as a driver takes them, in order: the values the
// store passes (strings, int64s, NULL) as they are, any other through
// database/sql's default conversion.
func namedValues(args []any) ([]driver.NamedValue, error) {
	nv := make([]driver.NamedValue, len(args))
	for i, a := range args {
		v, err := driverValue(a)
		if err != nil {
			return nil, fmt.Errorf("engine: argument %d: %w", i+1, err)
		}
		nv[i] = driver.NamedValue{Ordinal: i + 1, Value: v}
	}
	return nv, nil
}

func driverValue(a any) (driver.Value, error) {
	switch v := a.(type) {
	case nil, int64, float64, bool, []byte, string, time.Time:
		return v, nil
	}
	return driver.DefaultParameterConverter.ConvertValue(a)
}

// scanValues reads a row's values into dst, each through its cell.
func scanValues(values []driver.Value, dst []any) error {
	if len(dst) != len(values) {
		return fmt.Errorf("engine: a row of %d columns read into %d cells", len(values), len(dst))
	}
	for i, d := range cells(dst...) {
		c, ok := d.(sql.Scanner)
		if !ok {
			return fmt.Errorf("engine: cannot read column %d into %T", i+1, d)
		}
		if err := c.Scan(values[i]); err != nil {
			return fmt.Errorf("engine: column %d: %w", i+1, err)
		}
	}
	return nil
}

// on runs fn on b (the store's *sql.DB, or a *sql.Conn taken from it): on
// b itself through database/sql, or, when the driver's connection is a
// driverConn, on one connection of b's held for fn's whole run. fn runs
// one statement (each commits alone), so the database's busy is ErrBusy:
// nothing changed.
func (s *Store) on(ctx context.Context, b beginner, fn func(q querier) error) error {
	return busyErr(ctx, runOn(ctx, b, s.viaDriver, fn))
}

// runOn runs fn on b through database/sql, or, viaDriver, on one driver
// connection of b's held for fn's whole run.
func runOn(ctx context.Context, b beginner, viaDriver bool, fn func(q querier) error) error {
	if !viaDriver {
		return fn(sqlQuerier{b})
	}
	conn, ok := b.(*sql.Conn)
	if !ok {
		var err error
		if conn, err = b.(*sql.DB).Conn(ctx); err != nil {
			return err
		}
		defer conn.Close()
	}
	return conn.Raw(func(dc any) error {
		c, ok := dc.(driverConn)
		if !ok {
			return fmt.Errorf("engine: the driver's connection %T no longer runs SQL text", dc)
		}
		return fn(driverQuerier{c})
	})
}

// viaDriver reports whether db's driver connections are driverConns.
func viaDriver(ctx context.Context, db *sql.DB) (bool, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return false, err
	}
	defer conn.Close()
	ok := false
	err = conn.Raw(func(dc any) error {
		_, ok = dc.(driverConn)
		return nil
	})
	return ok, err
}

// table is what a Receiver or a Storage keeps of its database: one table
// of its own, written by single statements, each run as the Store runs its
// statements (runOn).
type table struct {
	db        *sql.DB
	viaDriver bool // as Store's
	config
}

// open sets t on db with opts and creates its table: stmts, each seen by the
// observer; an error that stops them is said as what's.
func (t *table) open(ctx context.Context, db *sql.DB, opts []Option, what string, stmts []string) error {
	t.db = db
	if err := t.apply(opts); err != nil {
		return err
	}
	var err error
	if t.viaDriver, err = viaDriver(ctx, db); err != nil {
		return err
	}
	return t.on(ctx, func(q querier) error {
		for _, st := range stmts {
			t.note(Statement{SQL: st})
			if _, err := q.exec(ctx, nil, st, nil); err != nil {
				return fmt.Errorf("engine: create %s: %w", what, err)
			}
		}
		return nil
	})
}

// on runs fn on t's database (runOn).
func (t *table) on(ctx context.Context, fn func(q querier) error) error {
	return runOn(ctx, t.db, t.viaDriver, fn)
}
