package drivertest

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

// SQL text of one statement, followed by nothing but blanks, semicolons and
// comments, runs; one followed by another statement is refused ("multiple
// statements") by Query, by an Exec with arguments and by Prepare, and
// nothing of it runs. An Exec without arguments runs every statement.
func statementsAndTails(t *testing.T, d Driver) {
	db := d.open(t, time.Second)
	exec(t, db, `CREATE TABLE t (a INTEGER)`)
	for _, c := range []struct {
		tail    string
		refused bool
	}{
		{"", false},
		{";", false},
		{" ;\n\t; ", false},
		{"; -- a comment", false},
		{"; /* a comment */ ", false},
		{"; /* a comment */ INSERT INTO t VALUES (9)", true},
		{"; INSERT INTO t VALUES (9)", true},
		{"; -- a comment\nINSERT INTO t VALUES (9)", true},
	} {
		before := count(t, db, "t")
		check := func(how string, err error) {
			t.Helper()
			if c.refused != (err != nil) || c.refused && err.Error() != "sqlite3: multiple statements" {
				t.Errorf("%s with the tail %q: %v; refused: want %v (sqlite3: multiple statements)", how, c.tail, err, c.refused)
			}
		}
		var got int
		check("Query", db.QueryRow(`SELECT ? + 1`+c.tail, 1).Scan(&got))
		_, err := db.Exec(`INSERT INTO t VALUES (?)`+c.tail, 1)
		check("Exec with an argument", err)
		st, err := db.Prepare(`SELECT 1` + c.tail)
		check("Prepare", err)
		if err == nil {
			st.Close()
		}
		want := before + 1
		if c.refused {
			want = before
		}
		if n := count(t, db, "t"); n != want {
			t.Errorf("the tail %q: %d rows after the Exec, want %d", c.tail, n, want)
		}
	}
	before := count(t, db, "t")
	if _, err := db.Exec(`INSERT INTO t VALUES (1); INSERT INTO t VALUES (2)`); err != nil {
		t.Fatalf("an Exec of two statements without arguments: %v", err)
	}
	if n := count(t, db, "t"); n != before+2 {
		t.Errorf("an Exec of two statements without arguments wrote %d rows, want 2", n-before)
	}
}

// SQL text runs with its bytes as they are, literals included: UTF-8 (up
// to its longest characters) always, other bytes (an invalid or a cut
// UTF-8 sequence) too or else refused, never turned into other text; by
// Query, Prepare and an Exec with and without arguments alike.
func sqlTextAsItIs(t *testing.T, d Driver) {
	db := d.open(t, time.Second)
	exec(t, db, `CREATE TABLE t (s)`)
	for _, c := range []struct {
		literal string
		utf8    bool
	}{
		{"\x7f", true},
		{"☂", true},
		{"𝄞", true},
		{"\xe2\x98", false},
		{"\xfe", false},
		{"\xff", false},
	} {
		want := fmt.Sprintf("%X", c.literal)
		check := func(how, got string, err error) {
			t.Helper()
			if err == nil && got != want || err != nil && c.utf8 {
				t.Errorf("%s with the literal %q: %s, %v; want %s", how, c.literal, got, err, want)
			}
		}
		var got string
		q := `SELECT hex('` + c.literal + `')`
		check("Query", got, db.QueryRow(q).Scan(&got))
		if st, err := db.Prepare(q); err != nil {
			check("Prepare", "", err)
		} else {
			got = ""
			check("a prepared Query", got, st.QueryRow().Scan(&got))
			st.Close()
		}
		for _, args := range [][]any{nil, {1}} {
			exec(t, db, `DELETE FROM t`)
			how := fmt.Sprintf("Exec with %d arguments", len(args))
			if _, err := db.Exec(`INSERT INTO t VALUES ('`+c.literal+`')`+strings.Repeat(`, (?)`, len(args)), args...); err != nil {
				check(how, "", err)
				continue
			}
			got = ""
			check(how, got, db.QueryRow(`SELECT hex(s) FROM t LIMIT 1`).Scan(&got))
		}
	}
}

// SQL text ends at its first NUL byte, as SQLite reads a C string: what
// follows the NUL never runs, nor is it refused as a second statement, by
// an Exec without arguments (which runs several statements), by an Exec
// with arguments and by Query.
func sqlTextEndsAtNUL(t *testing.T, d Driver) {
	db := d.open(t, time.Second)
	exec(t, db, `CREATE TABLE t (a INTEGER)`)
	const one, two = `INSERT INTO t VALUES (1)`, `INSERT INTO t VALUES (2)`
	for _, c := range []struct {
		q    string
		rows int
	}{
		{one + `; ` + two, 2},
		{one + `; ` + two + "\x00", 2},
		{one + `;` + "\x00" + two, 1},
		{one + "\x00; " + two, 1},
		{one + "; --\x00\n" + two, 1},
		{"\x00" + one, 0},
	} {
		exec(t, db, `DELETE FROM t`)
		if _, err := db.Exec(c.q); err != nil {
			t.Errorf("Exec %q: %v", c.q, err)
		}
		if n := count(t, db, "t"); n != c.rows {
			t.Errorf("Exec %q: %d rows, want %d", c.q, n, c.rows)
		}
	}
	exec(t, db, `DELETE FROM t`)
	if _, err := db.Exec(`INSERT INTO t VALUES (?)`+"\x00"+two, 3); err != nil {
		t.Errorf("Exec with an argument and a NUL: %v", err)
	}
	var n, sum int
	if err := db.QueryRow(`SELECT count(*), sum(a) FROM t`+"\x00"+` SELECT 9`).Scan(&n, &sum); err != nil || n != 1 || sum != 3 {
		t.Errorf("Query with a NUL: %d rows summing %d, %v; want 1 row of 3", n, sum, err)
	}
}

// int64Limits are int64's extremes, JavaScript's exact integers' (2^53) and
// those either side of each.
var int64Limits = []int64{
	math.MinInt64, math.MinInt64 + 1, -(1 << 53) - 1, -(1 << 53), -(1 << 53) + 1,
	-1, 0, 1, 1<<53 - 1, 1 << 53, 1<<53 + 1, math.MaxInt64 - 1, math.MaxInt64,
}

// Integers are exact over all of int64, as arguments, as cells, after
// SQLite's own arithmetic and as literals in the SQL text.
func integersAreExact(t *testing.T, d Driver) {
	db := d.open(t, time.Second)
	for _, v := range int64Limits {
		var arg, literal, same int64
		var kind string
		q := fmt.Sprintf(`SELECT ?, typeof(?), %d, ? - 0`, v)
		if v == math.MinInt64 {
			q = `SELECT ?, typeof(?), -9223372036854775807 - 1, ? - 0`
		}
		if err := db.QueryRow(q, v, v, v).Scan(&arg, &kind, &literal, &same); err != nil {
			t.Fatalf("%d: %v", v, err)
		}
		if arg != v || kind != "integer" || literal != v || same != v {
			t.Errorf("%d: read %d (%s), as a literal %d, after arithmetic %d", v, arg, kind, literal, same)
		}
	}
}

// LastInsertId is the inserted rowid, exact over all of int64, whether the
// Exec has arguments or not (and so whatever path the driver takes), and 0
// when the statement inserted nothing; RowsAffected counts the rows the
// statement changed.
func lastInsertIDAndRowsAffected(t *testing.T, d Driver) {
	db := d.open(t, time.Second)
	exec(t, db, `CREATE TABLE r (id INTEGER PRIMARY KEY, v INTEGER)`)
	for _, v := range int64Limits {
		exec(t, db, `DELETE FROM r`)
		literal := fmt.Sprint(v)
		if v == math.MinInt64 {
			literal = "-9223372036854775807 - 1"
		}
		for _, c := range []struct {
			how  string
			q    string
			args []any
		}{
			{"with an argument", `INSERT INTO r (id, v) VALUES (?, 1)`, []any{v}},
			{"without arguments", `DELETE FROM r; INSERT INTO r (id, v) VALUES (` + literal + `, 1)`, nil},
		} {
			if c.args != nil {
				exec(t, db, `DELETE FROM r`)
			}
			res, err := db.Exec(c.q, c.args...)
			if err != nil {
				t.Fatalf("insert %d %s: %v", v, c.how, err)
			}
			id, err1 := res.LastInsertId()
			n, err2 := res.RowsAffected()
			if id != v || n != 1 || err1 != nil || err2 != nil {
				t.Errorf("insert %d %s: LastInsertId %d (%v), RowsAffected %d (%v)", v, c.how, id, err1, n, err2)
			}
		}
	}
	exec(t, db, `DELETE FROM r`, `INSERT INTO r (id, v) VALUES (1, 0), (2, 0), (3, 1)`)
	for _, c := range []struct {
		q        string
		args     []any
		changed  int64
		insertID int64
	}{
		{`UPDATE r SET v = v + 1 WHERE v = ?`, []any{0}, 2, 0},
		{`UPDATE r SET v = v + 1 WHERE v = ?`, []any{9}, 0, 0},
		{`DELETE FROM r WHERE id = 3`, nil, 1, 0},
		{`INSERT INTO r (id, v) SELECT id + 10, v FROM r`, nil, 2, 12},
		{`INSERT INTO r (id, v) SELECT id, v FROM r WHERE 0`, nil, 0, 0},
	} {
		res, err := db.Exec(c.q, c.args...)
		if err != nil {
			t.Fatalf("%s: %v", c.q, err)
		}
		id, _ := res.LastInsertId()
		n, _ := res.RowsAffected()
		if n != c.changed || id != c.insertID {
			t.Errorf("%s %v: RowsAffected %d, LastInsertId %d; want %d and %d", c.q, c.args, n, id, c.changed, c.insertID)
		}
	}
}

// Floats (at their limits, integral ones too), text (empty, NUL inside,
// any UTF-8, larger than any buffer), blobs (empty, every byte value,
// large) and NULL cross both ways as they are, through a table too; NaN is
// stored as NULL, as SQLite does; a bool is 0 or 1.
func floatsTextBlobsAndNulls(t *testing.T, d Driver) {
	db := d.open(t, time.Second)
	exec(t, db, `CREATE TABLE v (x)`)
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	big := bytes.Repeat(all, 4096)
	for _, c := range []struct {
		in   any
		kind string
		out  any
	}{
		{0.0, "real", 0.0},
		{2.0, "real", 2.0},
		{-1.5, "real", -1.5},
		{math.MaxFloat64, "real", math.MaxFloat64},
		{math.SmallestNonzeroFloat64, "real", math.SmallestNonzeroFloat64},
		{math.Inf(1), "real", math.Inf(1)},
		{math.Inf(-1), "real", math.Inf(-1)},
		{math.NaN(), "null", nil},
		{"", "text", ""},
		{"a\x00b", "text", "a\x00b"},
		{"lease ☂ 임대 𝄞 é", "text", "lease ☂ 임대 𝄞 é"},
		{strings.Repeat("☂", 300000), "text", strings.Repeat("☂", 300000)},
		{[]byte{}, "blob", []byte{}},
		{[]byte{0}, "blob", []byte{0}},
		{all, "blob", all},
		{big, "blob", big},
		{nil, "null", nil},
		{true, "integer", int64(1)},
		{false, "integer", int64(0)},
	} {
		label := fmt.Sprintf("%T %.40v", c.in, c.in)
		for _, from := range []string{"an argument", "a table"} {
			q := `SELECT ?, typeof(?)`
			args := []any{c.in, c.in}
			if from == "a table" {
				exec(t, db, `DELETE FROM v`)
				if _, err := db.Exec(`INSERT INTO v VALUES (?)`, c.in); err != nil {
					t.Fatalf("%s: %v", label, err)
				}
				q, args = `SELECT x, typeof(x) FROM v`, nil
			}
			var got any
			var kind string
			if err := db.QueryRow(q, args...).Scan(&got, &kind); err != nil {
				t.Fatalf("%s from %s: %v", label, from, err)
			}
			if kind != c.kind || !same(got, c.out) {
				t.Errorf("%s from %s: %s %.40v (%T), want %s %.40v", label, from, kind, got, got, c.kind, c.out)
			}
		}
	}
}

// same reports whether a cell read is the one expected.
func same(got, want any) bool {
	switch w := want.(type) {
	case []byte:
		g, ok := got.([]byte)
		return ok && bytes.Equal(g, w)
	case float64:
		g, ok := got.(float64)
		return ok && (g == w || math.IsNaN(g) && math.IsNaN(w)) && math.Signbit(g) == math.Signbit(w)
	}
	return got == want
}

// A time.Time is stored as the native driver stores it by default: text in
// time.RFC3339Nano, its own offset kept; read back (but from a column
// declared TEXT) it is that time.Time again, and as a string it is that
// text.
func timeAsRFC3339Nano(t *testing.T, d Driver) {
	db := d.open(t, time.Second)
	exec(t, db, `CREATE TABLE tm (a, s TEXT)`)
	for _, tm := range []time.Time{
		time.Date(2026, 12, 4, 22, 48, 30, 123456789, time.UTC),
		time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		time.Date(1999, 12, 31, 23, 59, 59, 1, time.FixedZone("", 5*3600+1800)),
		time.Date(2026, 6, 1, 0, 0, 0, 500000000, time.FixedZone("", -7*3600)),
	} {
		want := tm.Format(time.RFC3339Nano)
		var kind, text string
		var back time.Time
		if err := db.QueryRow(`SELECT typeof(?), CAST(? AS BLOB), ?`, tm, tm, tm).Scan(&kind, &text, &back); err != nil {
			t.Fatalf("%s: %v", want, err)
		}
		if kind != "text" || text != want || !back.Equal(tm) || back.Format(time.RFC3339Nano) != want {
			t.Errorf("%s: stored as %s %q, read back %s", want, kind, text, back.Format(time.RFC3339Nano))
		}
		exec(t, db, `DELETE FROM tm`)
		if _, err := db.Exec(`INSERT INTO tm VALUES (?, ?)`, tm, tm); err != nil {
			t.Fatal(err)
		}
		var a any
		var s string
		if err := db.QueryRow(`SELECT a, s FROM tm`).Scan(&a, &s); err != nil {
			t.Fatal(err)
		}
		if at, ok := a.(time.Time); !ok || !at.Equal(tm) || s != want {
			t.Errorf("%s from a table: %#v and %q", want, a, s)
		}
		if err := db.QueryRow(`SELECT s FROM tm`).Scan(&back); err == nil {
			t.Errorf("%s: a column declared TEXT read into a time.Time", want)
		}
	}
	// Text that is not exactly RFC 3339 as Go formats it stays text.
	for _, s := range []string{"2026-12-04 22:48:30", "2026-12-04T22:48:30.100Z", "2026-12-04T22:48:30z"} {
		var got any
		if err := db.QueryRow(`SELECT ?`, s).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if g, ok := got.(string); !ok || g != s {
			t.Errorf("%q read back as %#v", s, got)
		}
	}
}

// A column declared BOOLEAN reads 0 and 1 as bools and other values as
// they are; one declared DATETIME reads RFC 3339 text as a time.Time, and
// any other non-NULL value either decoded as a time (natively) or refused
// (in the browser), never handed over undecoded.
func declaredTypes(t *testing.T, d Driver) {
	db := d.open(t, time.Second)
	exec(t, db, `CREATE TABLE b (x BOOLEAN)`, `INSERT INTO b VALUES (0), (1), (2), (NULL)`,
		`CREATE TABLE w (x DATETIME)`)
	rows, err := db.Query(`SELECT x FROM b ORDER BY rowid`)
	if err != nil {
		t.Fatal(err)
	}
	var got []any
	for rows.Next() {
		var v any
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		got = append(got, v)
	}
	rows.Close()
	if fmt.Sprint(got) != "[false true 2 <nil>]" {
		t.Errorf("BOOLEAN 0, 1, 2, NULL read as %v", got)
	}
	tm := time.Date(2026, 12, 4, 22, 48, 30, 0, time.UTC)
	if _, err := db.Exec(`INSERT INTO w VALUES (?), (NULL)`, tm.Format(time.RFC3339Nano)); err != nil {
		t.Fatal(err)
	}
	var at, null any
	if err := db.QueryRow(`SELECT (SELECT x FROM w WHERE x NOT NULL), (SELECT x FROM w WHERE x IS NULL)`).Scan(&at, &null); err != nil {
		t.Fatal(err)
	}
	if v, ok := at.(time.Time); !ok || !v.Equal(tm) || null != nil {
		t.Errorf("DATETIME %s and NULL read as %#v and %#v", tm, at, null)
	}
	exec(t, db, `DELETE FROM w`, `INSERT INTO w VALUES (1764888510)`)
	var v any
	if err := db.QueryRow(`SELECT x FROM w`).Scan(&v); err == nil {
		if _, ok := v.(time.Time); !ok {
			t.Errorf("DATETIME 1764888510 read undecoded: %#v", v)
		}
	}
}

// The same query text, run again after the schema changed under it, reads
// the columns the table has now: more of them, as many with other declared
// types (read as those types are), and fewer; never the columns, or the
// declared types, it had when the text first ran.
func columnsFollowTheSchema(t *testing.T, d Driver) {
	db := d.open(t, time.Second)
	exec(t, db, `CREATE TABLE t (a INTEGER, b TEXT)`, `INSERT INTO t VALUES (1, 'x')`)
	tm := time.Date(2026, 12, 4, 22, 48, 30, 0, time.UTC)
	for _, c := range []struct {
		change []string
		want   string
	}{
		{nil, "[a b] [1 x]"},
		{[]string{`ALTER TABLE t ADD COLUMN c DATETIME`, `UPDATE t SET c = '` + tm.Format(time.RFC3339Nano) + `'`},
			"[a b c] [1 x " + tm.String() + "]"},
		{[]string{`DROP TABLE t`, `CREATE TABLE t (a TEXT, b BOOLEAN, c INTEGER)`, `INSERT INTO t VALUES ('y', 1, 2)`},
			"[a b c] [y true 2]"},
		{[]string{`DROP TABLE t`, `CREATE TABLE t (only INTEGER)`, `INSERT INTO t VALUES (3)`}, "[only] [3]"},
	} {
		exec(t, db, c.change...)
		rows, err := db.Query(`SELECT * FROM t`)
		if err != nil {
			t.Fatalf("after %q: %v", c.change, err)
		}
		cols, err := rows.Columns()
		if err != nil {
			t.Fatal(err)
		}
		cells := make([]any, len(cols))
		dest := make([]any, len(cols))
		for i := range cells {
			dest[i] = &cells[i]
		}
		if !rows.Next() {
			t.Fatalf("after %q: no row (%v)", c.change, rows.Err())
		}
		err = rows.Scan(dest...)
		rows.Close()
		if got := fmt.Sprint(cols, " ", cells); err != nil || got != c.want {
			t.Errorf("after %q: %s, %v; want %s", c.change, got, err, c.want)
		}
	}
}
