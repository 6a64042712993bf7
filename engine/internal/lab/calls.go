package lab

import "github.com/leaselab/leaselab/engine/limits"

// runCharge is what a run costs besides its calls, in calls: its database
// made ready (emptied, or at a runner's first run opened with the engine's,
// the storage's and the receiver's schemas) and the check of its rows at
// its end take at most about as long as 50 calls
// (BenchmarkLabRunCost beside BenchmarkLabCallCost). lab_calls charges it
// to every run, and one call to each job's enqueue.
const runCharge = 50

// estimateCalls is the engine calls l's runs make, in lab_calls' count,
// all points together, and the most of one run, when each run works each
// job once: runCharge, then an enqueue, a claim, a write, a delivery and
// a complete a job, and a renew every heartbeat of the job's mean work,
// its workers busy at most to the horizon, at each point's policy and
// workload (a swept pause, delay or offset changes none of these: a pause
// stops a worker's heartbeats with its work, and a message in flight
// is one call however long it flies); a run's calls are at most
// lim.LabOps (a run that needs more stops). A livelock makes more (its
// jobs are claimed again and again), which Run counts as they are made.
func (l *Lab) estimateCalls(lim limits.Limits) (total, mostARun int64) {
	for _, pt := range l.Points() {
		wl := &pt.Workload
		busy := min(float64(wl.Jobs)*wl.Work.mean(), float64(min(wl.Jobs, wl.Workers))*float64(wl.Horizon))
		calls := 4 * float64(wl.Jobs)
		if h := pt.Policy.Heartbeat; h > 0 {
			calls += busy / float64(h)
		}
		run := runCharge + int64(wl.Jobs) + int64(min(calls, float64(lim.LabOps)))
		total += int64(l.Runs) * run
		mostARun = max(mostARun, run)
	}
	return total, mostARun
}

// mean is d's mean draw in ms (a lognormal's is its median times
// exp(σ²/2)), by the same arithmetic on every platform.
func (d *Dist) mean() float64 {
	switch d.Kind {
	case "fixed", "exponential":
		return float64(d.A)
	case "uniform":
		return float64(d.A+d.B) / 2
	case "lognormal":
		return float64(d.A) * exp(d.Sigma*d.Sigma/2)
	case "mixture":
		var sum, weights float64
		for _, p := range d.Parts {
			sum += p.Weight * p.Dist.mean()
			weights += p.Weight
		}
		return sum / weights
	}
	return 0
}
