package engine

import (
	"database/sql"
	"errors"
	"testing"
)

// rowOf is a row whose Scan hands each destination the driver's value, as
// database/sql does for a *any.
type rowOf []any

func (r rowOf) Scan(dest ...any) error {
	if r == nil {
		return sql.ErrNoRows
	}
	for i, d := range dest {
		*d.(*any) = r[i]
	}
	return nil
}

// scanColumns converts what a driver gives into *string and *int64 as the
// engine reads its columns, NULL as "" and 0, and refuses what no column of
// it could hold.
func TestScanColumns_ConvertsDriverValues(t *testing.T) {
	var (
		s string
		n int64
	)
	tests := []struct {
		name    string
		row     rowOf
		wantS   string
		wantN   int64
		wantErr bool
	}{
		{"text and integer", rowOf{"A", int64(7)}, "A", 7, false},
		{"NULL", rowOf{nil, nil}, "", 0, false},
		{"bytes", rowOf{[]byte("B"), []byte("-12")}, "B", -12, false},
		{"an integer as text", rowOf{int64(42), "9223372036854775807"}, "42", 1<<63 - 1, false},
		{"text that is no integer", rowOf{"A", "7x"}, "", 0, true},
		{"an integer past int64", rowOf{"A", "9223372036854775808"}, "", 0, true},
		{"a real", rowOf{"A", 1.5}, "", 0, true},
		{"a real as text", rowOf{2.5, int64(1)}, "", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, n = "before", -1
			err := scanColumns(tt.row, &s, &n)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want an error: %v", err, tt.wantErr)
			}
			if err == nil && (s != tt.wantS || n != tt.wantN) {
				t.Errorf("got %q, %d; want %q, %d", s, n, tt.wantS, tt.wantN)
			}
		})
	}
	if err := scanColumns(rowOf(nil), &s); !errors.Is(err, sql.ErrNoRows) {
		t.Errorf("no row: err = %v, want sql.ErrNoRows", err)
	}
	var f float64
	if err := scanColumns(rowOf{1.5}, &f); err == nil {
		t.Error("a *float64 destination was accepted")
	}
}
