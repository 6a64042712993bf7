//go:build js

package sqlitejs

import (
	"database/sql/driver"
	"fmt"
	"math"
	"strconv"
	"strings"
	"syscall/js"
)

// safeInt is the largest integer a JavaScript number holds exactly (2^53-1).
const safeInt = 1<<53 - 1

// bridge returns globalThis.leaselabSQLite, or ErrNoBridge.
func bridge() (js.Value, error) {
	b := js.Global().Get("leaselabSQLite")
	if b.Type() != js.TypeObject {
		return js.Value{}, ErrNoBridge
	}
	return b, nil
}

// answer checks a bridge answer's result code: nil when 0, else an *Error
// with the message at index 1.
func answer(a js.Value) error {
	if rc := a.Index(0).Int(); rc != 0 {
		return &Error{Code: rc, Message: a.Index(1).String()}
	}
	return nil
}

// encode turns args into the bridge's kinds letters and values.
func encode(args []driver.NamedValue) (string, []any, error) {
	kinds := make([]byte, len(args))
	vals := make([]any, len(args))
	for i, a := range args {
		if a.Name != "" {
			return "", nil, fmt.Errorf("sqlitejs: named argument %q: only positional ones (?) are supported", a.Name)
		}
		switch v := a.Value.(type) {
		case nil:
			kinds[i], vals[i] = 'n', nil
		case int64:
			if v >= -safeInt && v <= safeInt {
				kinds[i], vals[i] = 'i', v
			} else {
				kinds[i], vals[i] = 'I', strconv.FormatInt(v, 10)
			}
		case bool:
			kinds[i], vals[i] = 'i', 0
			if v {
				vals[i] = 1
			}
		case float64:
			kinds[i], vals[i] = 'f', v
		case string:
			kinds[i], vals[i] = 't', v
		case []byte:
			b := js.Global().Get("Uint8Array").New(len(v))
			js.CopyBytesToJS(b, v)
			kinds[i], vals[i] = 'b', b
		default:
			return "", nil, fmt.Errorf("sqlitejs: argument %d: unsupported type %T", i+1, a.Value)
		}
	}
	return string(kinds), vals, nil
}

// outcome is one statement's run: what it changed and the rows it read.
type outcome struct {
	changes int64
	lastID  int64
	columns []string
	rows    [][]driver.Value
}

// decode reads a successful run answer (see web/sqlite-bridge.js).
func decode(a js.Value) (outcome, error) {
	var o outcome
	o.changes = int64(a.Index(1).Float())
	last := a.Index(2)
	if last.Type() == js.TypeString {
		n, err := strconv.ParseInt(last.String(), 10, 64)
		if err != nil {
			return o, fmt.Errorf("sqlitejs: last insert rowid %q: %w", last.String(), err)
		}
		o.lastID = n
	} else {
		o.lastID = int64(last.Float())
	}
	kinds := a.Index(3).String()
	if names := a.Index(4).String(); names != "" {
		o.columns = strings.Split(names, "\x00")
	}
	n := len(o.columns)
	if n == 0 || len(kinds)%n != 0 {
		if kinds != "" {
			return o, fmt.Errorf("sqlitejs: %d cells for %d columns", len(kinds), n)
		}
		return o, nil
	}
	cells := make([]driver.Value, len(kinds))
	for i := range len(kinds) {
		v, err := cell(kinds[i], a.Index(5+i))
		if err != nil {
			return o, err
		}
		cells[i] = v
	}
	o.rows = make([][]driver.Value, len(kinds)/n)
	for r := range o.rows {
		o.rows[r] = cells[r*n : (r+1)*n : (r+1)*n]
	}
	return o, nil
}

// cell converts one cell of kind k.
func cell(k byte, v js.Value) (driver.Value, error) {
	switch k {
	case 'n':
		return nil, nil
	case 'i':
		f := v.Float()
		if f != math.Trunc(f) || math.Abs(f) > safeInt {
			return nil, fmt.Errorf("sqlitejs: integer cell %v is not exact", f)
		}
		return int64(f), nil
	case 'I':
		return strconv.ParseInt(v.String(), 10, 64)
	case 'f':
		return v.Float(), nil
	case 't':
		return v.String(), nil
	case 'b':
		b := make([]byte, v.Length())
		js.CopyBytesToGo(b, v)
		return b, nil
	}
	return nil, fmt.Errorf("sqlitejs: unknown cell kind %q", k)
}
