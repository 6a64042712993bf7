package timeline

import (
	"context"
	"io"

	"github.com/leaselab/leaselab/engine/limits"
)

// FormatVersion is the version of the trace's JSON format. It changes when a
// field is renamed, removed or changes meaning; adding a field keeps it.
//
// Version 2: a step records the rows it changed (Rows, Gone), not the whole
// table — the table is given once (Start) and a reader rebuilds it at any
// step (TableAt) — so a trace grows with its timeline's text, never with
// jobs times steps; names follow the engine's vocabulary (claim_next,
// claim_many, not_found); a job's budget is max_attempts; steps carry
// notes, the actor's own clock (Now), pauses, crashes, waits, reopens and
// the fenced storage; verdicts say whether the timeline expected them.
const FormatVersion = 2

// Trace is what running a timeline yields: every step with its outcome, the
// SQL it ran, the rows it changed and the checks, in JSON. It is
// deterministic: the same timeline, mutant and language give byte-identical
// JSON on every run and every platform (no maps, no wall clock, no database
// name). Its size grows with the timeline's text: the whole jobs table
// appears twice (Start and Final), every step holds only what it changed.
type Trace struct {
	// Format is FormatVersion.
	Format int `json:"format"`
	// Name is the timeline's source name as given to Parse, e.g.
	// "01-late-courier.tl".
	Name string `json:"name"`
	// Title is the timeline's first comment line, without "#"; "" if none.
	Title string `json:"title"`
	// Lang is the language of the Explain sentences: "en" or "ko".
	Lang string `json:"lang"`
	// Mutant names the broken engine the timeline ran on; "" is the correct
	// engine.
	Mutant string `json:"mutant"`
	// Lease is the `lease` header: the ttl of every claim, renew and send
	// that gives no ttl=; 0 when the header is absent.
	Lease int64 `json:"lease"`
	// Jobs are the jobs the header declares, in declaration order; they are
	// enqueued before the first step.
	Jobs []JobDecl `json:"jobs"`
	// Actors are the workers named in the steps, in order of first
	// appearance.
	Actors []string `json:"actors"`
	// Clocks are the workers whose clock is off true time (the `clock`
	// header lines); [] when every clock agrees.
	Clocks []ClockDecl `json:"clocks"`
	// Service is the lock service's clock (Timeline.Service), which judges
	// every lease; nil when the timeline declares none (the JSON then has
	// no "service").
	Service *ClockDecl `json:"service,omitempty"`
	// LockDelay is the `service lock-delay` header in ms: how long the
	// service keeps a job after a lease of it ran out; 0 (absent from the
	// JSON) when the timeline declares none.
	LockDelay int64 `json:"lock_delay,omitempty"`
	// Takeover is the `takeover observed` header ("observed"), or ""
	// (absent from the JSON) when the service judges every lease's end.
	Takeover string `json:"takeover,omitempty"`
	// Nodes is the `service nodes N` header: how many independent nodes
	// the lock service has; 0 (absent from the JSON) for one service.
	Nodes int `json:"nodes,omitempty"`
	// Setup is the SQL that ran before the first step: the schema and the
	// header's enqueues.
	Setup []Statement `json:"setup"`
	// Start is every job row before the first step, in insertion order.
	Start []Row `json:"start"`
	// Steps are the steps in timeline order, one per step line.
	Steps []Step `json:"steps"`
	// Later are the leases still valid after the last step, each with the
	// instant it will end; no step follows to reach it.
	Later []Expiry `json:"later"`
	// Final is every job row after the last step, in insertion order.
	Final []Row `json:"final"`
	// Storage is every value of the fenced storage after the last step, in
	// key order; [] when nothing was written.
	Storage []Stored `json:"storage"`
	// Summary counts the expectations and the invariant checks.
	Summary Summary `json:"summary"`
	// Warnings are the timeline's warnings (Timeline.Warnings), each as
	// NAME:LINE:COL: message; absent when there are none.
	Warnings []string `json:"warnings,omitempty"`

	// maxBytes is the limit trace_bytes the run held the trace to (0:
	// limits.Default's); Encode holds its JSON to it.
	maxBytes int
}

// JobDecl is one `job` header line.
type JobDecl struct {
	// Line is the 1-based line of the declaration.
	Line int `json:"line"`
	// ID is the job's id (the business id: the receiver applies it once).
	ID string `json:"id"`
	// Qty is the quantity; 1 when the line gives none.
	Qty int64 `json:"qty"`
	// Deadline is the instant (ms) from which the job can no longer be
	// claimed or completed; 0 means none.
	Deadline int64 `json:"deadline"`
	// MaxAttempts is how many claims the job allows; 0 means unlimited.
	MaxAttempts int64 `json:"max_attempts"`
}

// Statement is one SQL statement the engine ran, as it ran it.
type Statement struct {
	// SQL is the statement's text, including transaction control (BEGIN
	// IMMEDIATE, COMMIT, ROLLBACK).
	SQL string `json:"sql"`
	// Args are its arguments in order, each a JSON string, number or null.
	Args []any `json:"args"`
}

// Row is one row of the jobs table as stored. Column names are the table's.
type Row struct {
	// ID is the job's id.
	ID string `json:"id"`
	// Qty is the job's quantity.
	Qty int64 `json:"qty"`
	// Owner is the worker named by the last claim; "" when unowned (never
	// claimed, or released).
	Owner string `json:"owner"`
	// LeaseUntil is the instant (ms) the owner's lease ends: valid iff
	// now < lease_until; 0 when unowned.
	LeaseUntil int64 `json:"lease_until"`
	// Token is the number of the latest claim (the fencing token); it only
	// grows.
	Token int64 `json:"token"`
	// Attempts is how many claims the job has had.
	Attempts int64 `json:"attempts"`
	// MaxAttempts is the attempts budget; 0 means unlimited.
	MaxAttempts int64 `json:"max_attempts"`
	// Deadline is the job's deadline (ms); 0 means none.
	Deadline int64 `json:"deadline"`
	// Status is the stored status: "pending", "leased", "done" or
	// "quarantined". A lease that has ended still says "leased".
	Status string `json:"status"`
	// Reason is why the job is quarantined ("attempts" or "deadline"),
	// else "".
	Reason string `json:"reason"`
	// Result is what the completing worker stored; "" until done.
	Result string `json:"result"`
}

// Cell names one changed cell of the jobs table.
type Cell struct {
	// Job is the row's id.
	Job string `json:"job"`
	// Column is the column's name as in Row's JSON ("owner", "token", ...);
	// a row that did not exist before the step reports every column.
	Column string `json:"column"`
}

// Lease is a lease as a worker holds it: what a claim, renew or send
// returned, or what the worker presented.
type Lease struct {
	// Job is the job's id.
	Job string `json:"job"`
	// Owner is the worker who holds (or presents) it.
	Owner string `json:"owner"`
	// Qty is the job's quantity.
	Qty int64 `json:"qty"`
	// Token is the claim's generation.
	Token int64 `json:"token"`
	// Attempt is the job's attempts count after the claim.
	Attempt int64 `json:"attempt"`
	// LeaseUntil is the instant (ms) the lease ends.
	LeaseUntil int64 `json:"lease_until"`
	// Believes is, for a lease granted on the lock service's clock (a
	// `service clock` line), the instant on its owner's own clock until
	// which the owner believes it valid: its own clock at the grant plus
	// the lease's length. nil otherwise (the JSON then has no "believes").
	Believes *int64 `json:"believes,omitempty"`
}

// Rejection is a refusal by one of the engine's rules, shown as presented
// against current.
type Rejection struct {
	// Op is the refused operation: "claim", "renew", "complete", "release"
	// or "write".
	Op string `json:"op"`
	// Reason is the rule (engine.Refusal): "not_found", "superseded",
	// "done", "quarantined", "held", "expired" or "fenced".
	Reason string `json:"reason"`
	// Presented is what the worker presented (for a claim: owner and job).
	Presented Lease `json:"presented"`
	// Current is the row as it stood when the operation was refused (a
	// write: the stored value, as id, owner, token and result).
	Current Row `json:"current"`
	// Now is the instant of the refusal; 0 for release, which takes no time.
	Now int64 `json:"now"`
	// Message is the engine's own text for it, e.g. "complete refused
	// (superseded): presented A#1, current B#2 until 2000, now 1001".
	Message string `json:"message"`
}

// StepOutcome is how a step (or one contender of a concurrent claim) ended:
// engine.Outcome's word (Kind) with what a trace says beside it.
type StepOutcome struct {
	// Kind (engine.Outcome) is "ok", "refused" (a rule refused it: see
	// Reason), "empty" (claim_next or send found no claimable job; state
	// or read found no row), "invalid" (the engine rejected an argument,
	// e.g. ttl=0; nothing changed), "failed" (a send whose delivery
	// failed; its lease was released) or "error" (the database failed, or
	// the engine answered out of contract).
	Kind string `json:"kind"`
	// Reason is the rule for "refused" (an engine.Refusal), else "".
	Reason string `json:"reason"`
	// Error is the error's text for "invalid", "failed" and "error", else "".
	Error string `json:"error"`
}

// Args are a step's arguments as the runner used them: what the line wrote
// and what the rules filled in. Zero means absent unless the field says
// otherwise.
type Args struct {
	// TTL is the lease duration asked for (claim, renew, send): the step's
	// ttl= or the `lease` header.
	TTL int64 `json:"ttl,omitempty"`
	// Token is the token presented (renew, complete, release, deliver).
	Token int64 `json:"token,omitempty"`
	// TokenFrom says where Token came from: "claim" (the actor's own latest
	// claim of the job), "token=" (the line overrides it) or "none" (the
	// actor holds no lease of the job: it presents token 0).
	TokenFrom string `json:"token_from,omitempty"`
	// Result is the result a complete stores.
	Result string `json:"result,omitempty"`
	// Took is how long a send takes (ms) before the courier hears back.
	Took int64 `json:"took,omitempty"`
	// Fail is true for a send whose delivery fails.
	Fail bool `json:"fail,omitempty"`
	// Qty, Deadline and MaxAttempts are an enqueue's job fields (Deadline
	// absolute).
	Qty         int64 `json:"qty,omitempty"`
	Deadline    int64 `json:"deadline,omitempty"`
	MaxAttempts int64 `json:"max_attempts,omitempty"`
	// Key and Value are a write's storage key and value (Key also a
	// read's).
	Key   string `json:"key,omitempty"`
	Value string `json:"value,omitempty"`
	// For is how long a pause lasts (ms): the actor does nothing in
	// [time, time+for).
	For int64 `json:"for,omitempty"`
	// Leases is what a `service leader-change` does to the valid leases:
	// "reset" or "keep".
	Leases string `json:"leases,omitempty"`
}

// Watch is a candidate's stopwatch on a held job's record (`takeover
// observed`): since when (true time) it has seen the record unchanged, how
// long it waits, and how long it has waited by its own clock.
type Watch struct {
	// Holder and Token name the lease the record holds.
	Holder string `json:"holder"`
	Token  int64  `json:"token"`
	// Since is the true instant the candidate first saw the record as it
	// stands; Until the true instant its wait ends, if the record stays.
	Since int64 `json:"since"`
	Until int64 `json:"until"`
	// Waited is how long the candidate has seen it unchanged by its own
	// clock; Wait the ttl of the holder's latest claim or renew.
	Waited int64 `json:"waited"`
	Wait   int64 `json:"wait"`
}

// Contender is one actor's claim in a concurrent claim.
type Contender struct {
	// Actor is the claiming worker.
	Actor string `json:"actor"`
	// Outcome is how its claim ended: ok for the winner, refused with the
	// rule's Reason (held, done, quarantined, not-found) for each of the
	// others. The first contender claims alone; the others claim at once
	// through Store.ClaimManyOutcomes.
	Outcome StepOutcome `json:"outcome"`
	// Lease is what it got; nil unless it won.
	Lease *Lease `json:"lease"`
}

// Receipt is the receiver's side of a send or deliver.
type Receipt struct {
	// Job is the business id delivered.
	Job string `json:"job"`
	// Qty is the quantity delivered.
	Qty int64 `json:"qty"`
	// Owner and Token are the lease the delivery carried.
	Owner string `json:"owner"`
	Token int64  `json:"token"`
	// Delivered is true when the receiver applied it, false for a resend of
	// a business id it already has (nothing added).
	Delivered bool `json:"delivered"`
	// Total is the sum of quantities the receiver holds after it.
	Total int64 `json:"total"`
	// Kept is the receiver's row for the business id after the delivery:
	// the quantity applied and the lease of the first delivery, which a
	// resend does not replace.
	Kept ReceiptRow `json:"kept"`
}

// ReceiptRow is one row of the receiver's table.
type ReceiptRow struct {
	Qty   int64  `json:"qty"`
	Owner string `json:"owner"`
	Token int64  `json:"token"`
}

// Stored is one value of the fenced storage, with the lease of the write
// that stored it.
type Stored struct {
	Key   string `json:"key"`
	Value string `json:"value"`
	Owner string `json:"owner"`
	Token int64  `json:"token"`
}

// Expiry is the instant a lease ended: the holder's clock reached its
// lease_until while nobody had completed, released or replaced it. It is
// an event, not an operation.
type Expiry struct {
	// At is the instant (ms, true time) the holder's clock reads
	// lease_until: the lease's lease_until, unless the holder's clock is
	// off.
	At int64 `json:"at"`
	// Job, Owner and Token identify the lease that ended.
	Job   string `json:"job"`
	Owner string `json:"owner"`
	Token int64  `json:"token"`
}

// StepVerdict is one invariant check after a step as a trace carries it:
// check.Verdict's judgement, and whether the step announced it.
type StepVerdict struct {
	// Invariant names the invariant, e.g. "one valid lease per job".
	Invariant string `json:"invariant"`
	// OK is true when it holds.
	OK bool `json:"ok"`
	// Detail explains a violation; "" when it holds.
	Detail string `json:"detail"`
	// Expected is true for a violation the step's expectation announced
	// (violates=NAME): the story shows it on purpose, and it does not fail
	// the run.
	Expected bool `json:"expected,omitempty"`
}

// ExpectResult is the outcome of a step's `-> …` expectation.
type ExpectResult struct {
	// Text is the expectation as written after "->".
	Text string `json:"text"`
	// OK is true when every part held.
	OK bool `json:"ok"`
	// Expected and Got are the failed parts side by side (outcome words and
	// field=value pairs); both "" when OK.
	Expected string `json:"expected"`
	Got      string `json:"got"`
	// Message is "NAME:LINE: expected X, got Y" for a failure, else "".
	Message string `json:"message"`
}

// Step is one step line as it ran.
type Step struct {
	// Index is the step's 0-based position among the steps.
	Index int `json:"index"`
	// Line is the step's 1-based line in the source.
	Line int `json:"line"`
	// Source is the line as written, trimmed.
	Source string `json:"source"`
	// Note is what the author wrote for readers about this step (the
	// comment lines just above it, and a comment at its end), lines joined
	// by "\n"; "" if none.
	Note string `json:"note"`
	// Time is the instant (ms, true time) the step runs at.
	Time int64 `json:"time"`
	// Now is the instant on the actor's own clock, which the engine is
	// given: Time plus the actor's clock offset (Time when its clock is
	// right, and for a step without an actor).
	Now int64 `json:"now"`
	// End is the clock after the step: Time, or Time+took for a send that
	// is one step (a send split in two, see Heard, ends its first at Time).
	End int64 `json:"end"`
	// Sent is, for a message in flight (arrives=), the instant its actor
	// sent it; Time is when it arrived. nil for any other step (the JSON
	// then has no "sent").
	Sent *int64 `json:"sent,omitempty"`
	// Heard is, for a send whose courier hears back at a later step (other
	// steps come between its claim and its complete), the instant it hears
	// back: this step claims and delivers, and a complete (a release, for
	// fail=true) of the same line at Heard ends it. nil for any other step
	// (the JSON then has no "heard").
	Heard *int64 `json:"heard,omitempty"`
	// Actors is the acting worker, or the contenders of a concurrent claim
	// in the order the database admitted them (the order written); [] for
	// wait.
	Actors []string `json:"actors"`
	// Op is the operation (engine.Op, or the timeline's pause, crash and
	// wait): "claim" (by id), "claim_next", "claim_many", "renew",
	// "complete", "release", "send", "deliver", "enqueue", "state",
	// "write", "read", "reopen", "pause", "crash" or "wait".
	Op string `json:"op"`
	// Job is the job the step names, or, for claim-next and send, the job
	// it got; "" if none.
	Job string `json:"job"`
	// Args are the step's arguments as used.
	Args Args `json:"args"`
	// Outcome is how the step ended. A concurrent claim is "ok" when a
	// contender won, "error" when any contender's claim failed or went
	// unanswered, and otherwise the first contender's refusal.
	Outcome StepOutcome `json:"outcome"`
	// Lease is the lease the step granted or renewed (claim, claim-next,
	// send, the winner of a concurrent claim); nil if none.
	Lease *Lease `json:"lease"`
	// Presented is the lease the actor presented (renew, complete, release,
	// deliver); nil for the other ops.
	Presented *Lease `json:"presented"`
	// Rejection is the refusal, presented against current; nil unless the
	// outcome is "refused" (for a concurrent claim: see Contenders).
	Rejection *Rejection `json:"rejection"`
	// Contenders are the claims of a concurrent claim, one per actor in
	// Actors order; nil for other ops.
	Contenders []Contender `json:"contenders"`
	// Receipt is the receiver's side of a send or deliver; nil for other
	// ops and for a send that delivered nothing.
	Receipt *Receipt `json:"receipt"`
	// Enqueued is an enqueue's answer: true if it added the job, false if a
	// job with that id existed (nothing changed); nil for other ops.
	Enqueued *bool `json:"enqueued"`
	// State is the row a state step read, as Store.Get returned it; nil
	// for other ops and when there is no such job.
	State *Row `json:"state"`
	// Stored is the storage's value under the key after a write (the one
	// that refused it, for a refused write) or as a read found it; nil
	// for other ops and for a key with no value.
	Stored *Stored `json:"stored"`
	// Forgot are the leases a crash made its worker forget (they stay in
	// the rows until they end); nil for other ops.
	Forgot []Lease `json:"forgot"`
	// Renewed are the leases a `service leader-change reset` renewed for
	// their whole ttl, in job order; absent for other steps.
	Renewed []Lease `json:"renewed,omitempty"`
	// Nodes are, under `service nodes`, each node's answer to a claim,
	// renew or release of the lock, in node order; absent otherwise.
	Nodes []NodeCall `json:"nodes,omitempty"`
	// Watch is, for a claim under `takeover observed` of a job another
	// holds, the candidate's stopwatch on the job's record; absent for
	// other steps.
	Watch *Watch `json:"watch,omitempty"`
	// Explain is one plain sentence saying what happened and why, in Lang.
	Explain string `json:"explain"`
	// SQL is every statement the engine ran for the step, in the order the
	// database ran them.
	SQL []Statement `json:"sql"`
	// Expired are the leases that ended after the previous step's End and
	// at or before this step's End, in order of At (those with At > Time
	// ended during this step, e.g. during a slow send).
	Expired []Expiry `json:"expired"`
	// Rows are the job rows the step changed, whole, as they stand after
	// it, in insertion order; the rows it did not change stand as before.
	// TableAt rebuilds the table after any step.
	Rows []Row `json:"rows"`
	// Gone are the ids of rows the step removed (only a broken engine
	// removes one: a schema reset on reopen); [] otherwise.
	Gone []string `json:"gone"`
	// Changed are the cells that differ from the rows before the step, in
	// row order, then column order.
	Changed []Cell `json:"changed"`
	// Verdicts are the invariant checks after the step.
	Verdicts []StepVerdict `json:"verdicts"`
	// Expect is the result of the step's expectation; nil if it has none.
	Expect *ExpectResult `json:"expect"`
	// Predict is what a learner chooses from at a step marked for a
	// prediction (StepLine.Predict), and the right choice; absent from
	// the JSON of an unmarked step.
	Predict *Prediction `json:"predict,omitempty"`
}

// Prediction is a step's question for a learner: what happens? Each
// choice, and the answer, is an outcome as an expectation writes it
// ("ok", "refused held", "empty").
type Prediction struct {
	// Choices are the outcomes a learner is offered, in the order the
	// language lists them: ok and the refusals a lesson is about (held,
	// expired, superseded, fenced, done), the operation's other outcomes
	// but invalid, and the answer wherever it is none of these.
	Choices []string `json:"choices"`
	// Answer is the outcome the step had.
	Answer string `json:"answer"`
}

// Summary sums up a run.
type Summary struct {
	// Steps is the number of steps run.
	Steps int `json:"steps"`
	// Expectations is the number of steps with an expectation; Failed of
	// them did not hold.
	Expectations int `json:"expectations"`
	Failed       int `json:"failed"`
	// Violations is the number of failed invariant verdicts over all
	// steps that no expectation announced; Announced counts those it did
	// (violates=NAME).
	Violations int `json:"violations"`
	Announced  int `json:"announced"`
	// Passed is true when every expectation held and no invariant was
	// violated unannounced.
	Passed bool `json:"passed"`
	// Failures are the failed expectations' messages, in step order.
	Failures []string `json:"failures"`
}

// Encode writes t as indented JSON with a final newline, the one form every
// consumer compares byte for byte (golden files, the CLI, the browser):
// the bytes encoding/json's Encoder gives with SetIndent("", "  ") and
// SetEscapeHTML(false), so "->" stays "->" (tracejson.go writes them).
//
// Encode writes nothing and returns an *limits.ExceededError when the JSON
// would pass the limit trace_bytes the run was held to (Options.TraceBytes).
func (t *Trace) Encode(w io.Writer) error {
	return t.EncodeContext(context.Background(), w)
}

// EncodeContext is Encode that stops, writing nothing, once ctx ends.
func (t *Trace) EncodeContext(ctx context.Context, w io.Writer) error {
	b, err := t.appendJSON(ctx, nil)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// limit is the limit trace_bytes t is held to.
func (t *Trace) limit() limits.Row {
	row := limits.Default.Row("trace_bytes")
	if t.maxBytes > 0 {
		row.Value = int64(t.maxBytes)
	}
	return row
}
