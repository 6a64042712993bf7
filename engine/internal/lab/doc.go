// Package lab is the lease lab: how long a lease, how often a heartbeat,
// measured on the engine. A lab is a small line-based text (.lab) naming
// a workload, a lease policy and a sweep of one or two of their
// parameters; Run plays every point of the sweep many times, each run a
// discrete-event simulation of workers on the virtual clock calling the
// real engine (engine.Store, its Storage and Receiver on an in-memory
// SQLite database whose tables are empty as the run starts), and reports per point each measure (Metrics) as a
// mean with its 95% confidence interval, beside the runs' p50, p95 and
// max (nearest-rank, see Percentiles). Story replays one run as a
// timeline (package engine/timeline) that the player and leaselab check
// play, step for step the same on the engine.
//
//	# How long should a lease be?           the first comment is the title
//	title ko "임대는 얼마나 길어야 할까?"
//	jobs 20                                 jobs a run, enqueued at its start (default 20)
//	workers 4                               simulated workers, A, B, C, ... (default 3)
//	work lognormal 500ms 0.5                one job's work, drawn once a job (default fixed 1s)
//	gc every exponential 2s pause uniform 10ms 3s   GC pauses: the time between, the length (or gc off)
//	crash every exponential 8s restart fixed 1s     crashes: the time between, the restart (or crash off)
//	offset uniform -50ms 50ms               each worker's clock offset, drawn once a run (or off);
//	                                        drift, its old name, reads the same (a timeline's
//	                                        drift is a rate, ms per second: one word, one meaning)
//	delay uniform 1ms 10ms                  each message's flight (or off)
//	poll 100ms                              an idle worker's wait between claims (default 100ms)
//	horizon 30s                             the longest run, in virtual time (default 1m)
//
//	lease 2s                                the ttl of every claim and renew (default 1s)
//	heartbeat 500ms                         renew while working, this often (default off);
//	                                        shorter than the lease, at every point
//	margin 200ms                            write only with more than this left on the lease,
//	                                        by the worker's own clock (default off: never look)
//	max_attempts 5                          a job's claim budget (default 0, unlimited)
//	deadline 1m                             after the start (default off)
//	storage fenced                          fenced (default) or unfenced
//	receiver idempotent                     idempotent (default) or not-idempotent
//
//	sweep lease 1s 2s 4s 8s                 a list, rising, or FROM..TO step STEP; at most two
//	sweep margin off 0ms 300ms              sweep lines (lease, heartbeat, margin, max_attempts,
//	                                        deadline, pause, delay, drift): the second makes a grid
//	runs 50                                 seeded runs a point (default 20)
//	seed 39                                 (default 1; leaselab lab -seed overrides it)
//	plot dup_ms stall_ms                    the measures drawn (default dup_ms); the first
//	                                        also picks each point's worst and typical run
//
// Durations are whole ms written 250ms, 1.5s or 2m. The distributions are
// Dist's. Each worker draws its own pauses and crashes, in true time (the
// virtual clock, not the worker's offset one). The time between GC pauses
// counts from the run's start to a worker's first pause, then from the end
// of each pause to the next (a pause is not part of it), and after a crash
// from the worker's restart (the pause drawn before the crash is
// forgotten); the time between crashes counts from the start and from each
// restart, and a crash that falls in a pause happens as the pause ends. A
// time between or a pause drawn under 1ms is 1ms.
//
// A sweep of the workload replaces one of its lines' distributions at
// each point, every other line the same: sweep pause 100ms 500ms 2s makes
// every GC pause last exactly the value (fixed V; the gc line's time
// between pauses stays), and needs GC pauses: with no gc line, or gc
// off, it is an error at the sweep saying to add gc every DIST pause
// DIST. sweep delay off 1ms 10ms makes every message fly exactly the
// value (fixed V; off, 0, none), with or without a delay line. sweep
// offset off 50ms 200ms keeps offset's one meaning, each worker's clock
// offset drawn once a run, and draws it uniform from -V to V (off, 0,
// none): the value is how far apart the clocks may be, and, the draw
// being the same at every point, each worker's offset grows with it
// (sweep drift, the old name, is the same sweep). A pause is at least
// 1ms; a delay or offset of 0ms is written off.
//
// Each line appears once; a mistake is an error at its line and
// column saying what to write (an ErrorList, errors.Is(err,
// ErrBadInput)). A heartbeat not shorter than its lease, which no renew
// could keep, is one, at the value that makes it so. The bounds of
// package engine/limits (text_bytes, jobs, workers, lab_points, lab_runs,
// lab_work, max_time) are checked at their lines too, and lab_calls, the
// time a lab takes, at the last line its estimate reads: a run is
// charged 50 calls for its database made ready, then an enqueue, a claim, a
// write, a delivery and a complete a job, and a renew every heartbeat of
// the job's mean work, its workers busy at most to the horizon. A run that
// would call the engine more than lab_ops times, or at an instant past
// max_time on a worker's clock (a drift or a delay can carry it there),
// and runs whose calls, counted as they are made, pass lab_calls (a
// livelock claims its jobs again and again), stop Run with an
// *limits.ExceededError.
//
// A run is deterministic: every draw comes from a splitmix64 stream named
// by the lab's seed, the run's index, what it draws and whose it is, so run r
// meets the same workload at every point, and the same text and seed give
// byte-identical JSON (Result.Encode) on every platform and however many
// runs go at once. What the simulated workers do is run.go's comment;
// the JSON, CSV, table and SVG forms are Result's, WriteCSV's, WriteTable's
// and WriteSVG's. The JSON and the CSV write a swept value as a number, ms
// (attempts for max_attempts), as Policy holds it: heartbeat off and
// deadline off are 0, margin off is -1 (margin 0ms is 0), max_attempts 0
// is unlimited; delay off and offset off are 0, an offset V the spread
// -V..V; the table and the plot write off.
package lab
