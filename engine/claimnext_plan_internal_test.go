package engine

import (
	"context"
	"database/sql"
	"strings"
	"testing"
)

// ClaimNext, on the direct path and on the read-then-write path, finds the
// next job by the indexes jobs_free and jobs_expiry and reads the jobs
// table only by a search, never by a scan: its cost does not grow with the
// jobs held. The seq index serves only to fetch the one row found
// (seq=?), never to walk the jobs in order.
func TestClaimNext_PlanSearchesIndexesNeverScansJobs(t *testing.T) {
	ctx := context.Background()
	db, texts := statementsOf(t, func(s *Store, id string) {
		if _, err := s.Enqueue(ctx, NewJob{ID: id}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.ClaimNext(ctx, "w", 0, 10); err != nil {
			t.Fatal(err)
		}
		if _, err := s.db.Exec(`UPDATE jobs SET status = 'done'`); err != nil {
			t.Fatal(err)
		}
	})
	checked := 0
	for _, q := range texts {
		if !strings.Contains(q, "MIN(") {
			continue // not claim-next's
		}
		checked++
		plan := queryPlan(t, db, q)
		for _, index := range []string{"jobs_free", "jobs_expiry"} {
			if !strings.Contains(strings.Join(plan, "\n"), "USING INDEX "+index) {
				t.Errorf("the plan does not search %s:\n%s\n%s", index, strings.Join(plan, "\n"), q)
			}
		}
		for _, step := range plan {
			if strings.HasPrefix(step, "SCAN jobs") ||
				(strings.Contains(step, "sqlite_autoindex_jobs_2") && !strings.Contains(step, "(seq=?)")) {
				t.Errorf("the plan walks the jobs: %q\n%s\n%s", step, strings.Join(plan, "\n"), q)
			}
		}
	}
	// The direct path's text is read from the statements database/sql
	// prepared; a driver that runs SQL text itself (the browser's) prepares
	// none, and only the observed path's text is seen there.
	want := 2
	if via, err := viaDriver(ctx, db); err != nil {
		t.Fatal(err)
	} else if via {
		want = 1
	}
	if checked != want {
		t.Fatalf("found %d claim-next statements, want %d (direct and read-then-write) in %q", checked, want, texts)
	}
}

// queryPlan is EXPLAIN QUERY PLAN's steps for query on db, its
// parameters bound to 0.
func queryPlan(t *testing.T, db *sql.DB, query string) []string {
	t.Helper()
	args := make([]any, strings.Count(query, "?"))
	for i := range args {
		args[i] = int64(0)
	}
	rows, err := db.Query("EXPLAIN QUERY PLAN "+query, args...)
	if err != nil {
		t.Fatalf("EXPLAIN QUERY PLAN %s: %v", query, err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int64
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if len(plan) == 0 {
		t.Fatalf("EXPLAIN QUERY PLAN %s: no plan", query)
	}
	return plan
}
