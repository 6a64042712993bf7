// Package leasetest checks that an implementation of the lease contract
// keeps it: the conformance suite, in the manner of testing/fstest, for
// your own queue, store or service client.
//
// Implement Queue over your code (a *engine.Store already is one) and call
// Run from a test:
//
//	func TestMyQueue(t *testing.T) {
//		leasetest.Run(t, func(t *testing.T) leasetest.Queue {
//			return myqueue.New(t) // empty, cleaned up with t
//		})
//	}
//
// Run plays every timeline of leaselab's library on your Queue, each a
// subtest timeline/NAME on a Queue of its own, then random call sequences
// (subtest sequences: 300 from Seed, 30 under go test -short; RunWith
// takes another seed and count), each call beside the contract's reference
// model, and after every step compares the answers (the outcome, the
// refusal's reason, the lease granted), every job's row, and the
// invariants of package engine/check. A Queue is closed when its timeline
// or sequence ends if it is an io.Closer (or has a Close with no result);
// a timeline's reopen steps, on a Queue that is no Reopener, are logged as
// not played.
//
// A failure is reported at the line of your test that called Run. It says
// where (the timeline's NAME:LINE, or the Seed value and the shortest random
// sequence that still fails, call by call), the call, the answer wanted
// and the one given, or the jobs and fields whose rows differ (the
// reference's value first), and both tables:
//
//	01-late-courier.tl:12: Complete(order-7 A#1, now=1001, "A"): want refused superseded, got ok
//	seed 41: call 3: Complete(a A#1, now=2501, "r"): the rows differ (want vs got): job a: result "r" vs "R"
//
// Then Run's concurrent rounds (Concurrent: at least 20, more for a store
// fast enough: as many as fit in a second at its pace) have four goroutines make
// calls at once on two jobs, at instants around their leases' ends and a
// deadline, and check each round's history for linearizability (package
// engine/history): a store that checks in one statement and writes in
// another passes one call at a time and fails there. So a Queue must be
// safe for concurrent use, each call taking effect at one instant between
// its start and its return. A failure shows the smallest failing part of
// the round, call by call: its client, its [invoke, return] in
// nanoseconds since the round began, the call and its answer, ! on the
// call no order can place and * on the calls overlapping it; then the
// model's rows after the longest order of them it accepts. Two claims
// that read the same free row and both wrote read:
//
//	    call 1  setup  [1613, 4268]      enqueue a                    → ok created=true
//	*   call 3  w4     [22993, 234320]   claim a by w4 now=0 ttl=100  → ok a token=1 lease_until=100
//	!   call 4  w1     [213861, 235712]  claim a by w1 now=0 ttl=100  → ok a token=1 lease_until=100
//
// The checks are functions that return a *Difference (Timeline,
// Sequences) or a *history.Result (Concurrent), for tools that grade
// implementations outside go test; Run only reports them.
//
// The package checks against the model and links no SQLite, so a test of
// your Queue builds none. What runs leaselab's own engine is package
// enginetest's: Engine, the engine as a Queue, and RunTimelines, a folder
// of your own .tl files as subtests that first hold each expectation on the
// engine and fail at their file and line (this package's functions of
// those names work only in a program that links enginetest).
//
// Time is the caller's: every call carries its instant in milliseconds,
// so the suite never sleeps and a failure one call at a time replays
// identically (a concurrent round's interleaving is the scheduler's).
package leasetest
