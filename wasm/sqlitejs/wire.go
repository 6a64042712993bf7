//go:build js

package sqlitejs

import (
	"bytes"
	"database/sql/driver"
	"encoding/binary"
	"fmt"
	"math"
	"sync"
	"syscall/js"
	"time"
)

// A statement's arguments and its answer cross between Go and the bridge as
// bytes in one buffer the bridge owns (its io, a Uint8Array), never as
// JavaScript values: a JavaScript string or array reaching Go costs a
// finalizer, an encoding and an allocation on both sides each, and a run's
// cells are most of what crosses. The layout, little-endian,
// as web/sqlite-bridge.js reads and writes it:
//
//	arguments  uint32 count, then one per parameter: a kind byte, then
//	           'i' int64 (8 bytes), 'f' float64 (8 bytes),
//	           't' and 'b' a uint32 length and as many bytes (text UTF-8), 'n' nothing
//	answer     int32 result code; when not 0, a uint32 length and the message;
//	           else int64 changes, int64 last insert rowid, uint32 columns,
//	           each column's name (uint32 length, UTF-8) and the kind of its
//	           declared type (a byte: declText, declBool, declTime, or 'n'),
//	           then the cells, row-major, each as an argument is
//
// A time.Time argument crosses as text in time.RFC3339Nano, as the native
// driver binds it by default; a text cell in that layout which formats back
// to itself is read as a time.Time, as natively, but in a column declared
// TEXT. A cell of a column declared BOOLEAN that is 0 or 1 is read as a
// bool; one of a column declared DATE, TIME, DATETIME or TIMESTAMP must be
// NULL or such text: natively it may also be a Julian day, a Unix time or
// another of SQLite's time texts, which this driver refuses to read rather
// than hand over undecoded.
const (
	kindInt   = 'i'
	kindFloat = 'f'
	kindText  = 't'
	kindBlob  = 'b'
	kindNull  = 'n'

	declText = 't'
	declBool = 'b'
	declTime = 'd'
)

// wire is the bridge's io buffer as Go knows it. The bridge replaces the
// buffer with a larger one when Go asks (grow) and when an answer does not
// fit (run then answers its length negated); mu keeps one statement's bytes
// from mixing with another's should a goroutine switch ever fall in between
// (a Trace callback runs inside a run, holding it).
var wire struct {
	mu   sync.Mutex
	io   js.Value // the bridge's io (a Uint8Array); undefined until first used
	size int      // io's length
	buf  []byte   // Go's side: the arguments written, then the answer read
}

// sqlKeys are SQL texts already made JavaScript strings, for the texts the
// bridge prepares and caches by (transaction control, statements run
// without a prepare): the engine runs the same few again and again.
// Bounded: past maxSQLKeys a text is converted at each call. Guarded by its
// own lock, as wire is: goroutines of any connection call sqlKey.
var sqlKeys = struct {
	mu sync.Mutex
	m  map[string]js.Value
}{m: map[string]js.Value{}}

const maxSQLKeys = 256

// sqlKey is SQL text as the bridge's run takes it.
func sqlKey(s string) js.Value {
	sqlKeys.mu.Lock()
	defer sqlKeys.mu.Unlock()
	if v, ok := sqlKeys.m[s]; ok {
		return v
	}
	v := js.ValueOf(s)
	if len(sqlKeys.m) < maxSQLKeys {
		sqlKeys.m[s] = v
	}
	return v
}

// execValues are run's third argument, made once.
var execValues = [2]js.Value{js.ValueOf(false), js.ValueOf(true)}

// runOnce runs a statement once through the bridge's io: the arguments
// written, the answer read. A failure SQLite reports is an *Error.
func (c *conn) runOnce(key js.Value, args []driver.NamedValue, exec bool) (outcome, error) {
	wire.mu.Lock()
	defer wire.mu.Unlock()
	in := binary.LittleEndian.AppendUint32(wire.buf[:0], uint32(len(args)))
	in, err := appendArgs(in, args)
	if err != nil {
		return outcome{}, err
	}
	wire.buf = in
	if !wire.io.Truthy() || len(in) > wire.size {
		c.b.Call("grow", len(in))
		wire.io = c.b.Get("io")
		wire.size = wire.io.Length()
	}
	js.CopyBytesToJS(wire.io, in)
	// Values only, so that syscall/js converts none.
	x := execValues[0]
	if exec {
		x = execValues[1]
	}
	n := c.b.Call("run", c.idv, key, x).Int()
	if n < 0 { // the answer did not fit: io is a new, larger buffer
		n = -n
		wire.io = c.b.Get("io")
		wire.size = wire.io.Length()
	}
	if cap(wire.buf) < n {
		wire.buf = make([]byte, n)
	}
	out := wire.buf[:n]
	js.CopyBytesToGo(out, wire.io)
	return readAnswer(out)
}

// appendArgs appends args in the wire's layout to b.
func appendArgs(b []byte, args []driver.NamedValue) ([]byte, error) {
	for i, a := range args {
		if a.Name != "" {
			return b, fmt.Errorf("sqlitejs: named argument %q: only positional ones (?) are supported", a.Name)
		}
		switch v := a.Value.(type) {
		case nil:
			b = append(b, kindNull)
		case int64:
			b = binary.LittleEndian.AppendUint64(append(b, kindInt), uint64(v))
		case bool:
			var n uint64
			if v {
				n = 1
			}
			b = binary.LittleEndian.AppendUint64(append(b, kindInt), n)
		case float64:
			b = binary.LittleEndian.AppendUint64(append(b, kindFloat), math.Float64bits(v))
		case string:
			b = append(binary.LittleEndian.AppendUint32(append(b, kindText), uint32(len(v))), v...)
		case []byte:
			b = append(binary.LittleEndian.AppendUint32(append(b, kindBlob), uint32(len(v))), v...)
		case time.Time:
			at := len(b) + 1
			b = v.AppendFormat(binary.LittleEndian.AppendUint32(append(b, kindText), 0), time.RFC3339Nano)
			binary.LittleEndian.PutUint32(b[at:], uint32(len(b)-at-4))
		default:
			return b, fmt.Errorf("sqlitejs: argument %d: unsupported type %T", i+1, a.Value)
		}
	}
	return b, nil
}

// outcome is one statement's run: what it changed and the rows it read.
type outcome struct {
	changes int64
	lastID  int64
	columns []string
	rows    [][]driver.Value
}

// reader reads the wire's layout; a read past the end sets short.
type reader struct {
	b     []byte
	short bool
}

func (r *reader) take(n int) []byte {
	if n < 0 || n > len(r.b) {
		r.short, r.b = true, nil
		return nil
	}
	p := r.b[:n:n]
	r.b = r.b[n:]
	return p
}

func (r *reader) u32() int {
	if p := r.take(4); p != nil {
		return int(binary.LittleEndian.Uint32(p))
	}
	return 0
}

func (r *reader) u64() uint64 {
	if p := r.take(8); p != nil {
		return binary.LittleEndian.Uint64(p)
	}
	return 0
}

func (r *reader) bytes() []byte { return r.take(r.u32()) }

// readAnswer reads a run's answer: its outcome, or the *Error it reports.
func readAnswer(b []byte) (outcome, error) {
	r := &reader{b: b}
	var o outcome
	if rc := int(int32(r.u32())); rc != 0 {
		msg := string(r.bytes())
		if r.short {
			return o, errShort(len(b))
		}
		return o, failure(rc, func() string { return msg })
	}
	o.changes, o.lastID = int64(r.u64()), int64(r.u64())
	n := r.u32()
	if n > len(r.b)/5 { // each name and its kind take 5 bytes at least
		return o, errShort(len(b))
	}
	var decl []byte
	if n > 0 {
		o.columns = make([]string, n)
		decl = make([]byte, n)
	}
	for i := range o.columns {
		o.columns[i] = string(r.bytes())
		if k := r.take(1); k != nil {
			decl[i] = k[0]
		}
	}
	var cells []driver.Value
	for len(r.b) > 0 && !r.short {
		v, err := r.cell()
		if err == nil {
			i := len(cells) % n
			v, err = convert(decl[i], v, o.columns[i])
		}
		if err != nil {
			return o, err
		}
		cells = append(cells, v)
	}
	switch {
	case r.short:
		return o, errShort(len(b))
	case len(cells) == 0:
		return o, nil
	case n == 0 || len(cells)%n != 0:
		return o, fmt.Errorf("sqlitejs: %d cells for %d columns", len(cells), n)
	}
	o.rows = make([][]driver.Value, len(cells)/n)
	for i := range o.rows {
		o.rows[i] = cells[i*n : (i+1)*n : (i+1)*n]
	}
	return o, nil
}

// cell reads one cell: its kind, then its value.
func (r *reader) cell() (driver.Value, error) {
	k := r.take(1)
	if k == nil {
		return nil, nil
	}
	switch k[0] {
	case kindNull:
		return nil, nil
	case kindInt:
		return int64(r.u64()), nil
	case kindFloat:
		return math.Float64frombits(r.u64()), nil
	case kindText:
		return string(r.bytes()), nil
	case kindBlob:
		return append([]byte{}, r.bytes()...), nil
	}
	return nil, fmt.Errorf("sqlitejs: unknown cell kind %q", k[0])
}

// convert is a cell of a column of the declared type's kind decl as the
// native driver reads it (see the layout above).
func convert(decl byte, v driver.Value, column string) (driver.Value, error) {
	if s, ok := v.(string); ok && decl != declText {
		if t, ok := maybeTime(s); ok {
			return t, nil
		}
	}
	switch decl {
	case declBool:
		switch v {
		case int64(0):
			return false, nil
		case int64(1):
			return true, nil
		}
	case declTime:
		if v != nil {
			return nil, fmt.Errorf("sqlitejs: column %q is declared a time: %v is not RFC 3339 text, the one layout this driver decodes", column, v)
		}
	}
	return v, nil
}

// maybeTime is s as a time.Time when it is time.RFC3339Nano text that
// formats back to itself, as the native driver reads it.
func maybeTime(s string) (time.Time, bool) {
	if len(s) < len("2006-01-02T15:04:05Z") || len(s) > len(time.RFC3339Nano) ||
		s[4] != '-' || s[10] != 'T' || s[16] != ':' {
		return time.Time{}, false
	}
	var buf [len(time.RFC3339Nano)]byte
	t, err := time.Parse(time.RFC3339Nano, s)
	if err == nil && bytes.Equal([]byte(s), t.AppendFormat(buf[:0], time.RFC3339Nano)) {
		return t, true
	}
	return time.Time{}, false
}

// errShort reports an answer that ends inside a value.
func errShort(n int) error {
	return fmt.Errorf("sqlitejs: the bridge's answer (%d bytes) ends inside a value", n)
}
