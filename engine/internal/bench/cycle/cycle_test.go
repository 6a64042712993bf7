package cycle

import (
	"context"
	"slices"
	"testing"
)

// TestCycles_EveryVariantLeavesNothingBehind runs each compared cycle a few
// times on each storage, as the benchmark does, and checks what they leave:
// every one of our jobs and of the floor's done, goqite's table empty.
func TestCycles_EveryVariantLeavesNothingBehind(t *testing.T) {
	const rounds = 3
	for _, st := range storages {
		t.Run(st.name, func(t *testing.T) {
			db, err := st.open(t)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			vs := append(leaselab(t, db), floorCycle(t, db), goqiteCycle(t, db))
			for i := range rounds {
				for _, v := range vs {
					v.run(t, i)
				}
			}
			ctx := context.Background()
			for _, c := range []struct {
				query string
				want  int
			}{
				{`SELECT count(*) FROM jobs WHERE status = 'done' AND result = 'ok' AND token = 1`, 2 * rounds},
				{`SELECT count(*) FROM jobs`, 2 * rounds},
				{`SELECT count(*) FROM floor WHERE status = 'done' AND result = 'ok' AND token = 1 AND owner IS NULL`, rounds},
				{`SELECT count(*) FROM floor`, rounds},
				{`SELECT count(*) FROM goqite`, 0},
			} {
				var n int
				if err := db.QueryRowContext(ctx, c.query).Scan(&n); err != nil || n != c.want {
					t.Errorf("%s = %d, %v; want %d", c.query, n, err, c.want)
				}
			}
		})
	}
}

func TestMedian_MiddleOrMeanOfTheMiddleTwo(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{
		{[]float64{7}, 7},
		{[]float64{2, 9}, 5.5},
		{[]float64{3, 1, 2}, 2},
		{[]float64{4, 1, 3, 2}, 2.5},
		{[]float64{5, 5, 1, 5}, 5},
	} {
		in := slices.Clone(c.in)
		if got := median(in); got != c.want {
			t.Errorf("median(%v) = %v, want %v", c.in, got, c.want)
		}
		if !slices.Equal(in, c.in) {
			t.Errorf("median reordered its input: %v", in)
		}
	}
}
