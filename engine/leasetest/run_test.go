package leasetest_test

import (
	"context"
	"flag"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/leasetest"
	"github.com/leaselab/leaselab/engine/timeline"
)

// tally counts the queues open at once and the most ever open.
type tally struct{ open, most atomic.Int64 }

func (c *tally) opened() {
	n := c.open.Add(1)
	for m := c.most.Load(); n > m && !c.most.CompareAndSwap(m, n); m = c.most.Load() {
	}
}

// errCloser is a queue with io.Closer's Close.
type errCloser struct {
	leasetest.Queue
	c *tally
}

func (q errCloser) Close() error { q.c.open.Add(-1); return nil }

// plainCloser is a queue with a Close that returns nothing, as a
// connection pool's often is.
type plainCloser struct {
	leasetest.Queue
	c *tally
}

func (q plainCloser) Close() { q.c.open.Add(-1) }

// Run closes each queue when its timeline or its random sequence ends, so
// a queue over a server's connections never holds more than one at once.
func TestRun_ClosesEachQueueWhenItsTimelineOrSequenceEnds(t *testing.T) {
	for name, wrap := range map[string]func(leasetest.Queue, *tally) leasetest.Queue{
		"io.Closer":           func(q leasetest.Queue, c *tally) leasetest.Queue { return errCloser{q, c} },
		"Close without error": func(q leasetest.Queue, c *tally) leasetest.Queue { return plainCloser{q, c} },
	} {
		t.Run(name, func(t *testing.T) {
			var c tally
			made := 0
			leasetest.Run(t, func(*testing.T) leasetest.Queue {
				made++
				c.opened()
				return wrap(leasetest.Model(), &c)
			})
			if made < 100 || c.open.Load() != 0 || c.most.Load() != 1 {
				t.Errorf("%d queues made, %d left open, at most %d open at once; want none left and 1 at once", made, c.open.Load(), c.most.Load())
			}
		})
	}
}

// recorder notes the instants of the claims made on it, in order.
type recorder struct {
	leasetest.Queue
	calls *[]int64
}

func (q recorder) ClaimNext(ctx context.Context, owner string, now, ttl int64) (engine.Lease, error) {
	*q.calls = append(*q.calls, now)
	return q.Queue.ClaimNext(ctx, owner, now, ttl)
}

func (q recorder) Claim(ctx context.Context, id, owner string, now, ttl int64) (engine.Lease, error) {
	*q.calls = append(*q.calls, now)
	return q.Queue.Claim(ctx, id, owner, now, ttl)
}

// runCounting runs run and returns how many queues it made outside its
// concurrent round and the instants of the claims of its random
// sequences; it fails t unless the concurrent round made between
// ConcurrentRounds and ConcurrentMostRounds queues, one a round.
func runCounting(t *testing.T, run func(*testing.T, func(*testing.T) leasetest.Queue)) (int, []int64) {
	t.Helper()
	made, rounds := 0, 0
	var calls []int64
	defer func() {
		if rounds < leasetest.ConcurrentRounds || rounds > leasetest.ConcurrentMostRounds {
			t.Errorf("the concurrent round made %d queues; want %d to %d, one a round", rounds, leasetest.ConcurrentRounds, leasetest.ConcurrentMostRounds)
		}
	}()
	ok := t.Run("run", func(t *testing.T) {
		run(t, func(t *testing.T) leasetest.Queue {
			if strings.HasSuffix(t.Name(), "/concurrent") {
				rounds++
				return leasetest.Model()
			}
			made++
			if strings.HasSuffix(t.Name(), "/sequences") {
				return recorder{leasetest.Model(), &calls}
			}
			return leasetest.Model()
		})
	})
	if !ok {
		t.Fatal("the model failed the suite")
	}
	return made, calls
}

// RunWith runs as many random sequences as it is told, from the Seed value it is
// told (0: Run's); Run runs 300, and a tenth of them under go test -short.
func TestRunWith_RunsTheSequencesAndTheSeedGiven(t *testing.T) {
	timelines := len(timeline.LibraryNames())
	with := func(o leasetest.Options) func(*testing.T, func(*testing.T) leasetest.Queue) {
		return func(t *testing.T, newQueue func(*testing.T) leasetest.Queue) { leasetest.RunWith(t, newQueue, o) }
	}
	sequences := 300
	if testing.Short() {
		sequences = 30 // a tenth under -short
	}
	runMade, runCalls := runCounting(t, leasetest.Run)
	zeroMade, zeroCalls := runCounting(t, with(leasetest.Options{}))
	seedMade, seedCalls := runCounting(t, with(leasetest.Options{Seed: leasetest.Seed}))
	if runMade != timelines+sequences || zeroMade != runMade || seedMade != runMade {
		t.Errorf("Run made %d queues, RunWith with no options %d, with Run's seed %d; want %d", runMade, zeroMade, seedMade, timelines+sequences)
	}
	if !slices.Equal(runCalls, zeroCalls) || !slices.Equal(runCalls, seedCalls) || len(runCalls) == 0 {
		t.Errorf("Run's sequences and RunWith's from the same seed differ")
	}
	for _, n := range []int{1, 7} {
		if made, _ := runCounting(t, with(leasetest.Options{Sequences: n})); made != timelines+n {
			t.Errorf("RunWith(Sequences: %d) made %d queues, want %d", n, made, timelines+n)
		}
	}
	_, other := runCounting(t, with(leasetest.Options{Seed: 7}))
	_, again := runCounting(t, with(leasetest.Options{Seed: 7}))
	if slices.Equal(other, runCalls) || !slices.Equal(other, again) {
		t.Errorf("seed 7's sequences are Run's, or differ from one run to the next")
	}
	short(t)
	if made, _ := runCounting(t, leasetest.Run); made != timelines+30 {
		t.Errorf("Run under -short made %d queues, want %d", made, timelines+30)
	}
	if made, _ := runCounting(t, with(leasetest.Options{Sequences: 7})); made != timelines+7 {
		t.Errorf("RunWith(Sequences: 7) under -short made %d queues, want 7 sequences still", made)
	}
}

// short sets go test's -short flag until t ends.
func short(t *testing.T) {
	t.Helper()
	was := flag.Lookup("test.short").Value.String()
	if err := flag.Set("test.short", "true"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { flag.Set("test.short", was) })
	if !testing.Short() {
		t.Fatal("-short did not take")
	}
}
