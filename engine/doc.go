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
// Time is an int64 count of milliseconds that the caller passes; the engine
// never reads a clock. The boundaries are exact and half-open:
//
//   - a lease is valid iff now < lease_until; at now == lease_until it has
//     ended, and a claim may take the job at that very instant;
//   - a deadline is still ahead iff now < deadline; a lease never outlives
//     it (lease_until = min(now+ttl, deadline));
//   - a job whose attempts are used up, or whose deadline has passed, is
//     quarantined by the claim that finds it so, instead of being handed out.
//
// Every operation that reads and then writes a row does so in one short
// BEGIN IMMEDIATE transaction, and its UPDATE is additionally guarded by the
// row version it read (id, token, status, lease_until), so the write applies
// only to the row its decision was made on. Nothing outside the database (a
// send, a callback) runs inside a transaction.
//
// A refused operation is not an error of the engine: it returns a
// *Rejection naming the rule that refused it, what the caller presented and
// the row as it stood. Test the reason with errors.Is against ErrNotFound,
// ErrDone, ErrQuarantined, ErrHeld, ErrSuperseded or ErrExpired. Invalid
// arguments return an error matching ErrInvalid and change nothing. Any
// other error is the database's.
package engine
