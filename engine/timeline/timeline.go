package timeline

import "github.com/leaselab/leaselab/engine"

// Verb is what a step line does. The verbs cover both systems the course
// teaches — the fencing lab (claim, renew, complete, release, claim_many,
// state) and the courier queue (claim-next, send, deliver, enqueue) — and
// the stories around them: the fenced storage (write, read), what happens
// to workers (pause, crash), time passing (wait) and the store opened again
// (reopen).
type Verb string

const (
	// VerbClaim claims the named job for the actor (Store.Claim); without a
	// job, the oldest claimable one (Store.ClaimNext); with several actors
	// (A,B,C), a concurrent claim of one job.
	VerbClaim Verb = "claim"
	// VerbRenew extends the actor's lease of the job (Store.Renew).
	VerbRenew Verb = "renew"
	// VerbComplete marks the job done with the actor's lease
	// (Store.Complete: the courier's finish).
	VerbComplete Verb = "complete"
	// VerbRelease gives the actor's lease back (Store.Release).
	VerbRelease Verb = "release"
	// VerbSend is the courier's send (Store.Dispatch): claim the oldest
	// claimable job, deliver it to the receiver, complete it.
	VerbSend Verb = "send"
	// VerbDeliver hands the actor's lease of the job to the receiver alone
	// (Receiver.Deliver): the delivery lands, the complete comes later.
	VerbDeliver Verb = "deliver"
	// VerbEnqueue adds a job mid-timeline (Store.Enqueue).
	VerbEnqueue Verb = "enqueue"
	// VerbState reads one job (Store.Get): the lab's state operation.
	VerbState Verb = "state"
	// VerbWrite stores a value at the fenced storage with the actor's lease
	// of the job (Storage.Write): accepted unless a higher token wrote
	// there before.
	VerbWrite Verb = "write"
	// VerbRead reads one key of the fenced storage (Storage.Read).
	VerbRead Verb = "read"
	// VerbPause stops the actor for a while (a GC pause, a stalled
	// network): it does nothing in that interval, and its leases keep
	// running out. The engine is not called.
	VerbPause Verb = "pause"
	// VerbCrash stops the actor's process at an instant: it forgets every
	// lease it held. Its next step is a new process under the same name.
	VerbCrash Verb = "crash"
	// VerbWait lets time pass to the step's instant; nothing else happens.
	// It has no actor.
	VerbWait Verb = "wait"
	// VerbReopen opens the store again over the same database: the lab's
	// init_db, run again, which must never reset a row or a token.
	VerbReopen Verb = "reopen"
	// VerbJump is `TIME service jump ±D`: the lock service's clock jumps D
	// ahead (behind when negative) at TIME, as an NTP step does. It has no
	// actor, and needs a `service clock` line. The leases it ends are those
	// of a service that times them by the wall clock; etcd and ZooKeeper
	// time them on a monotonic clock, which a step does not move.
	VerbJump Verb = "jump"
	// VerbDrift is `TIME service drift ±Rms/s`: from TIME on, the lock
	// service's clock gains R ms every second of true time (loses when
	// negative; +0ms/s stops a drift). It has no actor, and needs a
	// `service clock` line.
	VerbDrift Verb = "drift"
	// VerbLeaderChange is `TIME service leader-change reset|keep`: a new
	// leader takes over the lock service at TIME. With reset every valid
	// lease starts its whole ttl again from TIME, as etcd's new leader
	// renews every lease it takes over (its leases are not checkpointed),
	// so a lease outlives its ttl; with keep every lease keeps the time it
	// had left, as checkpointed leases do. It has no actor.
	VerbLeaderChange Verb = "leader-change"
)

// Actorless reports whether a step of verb v names no actor: time passing
// and what happens to the lock service itself. A jump or drift names one
// when it moves a worker's own clock (StepLine.Node).
func (v Verb) Actorless() bool {
	return v == VerbWait || v == VerbJump || v == VerbDrift || v == VerbLeaderChange
}

// ownOffset is how far worker's own clock is ahead of true time at t: its
// `clock` line's offset, moved by its jumps and drifts among the first
// before steps.
func (tl *Timeline) ownOffset(worker string, t int64, before int) int64 {
	return tl.clockOffset(worker, tl.Offset(worker), t, before)
}

// TakeoverObserved is the `takeover observed` header (Timeline.Takeover).
const TakeoverObserved = "observed"

// What a leader change does to the leases (StepLine.Leases).
const (
	LeasesReset = "reset"
	LeasesKeep  = "keep"
)

// Verbs lists every verb, in the order the documentation gives them.
var Verbs = []Verb{VerbClaim, VerbRenew, VerbComplete, VerbRelease, VerbSend, VerbDeliver, VerbEnqueue,
	VerbState, VerbWrite, VerbRead, VerbPause, VerbCrash, VerbWait, VerbReopen}

// The trace's ops beyond the engine's own (engine.Op): what happens to a
// worker, and time passing.
const (
	OpPause engine.Op = "pause"
	OpCrash engine.Op = "crash"
	OpWait  engine.Op = "wait"
	OpJump  engine.Op = "jump"
	OpDrift engine.Op = "drift"
	// OpLeaderChange is a `service leader-change` step.
	OpLeaderChange engine.Op = "leader-change"
)

// Timeline is a parsed and validated timeline: every name resolved (and
// normalised to Unicode NFC), every time absolute, every default filled in.
// Parse returns one only when the whole text is good, so running it never
// stops half-way on bad input.
type Timeline struct {
	// Name is the source name given to Parse (for messages).
	Name string
	// Title is the first comment line before the first step, without "#".
	Title string
	// Lease is the `lease` header in ms; 0 if absent.
	Lease int64
	// Jobs are the `job` header lines, in order.
	Jobs []JobDecl
	// Clocks are the `clock` header lines: workers whose clock is off true
	// time.
	Clocks []ClockDecl
	// Service is the `service clock OFFSET` header line (Worker
	// "service"): the lock service's clock, on which every lease is granted
	// and every expiry judged, as Chubby, ZooKeeper and etcd judge them.
	// The workers' clocks then shape only what each believes. nil when
	// absent: each worker's operations are judged on its own clock.
	Service *ClockDecl
	// ServiceForgets is the `service forgets` header line: the lock service
	// keeps its leases in memory (a single Redis instance without
	// persistence), so a reopen, its restart, forgets every lease and token
	// and starts each job again from token 0.
	ServiceForgets bool
	// LockDelay is the `service lock-delay DURATION` header in ms: after a
	// lease runs out (neither released nor completed), the service grants
	// its job to no one until lease_until + LockDelay, as Chubby's
	// lock-delay does (engine.WithLockDelay); 0 when absent. LockDelayLine
	// is its line (0: none).
	LockDelay     int64
	LockDelayLine int
	// Nodes is the `service nodes N` header: the lock service is N
	// independent nodes, n1 … nN, as Redlock's masters are; 0 when absent
	// (one service). Under it, every declared job is a lock with one row
	// per node (NodeJob), a claim asks every node in turn and holds the
	// lock when a majority granted it (otherwise it releases what it got),
	// a renew extends it on the nodes that hold it and holds when a
	// majority did, a release releases it on every node. Each node judges
	// its row on its own clock; NodeClocks are the `service clock nK
	// OFFSET` lines, and `TIME service jump|drift nK …` moves one.
	Nodes      int
	NodeClocks []ClockDecl
	// Takeover is the `takeover observed` header (TakeoverObserved), or ""
	// when absent: a lease then ends when the clock its holder's
	// operations are judged on reads its lease_until. With it, the service
	// judges no lease's end: a candidate's claim of a job another holds
	// reads the job's record and starts a stopwatch on its own clock; once
	// it has seen the record (owner, token, lease_until) unchanged for the
	// ttl of the holder's latest claim or renew, its claim takes the job
	// over with a compare-and-swap on that record (engine's ClaimSeen), as
	// client-go's leader election times a candidate from its observed time
	// and the DynamoDB lock client waits out a lease with an unchanged
	// record version. A clock offset then moves no takeover; only the
	// stopwatch's elapsed time counts.
	Takeover string
	// ReceiverNotIdempotent is the `receiver not-idempotent` header line:
	// the receiver applies every delivery, a resend too
	// (engine.WithoutIdempotence).
	ReceiverNotIdempotent bool
	// Storage is the `storage KIND` header: how the storage a write goes
	// to decides (StorageFenced, the default, when absent).
	Storage string
	// Epoch is the `epoch` header in ms (a Unix-ms instant); 0 if absent.
	// Instants are at or after it and count against the limit max_time
	// from it, so a history from the field keeps its real times.
	Epoch int64
	// Steps are the step lines, in order.
	Steps []StepLine
	// Actors are the actors in order of first appearance.
	Actors []string
	// Warnings are what parses but is likely not what the author meant
	// (two names that read alike but differ), at their lines; nothing
	// stops a run for them. The trace repeats them, and the commands print
	// them.
	Warnings []*Error
}

// ClockDecl is one `clock WORKER OFFSET` header line: the worker's clock
// reads Offset ms ahead of true time (behind when negative).
type ClockDecl struct {
	Line   int    `json:"line"`
	Worker string `json:"worker"`
	Offset int64  `json:"offset"`
}

// Offset is how far worker's clock is ahead of true time in tl (0 for a
// worker without a clock line).
func (tl *Timeline) Offset(worker string) int64 {
	for _, c := range tl.Clocks {
		if c.Worker == worker {
			return c.Offset
		}
	}
	return 0
}

// The kinds of storage a `storage KIND` line declares.
const (
	// StorageFenced accepts a write whose token is at least the highest it
	// accepted for the key (engine.Storage): it fences by the tokens it has
	// seen.
	StorageFenced = "fenced"
	// StorageSequencer asks the lock service, before each write, whether
	// the presented lease is the job's current, live one (Chubby's
	// CheckSequencer), and refuses the write as the queue would refuse a
	// complete: superseded, expired, done, quarantined or not_found.
	StorageSequencer = "sequencer"
	// StorageUnfenced stores every write (engine.WithoutFencing): what
	// goes wrong without fencing.
	StorageUnfenced = "unfenced"
)

// storageKinds are the kinds a storage line takes, in the order told.
var storageKinds = []string{StorageFenced, StorageSequencer, StorageUnfenced}

// Judge is the offset of the clock the engine judges worker's operations
// on at the start: the service's when tl declares one, else the worker's
// own. A service clock that jumps or drifts is read with JudgeAt.
func (tl *Timeline) Judge(worker string) int64 {
	if tl.Service != nil {
		return tl.Service.Offset
	}
	return tl.Offset(worker)
}

// JudgeAt is the offset, at true instant t, of the clock the engine judges
// worker's operations on, counting the service's jumps and drifts among
// the first `before` steps (in the order written, all at or before t).
// A step's own operation is judged with before = its index: a jump written
// before it at the same instant counts, one written after does not.
func (tl *Timeline) JudgeAt(worker string, t int64, before int) int64 {
	if tl.Service == nil {
		return tl.ownOffset(worker, t, before)
	}
	return tl.serviceOffset(t, before)
}

// serviceOffset is how far the service's clock is ahead of true time at t,
// after the jumps and drifts among the first before steps. A drift adds
// rate×elapsed/1000 ms (truncated) over each stretch it lasts.
func (tl *Timeline) serviceOffset(t int64, before int) int64 {
	return tl.clockOffset("", tl.Service.Offset, t, before)
}

// clockOffset is how far a service clock that reads base ahead of true
// time at first (the service's, node "", or a node's) is ahead at t, after
// its jumps and drifts among the first before steps.
func (tl *Timeline) clockOffset(node string, base, t int64, before int) int64 {
	off, rate, since := base, int64(0), int64(0)
	for _, s := range tl.Steps[:min(before, len(tl.Steps))] {
		if (s.Verb != VerbJump && s.Verb != VerbDrift) || s.Node != node {
			continue
		}
		off += rate * (s.Time - since) / 1000
		since = s.Time
		if s.Verb == VerbJump {
			off += s.Jump
		} else {
			rate = s.Drift
		}
	}
	return off + rate*(t-since)/1000
}

// serviceRate is the service clock's drift (ms per s) after the first
// before steps.
func (tl *Timeline) serviceRate(before int) int64 { return tl.clockRate("", before) }

// clockRate is the drift (ms per s) of the service's clock (node "") or a
// node's after the first before steps.
func (tl *Timeline) clockRate(node string, before int) int64 {
	var rate int64
	for _, s := range tl.Steps[:min(before, len(tl.Steps))] {
		if s.Verb == VerbDrift && s.Node == node {
			rate = s.Drift
		}
	}
	return rate
}

// TrueInstant is the true instant at which the clock worker's operations
// are judged on reads reading, when that clock changes no more after the
// first before steps: a lease with lease_until reading ends then. A clock
// off by a fixed offset gives the exact instant (in the past, too); a
// drifting service clock gives the first instant at or after from at
// which it reads at least reading.
func (tl *Timeline) TrueInstant(worker string, reading, from int64, before int) int64 {
	if tl.Service == nil {
		return instantOn(func(t int64) int64 { return t + tl.ownOffset(worker, t, before) }, tl.clockRate(worker, before), reading, from)
	}
	if tl.serviceRate(before) == 0 {
		return reading - tl.JudgeAt(worker, from, before)
	}
	return instantOn(func(t int64) int64 { return t + tl.serviceOffset(t, before) }, tl.serviceRate(before), reading, from)
}

// instantOn is the first instant at or after from at which a clock that
// reads reads(t) at t reads at least reading; with no drift (rate 0) it is
// the exact instant, in the past too.
func instantOn(reads func(int64) int64, rate, reading, from int64) int64 {
	if rate == 0 {
		return reading - (reads(from) - from)
	}
	if reads(from) >= reading {
		return from
	}
	lo, hi := from, from+1 // reads(lo) < reading <= reads(hi)
	for reads(hi) < reading {
		lo, hi = hi, from+2*(hi-from)
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if reads(mid) >= reading {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// StepLine is one step line: TIME ACTOR VERB [JOB] [key=value ...] [-> expectation].
type StepLine struct {
	// Line is the 1-based line number; Source the line as written, trimmed.
	Line   int
	Source string
	// Note is what the author wrote for readers about this step: the
	// comment lines just above it and a comment at its end, joined by
	// newlines, without "#"; "" if none.
	Note string
	// Time is the absolute instant (ms, true time) the step runs at.
	Time int64
	// Actors is the acting worker; several for a concurrent claim, in the
	// order written, which is the order the database admits them; none for
	// wait.
	Actors []string
	// Verb is the operation.
	Verb Verb
	// Job is the named job; "" for claim-next, send, read, pause, crash,
	// wait and reopen.
	Job string
	// Key is the storage key of a write (key=, by default the job) or a
	// read.
	Key string
	// TTL is the lease duration for claim, renew and send: ttl= or the
	// lease header; 0 for the other verbs.
	TTL int64
	// Token is token= when HasToken; otherwise the runner presents the
	// token of the actor's own latest claim of the job.
	Token    int64
	HasToken bool
	// Result is what complete stores: result=, by default the actor's name.
	Result string
	// Value is what write stores: value=, by default the actor's name.
	Value string
	// Took is how long a send takes before the courier hears back (ms).
	Took int64
	// Arrives is the instant a message in flight takes effect (arrives=):
	// the actor sends it at Time, with the lease it holds then, and it
	// reaches the queue, the receiver or the storage at Arrives, while the
	// other steps go on. 0: it takes effect at Time.
	Arrives int64
	// For is how long a pause lasts (ms): the actor does nothing in
	// [Time, Time+For).
	For int64
	// Jump is how far a `service jump` moves the service's clock (ms,
	// ahead when positive); Drift is the rate a `service drift` sets (ms
	// the service's clock gains per second of true time).
	Jump, Drift int64
	// Reach are the nodes a claim, renew or release under `service nodes`
	// reaches (nodes=n1,n2,n3: the others do not answer, as across a
	// network partition); nil: every node.
	Reach []string
	// Node is the clock a jump or drift moves: "" the service's, a node's
	// name under `service nodes`, or the worker's for `TIME WORKER jump`
	// and `TIME WORKER drift` (then also the step's actor).
	Node string
	// Leases is what a `service leader-change` does to the valid leases:
	// LeasesReset or LeasesKeep.
	Leases string
	// Fail makes a send's delivery fail.
	Fail bool
	// Qty, Deadline and MaxAttempts are an enqueue's job fields (Deadline
	// absolute: deadline=+D was added to the step's time).
	Qty, Deadline, MaxAttempts int64
	// Expect is the `-> …` part; nil if absent.
	Expect *Expectation
	// Predict marks a step whose outcome a learner is asked to predict
	// before a player shows it: `-> ?`, alone or before an expectation
	// (`-> ? refused superseded`). The mark changes nothing of the run
	// or of the expectation's check; the trace gives the step's choices
	// and the right one (Step.Predict).
	Predict bool
}

// End is the clock after the step: Time, plus Took for a send.
func (s *StepLine) End() int64 { return s.Time + s.Took }

// Op is the operation the step runs, as the trace names it: the engine's
// (claim, claim_next, claim_many, renew, complete, release, send, deliver,
// enqueue, state, write, read, reopen) or the timeline's own (pause, crash,
// wait).
func (s *StepLine) Op() engine.Op {
	switch {
	case s.Verb == VerbClaim && len(s.Actors) > 1:
		return engine.OpClaimMany
	case s.Verb == VerbClaim && s.Job == "":
		return engine.OpClaimNext
	}
	return engine.Op(s.Verb)
}

// Expectation is what a step line expects after "->": an outcome, field
// checks and the invariants the step is expected to break, each optional.
type Expectation struct {
	// Text is the expectation as written.
	Text string
	// Outcome is "" (not checked) or one of ok, refused, empty, invalid and
	// failed.
	Outcome engine.Outcome
	// Reason narrows refused: "" (any reason) or an engine.Refusal.
	Reason engine.Refusal
	// Fields are the field checks in the order written.
	Fields []FieldCheck
	// Violates are the invariants (package engine/check) the step is
	// expected to break (violates=NAME,...): a violation it expects does
	// not fail the run, and one it expects that does not happen does.
	Violates []string
}

// FieldCheck is one key=value of an expectation.
type FieldCheck struct {
	// Key is the field as written: token, lease_until, attempts, qty,
	// deadline, max_attempts, status, owner, result, reason, job (the
	// step's job after it); delivered, total, receipt.qty, receipt.owner,
	// receipt.token (the receiver); storage.value, storage.owner,
	// storage.token (the fenced storage); winner, losers, loser.NAME (a
	// concurrent claim); enqueued.
	Key string
	// Want is the expected value in canonical text: numbers in decimal ms
	// or counts, "true"/"false", "none" for no owner, winner or reason, a
	// refusal name for losers.
	Want string
}
