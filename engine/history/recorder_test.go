package history_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/history"
	"github.com/leaselab/leaselab/engine/model"
)

// lockedModel is a queue that is linearizable by construction: the model
// under a mutex.
type lockedModel struct {
	mu sync.Mutex
	m  *model.Model
}

// call plays one random call of client on jobs through r: a claim, a
// claim_next, a renew, complete or release of the client's lease, or a
// state read, at an instant around the leases' ends.
func (q *lockedModel) call(r *history.Recorder, rng *rand.Rand, client string, jobs []string, lease *engine.Lease) {
	job := jobs[rng.IntN(len(jobs))]
	now := int64(rng.IntN(4))*100 + int64(rng.IntN(3)) - 1 + 1 // 0..301, straddling 100, 200, 300
	const ttl = 100
	var (
		call engine.Op
		args = history.Args{Job: lease.JobID, Owner: client, Token: lease.Token, Now: now}
		do   func() history.Answer
	)
	switch k := rng.IntN(6); {
	case k == 0 || lease.Token == 0:
		call, args = engine.OpClaim, history.Args{Job: job, Owner: client, Now: now, TTL: ttl}
		do = func() history.Answer { return q.keep(lease)(q.m.Claim(job, client, now, ttl)) }
	case k == 1 && len(jobs) > 1:
		call, args = engine.OpClaimNext, history.Args{Owner: client, Now: now, TTL: ttl}
		do = func() history.Answer { return q.keep(lease)(q.m.ClaimNext(client, now, ttl)) }
	case k == 2:
		call, args.TTL = engine.OpRenew, ttl
		l := *lease
		do = func() history.Answer { return q.keep(lease)(q.m.Renew(l, now, ttl)) }
	case k == 3:
		call, args.Result = engine.OpComplete, "r"
		l := *lease
		do = func() history.Answer { return history.ErrAnswer(q.m.Complete(l, now, "r")) }
	case k == 4:
		call, args.Now = engine.OpRelease, 0
		l := *lease
		do = func() history.Answer { return history.ErrAnswer(q.m.Release(l)) }
	default:
		call, args = engine.OpState, history.Args{Job: job}
		do = func() history.Answer { return history.StateAnswer(q.m.Get(job)) }
	}
	h := r.Invoke(client, call, args)
	q.mu.Lock()
	a := do()
	q.mu.Unlock()
	r.Return(h, a)
}

// keep returns the answer of a claim, claim_next or renew, keeping a
// granted lease as the client's.
func (q *lockedModel) keep(lease *engine.Lease) func(engine.Lease, error) history.Answer {
	return func(l engine.Lease, err error) history.Answer {
		if err == nil {
			*lease = l
		}
		return history.LeaseAnswer(l, err)
	}
}

// recorded is a history of clients goroutines making calls each on jobs
// (claim_next among the calls when there is more than one job), recorded
// while they run.
func recorded(seed uint64, clients, calls int, jobs ...string) history.History {
	q := &lockedModel{m: model.New()}
	r := history.NewRecorder()
	for _, j := range jobs {
		h := r.Invoke("setup", engine.OpEnqueue, history.Args{Job: j, MaxAttempts: 5})
		r.Return(h, history.EnqueueAnswer(q.m.Enqueue(engine.NewJob{ID: j, MaxAttempts: 5})))
	}
	var wg sync.WaitGroup
	for c := range clients {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(seed, uint64(c)))
			var lease engine.Lease
			for range calls {
				q.call(r, rng, fmt.Sprintf("c%d", c), jobs, &lease)
			}
		})
	}
	wg.Wait()
	return r.History()
}

// Calls recorded from many goroutines: each call's interval is inside its
// client's real call, the instants all differ, and the queue under a
// mutex is linearizable.
func TestRecorder_ManyGoroutinesRecordALinearizableHistory(t *testing.T) {
	h := recorded(1, 8, 50, "a", "b")
	if len(h) != 2+8*50 {
		t.Fatalf("%d calls recorded, want %d", len(h), 2+8*50)
	}
	seen := map[int64]bool{}
	for i, o := range h {
		if o.Return <= o.Invoke || seen[o.Invoke] || seen[o.Return] {
			t.Fatalf("call %d: [%d, %d] is not a fresh interval", i, o.Invoke, o.Return)
		}
		seen[o.Invoke], seen[o.Return] = true, true
	}
	if r := check(t, h); r.Verdict != history.Linearizable {
		t.Errorf("verdict %s:\n%s", r.Verdict, r)
	}
}

// A call still waiting for its answer is in the history as one that
// answered error; its Return comes later and is kept once.
func TestRecorder_ACallWithoutAnAnswerAnswersError(t *testing.T) {
	r := history.NewRecorder()
	h := r.Invoke("A", engine.OpEnqueue, history.Args{Job: "a"})
	got := r.History()
	if len(got) != 1 || got[0].Answer.Outcome != engine.OutcomeError || got[0].Return < got[0].Invoke {
		t.Fatalf("open call recorded as %+v", got)
	}
	r.Return(h, history.EnqueueAnswer(true, nil))
	r.Return(h, history.EnqueueAnswer(false, nil))
	if a := r.History()[0].Answer; a.Outcome != engine.OutcomeOK || !a.Created {
		t.Errorf("answer %+v, want the first Return's", a)
	}
}

func TestErrAnswer_NamesTheOutcome(t *testing.T) {
	rej := &engine.Rejection{Op: "complete", Reason: engine.ErrSuperseded}
	for _, tc := range []struct {
		err  error
		want history.Answer
	}{
		{nil, history.Answer{Outcome: engine.OutcomeOK}},
		{rej, history.Answer{Outcome: engine.OutcomeRefused, Refusal: engine.RefusedSuperseded}},
		{fmt.Errorf("student: %w", engine.ErrExpired), history.Answer{Outcome: engine.OutcomeRefused, Refusal: engine.RefusedExpired}},
		{engine.ErrEmpty, history.Answer{Outcome: engine.OutcomeEmpty}},
		{fmt.Errorf("%w: ttl 0", engine.ErrInvalid), history.Answer{Outcome: engine.OutcomeInvalid}},
		{errors.New("database is locked"), history.Answer{Outcome: engine.OutcomeError, Error: "database is locked"}},
	} {
		if got := history.ErrAnswer(tc.err); got != tc.want {
			t.Errorf("ErrAnswer(%v) = %+v, want %+v", tc.err, got, tc.want)
		}
	}
}

// The work of checking a linearizable history of 8 clients making 50
// calls each: on two jobs checked apart, and with claim_next, which puts
// every call in one history.
func BenchmarkCheck(b *testing.B) {
	for _, bc := range []struct {
		name string
		jobs []string
	}{{"8x50/one-job", []string{"a"}}, {"8x50/two-jobs-claim-next", []string{"a", "b"}}} {
		h := recorded(7, 8, 50, bc.jobs...)
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				r, err := history.Check(h)
				if err != nil || r.Verdict != history.Linearizable {
					b.Fatal(err, r)
				}
			}
		})
	}
}
