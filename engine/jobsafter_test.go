package engine_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/limits"
)

// JobsAfter pages the jobs in insertion order: the pages read by the
// cursors they return hold every job once, a job enqueued while paging
// comes at the end, and the last page returns no cursor.
func TestJobsAfter_PagesEveryJobOnceInInsertionOrder(t *testing.T) {
	s := memStore(t)
	for _, id := range []string{"e", "d", "c", "b", "a"} {
		enqueueOK(t, s, engine.NewJob{ID: id})
	}
	var got []string
	var cursor int64
	for page := 0; ; page++ {
		jobs, next, err := s.JobsAfter(t.Context(), cursor, 2)
		if err != nil {
			t.Fatal(err)
		}
		if len(jobs) > 2 {
			t.Fatalf("page %d holds %d jobs, over its limit 2", page, len(jobs))
		}
		for _, j := range jobs {
			got = append(got, j.ID)
		}
		if page == 0 {
			enqueueOK(t, s, engine.NewJob{ID: "late"})
			if created, err := s.Enqueue(t.Context(), engine.NewJob{ID: "a"}); created || err != nil {
				t.Fatalf("re-enqueue of a: %v, %v", created, err) // exists: keeps its place
			}
		}
		if next == 0 {
			break
		}
		cursor = next
	}
	if want := "e d c b a late"; strings.Join(got, " ") != want {
		t.Fatalf("pages held %q; want %q", strings.Join(got, " "), want)
	}
}

// JobsAfter's limit is 1..list_page_max and its cursor not negative; a
// page exactly as long as what is left returns no cursor.
func TestJobsAfter_LimitAndCursorBounds(t *testing.T) {
	s := memStore(t)
	enqueueOK(t, s, engine.NewJob{ID: "a"})
	enqueueOK(t, s, engine.NewJob{ID: "b"})
	max := limits.Default.ListPageMax
	for _, tc := range []struct {
		name      string
		cursor    int64
		limit     int
		invalid   bool
		wantJobs  int
		wantAfter bool
	}{
		{"limit 0", 0, 0, true, 0, false},
		{"limit 1", 0, 1, false, 1, true},
		{"limit as long as the list", 0, 2, false, 2, false},
		{"limit before the max", 0, max - 1, false, 2, false},
		{"limit at the max", 0, max, false, 2, false},
		{"limit after the max", 0, max + 1, true, 0, false},
		{"cursor -1", -1, 1, true, 0, false},
		{"cursor past the end", 1 << 40, 1, false, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			jobs, next, err := s.JobsAfter(t.Context(), tc.cursor, tc.limit)
			if errors.Is(err, engine.ErrInvalid) != tc.invalid || (!tc.invalid && err != nil) {
				t.Fatalf("err %v; want invalid %v", err, tc.invalid)
			}
			if len(jobs) != tc.wantJobs || (next != 0) != tc.wantAfter {
				t.Fatalf("%d jobs, next %d; want %d jobs, a cursor %v", len(jobs), next, tc.wantJobs, tc.wantAfter)
			}
		})
	}
}
