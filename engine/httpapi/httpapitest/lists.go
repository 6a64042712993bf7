package httpapitest

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/limits"
)

// page reads one page of GET /api/jobs with the given limit (0: none) and
// cursor ("": from the first job).
func (s *suite) page(t testing.TB, limit int, cursor string) jobList {
	t.Helper()
	q := url.Values{}
	if limit != 0 {
		q.Set("limit", strconv.Itoa(limit))
	}
	if cursor != "" {
		q.Set("cursor", cursor)
	}
	path := "/api/jobs"
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	l := want[jobList](t, s.c.get(t, path), http.StatusOK)
	if n := len(l.Jobs); n > limit && limit != 0 {
		t.Fatalf("GET %s: %d jobs, over the limit asked", path, n)
	}
	if l.Next != nil && *l.Next == "" {
		t.Fatalf("GET %s: an empty next cursor", path)
	}
	return l
}

// lastPage walks the job list to its end by the largest pages and returns
// the cursor its last page was read from ("": the first page was the
// last) and every job read.
func (s *suite) lastPage(t testing.TB) (cursor string, all []job) {
	t.Helper()
	for {
		l := s.page(t, limits.Default.ListPageMax, cursor)
		all = append(all, l.Jobs...)
		if l.Next == nil {
			return cursor, all
		}
		cursor = *l.Next
	}
}

// The job list comes in pages: the default page holds list_page jobs and
// says where the next begins; pages read by their cursors hold every job
// once, in insertion order, however many are enqueued meanwhile; the last
// page has next null.
func (s *suite) testListPages(t *testing.T) {
	from, _ := s.lastPage(t)
	n := limits.Default.ListPage + 1
	var ids []string
	for i := range n {
		ids = append(ids, s.newJob(t, "page-"+strconv.Itoa(i)))
	}
	first := s.page(t, 0, from)
	if len(first.Jobs) != limits.Default.ListPage || first.Next == nil {
		t.Fatalf("the default page from %q: %d jobs, next %v; want %d and a cursor",
			from, len(first.Jobs), first.Next, limits.Default.ListPage)
	}

	var got []string
	cursor := from
	for pages := 0; ; pages++ {
		l := s.page(t, 40, cursor)
		for _, j := range l.Jobs {
			if strings.HasPrefix(j.ID, s.id("page-")) {
				got = append(got, j.ID)
			}
		}
		if pages == 0 { // enqueued while paging: comes at the end
			ids = append(ids, s.newJob(t, "page-late"))
			// exists: keeps its place
			want[enqueued](t, s.c.post(t, "/api/jobs", obj{"id": ids[0]}), http.StatusOK)
		}
		if l.Next == nil {
			break
		}
		cursor = *l.Next
	}
	if !slices.Equal(got, ids) {
		t.Fatalf("the pages held our jobs as\n%q\nwant each once, in insertion order:\n%q", got, ids)
	}
}

// A bad limit or cursor is 400 naming it, before and after each bound.
func (s *suite) testListBadQuery(t *testing.T) {
	max := strconv.Itoa(limits.Default.ListPageMax)
	for _, tc := range []struct {
		query string
		ok    bool
		parts []string
	}{
		{"limit=0", false, []string{"limit"}},
		{"limit=1", true, nil},
		{"limit=" + max, true, nil},
		{"limit=" + strconv.Itoa(limits.Default.ListPageMax+1), false, []string{"limit", "list_page_max"}},
		{"limit=-1", false, []string{"limit"}},
		{"limit=1.5", false, []string{"limit"}},
		{"limit=01", false, []string{"limit"}},
		{"limit=", false, []string{"limit"}},
		{"limit=1&limit=2", false, []string{"limit", "once"}},
		{"cursor=abc", false, []string{"cursor"}},
		{"cursor=0", false, []string{"cursor"}},
		{"cursor=1", true, nil},
		{"cursor=-1", false, []string{"cursor"}},
		{"cursor=99999999999999999999", false, []string{"cursor"}},
		{"colour=red", false, []string{`"colour"`}},
	} {
		t.Run(tc.query, func(t *testing.T) {
			a := s.c.get(t, "/api/jobs?"+tc.query)
			if tc.ok {
				want[jobList](t, a, http.StatusOK)
				return
			}
			wantError(t, a, http.StatusBadRequest, "bad_request", tc.parts...)
		})
	}
}

// A job id or owner longer than name_bytes, and a result longer than
// result_bytes, are 400 naming the limit and change nothing; at the limit
// they are taken.
func (s *suite) testNameAndResultLimits(t *testing.T) {
	nameMax := limits.Default.NameBytes
	long := func(n int) string { return s.id(strings.Repeat("n", n-len(s.id("")))) }
	for _, tc := range []struct {
		name  string
		bytes int
		ok    bool
	}{
		{"before", nameMax - 1, true},
		{"at", nameMax, true},
		{"after", nameMax + 1, false},
	} {
		t.Run("id-"+tc.name, func(t *testing.T) {
			id := long(tc.bytes)
			a := s.c.post(t, "/api/jobs", obj{"id": id})
			if tc.ok {
				want[enqueued](t, a, http.StatusCreated)
				return
			}
			wantError(t, a, http.StatusBadRequest, "bad_request", "name_bytes")
			wantError(t, s.c.get(t, "/api/jobs/"+url.PathEscape(id)), http.StatusBadRequest, "bad_request", "name_bytes")
		})
		t.Run("owner-"+tc.name, func(t *testing.T) {
			id := s.newJob(t, "owner-limit-"+tc.name)
			a := s.claim(t, id, strings.Repeat("o", tc.bytes), 0, 10)
			if tc.ok {
				want[leaseAnswer](t, a, http.StatusOK)
				return
			}
			wantError(t, a, http.StatusBadRequest, "bad_request", "name_bytes")
			if got := s.job(t, id); got.Status != "pending" || got.Token != 0 {
				t.Fatalf("a refused claim changed the job: %v", got)
			}
		})
	}
	resultMax := limits.Default.ResultBytes
	for _, tc := range []struct {
		name  string
		bytes int
		ok    bool
	}{
		{"before", resultMax - 1, true},
		{"at", resultMax, true},
		{"after", resultMax + 1, false},
	} {
		t.Run("result-"+tc.name, func(t *testing.T) {
			id := s.newJob(t, "result-limit-"+tc.name)
			l := s.mustClaim(t, id, "A", 0, 10)
			result := strings.Repeat("r", tc.bytes)
			a := s.complete(t, l, 1, result)
			got := s.job(t, id)
			if tc.ok {
				want[okAnswer](t, a, http.StatusOK)
				if got.Status != "done" || got.Result != result {
					t.Fatalf("completed with %d bytes: %v", tc.bytes, got)
				}
				return
			}
			wantError(t, a, http.StatusBadRequest, "bad_request", "result_bytes")
			if got.Status != "leased" || got.Result != "" {
				t.Fatalf("a refused complete changed the job: %v", got)
			}
		})
	}
}
