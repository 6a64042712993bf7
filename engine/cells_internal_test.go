package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/sqlitedb"
)

// Each cell takes what its column may hold and refuses the rest, naming the
// value: a NULL only where the column may be NULL, an integer given as
// digits as database/sql's own conversion does, nothing else.
func TestCells_TakeTheirColumnsValuesAndRefuseTheRest(t *testing.T) {
	for _, tc := range []struct {
		name    string
		scan    func(src any) (any, error)
		src     any
		want    any
		wantErr string
	}{
		{"text from a string", scanText, "order-7", "order-7", ""},
		{"text from bytes", scanText, []byte("order-7"), "order-7", ""},
		{"text from the empty string", scanText, "", "", ""},
		{"text refuses NULL", scanText, nil, nil, "read NULL from a TEXT column that is NOT NULL"},
		{"text refuses an integer", scanText, int64(7), nil, "read int64 7 from a TEXT column"},
		{"nullable text from NULL", scanNullText, nil, "", ""},
		{"nullable text from a string", scanNullText, "A", "A", ""},
		{"nullable text refuses a float", scanNullText, 1.5, nil, "read float64 1.5 from a TEXT column"},
		{"integer from an int64", scanInt, int64(-9), int64(-9), ""},
		{"integer from its largest", scanInt, int64(1<<63 - 1), int64(1<<63 - 1), ""},
		{"integer from digits", scanInt, "42", int64(42), ""},
		{"integer from digit bytes", scanInt, []byte("-3"), int64(-3), ""},
		{"integer refuses a word", scanInt, "many", nil, "read string many from an INTEGER column"},
		{"integer refuses digits past int64", scanInt, "9223372036854775808", nil, "from an INTEGER column"},
		{"integer refuses NULL", scanInt, nil, nil, "read NULL from an INTEGER column that is NOT NULL"},
		{"integer refuses a float", scanInt, 2.0, nil, "read float64 2 from an INTEGER column"},
		{"nullable integer from NULL", scanNullInt, nil, int64(0), ""},
		{"nullable integer from an int64", scanNullInt, int64(5), int64(5), ""},
		{"nullable integer refuses a bool", scanNullInt, true, nil, "read bool true from an INTEGER column"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.scan(tc.src)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("Scan(%#v) = %#v, %v; want an error holding %q", tc.src, got, err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("Scan(%#v) = %#v, %v; want %#v", tc.src, got, err, tc.want)
			}
		})
	}
}

func scanText(src any) (any, error) {
	var s string
	err := textCell{&s}.Scan(src)
	return s, err
}

func scanNullText(src any) (any, error) {
	var s string
	err := nullTextCell{&s}.Scan(src)
	return s, err
}

func scanInt(src any) (any, error) {
	var n int64
	err := intCell{&n}.Scan(src)
	return n, err
}

func scanNullInt(src any) (any, error) {
	var n int64
	err := nullIntCell{&n}.Scan(src)
	return n, err
}

// A job row read back through the cells is the row that was written, NULLs
// (no owner, no deadline, no reason, no result) and all, on the database
// the engine runs on.
func TestScanJob_ReadsBackEveryColumnThroughTheCells(t *testing.T) {
	ctx := context.Background()
	db, err := sqlitedb.Memory(t.Name())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s, err := New(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Enqueue(ctx, NewJob{ID: "plain"}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `INSERT INTO jobs (id, seq, qty, owner, lease_until, token, attempts, max_attempts, deadline, status, reason, result)
VALUES ('full', 2, 3, 'A', 1000, 4, 5, 6, 7000, 'quarantined', 'attempts', 'sent')`); err != nil {
		t.Fatal(err)
	}
	for _, want := range []Job{
		{ID: "plain", Qty: 1, Status: StatusPending},
		{ID: "full", Qty: 3, Owner: "A", LeaseUntil: 1000, Token: 4, Attempts: 5, MaxAttempts: 6, Deadline: 7000,
			Status: StatusQuarantined, Reason: "attempts", Result: "sent"},
	} {
		got, err := s.Get(ctx, want.ID)
		if err != nil || got == nil || *got != want {
			t.Fatalf("Get(%s) = %+v, %v; want %+v", want.ID, got, err, want)
		}
	}
	if got, err := s.Get(ctx, "missing"); got != nil || err != nil {
		t.Fatalf("Get(missing) = %+v, %v; want nil, nil", got, err)
	}
}
