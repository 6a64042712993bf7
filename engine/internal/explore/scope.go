package explore

import (
	"fmt"

	"github.com/leaselab/leaselab/engine/limits"
)

// Scope bounds a search: who acts, on which jobs, for how many steps, and
// how long a lease lasts. Every schedule within it is searched.
type Scope struct {
	// Workers is how many workers act (named A, B, C, ...); they are
	// interchangeable, so histories that differ only by their names are
	// searched once.
	Workers int
	// Jobs are the jobs: those not Later are declared before the first
	// step; a Later job exists only once a step enqueues it.
	Jobs []Job
	// Steps is the longest history searched.
	Steps int
	// TTL is the lease of every claim and renew (ms).
	TTL int64
	// MaxStates bounds the states visited, the state before the first
	// step among them; a search that would visit one more stops there and
	// says so (Found.Bound), whatever the depth.
	MaxStates int
	// NextOnly searches the histories of a queue that claims only the next
	// job: a worker claims the next job, completes a job or reads its
	// state; jobs are enqueued and the store reopened; no claim by id,
	// renew, release, delivery, storage write, crash or race.
	NextOnly bool
	// NoReasons: a refusal's reason is not seen, as by a queue whose calls
	// answer only true or false; a step on which two engines both refuse,
	// for different reasons, does not tell them apart.
	NoReasons bool
}

// Job is one job of a scope.
type Job struct {
	ID                    string
	Qty                   int64
	Deadline, MaxAttempts int64 // 0: none, unlimited
	Later                 bool  // enqueued by a step, not declared
}

// DefaultScope is small and enough to tell every mutant from the correct
// engine: three workers; a job with an attempts budget and a deadline;
// another enqueued later; eight steps; leases of 1000 ms.
func DefaultScope() Scope {
	return Scope{
		Workers: 3,
		Jobs: []Job{
			{ID: "a", Qty: 1, Deadline: 1500, MaxAttempts: 2},
			{ID: "b", Qty: 1, Later: true},
		},
		Steps:     8,
		TTL:       1000,
		MaxStates: 2_000_000,
	}
}

// workerNames name the workers in order.
var workerNames = []string{"A", "B", "C", "D", "E", "F"}

// check refuses a scope the explorer cannot search.
func (s Scope) check() error {
	switch {
	case s.Workers < 1 || s.Workers > len(workerNames):
		return fmt.Errorf("explore: %d workers: a scope has 1 to %d", s.Workers, len(workerNames))
	case len(s.Jobs) < 1 || len(s.Jobs) > 3:
		return fmt.Errorf("explore: %d jobs: a scope has 1 to 3", len(s.Jobs))
	case s.Steps < 1 || s.Steps > 12:
		return fmt.Errorf("explore: %d steps: a scope has 1 to 12", s.Steps)
	case s.TTL <= 0 || s.TTL > maxInstant:
		return fmt.Errorf("explore: ttl %d ms: more than 0, at most %d", s.TTL, maxInstant)
	case s.MaxStates < 1:
		return fmt.Errorf("explore: MaxStates %d: at least 1", s.MaxStates)
	}
	seen := map[string]bool{}
	for _, j := range s.Jobs {
		switch {
		case j.ID == "" || seen[j.ID]:
			return fmt.Errorf("explore: job %q: each job has an id of its own", j.ID)
		case j.Qty < 0:
			return fmt.Errorf("explore: job %s: qty %d: 0 or more", j.ID, j.Qty)
		case j.Deadline < 0 || j.Deadline > maxInstant:
			return fmt.Errorf("explore: job %s: deadline %d ms: 0 (none) to %d", j.ID, j.Deadline, maxInstant)
		case j.MaxAttempts < 0:
			return fmt.Errorf("explore: job %s: max_attempts %d: 0 (unlimited) or more", j.ID, j.MaxAttempts)
		}
		seen[j.ID] = true
	}
	return nil
}

// maxInstant bounds a scope's lease and its jobs' deadlines: a quarter of
// a timeline's max_time, so that every instant a search steps to stays
// within it.
const maxInstant = limits.DefaultMaxTime / 4
