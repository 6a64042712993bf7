// Package grade grades a student's own implementation of a lab, checked
// step by step against the lease contract (the reference model of package
// engine/model, through the conformance machinery of package
// engine/leasetest): the fencing lab (the default), the functions
// init_db, enqueue, state, claim, renew, complete, release and claim_many
// over a SQLite table jobs(id, owner, until, fence, result, done); or the
// courier lab (Options.LabName Courier), the functions init_db, enqueue,
// state, claim_next, finish, send and receive.
//
// The words of this package are the grading protocol's own: the lab is the
// exercise, the student the author of the code under grading, and init_db,
// state, claim_many and the table's columns are the names the exercise
// gives its functions and fields. A Go author testing a queue of their own
// against the lease contract wants package engine/leasetest instead.
//
// # The lab's functions
//
// Every function takes the SQLite file's path first; time is a number of
// ms the caller passes.
//
//	init_db(path)                                 make the table if it is missing; keep every row
//	enqueue(path, job_id) -> bool                 add a job (owner NULL, until 0, fence 0, done 0);
//	                                              False and no change if it exists
//	state(path, job_id) -> dict | None            the row: id, owner, until, fence, result, done
//	claim(path, job_id, owner, now, ttl) -> int | None
//	                                              ValueError when ttl <= 0; None for a missing or
//	                                              done job or while until > now; else owner, until =
//	                                              now + ttl, fence + 1, and the new fence
//	renew(path, job_id, owner, fence, now, ttl) -> bool
//	                                              ValueError when ttl <= 0; True and until = now + ttl
//	                                              only for the row's owner and fence, not done, until > now
//	complete(path, job_id, owner, fence, now, result) -> bool
//	                                              the same check; result stored and done = 1
//	release(path, job_id, owner, fence) -> bool   for the row's owner and fence, not done: owner NULL,
//	                                              until 0, the fence kept
//	claim_many(path, job_id, owners, now, ttl) -> list
//	                                              every owner's claim at once, on threads; the
//	                                              answers in the owners' order: one fence, the rest None
//
// # The courier lab's functions
//
// The courier's table has the engine's columns, jobs(id, qty, owner,
// lease_until, token, attempts, max_attempts, deadline, status, reason,
// result), status one of pending, leased, done, quarantined, reason
// attempts or deadline (NULL otherwise), deadline NULL for none; and a
// second table, received(business_id, qty), the receiver's.
//
//	init_db(path)                                  make both tables if missing; keep every row
//	enqueue(path, job_id, qty, deadline, max_attempts) -> bool
//	                                               deadline None for none, max_attempts 0 for
//	                                               unlimited; False and no change if it exists
//	state(path, job_id) -> dict | None             the row, every column by name
//	claim_next(path, owner, now, lease_ms) -> dict | None
//	                                               ValueError when lease_ms <= 0; in one BEGIN
//	                                               IMMEDIATE transaction, the oldest job that is
//	                                               not done or quarantined and whose lease has
//	                                               ended (lease_until <= now) or that has no owner;
//	                                               on its way it quarantines a job whose attempts
//	                                               are used up (reason attempts, first) or whose
//	                                               deadline has come (now >= deadline; reason
//	                                               deadline), the rest of its row kept;
//	                                               the job taken gets attempts + 1, token + 1,
//	                                               status leased, lease_until = min(now + lease_ms,
//	                                               deadline); the answer is its marker {id, qty,
//	                                               owner, token, attempt, lease_until}
//	finish(path, marker, now, result) -> bool      True, status done and result stored (owner and
//	                                               lease kept) only when the marker's id, owner
//	                                               and token are the row's, the row is leased,
//	                                               now < lease_until and now < deadline
//	send(path, owner, now, lease_ms, deliver) -> bool | None
//	                                               claim_next; None when nothing is claimable;
//	                                               else, the claim committed, deliver(marker)
//	                                               outside any transaction, which answers the
//	                                               instant the delivery ended, then finish at that
//	                                               instant with result "sent", whose answer it is
//	receive(path, business_id, qty) -> bool        the receiver: records the id and its quantity
//	                                               once (True); a resend is False and adds nothing
//
// Its steps: init_db, enqueue, state, claim_next (before, at and after
// lease_until; jobs enqueued out of the order of their ids, the first
// enqueued taken first), finish (the whole current marker; a stale one of
// the same name), quarantine (the attempts budget), deadline (the cap, the
// quarantine, and a job whose attempts are used up when its deadline
// comes, quarantined for its attempts), send (inside deliver the grader begins a write transaction
// of its own on the file without waiting: a lock still held fails the
// step, as does a marker not yet committed or not whole), receive, and two
// processes calling claim_next at once, many rounds: exactly one marker.
// The library's stories that claim only the next job are played too.
//
// # The protocol
//
// The grader starts the student's program and speaks to it in lines of
// JSON, so that it may be written in any language. The program first
// writes one line saying it is ready, and which functions it lacks:
//
//	{"ready": true, "missing": []}
//
// (or {"error": "ImportError", "message": "..."} if it cannot start; the
// grader then stops and says why; a program that writes nothing within
// grade_start_ms did not start, and nothing is graded). Then, for each
// request on standard input, one line,
//
//	{"fn": "claim", "args": ["/tmp/.../jobs-3.db", "j1", "A", 1000, 500]}
//
// it writes one answer on standard output: the return value, or the kind
// of exception raised (ValueError for an invalid argument, which may also
// be named RangeError, JavaScript's name, as the page's exercise takes it;
// any other name is an exception the contract does not ask for):
//
//	{"return": 2}
//	{"return": null}
//	{"error": "ValueError", "message": "ttl must be positive"}
//
// The arguments are the function's, in its order; None is null, a dict a
// JSON object. An argument {"callback": "deliver"} is a function the
// student calls: the program writes {"callback": "deliver", "args":
// [...]} on standard output, and reads the grader's answer, one line
// {"return": ...} or {"error": ..., "message": ...}, on standard input,
// before it answers the request itself. Standard output carries nothing else: anything else there
// fails the test that meets it, saying what was written. Standard error
// is the student's log, whose end is shown when the program breaks. Each
// answer must come within a per-call limit, and the whole run within an
// overall one: a program that hangs or exits fails the test it was in and
// is started afresh for the next. Each test starts the program anew on a
// fresh database file in the run's own temporary directory; between calls
// the grader reads the table from that file itself.
//
// For Python, the student writes only the functions, in student.py: the
// adapter that speaks the protocol (adapter.py, embedded) is written to
// the run's directory and imports the module. The adapter keeps standard
// input and output to itself, on private copies of file descriptors 0
// and 1: whatever the student's code writes to standard output (print, a
// C library, a program it runs) goes to standard error, and it reads
// nothing from standard input. A program of the student's own speaks the
// protocol itself, and must write its own output to standard error. An exception other than the
// contract's ValueError answers its kind and message and the line of the
// student's own file it was raised at; a module that does not load, the
// student's frames and the error. A Go student implements Lab (the
// courier's: CourierLab) and calls Run(t, lab) (RunCourier) from their own
// go test instead: the same tests, each a subtest. The grader calls a Go
// lab's methods from two goroutines at once where it runs two processes
// (the races), so they must be safe for concurrent use.
//
// # What a run checks
//
// Grade plays, each on a fresh program and database: the lab's eight steps
// in order (each a timeline of calls before, at and after every boundary
// of its function, with the checks a timeline cannot write: a negative
// ttl, claim_many with eight owners on threads, many rounds); every library
// story the lab's functions can tell; each mutant's distinguishing
// timeline, found by the explorer (leaselab explore), in a build
// with the mutants tag; two processes claiming one job at once, many
// rounds; for each call a holder makes on its lease (complete, renew,
// release), a race of two processes at the lease's end: A's late call at
// 999 against B's claim at 1000, then B's complete, each call recorded
// with the instants it was sent and answered and each round's history
// checked for linearizability (package engine/history), so a check made
// in one statement and a write in another fails (the report names the two
// calls made at once with their answers, lists every call of the round
// as sent, shows the student's table beside the contract's, and links to
// the round drawn in the simulator, a lane a process: Failure.History);
// and a bounded random search for a sequence of calls
// on which the program and the contract disagree, shrunk to the shortest.
// The courier lab's run is its nine steps, two processes calling
// claim_next at once, the same race at the lease's end for finish against
// a new claim_next, the stories its functions can tell, the timeline of
// each mutant they can show (found within a scope of claim-next, finish,
// state, enqueue and reopen, a refusal's reason unseen), and the same
// search over its own calls: enqueue with a quantity, a deadline and an
// attempts budget, state, claim_next and finish.
//
// A step's timeline calls functions that later steps introduce (the
// enqueue step claims a job): a wrong answer of such a function, or the
// wrong table after it, is charged to the step that introduces it, which
// fails with its own first difference or else with that one; the step
// whose timeline met it passes, its calls after that one unplayed. A
// program that breaks the protocol fails the test it broke in.
//
// After each call the answer and the table are compared with the contract's.
// The lab's answers say less than the engine's: a student's refusal where
// the contract refuses too takes the contract's reason (the lab cannot name
// one), ValueError is engine.ErrInvalid, fence is the token, done=1 the
// status done, and the fields the lab has no column for (qty, attempts,
// max_attempts, deadline, reason) are the contract's. A Failure names the
// call, the contract's answer and the student's, both tables in the lab's
// columns, and a timeline that reproduces it, which leaselab check replays
// on the engine; Failure.Link opens that timeline in the simulator, the
// cursor on the step that differs, with a note there of the student's
// answer beside the contract's. Calls and answers are in the student's
// terms (Terms): Python's for a module (claim(path, "j1", "A", 0, 1000),
// None, True, raise ValueError), the protocol's JSON for a program in any
// language (null, true, error ValueError), Go's for a Lab (Claim(path,
// "j1", "A", 0, 1000), nil, true, error ErrValue). What more a Failure
// says is in the lab's terms too (an answer not of its function's form,
// answers that agree beside tables that differ), never the engine's
// operations or the fields the lab's table has no column for.
//
// # Containment
//
// The student's code is untrusted: Options.Sandbox says how it runs. On
// Linux each program runs in a process group of its own, with an
// environment of its own (none of the grader's variables), under resource
// limits (limits.DefaultGrading's grade_memory_bytes, grade_file_bytes,
// CPU time), its directory stopped at grade_disk_bytes, and everything it
// started is killed when its test ends, whatever ends it. As root, each
// program is the first process of a PID namespace of its own, and
// Sandbox.User runs it as an unprivileged user that cannot read the
// grader nor write outside its directory. Cancelling Grade's context with
// ErrStopped (a platform's SIGTERM) stops the student's programs at once
// and returns what was graded. A program that adopts orphans
// (SetSubreaper) and calls KillOrphans at its end leaves none of the
// student's processes even where no namespace can be made. Without root
// the student's code runs as the grader's user and can read what it can:
// see the guide's "Grading untrusted code".
//
// # Scoring
//
// A report scores rules, not tests: the fencing lab's rules are its eight
// functions, the courier's its nine steps (init_db, enqueue, state,
// claim_next, finish, quarantine, deadline, send, receive). Each failed
// test is charged to one rule (Failure.Rule), the one whose contract its
// first difference breaks: the lab function of the call that differs (a
// story failing at claim(...) is claim's, whatever step or story it is
// in; a race's, claim or claim_next; the search's, its shrunk sequence's
// last call). A courier's claim_next whose tables part on a job
// quarantined or not is the quarantine's, by the job's reason (attempts
// or deadline), and one that parts on a lease the deadline caps is the
// deadline's. A failure without a call (a program that did not start for
// its test) is init_db's; a test the overall time limit left unrun is
// charged to none. A rule keeps its points unless a failure is charged to
// it, and loses them all however many tests that failure touches; code
// that could not run at all (Unrun) loses every rule's.
//
// The points are the report's Weights, by default 100 in all:
//
//	fencing  init_db 5, enqueue 5, state 5, claim 25, renew 15, complete 20,
//	         release 10, claim_many 15
//	courier  init_db 5, enqueue 5, state 5, claim_next 20, finish 15,
//	         quarantine 10, deadline 10, send 20, receive 10
//
// claim and complete weigh most because they are what the lab is about:
// the lease's boundary, the fence counted up in one transaction, and a
// stale worker's result refused; the table's plumbing (init_db, enqueue,
// state) weighs least. ParseWeights reads others from a file, a line
// "RULE POINTS" for every rule of the lab. WriteText ends with the score
// by rule, WriteGradescope scores a test per rule, and WriteJUnit keeps a
// testcase a test, each failure naming its rule.
package grade
