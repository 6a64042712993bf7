// Package timeline is the course author's timeline language: a small text
// that tells a story of claims, expiries, reclaims and stale completions,
// run on the real engine as a test and traced step by step for the
// simulator.
//
//	# Late courier: the stale stamp is refused
//	lease 1000ms
//	job order-7 qty=2
//
//	0ms     A claim order-7            -> ok token=1 lease_until=1000
//	1000ms  B claim order-7            -> ok token=2
//	1001ms  A complete order-7         -> refused superseded
//	1200ms  B complete order-7         -> ok
//
// # Header lines
//
// Before the first step: `lease DURATION`, the ttl of every claim, renew
// and send that gives no ttl=; `job ID [qty=N] [deadline=T] [attempts=N]`,
// a job enqueued before the first step (attempts is max_attempts; 0, the
// default, is unlimited; deadline 0 is none); and `# comments`. The first
// comment line before any step is the title. A `#` that starts a word
// starts a comment anywhere on a line.
//
// # Step lines
//
//	TIME ACTOR VERB [JOB] [key=value ...] [-> expectation]
//
// TIME is absolute (`1000ms`, `1.5s`, a bare number of ms) or relative to
// where the previous step left the clock (`+200ms`). Times never go back;
// several steps may share an instant and run in the order written.
// Durations and instants in arguments and expectations are written the same
// way. ACTOR and JOB names are Unicode letters and digits with `-` and `_`.
// Values with spaces are quoted: result="two words".
//
// The verbs:
//
//	claim JOB [ttl=]            claim JOB by id (Store.Claim)
//	claim [ttl=]                claim the oldest claimable job (Store.ClaimNext)
//	A,B,C claim JOB [ttl=]      a concurrent claim (see below)
//	renew JOB [ttl=] [token=]   extend the actor's lease
//	complete JOB [token=] [result=]   the courier's finish; result defaults to the actor's name
//	release JOB [token=]        give the lease back (the token is kept)
//	send [ttl=] [took=] [fail=] the courier's Dispatch: claim the oldest claimable job,
//	                            deliver it to the receiver, complete it took ms later;
//	                            fail=true makes the delivery fail (the lease is released)
//	deliver JOB [token=]        hand the actor's lease of JOB to the receiver alone
//	                            (the delivery lands; the complete comes later, or never)
//	enqueue JOB [qty=] [deadline=] [attempts=]   add a job mid-timeline
//	state JOB                   read one job (Store.Get)
//
// A worker presents the lease of its own latest successful claim of the job
// — what a real worker holds — so a stale complete needs no special
// syntax; token=N overrides the token. A worker that never got the job
// presents token 0. Parse refuses an implicit token when no earlier line
// could have given the actor one (a claim of that job, a claim-next or a
// send).
//
// A concurrent claim lists its contenders in the order the database's write
// lock admits them: the first one's claim goes alone, then the others all
// at once through Store.ClaimMany, each on its own connection. Exactly one
// wins, and it is the same one on every run, so later lines can name it.
//
// # Expectations
//
// After `->`: an outcome — ok, refused [REASON] (not-found or "not found",
// done, quarantined, held, superseded, expired), empty (claim-next or send
// found nothing; state found no such job), invalid (the engine refused an
// argument, e.g. ttl=0) or failed (a send with fail=true) — then field
// checks, each optional. Fields describe the step's job as it stands after
// the step (for claim-next and send, the job it got): token, lease_until,
// attempt (or attempts), qty, deadline, status, owner (none: unowned),
// result, reason (attempts, deadline or none), job. Four are the step's own:
// delivered and total (the receiver, for send and deliver), winner (a
// concurrent claim; none if nobody won) and enqueued (enqueue's answer). A
// failed expectation reports NAME:LINE: expected X, got Y.
//
// # Errors and runs
//
// Parse validates the whole text before anything runs and returns every
// mistake as NAME:LINE:COL: message (an ErrorList; errors.Is(err,
// ErrBadInput)). Run plays a parsed timeline on a fresh, empty *sql.DB on a
// virtual clock and returns its Trace (trace.go): per step the outcome, the
// lease or the rejection (presented against current), a sentence
// explaining it, the SQL that ran, the rows and the changed cells, the
// leases that ended, the receipt, the invariant verdicts of package
// engine/check and the expectation's result. The trace is deterministic:
// the same timeline gives byte-identical JSON on every run and platform.
//
// This package links no SQLite driver, so a build without SQLite can
// import it; package memrun runs timelines on in-memory SQLite, and package
// cli is the check and trace commands.
package timeline
