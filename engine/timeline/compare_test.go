package timeline_test

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/leaselab/leaselab/engine/timeline"
	"github.com/leaselab/leaselab/engine/timeline/memrun"
)

func trace(t *testing.T, src string, opts timeline.Options) *timeline.Trace {
	t.Helper()
	tr, err := memrun.RunSource(context.Background(), "t.tl", src, opts)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func TestCompare_SameRunsDoNotDiffer(t *testing.T) {
	for _, name := range timeline.LibraryNames() {
		src, err := timeline.LibrarySource(name)
		if err != nil {
			t.Fatal(err)
		}
		en := trace(t, src, timeline.Options{})
		ko := trace(t, src, timeline.Options{Lang: "ko"})
		d, err := timeline.Compare(en, ko)
		if err != nil || d != nil {
			t.Errorf("%s in English against Korean: %+v, %v; want no difference (only the words differ)", name, d, err)
		}
	}
}

// Two timelines with the same steps but different headers differ at the
// first step, in the rows, cell by cell.
func TestCompare_ReportsTheFirstDifferingStepAndItsCells(t *testing.T) {
	steps := "\n0ms A claim order-7 -> ok\n100ms A complete order-7\n"
	a := trace(t, "lease 1000ms\njob order-7 qty=2"+steps, timeline.Options{})
	b := trace(t, "lease 1000ms\njob order-7 qty=3"+steps, timeline.Options{})
	d, err := timeline.Compare(a, b)
	if err != nil {
		t.Fatal(err)
	}
	want := &timeline.Difference{
		Step: 0, Line: 3, Source: "0ms A claim order-7 -> ok",
		Aspects: []string{"rows"},
		Cells:   []timeline.CellDiff{{Job: "order-7", Column: "qty", A: "2", B: "3"}},
	}
	if !reflect.DeepEqual(d, want) {
		t.Errorf("Compare = %+v, want %+v", d, want)
	}
}

func TestCompare_RefusesTracesOfDifferentTimelines(t *testing.T) {
	a := trace(t, "lease 1s\njob a\n0ms A claim a\n", timeline.Options{})
	for _, src := range []string{
		"lease 1s\njob a\n0ms A claim a\n10ms A complete a\n", // another step
		"lease 1s\njob a\n1ms A claim a\n",                    // another line
	} {
		b := trace(t, src, timeline.Options{})
		if _, err := timeline.Compare(a, b); !errors.Is(err, timeline.ErrNotComparable) {
			t.Errorf("Compare against %q: err %v, want ErrNotComparable", src, err)
		}
	}
}
