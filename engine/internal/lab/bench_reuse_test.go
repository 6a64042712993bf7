package lab

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// reuseLab's long pauses and crashes make its runs write, deliver and
// complete on every table; its sweep makes the points differ.
const reuseLab = `jobs 6
workers 3
work uniform 200ms 400ms
gc every exponential 500ms pause uniform 500ms 1500ms
crash every exponential 2s restart fixed 300ms
horizon 10s
sweep lease 300ms 1s
runs 4
seed 7
`

// Every run on one bench, after the runs before it, measures what the
// same run measures on a fresh database of its own, for every storage and
// receiver.
func TestBench_ARunOnAReusedBenchMeasuresAsOnAFreshDatabase(t *testing.T) {
	ctx := context.Background()
	for _, policy := range []string{"storage fenced\nreceiver idempotent\n", "storage unfenced\nreceiver not-idempotent\n"} {
		l, err := Parse("reuse.lab", reuseLab+policy)
		if err != nil {
			t.Fatal(err)
		}
		b, err := newBench(ctx, l.Points()[0].Policy)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		for run := range l.Runs {
			for p, pt := range l.Points() {
				fresh, freshRows := runFresh(t, l, pt, run)
				reused, err := runOn(ctx, b, l, pt, run, nil, nil)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(fresh, reused) {
					t.Errorf("%spoint %d, run %d: on the reused bench %+v, on a fresh database %+v", policy, p, run, reused, fresh)
				}
				if got := benchRows(t, b); !slices.Equal(got, freshRows) {
					t.Errorf("%spoint %d, run %d: the reused bench's rows after it\n%s\nthe fresh database's\n%s",
						policy, p, run, strings.Join(got, "\n"), strings.Join(freshRows, "\n"))
				}
			}
		}
	}
}

// runFresh runs run of pt on a bench of its own and returns its measures
// and the rows it left.
func runFresh(t *testing.T, l *Lab, pt Point, run int) (measures, []string) {
	t.Helper()
	b, err := newBench(context.Background(), pt.Policy)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	m, err := runOn(context.Background(), b, l, pt, run, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return m, benchRows(t, b)
}

// benchRows is every row of b's tables, a line each, in key order.
func benchRows(t *testing.T, b *bench) []string {
	t.Helper()
	var out []string
	for _, table := range []string{"jobs", "storage", "receipts"} {
		rows, err := b.db.Query("SELECT * FROM " + table + " ORDER BY 1")
		if err != nil {
			t.Fatal(err)
		}
		cols, err := rows.Columns()
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprint(table, vals))
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return out
}
