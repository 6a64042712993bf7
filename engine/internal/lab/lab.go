package lab

import "github.com/leaselab/leaselab/engine/limits"

// Lab is one parsed lab: a workload, a policy, the sweep of their
// parameters, and how many seeded runs each point gets.
type Lab struct {
	Name     string // the source name given to Parse
	Title    Title
	Workload Workload
	Policy   Policy
	Sweeps   []Sweep // none, one or two, in the order written
	Runs     int     // seeded runs per point
	Seed     uint64
	Plot     []string // the metrics the plots draw; the first also picks the worst and typical runs
	// Limits are the bounds it was parsed under; Run holds its runs to
	// their lab_ops and lab_calls, which counts the calls of all its runs,
	// each run's database made ready as 50 calls and each enqueue as one.
	Limits limits.Limits
}

// Title is a lab's title in each language it has one in.
type Title struct {
	En string `json:"en"`
	Ko string `json:"ko,omitempty"`
}

// Workload is what the simulated workers meet: the same at every point
// but in the parameters a sweep varies (pause, delay, offset).
type Workload struct {
	Jobs, Workers int
	Work          Dist  // one job's work, drawn once per job: every attempt redoes all of it
	Poll          int64 // ms an idle worker waits between claims that found nothing
	GCEvery       *Dist // ms between a worker's GC pauses; nil: none
	GCPause       *Dist // a pause's length
	CrashEvery    *Dist // ms between a worker's crashes; nil: none
	Restart       *Dist // ms a crashed worker takes to come back
	Drift         *Dist // each worker's clock offset, drawn once a run; nil: none
	Delay         *Dist // each message's flight (renew, write, deliver, complete); nil: none
	Horizon       int64 // ms of virtual time a run may last
}

// Policy is the lease policy a point runs under.
type Policy struct {
	Lease       int64 // the ttl of every claim and renew, ms
	Heartbeat   int64 // ms between renews while working, shorter than Lease; 0: no heartbeat
	Margin      int64 // a worker writes only if its lease has more than Margin ms left on its own clock; -1: it does not look
	MaxAttempts int64 // 0: unlimited
	Deadline    int64 // ms after the start by which a job must be done; 0: none
	Fenced      bool  // the storage refuses a token lower than one it accepted
	Idempotent  bool  // the receiver applies a resend of a job once
}

// Sweep is one parameter, of the policy or of the workload, over its values.
type Sweep struct {
	Param    string
	Values   []int64
	Line     int
	ParamCol int   // the parameter's column
	Cols     []int // each value's column (a range's values: the range's)
}

// sweepable are the parameters a sweep may vary: the policy's, then the
// workload's (see Workload.with).
var sweepable = []string{"lease", "heartbeat", "margin", "max_attempts", "deadline", "pause", "delay", "offset"}

// with is p with param set to v.
func (p Policy) with(param string, v int64) Policy {
	switch param {
	case "lease":
		p.Lease = v
	case "heartbeat":
		p.Heartbeat = v
	case "margin":
		p.Margin = v
	case "max_attempts":
		p.MaxAttempts = v
	case "deadline":
		p.Deadline = v
	}
	return p
}

// with is w with the workload parameter param set to v, ms: pause makes
// every GC pause last v (fixed v; the gc line's time between pauses
// stays); delay makes every message fly v (fixed v), 0 none; offset (or
// drift, its old name) makes each worker's clock offset, drawn once a run,
// uniform from -v to v, 0 none. Any other param leaves w as it is.
func (w Workload) with(param string, v int64) Workload {
	switch param {
	case "pause":
		w.GCPause = &Dist{Kind: "fixed", A: v}
	case "delay":
		w.Delay = nil
		if v > 0 {
			w.Delay = &Dist{Kind: "fixed", A: v}
		}
	case "offset", "drift":
		w.Drift = nil
		if v > 0 {
			w.Drift = &Dist{Kind: "uniform", A: -v, B: v}
		}
	}
	return w
}

// Point is one point of the sweep: its index, the swept values (one per
// sweep) and the policy and the workload they make.
type Point struct {
	Index    int
	Values   []int64
	Policy   Policy
	Workload Workload
}

// Points is every point of the sweep, the last sweep varying fastest; a
// lab without a sweep has one point.
func (l *Lab) Points() []Point {
	pts := []Point{{Policy: l.Policy, Workload: l.Workload}}
	for _, s := range l.Sweeps {
		var next []Point
		for _, p := range pts {
			for _, v := range s.Values {
				next = append(next, Point{Values: append(append([]int64{}, p.Values...), v),
					Policy: p.Policy.with(s.Param, v), Workload: p.Workload.with(s.Param, v)})
			}
		}
		pts = next
	}
	for i := range pts {
		pts[i].Index = i
	}
	return pts
}
