//go:build mutants

package timeline_test

import (
	"reflect"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/mutant"
	"github.com/leaselab/leaselab/engine/timeline"
)

// The worksheet's question for claim-boundary: only a reclaim at exactly
// lease_until tells the broken claim (row[0] >= now) from the correct one.
func TestCompare_ClaimBoundaryShowsOnlyAtLeaseUntil(t *testing.T) {
	for _, tc := range []struct {
		at      string
		differs bool
	}{
		{"999ms", false},
		{"1000ms", true},
		{"1001ms", false},
	} {
		src := "lease 1000ms\njob job-1\n0ms A claim job-1\n" + tc.at + " B claim job-1\n"
		correct := trace(t, src, timeline.Options{})
		broken := trace(t, src, timeline.Options{Mutant: mutant.ClaimBoundary})
		d, err := timeline.Compare(correct, broken)
		if err != nil {
			t.Fatal(err)
		}
		if (d != nil) != tc.differs {
			t.Errorf("B claims at %s: difference %+v, want one: %t", tc.at, d, tc.differs)
			continue
		}
		if d == nil {
			continue
		}
		if d.Step != 1 || d.Line != 4 {
			t.Errorf("B claims at %s: differs at step %d (line %d), want step 1 (line 4)", tc.at, d.Step, d.Line)
		}
		if want := []string{"outcome", "token", "lease_until", "rows"}; !reflect.DeepEqual(d.Aspects, want) {
			t.Errorf("B claims at %s: aspects %q, want %q", tc.at, d.Aspects, want)
		}
		cells := map[string][2]string{}
		for _, c := range d.Cells {
			cells[c.Column] = [2]string{c.A, c.B}
		}
		if cells["owner"] != [2]string{"B", "A"} || cells["token"] != [2]string{"2", "1"} {
			t.Errorf("B claims at %s: cells %+v, want owner B against A and token 2 against 1", tc.at, d.Cells)
		}
	}
}

// A difference only the receiver sees is found in the receipt.
func TestCompare_ReceiverNotIdempotentShowsInTheReceipt(t *testing.T) {
	src := "lease 1000ms\njob order-7 qty=2\n0ms A claim order-7\n10ms A deliver order-7\n20ms A deliver order-7\n"
	d, err := timeline.Compare(trace(t, src, timeline.Options{}), trace(t, src, timeline.Options{Mutant: mutant.ReceiverNotIdempotent}))
	if err != nil {
		t.Fatal(err)
	}
	if d == nil || d.Step != 2 || !reflect.DeepEqual(d.Aspects, []string{"receipt"}) {
		t.Errorf("Compare = %+v, want step 2 differing in its receipt alone", d)
	}
}
