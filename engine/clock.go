package engine

import (
	"fmt"
	"sync"
)

// Clock supplies now, in milliseconds, to the operations that take their own
// time (Dispatch). A real deployment passes WallClock (Unix milliseconds);
// the simulator and the tests a VirtualClock.
type Clock interface{ Now() int64 }

// VirtualClock is a clock that moves only when told to. The zero value reads
// time 0. It is safe for concurrent use. It never moves backwards: Set to an
// earlier time, or Advance by a negative duration, panics, because a clock
// going backwards would let a lease that has ended become valid again.
type VirtualClock struct {
	mu  sync.Mutex
	now int64 // never decreases
}

// Now returns the current virtual time.
func (c *VirtualClock) Now() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Set moves the clock to t; t before the current time panics.
func (c *VirtualClock) Set(t int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t < c.now {
		panic(fmt.Sprintf("engine: VirtualClock.Set(%d) moves the clock backwards from %d", t, c.now))
	}
	c.now = t
}

// Advance moves the clock forward by d; a negative d panics.
func (c *VirtualClock) Advance(d int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if d < 0 {
		panic(fmt.Sprintf("engine: VirtualClock.Advance(%d) moves the clock backwards", d))
	}
	c.now += d
}
