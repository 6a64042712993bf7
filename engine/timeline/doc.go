// Package timeline is leaselab's timeline language: a small text that tells
// a story of claims, expiries, reclaims and stale writes, with the answer
// each step must get. Parse checks a text; Run plays it on the engine as a
// test and traces it step by step (the simulator shows the trace). To hold a
// queue of your own to timelines, run them through package
// engine/leasetest/enginetest (RunTimelines, a folder of .tl files as
// subtests).
//
//	# Kleppmann's fencing: the storage refuses the paused client's stale token
//	lease 1000ms
//	job file-f
//
//	0ms      client1 claim file-f                 -> ok token=1
//	# A long GC pause stops client1; its lease runs out while it sleeps.
//	100ms    client1 pause 2s
//	1000ms   client2 claim file-f                 -> ok token=2
//	1100ms   client2 write file-f value="data"    -> ok storage.token=2
//	2100ms   client1 write file-f value="stale"   -> refused fenced
//	2110ms   client1 complete file-f              -> refused superseded
//
// # Header lines
//
// Before the first step, with no time (a header line among the steps, or
// with a time before it, is an error that says so):
//
//	lease DURATION                          the ttl of every claim, renew and send that gives no ttl=
//	job ID [qty=N] [deadline=T] [max_attempts=N]   a job enqueued before the first step
//	                                        (deadline 0 is none, max_attempts 0 unlimited)
//	clock WORKER OFFSET                     the worker's clock reads OFFSET ahead of true time
//	                                        (+200ms; -200ms is behind)
//	service clock OFFSET                    the lock service's clock: every lease is granted and
//	                                        judged on it, as Chubby, ZooKeeper and etcd judge
//	                                        them, and a worker's clock shapes only its belief
//	service forgets                         the lock service keeps its leases in memory: a reopen
//	                                        (its restart) starts every job again at token 0
//	service lock-delay DURATION             after a lease runs out (its holder neither released
//	                                        nor completed it) the service grants the job to no
//	                                        one for DURATION more, as Chubby's lock-delay: a
//	                                        claim then is refused held; a release frees it at once
//	service nodes N                         the lock service is N independent nodes, n1 … nN
//	                                        (Redlock's masters, 2 to 9): each keeps its own
//	                                        row of every lock, JOB@n1 … JOB@nN, judged on its
//	                                        own clock; see "Several nodes" below
//	service clock nK OFFSET                 node nK's clock (with service nodes)
//	takeover observed                       the service judges no lease's end: a candidate's
//	                                        claim of a job another holds reads its record and
//	                                        starts a stopwatch on its own clock; once it has
//	                                        seen the record (owner, token, lease_until)
//	                                        unchanged for the ttl of the holder's latest claim
//	                                        or renew, its claim takes the job over with a write
//	                                        that holds only if the record is still that one
//	                                        (client-go's observed time, the DynamoDB lock
//	                                        client's record version); a clock offset moves no
//	                                        takeover. Claims are then by id, one worker each
//	receiver KIND                           idempotent (the default: a resend adds nothing) or
//	                                        not-idempotent (it applies every delivery)
//	storage KIND                            how the storage a write goes to decides: fenced (the
//	                                        default: by the highest token it has seen), sequencer
//	                                        (it asks the lock service whether the presented lease
//	                                        is current and live; a write then hears what a complete
//	                                        hears) or unfenced (it stores every write)
//	epoch T                                 times are real instants, e.g. Unix ms from a log:
//	                                        every one is at or after T, the limit max_time
//	                                        bounds them from T, and a job line's deadline=+D
//	                                        counts from T (before the job lines)
//	# comment                               the first comment line before any step is the title
//
// Without an epoch line a timeline starts at 0 and its instants are at most
// max_time (11.6 days), which keeps hand-written numbers small; with one, a
// history from the field keeps its real times (pass them on as the same
// int64 ms the engine takes, e.g. time.Now().UnixMilli()):
//
//	epoch 1764806400000
//	job a
//	1764806400000 A claim a ttl=1000ms -> ok lease_until=1764806401000
//	+1000ms       B claim a ttl=1000ms -> ok token=2
//
// A `#` that starts a word starts a comment anywhere on a line. The comment
// lines just above a step (no blank line between) and a comment at its end
// are the step's note for readers: it travels in the trace, shows in the
// simulator's explanation, the transcript, embeds, and the exported Go test.
//
// # Step lines
//
//	TIME ACTOR VERB [OBJECT] [key=value ...] [-> expectation]
//	TIME wait
//	TIME service jump ±D
//	TIME service drift ±Rms/s
//	TIME service leader-change reset|keep
//	TIME WORKER jump ±D
//	TIME WORKER drift ±Rms/s
//
// TIME is absolute (1000ms, 1.5s, a bare number of ms) or relative to where
// the previous step left the clock (+200ms; after a send with took=, its
// end). Times never go back (a step may come inside another worker's slow
// send, never before the send's own TIME); several
// steps may share an instant and run in the order written. TIME is true
// time: a worker with a `clock` line gives the engine its own now (TIME plus
// its offset), unless a `service clock` line makes every now the service's
// (TIME plus the service's offset). ACTOR and JOB names are Unicode letters and digits with `-`
// and `_`, compared in Unicode NFC. Values with spaces are quoted:
// result="two words".
//
// The verbs:
//
//	claim JOB [ttl=]              claim JOB by id (Store.Claim)
//	claim [ttl=]                  claim the oldest claimable job (Store.ClaimNext)
//	A,B,C claim JOB [ttl=]        a concurrent claim (see below)
//	renew JOB [ttl=] [token=]     extend the actor's lease
//	complete JOB [token=] [result=]   finish the job (Store.Complete); result defaults to the actor's name
//	release JOB [token=]          give the lease back (the token is kept)
//	send [ttl=] [took=] [fail=]   Store.Dispatch: claim the oldest claimable job,
//	                              deliver it, complete it took ms later;
//	                              fail=true makes the delivery fail (the lease is released)
//	                              then. Only the courier waits: the others' steps may
//	                              come inside [TIME, TIME+took), and the trace then
//	                              shows the send and, at its end, the courier's complete
//	                              (or release) as two steps of its line
//	deliver JOB [token=]          hand the actor's lease of JOB to the receiver alone
//	write JOB [key=] [value=] [token=]  write to the fenced storage (key defaults to the job,
//	                              value to the actor's name) with the actor's token of JOB
//	read KEY                      read the fenced storage
//	enqueue JOB [qty=] [deadline=] [max_attempts=]   add a job mid-timeline;
//	                              deadline=+1500ms counts from the enqueue
//	state JOB                     read one job (Store.Get)
//	pause DURATION                the actor stops (a GC pause): no step of its own in
//	                              [TIME, TIME+DURATION), and its leases keep running out
//	crash                         the actor's process dies: it forgets every lease it held;
//	                              its next step is a new process under the same name
//	reopen                        open the store again over the same database (engine.New)
//	wait                          (no actor) time passes to TIME; nothing else happens
//	service jump ±D               (no actor) the service's clock jumps D ahead (+) or
//	                              behind (-) at TIME, as an NTP step does; it needs a
//	                              `service clock` line. A lease ends when the service's
//	                              clock reads its lease_until, so a jump ahead may end it
//	                              at TIME, while its holder's own clock says it is valid,
//	                              as in a service that times its leases by the wall clock
//	                              (etcd and ZooKeeper time them on a monotonic clock, which
//	                              a step does not move).
//	                              The steps written after it are judged on the moved
//	                              clock; those written before it at TIME are not.
//	service drift ±Rms/s          (no actor) from TIME the service's clock gains R ms every
//	                              second of true time (loses them when negative; +0ms/s
//	                              keeps true time's pace); |R| is under 1000
//	WORKER jump ±D                the worker's own clock jumps D ahead (+) or behind (-)
//	                              at TIME, as an NTP step on its machine does: from then on
//	                              its calls pass the moved now (with a service clock, the
//	                              move changes only what it believes). It is no action of
//	                              the worker's: a paused worker's clock moves too. A
//	                              `clock` line is its offset before any move
//	WORKER drift ±Rms/s           from TIME the worker's own clock gains R ms every second
//	                              of true time (loses them when negative; +0ms/s stops it):
//	                              a rate, as drift always is; a fixed offset is a `clock`
//	                              line. Under takeover observed it is how fast the
//	                              worker's stopwatch runs
//	service leader-change reset   (no actor) a new leader takes over the lock service and
//	                              renews every valid lease for the whole ttl its latest
//	                              claim or renew asked for, whether its holder lives or not,
//	                              as etcd's new leader does with leases it has not
//	                              checkpointed: a lease then outlives its ttl
//	service leader-change keep    (no actor) a new leader takes over, and every lease keeps
//	                              the time it had left, as checkpointed leases do
//
// # Several nodes
//
// Under `service nodes N` every declared job is a lock with a row on each
// node. A claim asks every node in turn, each at its own clock; with a
// majority (more than N/2 grants) the worker holds the lock — a lease with
// no token, until its ttl has passed — else it gives back what it got and
// hears refused (with the first node's refusal), or failed when no node
// refused and too few answered. A renew extends the lock on every node and holds on a
// majority; a release releases it on every node that granted it. nodes=n1,n3
// on a claim, renew or release names the nodes the worker reaches (the
// others do not answer, as across a partition). `TIME service jump nK ±D`
// and `TIME service drift nK ±Rms/s` move one node's clock. Single-lease
// then also reports a majority acquired while another worker believes it
// holds the lock (package engine/check, Checker.Acquired). Redlock hands
// out no fencing token: writes need `storage unfenced`.
//
//	service nodes 5
//	storage unfenced
//	lease 10s
//	job lock
//	0ms     client1 claim lock nodes=n1,n2,n3   -> ok
//	1000ms  service jump n3 +10s
//	1500ms  client2 claim lock nodes=n3,n4,n5   -> ok violates=single-lease
//
// A renew, complete, release, deliver or write may be a message in flight:
// arrives=T (or arrives=+D after the send) sends it at TIME with the lease
// its actor holds then, and it takes effect at T, after the steps written
// for instants up to T, while its sender may be paused; its trace step
// stands at T, with "sent" the instant it left.
//
// A worker presents the lease of its own latest successful claim of the job
// — what a real worker holds — so a stale complete needs no special syntax;
// token=N overrides the token. A worker that holds none presents token 0.
// Parse refuses an implicit token when no earlier line could have given the
// actor one (a claim of that job, a claim-next or a send, since its last
// crash).
//
// A concurrent claim lists its contenders in the order the database's write
// lock admits them: the first one's claim goes alone, then the others all
// at once through Store.ClaimManyOutcomes, each on its own connection.
// Exactly one wins, and it is the same one on every run, so later lines can
// name it.
//
// # Expectations
//
// After `->`: an outcome — ok, refused [REASON], empty (claim-next or send
// found nothing; state or read found no row), invalid (the engine refused
// an argument, e.g. ttl=0) or failed (a send with fail=true) — then field
// checks, each optional. REASON is one of engine.Refusals (not_found,
// superseded, done, quarantined, held, expired, fenced); each op hears only
// its own, and Parse says which. Fields:
//
//	token lease_until attempts qty deadline max_attempts status owner result reason job
//	                      the step's job after the step (for claim-next and send, the job it got);
//	                      attempts= is the count of claims, max_attempts= the budget;
//	                      after a write, token= is the token the write presented
//	delivered total receipt.qty receipt.owner receipt.token     the receiver (send, deliver);
//	                             delivered= is true or false (whether it applied the delivery)
//	storage.value storage.owner storage.token                   the fenced storage (write, read)
//	winner losers loser.NAME     a concurrent claim: who won (none), what every loser heard,
//	                             what one loser heard (held, done, quarantined, not_found)
//	enqueued                     enqueue's answer
//	violates=INVARIANT[,...]     the invariants (package engine/check) the step is expected
//	                             to break: announced, they do not fail the run; a step that
//	                             announces one and keeps it fails its expectation (the
//	                             exported Go test leaves invariants to the runner)
//
// A failed expectation reports NAME:LINE: expected X, got Y.
//
// # Predictions
//
// A `?` as the first word after `->` marks the step for a learner to
// predict: a player in its prediction mode stops before the step, asks
// what happens, and shows it once answered. The mark changes nothing of
// the run; an expectation may follow it, checked as any other:
//
//	1000ms  B claim order-7      -> ?
//	1001ms  A complete order-7   -> ? refused superseded
//
// Only a step whose operation has an outcome can be marked. The trace
// gives a marked step its question (Step.Predict): the outcomes a learner
// chooses from and the one the step had. A timeline with no mark asks at
// every step with an expectation instead (the player's rule).
//
// # Errors, limits and runs
//
// Parse validates the whole text before anything runs and returns every
// mistake as NAME:LINE:COL: message, saying what to write instead (an
// ErrorList with every mistake, however many; errors.Is(err, ErrBadInput)).
// A line's first mistake is its only one, and a job whose line is wrong
// still counts as declared, so nothing cascades: a misspelt header word
// ("lease:", "lese") is one error, and the line is read as the header it was
// meant to be. Times are whole milliseconds in ms or s. What parses but
// likely is not what the author meant is a warning (Timeline.Warnings),
// which leaselab check prints and the simulator shows: a duration with no
// unit (pause 2 is 2 ms; a bare instant such as deadline=100 is ms by
// design), a clock offset with no sign, a clock for a worker that never
// acts, and names that look alike. The bounds of package engine/limits (text
// bytes, steps, jobs, workers, contenders in one claim, the latest instant)
// are checked here too: an excess is an error at the line and column where
// the text goes over, naming the limit and its value.
//
// Run plays a parsed timeline on a fresh, empty *sql.DB on a virtual clock
// and returns its Trace: per step the outcome, the lease or the rejection
// (presented against current), a sentence explaining it in the run's
// language, the SQL that ran, the rows it changed, the leases that ended,
// the receipt or stored value, the invariant verdicts of package
// engine/check and the expectation's result. The trace is deterministic: the
// same timeline gives byte-identical JSON on every run and platform, and its
// size grows with the text, not with jobs times steps. Run stops between
// steps when its context ends.
//
// This package links no SQLite driver, so a build without SQLite can
// import it; package memrun runs timelines on in-memory SQLite, and the
// leaselab command runs them from files (check, transcript, trace, export
// gotest, mutants, explore).
package timeline
