package timeline

import (
	"strings"
	"testing"
)

func sqlList(s string) []Statement {
	var out []Statement
	for _, f := range strings.Split(s, ",") {
		out = append(out, Statement{SQL: map[string]string{"B": "BEGIN IMMEDIATE", "S": "SELECT x", "U": "UPDATE y", "C": "COMMIT", "R": "ROLLBACK"}[f]})
	}
	return out
}

func sqlString(st []Statement) string {
	var out []string
	for _, s := range st {
		out = append(out, s.SQL[:1])
	}
	return strings.Join(out, ",")
}

// BEGINs observed before their transactions waited for the lock go back in
// front of their bodies; a stream that does not split into whole
// transactions is left as observed.
func TestSerialize_PutsEachBeginBeforeItsBody(t *testing.T) {
	cases := []struct{ in, want string }{
		{"B,B,S,C,S,C", "B,S,C,B,S,C"},
		{"B,B,B,S,U,C,S,C,S,R", "B,S,U,C,B,S,C,B,S,R"},
		{"B,S,C", "B,S,C"},
		{"B,B,S,C", "B,B,S,C"},     // a BEGIN without a body
		{"B,S,C,S,C", "B,S,C,S,C"}, // a body without a BEGIN
		{"B,S", "B,S"},             // a transaction still open
	}
	for _, c := range cases {
		if got := sqlString(serialize(sqlList(c.in))); got != c.want {
			t.Errorf("serialize(%s) = %s, want %s", c.in, got, c.want)
		}
	}
}
