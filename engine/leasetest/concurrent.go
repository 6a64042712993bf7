package leasetest

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/history"
)

// The concurrent round's defaults: Run plays ConcurrentRounds rounds of
// ConcurrentClients clients and, when those took less than
// ConcurrentTime together, as many in all as fit in ConcurrentTime at
// their pace, up to ConcurrentMostRounds.
const (
	ConcurrentRounds     = 20
	ConcurrentClients    = 4
	ConcurrentMostRounds = 50 * ConcurrentRounds
	ConcurrentTime       = time.Second
)

// concurrentSteps is how many calls each client of a round makes.
const concurrentSteps = 8

// ConcurrentOptions set how Concurrent plays; a zero field takes its
// default.
type ConcurrentOptions struct {
	Seed    uint64 // the choice of calls (not their interleaving, which is the scheduler's)
	Rounds  int    // rounds at least, each on a fresh Queue (ConcurrentRounds)
	Clients int    // goroutines, one a client (ConcurrentClients)
	// Time: when the first Rounds rounds took less than Time together,
	// Concurrent plays as many rounds in all as fit in Time at their
	// pace, up to MostRounds (ConcurrentTime, and 50 times Rounds); a
	// negative Time plays Rounds rounds exactly. A store whose calls are
	// fast, such as one in memory behind a mutex, has a window between
	// deciding and writing as narrow as its calls are fast: the more
	// rounds, the likelier two calls meet in it. The number is set once,
	// on the first rounds' pace, and grows smoothly as the pace quickens:
	// a store just under the threshold plays a few rounds more, not 50
	// times as many.
	Time       time.Duration
	MostRounds int
}

// The round's instants: step s is at s*stepMs, give or take 1 ms, and a
// lease lasts stepMs, so a step's calls meet the leases of the one before
// at their lease_until. Job b's deadline falls inside step 3's window.
const (
	stepMs      = 100
	deadlineB   = 3 * stepMs
	maxAttempts = 3
)

// Concurrent plays rounds of calls made at once by several clients on
// Queues from newQueue (a fresh one a round) and checks each round's
// history for linearizability against the reference model (package
// engine/history). A round enqueues two jobs, a and b (b with a deadline
// and max_attempts), then its clients, each on a goroutine of its own,
// make eight calls each, all of a step starting together: all
// claim a at 0, then each either uses the lease it holds (complete,
// renew, release) or claims (a, b, the next), or reads a job, at instants
// that straddle the leases' ends and b's deadline. A store whose
// operations are not atomic (a claim that decides on a snapshot and
// writes later, a complete that checks in one statement and writes in
// another) lets two such calls both succeed, and no order of the round's
// calls then fits the model.
//
// It returns the result of the first round that is not linearizable (its
// String says which calls), or nil when none is (a round the check could
// not decide in time counts as none). The Queue must be safe for
// concurrent use; it is closed when its round ends, as Run closes one.
// A call that returns an error other than a refusal (a busy database) is
// checked as one that may or may not have taken effect.
func Concurrent(ctx context.Context, newQueue func() (Queue, error), o ConcurrentOptions) (*history.Result, error) {
	o.Rounds = cmpOr(o.Rounds, ConcurrentRounds)
	o.Clients = cmpOr(o.Clients, ConcurrentClients)
	o.MostRounds = max(o.Rounds, cmpOr(o.MostRounds, 50*o.Rounds))
	if o.Time == 0 {
		o.Time = ConcurrentTime
	}
	began := time.Now()
	for r := 0; r < o.MostRounds; r++ {
		if r == o.Rounds {
			if o.MostRounds = min(o.MostRounds, paced(o.Rounds, time.Since(began), o.Time)); r >= o.MostRounds {
				break
			}
		}
		q, err := newQueue()
		if err != nil {
			return nil, err
		}
		h := playRound(ctx, q, o.Clients, o.Seed, uint64(r))
		closeQueue(q)
		res, err := history.Check(h)
		if err != nil {
			return nil, fmt.Errorf("leasetest: the round's history: %w", err)
		}
		if res.Verdict == history.NotLinearizable {
			return res, nil
		}
	}
	return nil, nil
}

// paced is how many rounds fit in d at the pace of n rounds in took (n
// when d is not positive).
func paced(n int, took, d time.Duration) int {
	if d <= 0 {
		return n
	}
	return int(min(int64(n)*int64(d)/int64(max(took, time.Nanosecond)), math.MaxInt32))
}

func cmpOr(n, def int) int {
	if n > 0 {
		return n
	}
	return def
}

// runConcurrent is Run's concurrent round.
func runConcurrent(t *testing.T, newQueue func(t *testing.T) Queue, seed uint64) {
	t.Helper()
	res, err := Concurrent(t.Context(), func() (Queue, error) { return newQueue(t), nil }, ConcurrentOptions{Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	if res != nil {
		t.Error(concurrentFailure(res))
	}
}

// concurrentFailure is Run's report of res, a round no order fits: what
// the Queue must do, how to read the calls, then res.
func concurrentFailure(res *history.Result) string {
	return fmt.Sprintf("calls made at once by %d clients cannot be put in any order the contract allows.\n"+
		"Each call must take effect at one instant between its start and its return: a Queue that reads\n"+
		"a job and writes it later, not under one lock or transaction, lets two calls both succeed.\n"+
		"Each call below has its [invoke, return] in nanoseconds since the round began.\n%s", ConcurrentClients, res)
}

// playRound plays one round on q and returns its history.
func playRound(ctx context.Context, q Queue, clients int, seed, round uint64) history.History {
	rec := history.NewRecorder()
	setup := &client{name: "setup", q: q, rec: rec}
	setup.do(engine.OpEnqueue, history.Args{Job: "a"}, func() history.Answer {
		return history.EnqueueAnswer(q.Enqueue(ctx, engine.NewJob{ID: "a"}))
	})
	setup.do(engine.OpEnqueue, history.Args{Job: "b", Deadline: deadlineB, MaxAttempts: maxAttempts}, func() history.Answer {
		return history.EnqueueAnswer(q.Enqueue(ctx, engine.NewJob{ID: "b", Deadline: deadlineB, MaxAttempts: maxAttempts}))
	})
	cs := make([]*client, clients)
	for i := range cs {
		cs[i] = &client{name: fmt.Sprintf("w%d", i+1), q: q, rec: rec, rng: rand.New(rand.NewPCG(seed, round<<8|uint64(i)))}
	}
	for s := range concurrentSteps {
		var ready, done sync.WaitGroup
		var start atomic.Bool
		for _, c := range cs {
			ready.Add(1)
			done.Go(func() {
				ready.Done()
				spinUntil(&start)
				c.step(ctx, round, s)
			})
		}
		ready.Wait()
		start.Store(true)
		done.Wait()
	}
	return rec.History()
}

// spinUntil returns once start is set, yielding the processor between
// looks. The clients of a step spin rather than block on a channel: a
// closed channel wakes its waiters one at a time, often after the first
// has made its whole call, while spinners running on other processors
// see the flag within nanoseconds of each other and call at once, which
// is what meets the window of a store that decides and writes in two
// steps without a round trip between them.
func spinUntil(start *atomic.Bool) {
	for !start.Load() {
		runtime.Gosched()
	}
}

// client is one worker of a round: its name, its choices and the lease
// it holds (Token 0: none).
type client struct {
	name  string
	q     Queue
	rec   *history.Recorder
	rng   *rand.Rand
	lease engine.Lease
}

// do records one call: invoked, fn's answer, returned.
func (c *client) do(call engine.Op, args history.Args, fn func() history.Answer) history.Answer {
	h := c.rec.Invoke(c.name, call, args)
	a := fn()
	c.rec.Return(h, a)
	return a
}

// step makes the client's call of step s of round. A client that holds
// no lease claims, most often the step's job (every such client of the
// step the same one), or reads; one that holds a lease mostly uses it.
func (c *client) step(ctx context.Context, round uint64, s int) {
	now := max(0, int64(s*stepMs+c.rng.IntN(3)-1))
	jobs := [2]string{"a", "b"}
	focus := jobs[(round+uint64(s))%2]
	switch k := c.rng.IntN(8); {
	case s == 0:
		c.claim(ctx, "a", 0)
	case c.lease.Token == 0 && k < 4:
		c.claim(ctx, focus, now)
	case c.lease.Token == 0 && k < 5:
		c.claim(ctx, jobs[1-(round+uint64(s))%2], now)
	case c.lease.Token == 0 && k < 7:
		c.claimNext(ctx, now)
	case c.lease.Token == 0:
		c.state(ctx, focus)
	case k < 3:
		c.complete(ctx, now)
	case k < 5:
		c.renew(ctx, now)
	case k < 6:
		c.release(ctx)
	case k < 7:
		c.claim(ctx, focus, now)
	default:
		c.state(ctx, c.lease.JobID)
	}
}

// keep keeps a granted lease as the client's.
func (c *client) keep(l engine.Lease, err error) history.Answer {
	if err == nil {
		c.lease = l
	}
	return history.LeaseAnswer(l, err)
}

func (c *client) claim(ctx context.Context, job string, now int64) {
	c.do(engine.OpClaim, history.Args{Job: job, Owner: c.name, Now: now, TTL: stepMs}, func() history.Answer {
		return c.keep(c.q.Claim(ctx, job, c.name, now, stepMs))
	})
}

func (c *client) claimNext(ctx context.Context, now int64) {
	c.do(engine.OpClaimNext, history.Args{Owner: c.name, Now: now, TTL: stepMs}, func() history.Answer {
		return c.keep(c.q.ClaimNext(ctx, c.name, now, stepMs))
	})
}

func (c *client) renew(ctx context.Context, now int64) {
	l := c.lease
	c.do(engine.OpRenew, history.Args{Job: l.JobID, Owner: l.Owner, Token: l.Token, Now: now, TTL: stepMs}, func() history.Answer {
		return c.keep(c.q.Renew(ctx, l, now, stepMs))
	})
}

// complete and release end the client's hold on its lease, whatever they
// answer.
func (c *client) complete(ctx context.Context, now int64) {
	l := c.lease
	c.lease = engine.Lease{}
	c.do(engine.OpComplete, history.Args{Job: l.JobID, Owner: l.Owner, Token: l.Token, Now: now, Result: c.name}, func() history.Answer {
		return history.ErrAnswer(c.q.Complete(ctx, l, now, c.name))
	})
}

func (c *client) release(ctx context.Context) {
	l := c.lease
	c.lease = engine.Lease{}
	c.do(engine.OpRelease, history.Args{Job: l.JobID, Owner: l.Owner, Token: l.Token}, func() history.Answer {
		return history.ErrAnswer(c.q.Release(ctx, l))
	})
}

func (c *client) state(ctx context.Context, job string) {
	c.do(engine.OpState, history.Args{Job: job}, func() history.Answer {
		return history.StateAnswer(c.q.Get(ctx, job))
	})
}

// lockedQueue is a Queue behind a mutex: one call at a time, whatever
// goroutine makes it.
type lockedQueue struct {
	mu sync.Mutex
	q  *modelQueue
}

func (l *lockedQueue) Enqueue(ctx context.Context, j engine.NewJob) (bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.q.Enqueue(ctx, j)
}

func (l *lockedQueue) Get(ctx context.Context, id string) (*engine.Job, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.q.Get(ctx, id)
}

func (l *lockedQueue) Claim(ctx context.Context, id, owner string, now, ttl int64) (engine.Lease, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.q.Claim(ctx, id, owner, now, ttl)
}

func (l *lockedQueue) ClaimNext(ctx context.Context, owner string, now, ttl int64) (engine.Lease, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.q.ClaimNext(ctx, owner, now, ttl)
}

func (l *lockedQueue) Renew(ctx context.Context, lease engine.Lease, now, ttl int64) (engine.Lease, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.q.Renew(ctx, lease, now, ttl)
}

func (l *lockedQueue) Complete(ctx context.Context, lease engine.Lease, now int64, result string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.q.Complete(ctx, lease, now, result)
}

func (l *lockedQueue) Release(ctx context.Context, lease engine.Lease) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.q.Release(ctx, lease)
}

func (l *lockedQueue) Jobs(ctx context.Context) ([]engine.Job, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.q.Jobs(ctx)
}

func (l *lockedQueue) Reopen(ctx context.Context) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.q.Reopen(ctx)
}
