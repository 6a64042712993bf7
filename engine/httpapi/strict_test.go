package httpapi_test

import (
	"context"
	"net/http"
	"slices"
	"testing"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/httpapi"
)

// jobsOf reads every job in the store, for before/after comparisons.
func jobsOf(t testing.TB, s *engine.Store) []engine.Job {
	t.Helper()
	jobs, err := s.Jobs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return jobs
}

// The red team's reproductions of a lenient reader, each now 400 with a
// message that names the field and says what is wrong, and no change.
func TestStrictJSON_RedTeamReproductionsAre400AndChangeNothing(t *testing.T) {
	store := newStore(t)
	h := httpapi.New(store)
	serve(t, h, "POST", "/api/jobs", `{"id":"j"}`)
	before := jobsOf(t, store)
	for _, tc := range []struct{ name, path, body, message string }{
		{"keys-in-upper-case", "/api/jobs", `{"ID":"x","QTY":5}`,
			`unknown field "ID" (field names are case-sensitive: "id")`},
		{"invalid-utf8-id", "/api/jobs", "{\"id\":\"a\xff\"}",
			"id: invalid UTF-8 at byte 8: strings must be UTF-8"},
		{"duplicate-key", "/api/jobs", `{"id":"x","id":"y"}`,
			"id: duplicate field: a JSON object names each field once"},
		{"job-id-null", "/api/claim", `{"owner":"A","job_id":null,"now":0,"ttl":10}`,
			"job_id: null is not a job id; leave job_id out to claim the next job"},
		{"nested-null", "/api/release", `{"lease":{"job_id":"j","owner":"A","token":null}}`,
			"lease.token: null is not allowed: give a value or leave the field out"},
		{"nested-unknown", "/api/release", `{"lease":{"job_id":"j","owner":"A","token":1,"Token":2}}`,
			`unknown field "Token" in lease (field names are case-sensitive: "token")`},
		{"fraction", "/api/claim", `{"owner":"A","job_id":"j","now":1.5,"ttl":10}`,
			"now: want an integer in 0..9007199254740991, got the number 1.5"},
		{"string-for-number", "/api/jobs", `{"id":"x","qty":"5"}`,
			"qty: want an integer in 0..9007199254740991, got a string"},
		{"top-level-null", "/api/jobs", `null`, "want a JSON object, got null"},
		{"trailing", "/api/jobs", `{"id":"x"} {}`, "unexpected data after the JSON object at byte 11"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, v := serve(t, h, "POST", tc.path, tc.body)
			if code != http.StatusBadRequest || v["error"] != "bad_request" || v["message"] != tc.message {
				t.Fatalf("%d %v\nwant 400 bad_request %q", code, v, tc.message)
			}
		})
	}
	if after := jobsOf(t, store); !slices.Equal(before, after) {
		t.Fatalf("refused requests changed the store:\nbefore %v\nafter  %v", before, after)
	}
}
