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
// Run plays every timeline of leaselab's library on your Queue and a long
// run of random call sequences, each call beside the contract's reference
// model, and after every step compares the answers (the outcome, the
// refusal's reason, the lease granted), every job's row, and the
// invariants of package engine/check. A failure says where (the
// timeline's NAME:LINE, or the shortest random sequence that still fails,
// call by call), the call, the answer wanted and the one given, and both
// tables:
//
//	01-late-courier.tl:12: Complete(order-7 A#1, now=1001, "A"): want refused superseded, got ok
//
// Then Run's concurrent rounds (Concurrent) have four goroutines make
// calls at once on two jobs, at instants around their leases' ends and a
// deadline, and check each round's history for linearizability (package
// engine/history): a store that checks in one statement and writes in
// another passes one call at a time and fails there, with the calls that
// no order can place. So a Queue must be safe for concurrent use.
//
// The checks are functions that return a *Difference (Timeline,
// Sequences) or a *history.Result (Concurrent), for tools that grade
// implementations outside go test; Run and RunTimelines only report them.
// RunTimelines runs a folder of your own .tl files, as subtests that fail
// at their file and line.
//
// Time is the caller's: every call carries its instant in milliseconds,
// so the suite never sleeps and a failure one call at a time replays
// identically (a concurrent round's interleaving is the scheduler's).
package leasetest
