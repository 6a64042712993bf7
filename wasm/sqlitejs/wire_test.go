//go:build js

package sqlitejs

import (
	"database/sql"
	"fmt"
	"strings"
	"testing"
)

// openWire opens a pool on a memory database of this test's own, and runs
// a statement on it, so that the wire's buffer is known.
func openWire(t *testing.T) *sql.DB {
	t.Helper()
	db := sql.OpenDB(&Connector{Filename: "file:/" + t.Name() + "?vfs=memdb"})
	t.Cleanup(func() { db.Close() })
	var one int
	if err := db.QueryRow(`SELECT ?`, 1).Scan(&one); err != nil || wire.size == 0 {
		t.Fatalf("the first run: %v; the buffer is %d bytes", err, wire.size)
	}
	return db
}

// text is n bytes of valid UTF-8, multi-byte characters included.
func text(n int) string {
	return strings.Repeat("ab☂", n/5) + strings.Repeat("x", n%5)
}

// The overheads of `SELECT ? AS v` on the wire: its text argument is the
// arguments' count, a kind and a length before the bytes; its answer a result code, changes, rowid, a
// column count, the column's name "v" (length and byte) and its declared type's kind, then the cell.
const (
	argOverhead    = 4 + 1 + 4
	answerOverhead = 4 + 8 + 8 + 4 + (4 + 1 + 1) + (1 + 4)
)

// An answer just under, at and just over the buffer's size comes back
// whole; over it, the bridge replaces the buffer (run answers the length
// negated) and Go reads the new one.
func TestWire_AnswersUnderAtAndOverTheBufferCrossWhole(t *testing.T) {
	db := openWire(t)
	for _, d := range []int{-1, 0, 1, 1 << 20} {
		size := wire.size
		n := size - answerOverhead + d
		in := text(n)
		var got string
		if err := db.QueryRow(`SELECT ? AS v`, in).Scan(&got); err != nil {
			t.Fatalf("answer %+d over %d bytes: %v", d, size, err)
		}
		if got != in {
			t.Fatalf("answer %+d over %d bytes: %d bytes came back, not %d", d, size, len(got), len(in))
		}
		if grew := wire.size > size; grew != (d > 0) {
			t.Fatalf("answer %+d over %d bytes: the buffer is %d bytes", d, size, wire.size)
		}
	}
}

// Arguments just under, at and just over the buffer's size reach SQLite
// whole; over it, Go asks the bridge for a larger buffer first.
func TestWire_ArgumentsUnderAtAndOverTheBufferCrossWhole(t *testing.T) {
	db := openWire(t)
	for _, d := range []int{-1, 0, 1, 1 << 20} {
		size := wire.size
		in := text(size - argOverhead + d)
		var length int
		if err := db.QueryRow(`SELECT length(CAST(? AS BLOB))`, in).Scan(&length); err != nil {
			t.Fatalf("arguments %+d over %d bytes: %v", d, size, err)
		}
		if length != len(in) {
			t.Fatalf("arguments %+d over %d bytes: SQLite saw %d bytes of %d", d, size, length, len(in))
		}
		if grew := wire.size > size; grew != (d > 0) {
			t.Fatalf("arguments %+d over %d bytes: the buffer is %d bytes", d, size, wire.size)
		}
	}
}

// A blob crosses as bytes, every byte value included, both ways.
func TestWire_BlobsCrossByteForByte(t *testing.T) {
	db := openWire(t)
	blob := make([]byte, 3*wire.size+7)
	for i := range blob {
		blob[i] = byte(i * 7)
	}
	var got []byte
	if err := db.QueryRow(`SELECT ?`, blob).Scan(&got); err != nil || string(got) != string(blob) {
		t.Fatalf("%d bytes in, %d out: %v", len(blob), len(got), err)
	}
}

// A statement that fails after its rows outgrew the buffer reads as its
// error (the bridge wrote it into the new buffer), and the next run reads
// true.
func TestWire_AFailureAfterTheAnswerOutgrewTheBufferReadsAsItsError(t *testing.T) {
	db := openWire(t)
	big := text(wire.size / 2)
	var s string
	err := db.QueryRow(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10)
		SELECT CASE WHEN i < 10 THEN ? ELSE abs(-9223372036854775807 - 1 + (i - 10)) END FROM n`, big).Scan(&s)
	if err == nil || !strings.Contains(err.Error(), "integer overflow") {
		t.Fatalf("a statement failing after a large answer: %v", err)
	}
	if err := db.QueryRow(`SELECT 'after'`).Scan(&s); err != nil || s != "after" {
		t.Fatalf("the run after: %q, %v", s, err)
	}
}

// Many rows, more bytes than the buffer, come back in order.
func TestWire_ManyRowsComeBackInOrder(t *testing.T) {
	db := openWire(t)
	const count = 20000
	rows, err := db.Query(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
		SELECT i, printf('row %08d', i), i * 0.5, NULL FROM n`, count)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	i := 0
	for rows.Next() {
		var got int
		var s string
		var f float64
		var null any
		if err := rows.Scan(&got, &s, &f, &null); err != nil {
			t.Fatal(err)
		}
		i++
		if got != i || s != fmt.Sprintf("row %08d", i) || f != float64(i)*0.5 || null != nil {
			t.Fatalf("row %d: %d %q %v %v", i, got, s, f, null)
		}
	}
	if err := rows.Err(); err != nil || i != count {
		t.Fatalf("%d rows of %d: %v", i, count, err)
	}
}
