// Package history checks concurrent histories of calls on a lease queue for
// linearizability against the contract's reference model (package
// engine/model): whether the calls, as several clients made them at once
// and saw them answered, could have taken effect one at a time, each at
// some instant between its invocation and its return, with the model
// answering each as it was answered.
//
// A check-then-act store passes every test that makes one call at a time
// and fails here: a complete that reads the lease in one statement and
// writes in another lets an old holder's late complete and a new claim at
// lease_until both succeed, and a claim that decides on a snapshot and
// writes later grants one token twice. No order of those calls makes the
// model answer both ok.
//
// Record the calls from any goroutine with a Recorder, then Check:
//
//	rec := history.NewRecorder()
//	// in each client's goroutine:
//	h := rec.Invoke("c1", engine.OpClaim, history.Args{Job: "a", Owner: "c1", Now: 1000, TTL: 1000})
//	lease, err := store.Claim(ctx, "a", "c1", 1000, 1000)
//	rec.Return(h, history.LeaseAnswer(lease, err))
//	// once they are done:
//	res, err := history.Check(rec.History())
//	if res.Verdict == history.NotLinearizable { fmt.Print(res) }
//
// The history must start from an empty queue: its jobs come from its own
// enqueue calls. A call that answered error (not a refusal: the
// database's failure, a lost connection) may or may not have taken effect,
// at any time after it was invoked, and is checked so. The calls of each
// job are checked apart, unless the history has a claim_next, whose calls
// span jobs. The checker is porcupine
// (github.com/anishathalye/porcupine); a check is bounded by a timeout,
// past which the verdict is Unknown. A failure is cut and shrunk to the
// smallest part found that still fails (see Failure), and reported
// (Result.String) call by call, with the model's rows; WriteHTML draws
// the history on one lane a client, and Drawing is what the simulator
// page's history view draws of it. A report links to that drawing: the
// history's text travels in the link's history= (LinkParam), as a
// grader's failing race round does (grade.Failure.Link) and leaselab
// history FILE -link prints.
//
// # The JSON lines format
//
// A history is a text of one JSON object a line, one line a call, in any
// order (leaselab history checks such a file; Read and Write read and
// write it):
//
//	{"client":"c1","call":"claim","args":{"job":"a","owner":"c1","now":1000,"ttl":1000},"invoke":120,"return":450,"answer":{"outcome":"ok","token":2,"lease_until":2000}}
//	{"client":"c2","call":"complete","args":{"job":"a","owner":"c2","token":1,"now":999},"invoke":130,"return":460,"answer":{"outcome":"refused","refusal":"superseded"}}
//
// Every field is required: client (a non-empty name), call, args,
// invoke and return (whole numbers, 0 <= invoke <= return: nanoseconds of
// a monotonic clock, or any numbers that do not go down), answer. The
// calls and their args (times and durations in ms, as the engine takes
// them):
//
//	enqueue     job, and optionally qty, deadline, max_attempts (absent: 0)
//	state       job
//	claim       job, owner, now, ttl
//	claim_next  owner, now, ttl
//	renew       job, owner, token, now, ttl (owner and token: the presented lease's)
//	complete    job, owner, token, now, and optionally result
//	finish      as complete (the courier lab's complete)
//	release     job, owner, token
//
// An answer has an outcome: "ok", "refused", "empty" (claim_next found
// nothing to claim, state no such job), "invalid" (an argument out of its
// domain) or "error". A refused answer may name its "refusal" (not_found,
// superseded, done, quarantined, held, expired; absent: any of them fits);
// an error answer has the "error" text. An ok answer has, for claim,
// claim_next and renew, the lease's "token" and "lease_until" (and
// optionally its "job"); for enqueue "created" (false: the id existed);
// for state the "row", every field of a job as the HTTP API writes one:
// id, qty, owner, lease_until, token, attempts, max_attempts, deadline,
// status, reason, result.
//
// Reading is strict: an unknown field, a field named twice, a field the
// call or outcome does not take, a required one left out, a value of the
// wrong type, a number with a fraction or out of int64's range, invalid
// UTF-8 or a line over MaxLineBytes is an *InputError at its line and
// column. Names and results are held to limits.Default (name_bytes,
// result_bytes) and a history to history_calls calls.
package history
