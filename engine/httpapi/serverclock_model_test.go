package httpapi_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/check"
	"github.com/leaselab/leaselab/engine/httpapi"
	"github.com/leaselab/leaselab/engine/model"
)

// apiCall is one request of a server-clock history and what the reference
// model answers to the same call at the server's now.
type apiCall struct {
	path  string
	body  map[string]any
	op    engine.Op
	lease engine.Lease // presented (renew, complete, release)
	owner string
	job   string // "" for claim-next
}

// In the server-clock mode every time is the server's: a history of
// enqueues, and claims, claim-nexts, renews, completes and releases by
// three workers,
// none carrying now, at server instants 0 to 399 ms apart (a lease is
// 1000 ms, so leases end, are reclaimed and are presented stale), is
// answered call by call as the reference model answers the same call at
// the server's clock, leaves the model's rows after every call, and
// breaks no invariant of engine/check.
func TestServerClock_HistoryAgreesWithTheModelAndBreaksNoInvariant(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) { serverClockHistory(t, seed, 300) })
	}
}

func serverClockHistory(t *testing.T, seed uint64, calls int) {
	clock := int64(0)
	store := newStore(t)
	h := httpapi.New(store, httpapi.WithClockMode(httpapi.ServerClock), httpapi.WithClock(func() int64 { return clock }))
	ref, chk := model.New(), check.New()
	jobs, workers := []string{"a", "b", "c"}, []string{"A", "B", "C"}
	for _, id := range jobs {
		if code, v := serve(t, h, "POST", "/api/jobs", fmt.Sprintf(`{"id":%q}`, id)); code != http.StatusCreated && code != http.StatusOK {
			t.Fatalf("enqueue %s: %d %v", id, code, v)
		}
		ref.Enqueue(engine.NewJob{ID: id})
		observe(t, chk, store, []check.Op{{Kind: engine.OpEnqueue, JobID: id, Accepted: true}})
	}
	held := map[string]engine.Lease{} // worker -> the latest lease the API granted it
	seen := map[string]int{}          // outcomes, so a history that never refuses fails
	rng := rand.New(rand.NewPCG(seed, 37))
	for i := range calls {
		clock += rng.Int64N(400)
		if rng.IntN(8) == 0 { // new work keeps the workers busy
			id := fmt.Sprint("j", i)
			jobs = append(jobs, id)
			serve(t, h, "POST", "/api/jobs", fmt.Sprintf(`{"id":%q}`, id))
			ref.Enqueue(engine.NewJob{ID: id})
			observe(t, chk, store, []check.Op{{Kind: engine.OpEnqueue, JobID: id, Accepted: true}})
		}
		c := nextCall(rng, workers, jobs, held)
		got, gotErr := post(t, h, c)
		want, wantErr := refAnswer(ref, c, clock)
		where := fmt.Sprintf("call %d at %d ms: %s %v", i, clock, c.path, c.body)
		if w, g := outcome(wantErr), gotErr; w != g {
			t.Fatalf("%s: the API answered %s, the model %s", where, g, w)
		}
		seen[strings.Fields(gotErr)[0]+" "+string(c.op)]++
		if gotErr == "ok" && (c.op == engine.OpClaim || c.op == engine.OpClaimNext || c.op == engine.OpRenew) {
			if got != want {
				t.Fatalf("%s: the API granted %+v, the model %+v", where, got, want)
			}
			held[got.Owner] = got
		}
		op := check.Op{Kind: c.op, JobID: c.job, Owner: c.owner, Token: c.lease.Token, Now: clock, Accepted: gotErr == "ok", Lease: got}
		if c.op == engine.OpRenew || c.op == engine.OpComplete || c.op == engine.OpRelease {
			op.JobID, op.Owner = c.lease.JobID, c.lease.Owner
		}
		rows := observe(t, chk, store, []check.Op{op})
		if m := ref.Jobs(); fmt.Sprint(m) != fmt.Sprint(rows) {
			t.Fatalf("%s: the API's rows\n%v\nthe model's\n%v", where, rows, m)
		}
	}
	for _, k := range []string{"ok claim", "refused claim", "ok renew", "refused renew", "ok complete", "refused complete", "ok release"} {
		if seen[k] == 0 {
			t.Errorf("the history never had %s: %v", k, seen)
		}
	}
}

// nextCall picks a worker and what it does: a claim of a job or the next
// one, or a renew, complete or release of the lease it holds (which may
// have ended, or been superseded).
func nextCall(rng *rand.Rand, workers, jobs []string, held map[string]engine.Lease) apiCall {
	w := workers[rng.IntN(len(workers))]
	l, has := held[w]
	k := rng.IntN(5)
	if !has {
		k = rng.IntN(2)
	}
	lj := map[string]any{"job_id": l.JobID, "owner": l.Owner, "qty": l.Qty, "token": l.Token, "attempt": l.Attempt, "lease_until": l.LeaseUntil}
	switch k {
	case 0:
		j := jobs[rng.IntN(len(jobs))]
		return apiCall{path: "/api/claim", op: engine.OpClaim, owner: w, job: j, body: map[string]any{"owner": w, "job_id": j, "ttl": 1000}}
	case 1:
		return apiCall{path: "/api/claim", op: engine.OpClaimNext, owner: w, body: map[string]any{"owner": w, "ttl": 1000}}
	case 2:
		return apiCall{path: "/api/renew", op: engine.OpRenew, lease: l, body: map[string]any{"lease": lj, "ttl": 1000}}
	case 3:
		return apiCall{path: "/api/complete", op: engine.OpComplete, lease: l, body: map[string]any{"lease": lj, "result": "r"}}
	}
	return apiCall{path: "/api/release", op: engine.OpRelease, lease: l, body: map[string]any{"lease": lj}}
}

// post sends c without now and returns the lease granted and the outcome:
// "ok", "empty", or "refused REASON".
func post(t *testing.T, h http.Handler, c apiCall) (engine.Lease, string) {
	t.Helper()
	body, err := json.Marshal(c.body)
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", c.path, strings.NewReader(string(body))))
	var v struct {
		Lease  map[string]any `json:"lease"`
		Error  string         `json:"error"`
		Reason string         `json:"reason"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
		t.Fatalf("%s: %v\n%s", c.path, err, rec.Body)
	}
	switch {
	case rec.Code == http.StatusOK && v.Lease != nil && c.op != engine.OpComplete && c.op != engine.OpRelease:
		l, n := v.Lease, func(k string) int64 { f, _ := v.Lease[k].(float64); return int64(f) }
		job, _ := l["job_id"].(string)
		owner, _ := l["owner"].(string)
		return engine.Lease{JobID: job, Owner: owner, Qty: n("qty"), Token: n("token"), Attempt: n("attempt"), LeaseUntil: n("lease_until")}, "ok"
	case rec.Code == http.StatusOK:
		return engine.Lease{}, "ok"
	case v.Error == "empty":
		return engine.Lease{}, "empty"
	case v.Reason != "":
		return engine.Lease{}, "refused " + v.Reason
	}
	t.Fatalf("%s: %d %s", c.path, rec.Code, rec.Body)
	return engine.Lease{}, ""
}

// refAnswer is the reference model's answer to c at now.
func refAnswer(m *model.Model, c apiCall, now int64) (engine.Lease, error) {
	switch c.op {
	case engine.OpClaim:
		return m.Claim(c.job, c.owner, now, 1000)
	case engine.OpClaimNext:
		return m.ClaimNext(c.owner, now, 1000)
	case engine.OpRenew:
		return m.Renew(c.lease, now, 1000)
	case engine.OpComplete:
		return engine.Lease{}, m.Complete(c.lease, now, "r")
	}
	return engine.Lease{}, m.Release(c.lease)
}

// outcome is a model's error as post words the API's answer.
func outcome(err error) string {
	var rej *engine.Rejection
	switch {
	case err == nil:
		return "ok"
	case errors.Is(err, engine.ErrEmpty):
		return "empty"
	case errors.As(err, &rej):
		return "refused " + string(rej.Refusal())
	}
	return err.Error()
}

// observe feeds one step to the checker with the store's rows after it,
// fails the test on a broken invariant, and returns the rows.
func observe(t *testing.T, chk *check.Checker, store *engine.Store, ops []check.Op) []engine.Job {
	t.Helper()
	rows, err := store.Jobs(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range chk.Observe(ops, rows) {
		if !v.OK {
			t.Fatalf("%s: %s", v.Invariant, v.Detail)
		}
	}
	return rows
}
