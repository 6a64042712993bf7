package sqliteapi_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/httpapi/sqliteapi"
	"github.com/leaselab/leaselab/engine/internal/testkit/nativeonly"
	"github.com/leaselab/leaselab/engine/sqlitedb"
)

const (
	loadClients = 200 // at once, each on jobs of its own
	loadJobs    = 3   // each client's: enqueue, claim, complete
	loadTries   = 6   // a call answered 503 is made again, up to this many times in all
)

// loadCalls are the statuses the API answered one job's calls, in order:
// enqueue, claim and complete, each made again after a 503 (a call after
// one that never succeeded is not made).
type loadCalls struct{ enqueue, claim, complete []int }

// post sends body to path until it is answered other than 503, at most
// loadTries times, and returns every status and the last answer's body. A
// 503 must be the busy database's, with Retry-After.
func post(ctx context.Context, hc *http.Client, url, path string, body any) ([]int, map[string]any, error) {
	b, err := json.Marshal(body)
	if err != nil {
		return nil, nil, err
	}
	var statuses []int
	for range loadTries {
		req, err := http.NewRequestWithContext(ctx, "POST", url+path, bytes.NewReader(b))
		if err != nil {
			return nil, nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := hc.Do(req)
		if err != nil {
			return nil, nil, err
		}
		var v map[string]any
		json.NewDecoder(resp.Body).Decode(&v)
		resp.Body.Close()
		statuses = append(statuses, resp.StatusCode)
		if resp.StatusCode != http.StatusServiceUnavailable {
			return statuses, v, nil
		}
		if v["error"] != "database_busy" || resp.Header.Get("Retry-After") == "" {
			return nil, nil, fmt.Errorf("POST %s: 503 %v, Retry-After %q; want database_busy with Retry-After", path, v, resp.Header.Get("Retry-After"))
		}
	}
	return statuses, nil, nil
}

// runClient enqueues, claims and completes each of its jobs in turn, a
// call made only after the one before it succeeded.
func runClient(ctx context.Context, hc *http.Client, url string, c int, out []loadCalls) error {
	owner := fmt.Sprintf("w%03d", c)
	for j := range out {
		id, o := loadID(c, j), &out[j]
		var (
			v   map[string]any
			err error
		)
		if o.enqueue, _, err = post(ctx, hc, url, "/api/jobs", map[string]any{"id": id}); err != nil || last(o.enqueue) != http.StatusCreated {
			return err
		}
		if o.claim, v, err = post(ctx, hc, url, "/api/claim", map[string]any{"owner": owner, "job_id": id, "ttl": 60000}); err != nil || last(o.claim) != http.StatusOK {
			return err
		}
		if o.complete, _, err = post(ctx, hc, url, "/api/complete", map[string]any{"lease": v["lease"], "result": id}); err != nil {
			return err
		}
	}
	return nil
}

func loadID(client, job int) string { return fmt.Sprintf("c%03d-j%d", client, job) }

// last is the last of statuses, 0 when there is none.
func last(statuses []int) int {
	if len(statuses) == 0 {
		return 0
	}
	return statuses[len(statuses)-1]
}

// Many clients writing at once to a file database, whose busy timeout is
// short enough that many calls meet it locked: no answer is 500, each is
// 2xx or 503 database_busy, and the rows afterwards hold exactly what was
// acknowledged. A call answered 503 wrote nothing: its job is absent,
// unclaimed or not done when no call after it succeeded, and the call made
// again after it is answered as a first one (201 created, a lease of token
// 1, a complete taken), never as the repeat of a write that happened.
func TestLoad_ABusyFileDatabaseAnswers503AndLosesNoAcknowledgedWrite(t *testing.T) {
	nativeonly.Test(t, "a file database")
	db, err := sqlitedb.OpenWith(filepath.Join(t.TempDir(), "leaselab.db"), sqlitedb.Options{BusyTimeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	h, err := sqliteapi.New(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h) // 127.0.0.1
	defer srv.Close()
	hc := &http.Client{Timeout: time.Minute, Transport: &http.Transport{MaxIdleConnsPerHost: loadClients}}
	defer hc.CloseIdleConnections()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()

	outs := make([][]loadCalls, loadClients)
	errs := make([]error, loadClients)
	var wg sync.WaitGroup
	for c := range loadClients {
		outs[c] = make([]loadCalls, loadJobs)
		wg.Go(func() { errs[c] = runClient(ctx, hc, srv.URL, c, outs[c]) })
	}
	wg.Wait()
	for c, err := range errs {
		if err != nil {
			t.Fatalf("client %d: %v", c, err)
		}
	}
	checkLoad(t, db, outs)
}

// checkLoad holds the rows of db to the answers outs (see the test above).
func checkLoad(t *testing.T, db *sql.DB, outs [][]loadCalls) {
	t.Helper()
	store, err := engine.New(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := store.Jobs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]engine.Job{}
	for _, j := range jobs {
		rows[j.ID] = j
	}
	count := map[int]int{}
	byCall := map[string]int{} // "claim 503": how many
	enqueued := 0
	for c, out := range outs {
		for j, o := range out {
			for name, sts := range map[string][]int{"enqueue": o.enqueue, "claim": o.claim, "complete": o.complete} {
				for _, st := range sts {
					count[st]++
					byCall[fmt.Sprintf("%s %d", name, st)]++
				}
			}
			if last(o.enqueue) == http.StatusCreated {
				enqueued++
			}
			id := loadID(c, j)
			if msg := loadMismatch(o, rows[id], fmt.Sprintf("w%03d", c)); msg != "" {
				t.Errorf("%s: answered %+v, row %+v: %s", id, o, rows[id], msg)
			}
		}
	}
	t.Logf("%d clients x %d jobs, each call made up to %d times: %v", loadClients, loadJobs, loadTries, byCall)
	if len(rows) != enqueued {
		t.Errorf("%d rows, %d enqueues acknowledged", len(rows), enqueued)
	}
	for st, n := range count {
		if st != http.StatusOK && st != http.StatusCreated && st != http.StatusServiceUnavailable {
			t.Errorf("%d answers %d; want only 2xx and 503", n, st)
		}
	}
	if count[http.StatusServiceUnavailable] == 0 || count[http.StatusCreated] == 0 || count[http.StatusOK] == 0 {
		t.Fatalf("statuses %v: the load met no busy database, or none of it succeeded; the test proves nothing", count)
	}
}

// loadMismatch says how row (the zero Job when absent) differs from what
// the answers o to owner acknowledged, or "". A call's statuses are 503s
// and, when one succeeded, its success last: a call made again after a 503
// and answered as a repeat (200 for an enqueue, 409 for a claim or a
// complete) shows up here as a status other than the success.
func loadMismatch(o loadCalls, row engine.Job, owner string) string {
	enq, claim, done := last(o.enqueue), last(o.claim), last(o.complete)
	switch {
	case enq == http.StatusServiceUnavailable && row.ID != "":
		return "enqueues refused 503 left the job"
	case enq == http.StatusCreated && row.ID == "":
		return "an acknowledged enqueue is lost"
	case enq == http.StatusOK:
		return "the enqueue made again after a 503 found the job there: the 503 wrote it"
	case claim == http.StatusServiceUnavailable && (row.Token != 0 || row.Status != engine.StatusPending):
		return "claims refused 503 left a lease"
	case claim == http.StatusOK && (row.Token != 1 || row.Attempts != 1 || row.Owner != owner):
		return "the acknowledged claim is not the row's, or a claim refused 503 counted an attempt"
	case done == http.StatusServiceUnavailable && row.Status != engine.StatusLeased:
		return "completes refused 503 left the job " + string(row.Status)
	case done == http.StatusOK && (row.Status != engine.StatusDone || row.Result != row.ID):
		return "an acknowledged complete is lost"
	}
	return ""
}
