//go:build js && wasm

package jslab

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"syscall/js"
	"time"

	"github.com/leaselab/leaselab/engine/grade"
	"github.com/leaselab/leaselab/engine/sqlitedb"
)

// Names are the lab's functions in JavaScript, in the lab's order.
var Names = []string{"initDb", "enqueue", "state", "claim", "renew", "complete", "release", "claimMany"}

// Budget is how many statements one call of the learner's may run.
const Budget = 20_000

// Compile evaluates source, which declares the lab's functions, and
// returns them as an object by name (a function it does not declare is
// undefined there), and the names it lacks. A syntax error, or an
// exception its top level throws, is the error.
func Compile(source string) (fns js.Value, missing []string, err error) {
	var ret strings.Builder
	ret.WriteString("\n;return {")
	for _, n := range Names {
		fmt.Fprintf(&ret, "%s: typeof %s === 'function' ? %s : undefined, ", n, n, n)
	}
	ret.WriteString("};")
	err = catch(func() {
		fns = js.Global().Get("Function").New(`"use strict";` + source + ret.String()).Invoke()
	})
	if t, ok := err.(*Thrown); ok && t.Name == "SyntaxError" {
		t.Line, t.Col = syntaxAt(source)
	}
	if err != nil {
		return js.Undefined(), nil, err
	}
	for _, n := range Names {
		if fns.Get(n).Type() != js.TypeFunction {
			missing = append(missing, n)
		}
	}
	return fns, missing, nil
}

// Thrown is an exception the learner's code threw: its name (TypeError,
// RangeError, SQLError, ...) and message; for a SyntaxError, where it is
// in the learner's source (1-based line and column; 0 when unknown).
type Thrown struct {
	Name, Message string
	Line, Col     int
}

func (t *Thrown) Error() string {
	if t.Line > 0 {
		return fmt.Sprintf("%s: %s (line %d, column %d)", t.Name, t.Message, t.Line, t.Col)
	}
	return t.Name + ": " + t.Message
}

// syntaxAt is where source's first syntax error is: the line and column
// (1-based) of the last character of the token it stands at, or of its
// first when the message quotes the token; 0, 0 when source compiles.
// JavaScript's SyntaxError carries no place, so the place is found by
// compiling prefixes of source: the shortest prefix from which on every
// longer one fails with source's own message ends with the token. A
// truncation that fails with the same message by chance can move the
// column a token earlier; the line holds.
func syntaxAt(source string) (line, col int) {
	at := locator().Invoke(source)
	if at.IsNull() {
		return 0, 0
	}
	return at.Index(0).Int(), at.Index(1).Int()
}

// locator is syntaxAt's search, in JavaScript: a compile per prefix tried,
// lines from the end, then characters of that line from its end.
var locator = sync.OnceValue(func() js.Value {
	return js.Global().Get("Function").New("source", `
const fails = (text) => {
  try { new Function('"use strict";' + text); return null; }
  catch (e) { return e instanceof SyntaxError ? e.message : null; }
};
const msg = fails(source);
if (msg === null) return null;
const lines = source.split('\n');
let k = lines.length;
while (k > 1 && fails(lines.slice(0, k - 1).join('\n')) === msg) k--;
const before = k > 1 ? lines.slice(0, k - 1).join('\n') + '\n' : '';
const line = lines[k - 1];
let c = line.length;
while (c > 1 && fails(before + line.slice(0, c - 1)) === msg) c--;
const quoted = /'([^']+)'/.exec(msg);
if (quoted && line.slice(0, c).endsWith(quoted[1])) c -= quoted[1].length - 1;
return [k, Math.max(c, 1)];`)
})

// Is makes a RangeError the lab's ValueError.
func (t *Thrown) Is(target error) bool { return target == grade.ErrValue && t.Name == "RangeError" }

// catch runs f and returns what JavaScript threw in it, as a *Thrown.
func catch(f func()) (err error) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		if je, ok := r.(js.Error); ok {
			name := "Error"
			if n := je.Value.Get("name"); n.Type() == js.TypeString {
				name = n.String()
			}
			msg := je.Value.String()
			if m := je.Value.Get("message"); m.Type() == js.TypeString {
				msg = m.String()
			}
			err = &Thrown{Name: name, Message: msg}
			return
		}
		panic(r)
	}()
	f()
	return nil
}

// Statement is one statement the learner's code ran: its SQL, its
// parameters, and its error ("" when it ran).
type Statement struct {
	SQL    string `json:"sql"`
	Params []any  `json:"params"`
	Error  string `json:"error,omitempty"`
}

// call is the record of one call of the learner's: what it ran, and the
// table after it.
type call struct {
	path    string
	sql     []Statement
	count   int
	began   time.Time
	stopped string // why the db refuses more statements; "" while it runs them
	rows    []Row
	rowsErr string
}

// Lab is the learner's functions as a grade.Lab: each call runs the
// learner's function on the db of its path, one call at a time (the
// page's JavaScript has one thread).
type Lab struct {
	fns     js.Value
	callMax time.Duration
	onCall  func(call string) // hears each call before it runs; nil: none

	mu   sync.Mutex
	dbs  map[string]*learnerDB
	last *call // the call in progress, or the last one
}

// learnerDB is the db one path's calls receive: a connection to the
// shared in-memory database called path, which the grader reads too.
type learnerDB struct {
	pool  *sql.DB
	conn  *sql.Conn
	obj   js.Value
	funcs []js.Func
}

// NewLab is the lab of fns (Compile's), each call within callMax.
func NewLab(fns js.Value, callMax time.Duration) *Lab {
	return &Lab{fns: fns, callMax: callMax, dbs: map[string]*learnerDB{}}
}

// Close closes every db the lab opened.
func (l *Lab) Close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for p := range l.dbs {
		l.drop(p)
	}
}

func (l *Lab) drop(path string) {
	d := l.dbs[path]
	for _, f := range d.funcs {
		f.Release()
	}
	d.conn.Close()
	d.pool.Close()
	delete(l.dbs, path)
}

// shim wraps the db's Go functions, which answer {value} or {error}, in
// the API the learner calls, which throws.
var shim = sync.OnceValue(func() js.Value {
	return js.Global().Get("Function").New("raw", `
const call = (m, sql, params) => {
  const r = raw[m](sql, params);
  if (r.error !== undefined) { const e = new Error(r.error); e.name = 'SQLError'; throw e; }
  return r.value;
};
return Object.freeze({
  run: (sql, ...params) => call('run', sql, params),
  all: (sql, ...params) => call('all', sql, params),
  get: (sql, ...params) => call('get', sql, params),
});`)
})

// db is path's db, opened on its first call; the dbs of earlier paths are
// closed then (each test's queue has a path of its own, used in turn).
func (l *Lab) db(path string) (*learnerDB, error) {
	if d := l.dbs[path]; d != nil {
		return d, nil
	}
	for p := range l.dbs {
		l.drop(p)
	}
	pool, err := sqlitedb.Memory(path)
	if err != nil {
		return nil, err
	}
	conn, err := pool.Conn(context.Background())
	if err != nil {
		pool.Close()
		return nil, err
	}
	d := &learnerDB{pool: pool, conn: conn}
	raw := map[string]any{}
	for _, m := range []string{"run", "all", "get"} {
		f := js.FuncOf(func(_ js.Value, args []js.Value) any { return l.statement(d, m, args) })
		d.funcs = append(d.funcs, f)
		raw[m] = f
	}
	d.obj = shim().Invoke(js.ValueOf(raw))
	l.dbs[path] = d
	return d, nil
}

// statement runs one of the learner's statements: {value} or {error}.
func (l *Lab) statement(d *learnerDB, method string, args []js.Value) any {
	c := l.last
	fail := func(msg string) any { return map[string]any{"error": msg} }
	if len(args) < 2 || args[0].Type() != js.TypeString {
		return fail("db." + method + " takes the SQL text first, then its parameters")
	}
	st := Statement{SQL: args[0].String(), Params: []any{}}
	for i := range args[1].Length() {
		v, err := param(args[1].Index(i))
		if err != nil {
			return fail(err.Error())
		}
		st.Params = append(st.Params, v)
	}
	c.count++
	switch {
	case c.stopped != "":
	case c.count > Budget:
		c.stopped = fmt.Sprintf("the call ran more than %d statements: an endless loop?", Budget)
	case time.Since(c.began) > l.callMax:
		c.stopped = fmt.Sprintf("the call ran longer than %v: an endless loop?", l.callMax)
	}
	if c.stopped != "" {
		return fail(c.stopped)
	}
	value, err := run(d.conn, method, st.SQL, st.Params)
	if err != nil {
		st.Error = err.Error()
	}
	if len(c.sql) < maxStatements {
		c.sql = append(c.sql, st)
	}
	if err != nil {
		return fail(err.Error())
	}
	return map[string]any{"value": value}
}

// maxStatements is how many of a call's statements its record keeps.
const maxStatements = 50

// param is a statement's parameter from JavaScript.
func param(v js.Value) (any, error) {
	switch v.Type() {
	case js.TypeNull, js.TypeUndefined:
		return nil, nil
	case js.TypeString:
		return v.String(), nil
	case js.TypeBoolean:
		if v.Bool() {
			return int64(1), nil
		}
		return int64(0), nil
	case js.TypeNumber:
		f := v.Float()
		if f == math.Trunc(f) && math.Abs(f) <= 1<<53 {
			return int64(f), nil
		}
		return f, nil
	}
	return nil, fmt.Errorf("a parameter is a number, a string, a boolean or null, not %s", v.Type())
}

// run runs one statement on conn: run's {changes, lastInsertRowid}, all's
// rows, get's first row (undefined when none).
func run(conn *sql.Conn, method, q string, params []any) (any, error) {
	ctx := context.Background()
	if method == "run" {
		r, err := conn.ExecContext(ctx, q, params...)
		if err != nil {
			return nil, err
		}
		n, _ := r.RowsAffected()
		id, _ := r.LastInsertId()
		return map[string]any{"changes": n, "lastInsertRowid": id}, nil
	}
	rows, err := query(conn, q, params...)
	if err != nil {
		return nil, err
	}
	if method == "get" {
		if len(rows) == 0 {
			return js.Undefined(), nil
		}
		return rows[0], nil
	}
	out := make([]any, len(rows))
	for i, r := range rows {
		out[i] = r
	}
	return out, nil
}

// query reads every row of q, each a map by column name of values
// JavaScript takes (int64, float64, string, nil).
func query(conn *sql.Conn, q string, params ...any) ([]map[string]any, error) {
	rows, err := conn.QueryContext(context.Background(), q, params...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	var out []map[string]any
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		m := map[string]any{}
		for i, c := range cols {
			switch v := vals[i].(type) {
			case []byte:
				m[c] = string(v)
			case time.Time:
				m[c] = v.Format(time.RFC3339Nano)
			default:
				m[c] = v
			}
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// invoke calls the learner's function name on path's db with args. A
// call that ran out of its budget panics, which the grader takes for a
// broken program. A Promise is no answer (a TypeError), but initDb's,
// which answers nothing.
func (l *Lab) invoke(path, name string, args ...any) (js.Value, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	c := &call{path: path, began: time.Now()}
	l.last = c
	if l.onCall != nil {
		l.onCall(callText(name, args))
	}
	f := l.fns.Get(name)
	if f.Type() != js.TypeFunction {
		return js.Undefined(), &Thrown{Name: "ReferenceError", Message: name + " is not defined"}
	}
	d, err := l.db(path)
	if err != nil {
		return js.Undefined(), err
	}
	var v js.Value
	err = catch(func() { v = f.Invoke(append([]any{d.obj}, args...)...) })
	if c.stopped != "" {
		panic(grade.Stop(c.stopped))
	}
	c.rows, c.rowsErr = readRows(d.conn)
	if err == nil && v.InstanceOf(js.Global().Get("Promise")) {
		// Handled here, a rejection reaches no unhandledrejection handler
		// (Node ends the process on one).
		v.Call("then", js.Undefined(), noop())
		if name != "initDb" {
			err = &Thrown{Name: "TypeError", Message: name + " returned a Promise (an async function?): db is synchronous, so return the answer itself"}
		}
	}
	return v, err
}

// callText is a call as the report writes it: name(db, "j1", ["A", "B"], 1000).
func callText(name string, args []any) string {
	var b strings.Builder
	b.WriteString(name + "(db")
	for _, a := range args {
		b.WriteString(", ")
		writeValue(&b, a)
	}
	b.WriteString(")")
	return b.String()
}

func writeValue(b *strings.Builder, v any) {
	switch v := v.(type) {
	case string:
		fmt.Fprintf(b, "%q", v)
	case []any:
		b.WriteString("[")
		for i, e := range v {
			if i > 0 {
				b.WriteString(", ")
			}
			writeValue(b, e)
		}
		b.WriteString("]")
	default:
		fmt.Fprint(b, v)
	}
}

// noop is a function that does nothing.
var noop = sync.OnceValue(func() js.Value { return js.Global().Get("Function").New("") })

// readRows is the learner's table, read on their own connection.
func readRows(conn *sql.Conn) ([]Row, string) {
	rows, err := query(conn, "SELECT id, owner, until, fence, result, done FROM jobs ORDER BY rowid")
	if err != nil {
		return nil, err.Error()
	}
	out := make([]Row, len(rows))
	for i, r := range rows {
		out[i] = Row{ID: r["id"], Owner: r["owner"], Until: r["until"], Fence: r["fence"], Result: r["result"], Done: r["done"]}
	}
	return out, ""
}

// Row is a row of the lab's table as JSON gives it to the page.
type Row struct {
	ID     any `json:"id"`
	Owner  any `json:"owner"`
	Until  any `json:"until"`
	Fence  any `json:"fence"`
	Result any `json:"result"`
	Done   any `json:"done"`
}

func (l *Lab) InitDB(path string) error {
	_, err := l.invoke(path, "initDb")
	return err
}

func (l *Lab) Enqueue(path, jobID string) (bool, error) {
	v, err := l.invoke(path, "enqueue", jobID)
	if err != nil {
		return false, err
	}
	return boolean("enqueue", v)
}

func (l *Lab) State(path, jobID string) (map[string]any, error) {
	v, err := l.invoke(path, "state", jobID)
	if err != nil || v.IsNull() || v.IsUndefined() {
		return nil, err
	}
	var m map[string]any
	if v.Type() != js.TypeObject || json.Unmarshal([]byte(js.Global().Get("JSON").Call("stringify", v).String()), &m) != nil {
		return nil, &Thrown{Name: "TypeError", Message: "state must return the row as an object, or null; it returned " + show(v)}
	}
	return m, nil
}

func (l *Lab) Claim(path, jobID, owner string, now, ttl int64) (*int64, error) {
	v, err := l.invoke(path, "claim", jobID, owner, now, ttl)
	if err != nil {
		return nil, err
	}
	return fence("claim", v)
}

func (l *Lab) Renew(path, jobID, owner string, f, now, ttl int64) (bool, error) {
	v, err := l.invoke(path, "renew", jobID, owner, f, now, ttl)
	if err != nil {
		return false, err
	}
	return boolean("renew", v)
}

func (l *Lab) Complete(path, jobID, owner string, f, now int64, result string) (bool, error) {
	v, err := l.invoke(path, "complete", jobID, owner, f, now, result)
	if err != nil {
		return false, err
	}
	return boolean("complete", v)
}

func (l *Lab) Release(path, jobID, owner string, f int64) (bool, error) {
	v, err := l.invoke(path, "release", jobID, owner, f)
	if err != nil {
		return false, err
	}
	return boolean("release", v)
}

func (l *Lab) ClaimMany(path, jobID string, owners []string, now, ttl int64) ([]*int64, error) {
	list := make([]any, len(owners))
	for i, o := range owners {
		list[i] = o
	}
	v, err := l.invoke(path, "claimMany", jobID, list, now, ttl)
	if err != nil {
		return nil, err
	}
	if !js.Global().Get("Array").Call("isArray", v).Bool() {
		return nil, &Thrown{Name: "TypeError", Message: "claimMany must return an array, one answer per owner; it returned " + show(v)}
	}
	out := make([]*int64, v.Length())
	for i := range out {
		if out[i], err = fence("claimMany", v.Index(i)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// boolean is a function's true or false.
func boolean(fn string, v js.Value) (bool, error) {
	if v.Type() != js.TypeBoolean {
		return false, &Thrown{Name: "TypeError", Message: fn + " must return true or false; it returned " + show(v)}
	}
	return v.Bool(), nil
}

// fence is a claim's answer: a fence, or null.
func fence(fn string, v js.Value) (*int64, error) {
	switch {
	case v.IsNull() || v.IsUndefined():
		return nil, nil
	case v.Type() == js.TypeNumber && v.Float() == math.Trunc(v.Float()):
		n := int64(v.Float())
		return &n, nil
	}
	return nil, &Thrown{Name: "TypeError", Message: fn + " must return the new fence (a number) or null; it returned " + show(v)}
}

// show is a value as the learner would write it.
func show(v js.Value) string {
	if v.IsUndefined() {
		return "undefined"
	}
	s := js.Global().Get("JSON").Call("stringify", v)
	if s.Type() != js.TypeString {
		return v.String()
	}
	return s.String()
}

var _ grade.Lab = (*Lab)(nil)

// errNoLab is Grade's answer to a source that declares none of the lab's
// functions.
var errNoLab = errors.New("the code declares none of the lab's functions: " + strings.Join(Names, ", "))
