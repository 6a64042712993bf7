package timeline

import (
	"sort"
)

// phrasebook is every sentence a trace explains a step with, in one
// language. Each is a fmt format with explicit argument indexes (%[1]s), so
// a language may order the arguments its own way; the comment on each
// field lists them. To add a language, add one phrasebook to phrasebooks.
type phrasebook struct {
	list    func([]string) string // "A, B and C"
	finish  func(string) string   // a last pass over a sentence (Korean particles)
	ops     map[string]string     // op name -> the word for it
	reasons map[string]string     // quarantine reason -> the words for it

	claimed       string // actor, job, token, lease_until, cap note
	claimedNext   string // actor, job, token, lease_until, cap note
	reclaimed     string // actor, job, token, lease_until, cap note, previous owner, previous token, previous lease_until
	reclaimedSelf string // actor, job, token, lease_until, cap note, -, previous token
	// reclaimedClock: the previous holder's clock differs from the actor's,
	// and its lease has ended in true time; reclaimedEarly: it has not yet.
	reclaimedClock string // as reclaimed, then the previous lease_until in true time
	reclaimedEarly string // as reclaimed, then the previous lease_until in true time
	capNote        string // (no arguments) the lease was cut to the deadline
	noJob          string // actor
	claimRefused   string // actor, job, why
	quarantinedBy  string // actor, job, why
	writeRefused   string // actor, op, token, why
	renewed        string // actor, job, token, lease_until, cap note
	completed      string // actor, job, token, result
	released       string // actor, job, token, next token
	sent           string // actor, job, token, qty, complete instant
	sentAgain      string // actor, job, token, qty, complete instant
	sentLate       string // actor, job, complete instant, why
	sentNothing    string // actor
	sendFailed     string // actor, job, token, instant
	delivered      string // actor, job, qty, token, total
	redelivered    string // actor, job, qty, token, total
	appliedAgain   string // actor, job, qty, token, total: a receiver that is not idempotent
	enqueued       string // actor, job, qty
	enqueueExists  string // actor, job
	stateRead      string // actor, job, row description
	stateMissing   string // actor, job
	manyWon        string // actors, job, winner, token, lease_until
	manyNone       string // actors, job, why
	manyOdd        string // actors, job, winners
	invalid        string // actor, op, error
	failed         string // actor, op, error

	// Why an operation was refused: the clause after "is refused:".
	notFound            string // job
	isDone              string // job
	quarantinedAttempts string // job, max_attempts
	quarantinedDeadline string // job, deadline
	nowAttempts         string // max_attempts
	nowDeadline         string // deadline
	held                string // owner, token, lease_until
	heldDelay           string // owner, token, lease_until, its end plus the lock-delay
	superseded          string // owner, token, since
	supersededSelf      string // owner, token, since
	supersededFree      string // token
	neverHeld           string // actor
	expired             string // lease_until
	deadlinePassed      string // deadline

	// A row in words, for state.
	rowPending     string // token
	rowLeased      string // owner, token, lease_until
	rowLeaseEnded  string // owner, token, lease_until
	rowDone        string // owner, token, result
	rowQuarantined string // reason, token

	// The stories around the queue.
	supersededDone string // owner, token, since: the newer holder has written
	ownClock       string // actor, its now, offset text: a worker whose clock is off
	serviceClock   string // the service's now, offset text: a service whose clock is off
	believes       string // actor, its own clock's reading, the lease's end by its own clock
	ahead, behind  string // ms: an offset in words
	onClock        string // owner, true time: an instant on another worker's clock
	trueTime       string // (no arguments) the instant before it is true time
	paused         string // actor, from, to
	crashed        string // actor, the leases it forgot
	crashedEmpty   string // actor
	waited         string // instant
	reopened       string // actor
	reopenedLost   string // actor, jobs lost
	reopenedForgot string // actor: a lock service that kept its leases in memory restarts
	wrote          string // actor, key, token, value
	wroteFenced    string // actor, key, token, stored owner, stored token
	wroteStale     string // actor, key, token, value, the job's holder, its token
	wroteEnded     string // actor, key, token, value, the actor's lease_until
	alsoChanged    string // job, row description: a row the step changed besides its own
	inFlight       string // sent at, delay: a message in flight (after the sentence, before its full stop)
	wroteChecked   string // actor, key, token, why the lock service refused it (a sequencer storage)
	wroteSequenced string // actor, key, token, value: a sequencer storage's accepted write
	wroteUnfenced  string // actor, key, token, value: a storage that does not fence
	readValue      string // actor, key, value, owner, token
	readMissing    string // actor, key

	// A slow send that other steps come inside: its two steps.
	sendBegins string // actor, job, token, the instant it hears back
	noAnswer   string // (no arguments) a failed delivery
	heardBack  string // actor, the send's instant, its end (after the sentence, before its full stop)

	// The service's clock moving at a step; every instant says whose.
	jumped     string // true time, how far in words (forward, back), reading before, reading after, offset in words
	drifted    string // true time, rate in words (gains, loses), reading, offset in words
	forward    string // ms: a jump ahead in words
	back       string // ms: a jump behind in words
	gains      string // ms: a drift ahead in words
	loses      string // ms: a drift behind in words
	steady     string // true time, reading, offset in words: a drift of 0
	leaseEnds  string // owner, job, token, lease_until on the service's clock, owner's own reading
	leaseMoves string // owner, job, token, lease_until on the service's clock, its true instant now

	// A lock on several nodes (Redlock).
	nodeYes       string // node, token: a node's grant or renewal
	nodeGaveBack  string // node, token: a grant given back for want of a majority
	nodeNo        string // node, reason
	nodeSilent    string // node: not reached
	nodesHeld     string // actor, lock, the nodes' answers, yes, nodes, until when
	nodesNotHeld  string // actor, lock, the nodes' answers, yes, nodes
	nodesReleased string // actor, lock
	nodeNamed     string // node: a node, named
	nodeJumped    string // true time, whose clock (a node named, or a worker), how far in words, reading before, reading after, offset in words
	nodeDrifted   string // true time, whose clock, rate in words, reading, offset in words
	nodeSteady    string // true time, whose clock, reading, offset in words
	nodeLeaseEnds string // owner, row, token, lease_until on the node's clock, node
	ownLeaseEnds  string // owner, job, token, lease_until on the owner's own clock

	// A candidate timing a takeover on its own stopwatch.
	watchStarts string // actor, holder, job, token, lease_until, the wait, the true instant it ends
	watchWaits  string // actor, holder, job, waited, the wait, the true instant it ends
	tookOver    string // actor, holder, token, waited

	// A new leader taking over the lock service.
	leaderResets string // true time
	leaseReset   string // owner, job, token, lease_until before, lease_until now
	noLeaseReset string // (no arguments)
	leaderKeeps  string // true time
	leaseKept    string // owner, job, token, lease_until
}

// say is one of the book's sentences, format, with args in it (sentence),
// given the book's last pass (finish).
func (b *phrasebook) say(format string, args ...any) string {
	return b.finish(sentence(format, args...))
}

// phrasebooks are the languages a trace can be explained in.
var phrasebooks = map[string]*phrasebook{"en": &english, "ko": &korean}

// Langs lists the languages Options.Lang accepts.
func Langs() []string {
	out := make([]string, 0, len(phrasebooks))
	for l := range phrasebooks {
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}
