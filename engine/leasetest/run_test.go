package leasetest_test

import (
	"sync/atomic"
	"testing"

	"github.com/leaselab/leaselab/engine/leasetest"
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
