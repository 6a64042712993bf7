// Package engine is a job queue with time-bounded leases and fencing tokens
// on SQLite, reached only through database/sql (it links no driver; package
// engine/sqlitedb opens SQLite).
//
// A worker claims a job and gets a Lease: the job, the worker's name, a token
// and the instant the lease ends. The token is the claim's generation: every
// claim increments it by exactly one and nothing ever lowers it, so a worker
// that stalls past its lease and comes back alive presents an old token, and
// its renew or complete is refused as superseded — it can never change the
// record of the worker that claimed the job after it. A worker name alone
// cannot do this: a restarted worker has the same name as its earlier run.
//
//	db, _ := sqlitedb.Open("jobs.db")   // or sqlitedb.Memory("name"): shared in-memory
//	store, _ := engine.New(ctx, db)      // creates the schema if missing, never resets a row
//	store.Enqueue(ctx, engine.NewJob{ID: "order-7", Qty: 2})
//	a, _ := store.Claim(ctx, "order-7", "A", 0, 1000)    // A#1, lease_until 1000
//	b, _ := store.Claim(ctx, "order-7", "B", 1000, 1000) // at 1000 A's lease has ended: B#2
//	err := store.Complete(ctx, a, 1001, "late")          // A comes back alive
//	// complete refused (superseded): presented A#1, current B#2 until 2000, now 1001
//	store.Complete(ctx, b, 1200, "ok")                   // nil: B's record is B's
//
// The operations, the names traces and timelines give them (Op), and when
// each succeeds:
//
//	New(ctx, db, opts...)                   (reopen)      always; idempotent
//	Enqueue(ctx, NewJob)                    enqueue       the id is new (else false, nothing changed)
//	Get(ctx, id)                            state         nil, nil for no such job (not ErrNotFound)
//	Claim(ctx, id, owner, now, ttl)         claim         exists, not done or quarantined, unowned or
//	                                                      lease_until <= now, budget left
//	ClaimNext(ctx, owner, now, ttl)         claim-next    as Claim, for the oldest claimable job (ErrEmpty)
//	Renew(ctx, lease, now, ttl)             renew         owner and token match, not done or quarantined,
//	                                                      now < lease_until, now < deadline
//	Complete(ctx, lease, now, result)       complete      as Renew; the job is done with its result
//	Release(ctx, lease)                     release       owner and token match, not done or quarantined
//	ClaimMany, ClaimManyOutcomes            claim_many    one goroutine and connection per owner; at most one wins
//	Dispatch(ctx, owner, clock, ttl, send)  send          ClaimNext, commit, send outside any transaction, Complete
//	NewReceiver, Deliver, Total             the receiver  a business id's quantity is applied once
//	NewStorage, Write, Read                 the storage   fenced at the point of effect: a token below
//	                                                      the highest accepted for a key is refused
//
// Time is an int64 count of milliseconds that the caller passes; the engine
// never reads a clock. A service holding time.Time and time.Duration calls
// ClaimFor, ClaimNextFor, RenewFor and CompleteAt, and passes WallClock to
// Dispatch; a test passes a VirtualClock, or runs the service's real-time
// workers unchanged under testing/synctest, where time.Now and time.Sleep
// are virtual and a lease of seconds ends in no real time (the package's
// test TestService_StalledWorkerIsReclaimedInVirtualTime is the pattern).
// A now that is plainly Unix seconds (between SecondsFrom and SecondsTo),
// microseconds (from MicrosFrom) or nanoseconds (from NanosFrom), or a ttl
// over MaxTTL (a time.Duration passed as an int64 is nanoseconds:
// int64(time.Second) is over it) is ErrInvalid, naming the unit it looks
// like. The boundaries are exact and half-open:
//
//   - a lease is valid iff now < lease_until; at now == lease_until it has
//     ended, and a claim may take the job at that very instant;
//   - a deadline is still ahead iff now < deadline; a lease never outlives
//     it (lease_until = min(now+ttl, deadline), on claim and on renew);
//   - a job whose attempts are used up (max_attempts > 0 and attempts >=
//     max_attempts), or whose deadline has passed, is quarantined by the
//     claim that finds it so, instead of being handed out; the quarantine
//     is committed though the claim is refused. A job held by a valid lease
//     is neither handed over nor quarantined. Done and quarantined are
//     final;
//   - release keeps the token, and reopening a store never resets it: a
//     token number is never handed out twice.
//
// A refused operation is not an error of the engine: it returns a
// *Rejection naming the rule that refused it, what the caller presented and
// the row as it stood. Test the reason with errors.Is against the sentinels
// (see Rejection for the order they are checked in); Refusal names them
// for the wire and the trace. Invalid arguments return an error matching ErrInvalid and
// change nothing, as does every method of a Store that New did not make.
// Any other error is the database's; one that matches ErrBusy (the
// database stayed locked past its busy timeout) changed nothing and may be
// tried again. Package engine/leasetest checks that
// another implementation of these operations keeps the same contract.
//
// How each operation is made atomic is Store's doc; the options are
// Option's.
package engine
