package leasetest_test

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/history"
	"github.com/leaselab/leaselab/engine/internal/testkit/nativeonly"
	"github.com/leaselab/leaselab/engine/leasetest"
	"github.com/leaselab/leaselab/engine/limits"
	"github.com/leaselab/leaselab/engine/model"
	"github.com/leaselab/leaselab/engine/sqlitedb"
)

// snapshotStore is a queue in memory behind a mutex, one model a job.
// With racyClaim its claim decides on a copy of the job taken under the
// lock and writes the copy back under the lock again later: between the
// two, another claim can decide on the same copy. With racyComplete its
// complete does the same. With yield it lets other goroutines run between
// deciding and writing, as a round trip to a database would. One call at
// a time, it answers as the model does.
type snapshotStore struct {
	mu                      sync.Mutex
	jobs                    map[string]*model.Model
	order                   []string
	racyClaim, racyComplete bool
	yield                   bool
}

func newSnapshotStore(racyClaim, racyComplete, yield bool) *snapshotStore {
	return &snapshotStore{jobs: map[string]*model.Model{}, racyClaim: racyClaim, racyComplete: racyComplete, yield: yield}
}

// of is job id's model, or an empty one (which refuses as not found or
// invalid) for a job that is not there. s.mu is held.
func (s *snapshotStore) of(id string) *model.Model {
	if m := s.jobs[id]; m != nil {
		return m
	}
	return model.New()
}

func (s *snapshotStore) Enqueue(_ context.Context, j engine.NewJob) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, found := s.jobs[j.ID]
	if !found {
		m = model.New()
	}
	ok, err := m.Enqueue(j)
	if ok && !found {
		s.jobs[j.ID], s.order = m, append(s.order, j.ID)
	}
	return ok, err
}

func (s *snapshotStore) Get(_ context.Context, id string) (*engine.Job, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.of(id).Get(id)
}

// snapshot runs op on a copy of job id's model and, when keep says so of
// its error, writes the copy back.
func (s *snapshotStore) snapshot(id string, op func(m *model.Model) error, keep func(error) bool) {
	s.mu.Lock()
	snap := s.of(id).Clone()
	s.mu.Unlock()
	err := op(snap)
	if s.yield {
		runtime.Gosched()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, found := s.jobs[id]; found && keep(err) {
		s.jobs[id] = snap
	}
}

func (s *snapshotStore) Claim(_ context.Context, id, owner string, now, ttl int64) (l engine.Lease, err error) {
	if !s.racyClaim {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.of(id).Claim(id, owner, now, ttl)
	}
	s.snapshot(id, func(m *model.Model) error {
		l, err = m.Claim(id, owner, now, ttl)
		return err
	}, func(err error) bool { return err == nil || errors.Is(err, engine.ErrQuarantined) })
	return l, err
}

func (s *snapshotStore) ClaimNext(_ context.Context, owner string, now, ttl int64) (engine.Lease, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := model.New().ClaimNext(owner, now, ttl); !errors.Is(err, engine.ErrEmpty) {
		return engine.Lease{}, err
	}
	for _, id := range s.order {
		if l, err := s.jobs[id].ClaimNext(owner, now, ttl); err == nil {
			return l, nil
		}
	}
	return engine.Lease{}, engine.ErrEmpty
}

func (s *snapshotStore) Renew(_ context.Context, l engine.Lease, now, ttl int64) (engine.Lease, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.of(l.JobID).Renew(l, now, ttl)
}

func (s *snapshotStore) Complete(_ context.Context, l engine.Lease, now int64, result string) (err error) {
	if s.racyComplete {
		s.snapshot(l.JobID, func(m *model.Model) error {
			err = m.Complete(l, now, result)
			return err
		}, func(err error) bool { return err == nil })
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.of(l.JobID).Complete(l, now, result)
}

func (s *snapshotStore) Release(_ context.Context, l engine.Lease) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.of(l.JobID).Release(l)
}

func (s *snapshotStore) Jobs(context.Context) ([]engine.Job, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []engine.Job
	for _, id := range s.order {
		out = append(out, s.jobs[id].Jobs()...)
	}
	return out, nil
}

// snapshotClaim is leaselab's engine whose claim reads the row in one
// statement, decides by the contract's rules, and writes the claim in
// another, outside any transaction: two claims can read the same free row.
// A claim it would refuse, or with arguments out of their domain, is the
// engine's own.
type snapshotClaim struct {
	*engine.Store
	db    *sql.DB
	yield bool
}

func (q *snapshotClaim) Claim(ctx context.Context, id, owner string, now, ttl int64) (engine.Lease, error) {
	j, err := q.Get(ctx, id)
	if err != nil || j == nil || !claimable(j, now) || !validClaim(id, owner, now, ttl) {
		return q.Store.Claim(ctx, id, owner, now, ttl)
	}
	if q.yield {
		runtime.Gosched()
	}
	l := engine.Lease{JobID: id, Owner: owner, Qty: j.Qty, Token: j.Token + 1, Attempt: j.Attempts + 1, LeaseUntil: now + ttl}
	if j.Deadline > 0 {
		l.LeaseUntil = min(l.LeaseUntil, j.Deadline)
	}
	_, err = q.db.ExecContext(ctx, `UPDATE jobs SET owner = ?, token = ?, attempts = ?, lease_until = ?, status = 'leased' WHERE id = ?`,
		owner, l.Token, l.Attempt, l.LeaseUntil, id)
	if err != nil {
		return engine.Lease{}, err
	}
	return l, nil
}

// claimable: j can be taken at now, by the contract's rules.
func claimable(j *engine.Job, now int64) bool {
	return j.Status != engine.StatusDone && j.Status != engine.StatusQuarantined &&
		(j.Owner == "" || j.LeaseUntil <= now) &&
		(j.MaxAttempts == 0 || j.Attempts < j.MaxAttempts) && (j.Deadline == 0 || now < j.Deadline)
}

// validClaim: the engine would not refuse these arguments as invalid.
func validClaim(id, owner string, now, ttl int64) bool {
	_, err := model.New().Claim(id, owner, now, ttl)
	return !errors.Is(err, engine.ErrInvalid) && len(id) <= limits.Default.NameBytes && len(owner) <= limits.Default.NameBytes
}

// fileEngine is leaselab's engine on a fresh SQLite file (a rollback
// journal, as sqlitedb.Open opens one), closed and removed when t ends.
// The file is in memory (/dev/shm) where the system has that: SQLite
// locks it as any file, and its syncs cost nothing.
func fileEngine(t testing.TB) (*engine.Store, *sql.DB) {
	t.Helper()
	dir, err := os.MkdirTemp(shm(), "leasetest-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	db, err := sqlitedb.Open(filepath.Join(dir, "jobs.db"))
	return storeOn(t, db, err)
}

var memSeq atomic.Int64

// memEngine is leaselab's engine on a fresh in-memory database, closed
// when tb ends.
func memEngine(tb testing.TB) *engine.Store {
	tb.Helper()
	db, err := sqlitedb.Memory("leasetest-concurrent-" + strconv.FormatInt(memSeq.Add(1), 10))
	s, _ := storeOn(tb, db, err)
	return s
}

// storeOn is a store on db, which an opener returned with err, closed
// when tb ends.
func storeOn(tb testing.TB, db *sql.DB, err error) (*engine.Store, *sql.DB) {
	tb.Helper()
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	s, err := engine.New(context.Background(), db)
	if err != nil {
		tb.Fatal(err)
	}
	return s, db
}

// shm is /dev/shm where it is a folder, else the system's temporary
// folder.
func shm() string {
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		return "/dev/shm"
	}
	return ""
}

// failures runs Concurrent as Run runs it, runs times, on queues from
// newQueue, and returns how many runs found a round that is not
// linearizable, and the first such result.
func failures(t *testing.T, runs int, newQueue func() (leasetest.Queue, error)) (int, *history.Result) {
	t.Helper()
	n := 0
	var first *history.Result
	for range runs {
		res, err := leasetest.Concurrent(t.Context(), newQueue, leasetest.ConcurrentOptions{Seed: leasetest.Seed})
		if err != nil {
			t.Fatal(err)
		}
		if res != nil && first == nil {
			first = res
		}
		if res != nil {
			n++
		}
	}
	return n, first
}

// A claim that decides on a snapshot and writes later passes every check
// that makes one call at a time, and fails Run's concurrent round in at
// least 19 of 20 runs: in memory behind a mutex, yielding between deciding
// and writing as a round trip to a database does, and on the engine's
// SQLite file, with or without the yield. Without it, in memory, the
// window between the two is a few hundred nanoseconds, and the runs meet
// it in the many more rounds that so fast a store plays in
// ConcurrentTime: in 20 of 20 on a quiet machine, but in 17 or 18 when the
// race detector and other packages' tests share two cores, so that case
// holds at least 15 (engine/DECISIONS.md).
func TestConcurrent_ANonAtomicClaimFailsNineteenOfTwentyRuns(t *testing.T) {
	nativeonly.Test(t, "a file database")
	for _, tc := range []struct {
		name     string
		newQueue func(t *testing.T) leasetest.Queue
		atLeast  int
	}{
		{"mutex-map/yield", func(*testing.T) leasetest.Queue { return newSnapshotStore(true, false, true) }, 19},
		{"mutex-map", func(*testing.T) leasetest.Queue { return newSnapshotStore(true, false, false) }, 15},
		{"sqlite-file/yield", func(t *testing.T) leasetest.Queue { s, db := fileEngine(t); return &snapshotClaim{s, db, true} }, 19},
		{"sqlite-file", func(t *testing.T) leasetest.Queue { s, db := fileEngine(t); return &snapshotClaim{s, db, false} }, 19},
	} {
		t.Run(tc.name, func(t *testing.T) {
			newQueue := func() (leasetest.Queue, error) { return tc.newQueue(t), nil }
			d, err := leasetest.Sequences(t.Context(), newQueue, leasetest.SequenceOptions{Seed: leasetest.Seed, Sequences: 10})
			if err != nil || d != nil {
				t.Fatalf("one call at a time, the store differs from the contract: %v %v", d, err)
			}
			const runs = 20
			n, res := failures(t, runs, newQueue)
			if n < tc.atLeast {
				t.Errorf("failed %d of %d runs, want at least %d", n, runs, tc.atLeast)
			}
			if res != nil && !strings.Contains(res.String(), "not linearizable") {
				t.Errorf("the failure does not say so:\n%s", res)
			}
			t.Logf("failed %d of %d runs; the first:\n%s", n, runs, res)
		})
	}
}

// A complete that checks its lease on a copy and writes it back later is
// caught too, when an old holder's complete and a new claim at lease_until
// overlap and both succeed: in at least 19 of 20 runs.
func TestConcurrent_ACheckThenActCompleteFails(t *testing.T) {
	n, res := failures(t, 20, func() (leasetest.Queue, error) { return newSnapshotStore(false, true, true), nil })
	if n < 19 {
		t.Errorf("failed %d of 20 runs, want at least 19", n)
	}
	t.Logf("failed %d of 20 runs; the first:\n%s", n, res)
}

// The engine (in memory and on a SQLite file) and the model fail no run
// of the concurrent round: 100 runs of at least ConcurrentRounds rounds each take
// a minute and more, so they run only with LEASELAB_LONG=1 (every go test
// runs one, through Run, on the model and the engine in memory and on a
// WAL file).
func TestConcurrent_CorrectStoresFailNoRunOfAHundred(t *testing.T) {
	if os.Getenv("LEASELAB_LONG") == "" {
		t.Skip("100 runs of the concurrent round on each store take a minute and more: LEASELAB_LONG=1 runs them")
	}
	nativeonly.Test(t, "a file database")
	for _, tc := range []struct {
		name     string
		newQueue func(t *testing.T) leasetest.Queue
	}{
		{"model", func(*testing.T) leasetest.Queue { return leasetest.Model() }},
		{"engine-memory", leasetest.Engine},
		{"engine-sqlite-file", func(t *testing.T) leasetest.Queue { s, _ := fileEngine(t); return s }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const runs = 100
			if n, res := failures(t, runs, func() (leasetest.Queue, error) { return tc.newQueue(t), nil }); n != 0 {
				t.Errorf("failed %d of %d runs; the first:\n%s", n, runs, res)
			}
		})
	}
}

// The concurrent round's work on leaselab's engine in memory: what it
// adds to Run.
func BenchmarkConcurrent(b *testing.B) {
	for b.Loop() {
		res, err := leasetest.Concurrent(b.Context(), func() (leasetest.Queue, error) { return memEngine(b), nil },
			leasetest.ConcurrentOptions{Seed: leasetest.Seed})
		if err != nil || res != nil {
			b.Fatal(err, res)
		}
	}
}
