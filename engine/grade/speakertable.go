package grade

import (
	"bytes"
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"io"
)

// table is the database file at path as s's program sees it, for the
// grader to read: a database/sql handle whose queries go to s.Rows. It
// reads, nothing more: a statement with parameters, a transaction or a
// prepared statement is refused.
func (s speakerOf) table(path string) (*sql.DB, error) {
	return sql.OpenDB(speakerConnector{s: s.Speaker, path: path}), nil
}

// speakerOf gives a Speaker the table method.
type speakerOf struct{ Speaker }

type speakerConnector struct {
	s    Speaker
	path string
}

func (c speakerConnector) Connect(context.Context) (driver.Conn, error) { return speakerConn(c), nil }
func (c speakerConnector) Driver() driver.Driver                        { return speakerDriver{} }

type speakerDriver struct{}

func (speakerDriver) Open(string) (driver.Conn, error) {
	return nil, errors.New("grade: a Speaker's table opens through its connector")
}

type speakerConn speakerConnector

var errReadOnly = errors.New("grade: a Speaker's table answers queries without parameters, nothing else")

func (speakerConn) Prepare(string) (driver.Stmt, error) { return nil, errReadOnly }
func (speakerConn) Close() error                        { return nil }
func (speakerConn) Begin() (driver.Tx, error)           { return nil, errReadOnly }

// QueryContext reads every row of query at once.
func (c speakerConn) QueryContext(_ context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	if len(args) > 0 {
		return nil, errReadOnly
	}
	raw, err := c.s.Rows(c.path, query)
	if err != nil {
		return nil, err
	}
	var r struct {
		Columns []string            `json:"columns"`
		Rows    [][]json.RawMessage `json:"rows"`
		Error   *string             `json:"error"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, err
	}
	if r.Error != nil {
		return nil, errors.New(*r.Error)
	}
	return &speakerRows{cols: r.Columns, rows: r.Rows}, nil
}

// speakerRows are a query's rows, read.
type speakerRows struct {
	cols []string
	rows [][]json.RawMessage
}

func (r *speakerRows) Columns() []string { return r.cols }
func (r *speakerRows) Close() error      { return nil }

// Next gives a row's values as SQLite gave them to Python: an integer
// (JSON without a fraction or exponent: Python writes a real as 1000.0)
// an int64, a real a float64, text a string, NULL nil.
func (r *speakerRows) Next(dest []driver.Value) error {
	if len(r.rows) == 0 {
		return io.EOF
	}
	row := r.rows[0]
	r.rows = r.rows[1:]
	for i := range dest {
		dest[i] = nil
		if i < len(row) {
			v, err := sqlValue(row[i])
			if err != nil {
				return err
			}
			dest[i] = v
		}
	}
	return nil
}

// sqlValue is one JSON value of a row as database/sql takes it.
func sqlValue(raw json.RawMessage) (driver.Value, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	n, ok := v.(json.Number)
	if !ok {
		return v, nil // a string, nil; a bool for a column SQLite never gives one
	}
	if i, err := n.Int64(); err == nil {
		return i, nil
	}
	return n.Float64()
}
