package timeline

// Verb is what a step line does. The verbs cover both seed systems: the
// fencing lab (claim, renew, complete, release, claim_many, state) and the
// courier queue (claim-next, send, deliver, enqueue).
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
	// VerbState reads one job (Store.Get): the seeds' state.
	VerbState Verb = "state"
)

// Verbs lists every verb, in the order the documentation gives them.
var Verbs = []Verb{VerbClaim, VerbRenew, VerbComplete, VerbRelease, VerbSend, VerbDeliver, VerbEnqueue, VerbState}

// Timeline is a parsed and validated timeline: every name resolved, every
// time absolute, every default filled in. Parse returns one only when the
// whole text is good, so running it never stops half-way on bad input.
type Timeline struct {
	// Name is the source name given to Parse (for messages).
	Name string
	// Title is the first comment line before the first step, without "#".
	Title string
	// Lease is the `lease` header in ms; 0 if absent.
	Lease int64
	// Jobs are the `job` header lines, in order.
	Jobs []JobDecl
	// Steps are the step lines, in order.
	Steps []StepLine
	// Actors are the actors in order of first appearance.
	Actors []string
}

// StepLine is one step line: TIME ACTOR VERB [JOB] [key=value ...] [-> expectation].
type StepLine struct {
	// Line is the 1-based line number; Source the line as written, trimmed.
	Line   int
	Source string
	// Time is the absolute instant (ms) the step runs at.
	Time int64
	// Actors is the acting worker; several for a concurrent claim, in the
	// order written, which is the order the database admits them.
	Actors []string
	// Verb is the operation.
	Verb Verb
	// Job is the named job; "" for claim-next and send.
	Job string
	// TTL is the lease duration for claim, renew and send: ttl= or the
	// lease header; 0 for the other verbs.
	TTL int64
	// Token is token= when HasToken; otherwise the runner presents the
	// token of the actor's own latest claim of the job.
	Token    int64
	HasToken bool
	// Result is what complete stores: result=, by default the actor's name.
	Result string
	// Took is how long a send takes before the courier hears back (ms).
	Took int64
	// Fail makes a send's delivery fail.
	Fail bool
	// Qty, Deadline and Attempts are an enqueue's job fields.
	Qty, Deadline, Attempts int64
	// Expect is the `-> …` part; nil if absent.
	Expect *Expectation
}

// End is the clock after the step: Time, plus Took for a send.
func (s *StepLine) End() int64 { return s.Time + s.Took }

// Op is the name of the engine operation the step runs, as the trace
// reports it: "claim", "claim-next", "claim-many", "renew", "complete",
// "release", "send", "deliver", "enqueue" or "state".
func (s *StepLine) Op() string {
	switch {
	case s.Verb == VerbClaim && len(s.Actors) > 1:
		return "claim-many"
	case s.Verb == VerbClaim && s.Job == "":
		return "claim-next"
	}
	return string(s.Verb)
}

// Expectation is what a step line expects after "->": an outcome and field
// checks, each optional.
type Expectation struct {
	// Text is the expectation as written.
	Text string
	// Outcome is "" (not checked), "ok", "refused", "empty", "invalid" or
	// "failed".
	Outcome string
	// Reason narrows "refused": "" (any reason), "not-found", "done",
	// "quarantined", "held", "superseded" or "expired".
	Reason string
	// Fields are the field checks in the order written.
	Fields []FieldCheck
}

// FieldCheck is one key=value of an expectation.
type FieldCheck struct {
	// Key is the field as written: token, lease_until, attempt(s), qty,
	// deadline, status, owner, result, reason, job, delivered, total,
	// winner or enqueued.
	Key string
	// Want is the expected value in canonical text: numbers in decimal ms
	// or counts, "true"/"false", "none" for no owner, winner or reason.
	Want string
}
