package check

// A lock held on a majority of independent nodes (Redlock) is no row: each
// node keeps its own, judged on its own clock, and a node whose clock jumps
// may end its copy early and grant it again while the first client still
// holds a majority in its own eyes. The rows' invariants cannot see that;
// Acquired and Released tell the checker what each client believes.

// belief is a client's belief that it holds a lock.
type belief struct {
	owner     string
	at, until int64 // true time
}

// overlap is an acquisition made while another client believed it held
// the lock, reported at the next Observe.
type overlap struct {
	lock, owner string
	at          int64
	other       belief
}

// Acquired tells the checker that owner acquired lock on a majority of the
// nodes of a lock service without consensus at the true instant at, and
// believes it holds it until until (true time). Single-lease then reports,
// at the next Observe, an acquisition while another owner believes it
// holds the lock: it has not released it and until has not come.
func (c *Checker) Acquired(lock, owner string, at, until int64) {
	if b, ok := c.beliefs[lock]; ok && b.owner != owner && at < b.until {
		c.overlaps = append(c.overlaps, overlap{lock: lock, owner: owner, at: at, other: b})
	}
	c.beliefs[lock] = belief{owner: owner, at: at, until: until}
}

// Released ends owner's belief that it holds lock (an unlock, or its
// process gone).
func (c *Checker) Released(lock, owner string) {
	if b, ok := c.beliefs[lock]; ok && b.owner == owner {
		delete(c.beliefs, lock)
	}
}

// reportOverlaps adds the overlaps since the last step to st.
func (st *step) reportOverlaps() {
	for _, o := range st.c.overlaps {
		st.fail(SingleLease, o.lock, "lock %s: %s acquired a majority of the nodes at %d while %s, which acquired one at %d, believes it holds the lock until %d",
			o.lock, o.owner, o.at, o.other.owner, o.other.at, o.other.until)
	}
	st.c.overlaps = st.c.overlaps[:0]
}
