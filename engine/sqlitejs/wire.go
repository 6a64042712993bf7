//go:build js

package sqlitejs

import (
	"database/sql/driver"
	"encoding/binary"
	"fmt"
	"math"
	"sync"
	"syscall/js"
)

// A statement's arguments and its answer cross between Go and the bridge as
// bytes in one buffer the bridge owns (its io, a Uint8Array), never as
// JavaScript values: a JavaScript string or array reaching Go costs a
// finalizer, an encoding and an allocation on both sides each, and a run's
// cells were most of what crossed (issue 15). The layout, little-endian,
// as web/sqlite-bridge.js reads and writes it:
//
//	arguments  uint32 count, then one per parameter: a kind byte, then
//	           'i' int64 (8 bytes), 'f' float64 (8 bytes),
//	           't' and 'b' a uint32 length and as many bytes (text UTF-8), 'n' nothing
//	answer     int32 result code; when not 0, a uint32 length and the message;
//	           else int64 changes, int64 last insert rowid, uint32 columns,
//	           each column's name (uint32 length, UTF-8), then the cells,
//	           row-major, each as an argument is
const (
	kindInt   = 'i'
	kindFloat = 'f'
	kindText  = 't'
	kindBlob  = 'b'
	kindNull  = 'n'
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
// Bounded: past maxSQLKeys a text is converted at each call.
var sqlKeys = map[string]js.Value{}

const maxSQLKeys = 256

// sqlKey is SQL text as the bridge's run takes it.
func sqlKey(s string) js.Value {
	if v, ok := sqlKeys[s]; ok {
		return v
	}
	v := js.ValueOf(s)
	if len(sqlKeys) < maxSQLKeys {
		sqlKeys[s] = v
	}
	return v
}

// runOnce runs a statement once through the bridge's io: the arguments
// written, the answer read. A failure SQLite reports is an *Error.
func (c *conn) runOnce(key js.Value, args []driver.NamedValue) (outcome, error) {
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
	n := c.b.Call("run", c.idv, key).Int()
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
		return o, &Error{Code: rc, Message: msg}
	}
	o.changes, o.lastID = int64(r.u64()), int64(r.u64())
	n := r.u32()
	if n > len(r.b)/4 { // each name takes 4 bytes at least
		return o, errShort(len(b))
	}
	if n > 0 {
		o.columns = make([]string, n)
	}
	for i := range o.columns {
		o.columns[i] = string(r.bytes())
	}
	var cells []driver.Value
	for len(r.b) > 0 && !r.short {
		v, err := r.cell()
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

// errShort reports an answer that ends inside a value.
func errShort(n int) error {
	return fmt.Errorf("sqlitejs: the bridge's answer (%d bytes) ends inside a value", n)
}
