package timeline

import (
	"strings"
	"unicode"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/internal/lang"
)

// The header lines, before the first step: `lease DURATION`,
// `job ID [qty=N] [deadline=T] [max_attempts=N]`, `clock WORKER OFFSET`,
// `service clock OFFSET` and `epoch T`.

func isHeaderWord(s string) bool { return containsString(headerWords, s) }

// headerWords are the words a header line starts with.
var headerWords = []string{"lease", "job", "clock", "epoch", "service", "storage", "receiver", "takeover"}

// unknownHeader reports whether ll reads as a header the language lacks: a
// line whose first word starts with a letter and whose second is no verb
// (a step that forgot its time, "A claim j", is a malformed step instead).
func unknownHeader(ll lexed) bool {
	w := ll.words
	if len(w) < 2 || !unicode.IsLetter([]rune(w[0].text)[0]) {
		return false
	}
	if len(w) >= 2 {
		if _, verb := verbArgs[Verb(w[1].text)]; verb {
			return false
		}
	}
	if len(w) >= 3 {
		if _, verb := verbArgs[Verb(w[2].text)]; verb {
			return false
		}
	}
	return true
}

func (p *parser) header(ll lexed) {
	w := ll.words[0]
	switch {
	case p.steps > 0:
		if w.text == "job" {
			p.errorf(w.col, "%q lines come before the first step (enqueue adds a job mid-timeline)", w.text)
			return
		}
		p.errorf(w.col, "%q lines come before the first step", w.text)
	case ll.arrow != 0:
		p.errorf(ll.arrow, "a header line has no expectation")
	case w.text == "lease":
		p.leaseHeader(ll.words)
	case w.text == "job":
		p.jobHeader(ll.words)
	case w.text == "epoch":
		p.epochHeader(ll.words)
	case w.text == "service":
		p.serviceHeader(ll.words)
	case w.text == "storage":
		p.storageHeader(ll.words)
	case w.text == "receiver":
		p.receiverHeader(ll.words)
	case w.text == "takeover":
		p.takeoverHeader(ll.words)
	default:
		p.clockHeader(ll.words)
	}
}

func (p *parser) leaseHeader(w []token) {
	if p.leaseLine != 0 {
		p.errorf(w[0].col, "a second lease line (the first is line %d)", p.leaseLine)
		return
	}
	p.leaseLine = p.line // even if it is malformed: the claims after it are not told they lack one
	if len(w) == 3 && isUnit(w[2].text) {
		p.errorf(w[2].col, "no space between a number and its unit: write `lease %s%s`", w[1].text, w[2].text)
		return
	}
	if len(w) != 2 {
		p.errorf(w[0].col, "a lease line is `lease DURATION`, e.g. `lease 1000ms`")
		return
	}
	d, ok := p.duration(w[1], "lease", "lease "+w[1].text)
	if !ok {
		return
	}
	if d <= 0 {
		p.errorf(w[1].col, "lease must be more than 0 ms")
		return
	}
	p.tl.Lease = d
}

// epochHeader reads `epoch T`: the timeline's instants are real ones (Unix
// ms, say), all at or after T; the limit max_time bounds them from T, and T
// is at most 2^53-1 less three max_time.
func (p *parser) epochHeader(w []token) {
	switch {
	case p.tl.Epoch != 0:
		p.errorf(w[0].col, "a second epoch line")
		return
	case len(p.tl.Jobs) > 0:
		p.errorf(w[0].col, "the epoch line comes before the job lines (their deadlines count from it)")
		return
	case len(w) != 2:
		p.errorf(w[0].col, "an epoch line is `epoch T`, T the instant in ms the times start at, e.g. `epoch 1764806400000`")
		return
	}
	t, ok := parseMillis(w[1].text)
	if !ok || t <= 0 {
		p.errorf(w[1].col, "malformed epoch %q: an instant in ms after 0, e.g. 1764806400000", w[1].text)
		return
	}
	if latest := engine.MicrosFrom - 1 - 3*p.lim.MaxTime; t > latest {
		p.errorf(w[1].col, "epoch %d ms: the latest epoch is %d (its instants, a clock's offset and a lease from them stay under 10^14 ms, the year 5138, past which the engine takes a time for Unix microseconds)", t, latest)
		return
	}
	p.tl.Epoch, p.prevEnd, p.prevTime = t, t, t
}

// jobFields are the fields a job line and an enqueue step take.
var jobFields = []string{"qty", "deadline", "max_attempts"}

func (p *parser) jobHeader(w []token) {
	if len(w) < 2 || strings.Contains(w[1].text, "=") {
		p.errorf(w[0].col, "a job line is `job ID [qty=N] [deadline=T] [max_attempts=N]`")
		return
	}
	id, ok := p.ident(w[1], "job")
	if !ok {
		return
	}
	if line, dup := p.known[id]; dup {
		p.errorf(w[1].col, "job %s is declared twice (first on line %d)", id, line)
		return
	}
	if !p.knowJob(id, w[1].col) { // known from here on, even if a field is wrong: no cascade
		return
	}
	d := JobDecl{Line: p.line, ID: id, Qty: 1}
	kv, ok := p.keyValues(w[2:], jobFields, "a job line")
	if !ok {
		return
	}
	f, ok := p.jobFieldValues(kv, p.tl.Epoch) // deadline=+D counts from the epoch (0 without one)
	if !ok {
		return
	}
	if f.qty > 0 {
		d.Qty = f.qty
	}
	d.Deadline, d.MaxAttempts = f.deadline, f.maxAttempts
	p.tl.Jobs = append(p.tl.Jobs, d)
}

// jobFields are a job's fields as given by a job line or an enqueue step.
type jobFieldSet struct{ qty, deadline, maxAttempts int64 }

// jobFieldValues reads qty=, deadline= and max_attempts=; a deadline
// written +D is D after at (the enqueue's instant).
func (p *parser) jobFieldValues(kv []keyValue, at int64) (jobFieldSet, bool) {
	var f jobFieldSet
	for _, a := range kv {
		var ok bool
		switch a.key {
		case "qty":
			f.qty, ok = p.count(a.val, a.key)
		case "max_attempts":
			f.maxAttempts, ok = p.count(a.val, a.key)
		case "deadline":
			f.deadline, ok = p.deadline(a.val, at)
		}
		if !ok {
			return f, false
		}
	}
	return f, true
}

// deadline reads an absolute deadline (1500ms) or one relative to the
// enqueue (+1500ms).
func (p *parser) deadline(t token, at int64) (int64, bool) {
	rel := strings.HasPrefix(t.text, "+")
	if rel {
		t = token{text: t.text[1:], col: t.col + 1}
	}
	d, ok := parseMillis(t.text)
	if !ok {
		p.errorf(t.col, "%s", malformedTime("deadline", t.text, lang.P("a duration like 1000ms, 1.5s or 1000")))
		return 0, false
	}
	if !rel {
		return d, d == 0 || p.withinInstant(t.col, d, "deadline")
	}
	if !p.withinTime(t.col, d, "deadline") {
		return 0, false
	}
	if d == 0 {
		p.errorf(t.col, "deadline=+0 is the enqueue's own instant: nothing could claim the job")
		return 0, false
	}
	return d + at, p.withinInstant(t.col, d+at, "deadline")
}

func (p *parser) clockHeader(w []token) {
	if len(w) != 3 {
		p.errorf(w[0].col, "a clock line is `clock WORKER OFFSET`, e.g. `clock B +200ms` (B's clock is 200 ms ahead) or `clock B -200ms`")
		return
	}
	worker, ok := p.ident(w[1], "worker")
	if !ok {
		return
	}
	if _, dup := p.offsets[worker]; dup {
		p.errorf(w[1].col, "%s's clock is given twice", worker)
		return
	}
	off, ok := p.offset(w[2], worker)
	if !ok {
		return
	}
	p.offsets[worker] = off
	p.tl.Clocks = append(p.tl.Clocks, ClockDecl{Line: p.line, Worker: worker, Offset: off})
}

// offset reads a clock offset, +D ahead of true time or -D behind, and
// warns of one with no sign (read as ahead); whose names the clock.
func (p *parser) offset(t token, whose any) (int64, bool) {
	text, sign := t.text, int64(1)
	switch {
	case strings.HasPrefix(text, "+"):
		text = text[1:]
	case strings.HasPrefix(text, "-"):
		text, sign = text[1:], -1
	}
	col := t.col + 1
	if text == t.text {
		col--
	}
	off, ok := p.millis(token{text: text, col: col}, "clock offset")
	if !ok {
		return 0, false
	}
	if text == t.text && off != 0 {
		p.warnf(t.col, "clock offset %s has no sign and is read as ahead: write +%s (%s's clock ahead) or -%s (behind)",
			text, text, whose, text)
	}
	return sign * off, true
}

// receiverHeader reads `receiver idempotent` (the default) or `receiver
// not-idempotent`.
func (p *parser) receiverHeader(w []token) {
	kinds := []string{"idempotent", "not-idempotent"}
	switch {
	case len(w) != 2:
		p.errorf(w[0].col, "a receiver line is `receiver KIND`, KIND one of %s", strings.Join(kinds, ", "))
	case p.receiverLine != 0:
		p.errorf(w[0].col, "a second receiver line (the first is line %d)", p.receiverLine)
	case !containsString(kinds, w[1].text):
		p.errorf(w[1].col, "unknown receiver %q (%s)%s", w[1].text, strings.Join(kinds, ", "), didYouMean(w[1].text, kinds))
	default:
		p.receiverLine = p.line
		p.tl.ReceiverNotIdempotent = w[1].text == "not-idempotent"
	}
}

// takeoverHeader reads `takeover observed`: a candidate judges a held
// lease's end on its own stopwatch from the last change of the record it
// observed, and takes over with a compare-and-swap on that record.
func (p *parser) takeoverHeader(w []token) {
	switch {
	case len(w) != 2 || w[1].text != TakeoverObserved:
		p.errorf(w[0].col, "a takeover line is `takeover observed`: a candidate takes a held job over only once it has seen the job's record unchanged for a whole lease on its own stopwatch (client-go's observed time, the DynamoDB lock client's record version)")
	case p.tl.Takeover != "":
		p.errorf(w[0].col, "a second takeover line")
	default:
		p.tl.Takeover = TakeoverObserved
	}
}

// storageHeader reads `storage KIND`: fenced, sequencer or unfenced.
func (p *parser) storageHeader(w []token) {
	switch {
	case len(w) != 2:
		p.errorf(w[0].col, "a storage line is `storage KIND`, KIND one of %s", strings.Join(storageKinds, ", "))
	case p.tl.Storage != "":
		p.errorf(w[0].col, "a second storage line")
	case !containsString(storageKinds, w[1].text):
		p.errorf(w[1].col, "unknown storage %q (%s)%s", w[1].text, strings.Join(storageKinds, ", "), didYouMean(w[1].text, storageKinds))
	default:
		p.tl.Storage = w[1].text
	}
}

// serviceHeader reads `service clock OFFSET`: the lock service's clock,
// on which every lease is granted and judged; the workers' clocks then
// shape only what each believes.
func (p *parser) serviceHeader(w []token) {
	switch {
	case len(w) == 2 && w[1].text == "forgets":
		if p.tl.ServiceForgets {
			p.errorf(w[0].col, "a second service forgets line")
			return
		}
		p.tl.ServiceForgets = true
		return
	case len(w) == 3 && w[1].text == "lock-delay":
		p.lockDelayHeader(w)
		return
	case len(w) == 3 && w[1].text == "nodes":
		p.nodesHeader(w)
		return
	case len(w) == 4 && w[1].text == "clock":
		p.nodeClockHeader(w)
		return
	case p.tl.Nodes != 0 && len(w) == 3 && w[1].text == "clock":
		p.errorf(w[0].col, "a service of several nodes has a clock per node: `service clock nK OFFSET`, e.g. `service clock n3 +200ms`")
		return
	case len(w) != 3 || w[1].text != "clock":
		p.errorf(w[0].col, "a service line is `service clock OFFSET`, e.g. `service clock +200ms` (the lock service's clock, which judges every lease, is 200 ms ahead) or `service clock +0ms`, `service forgets` (a reopen restarts it with no leases and no tokens) or `service lock-delay DURATION` (a job whose lease ran out is kept that long)")
		return
	case p.tl.Service != nil:
		p.errorf(w[0].col, "a second service clock line (the first is line %d)", p.tl.Service.Line)
		return
	}
	off, ok := p.offset(w[2], lang.Word("the service"))
	if !ok {
		return
	}
	p.tl.Service = &ClockDecl{Line: p.line, Worker: "service", Offset: off}
}

// lockDelayHeader reads `service lock-delay DURATION`: the service keeps a
// job that long after a lease of it ran out (engine.WithLockDelay).
func (p *parser) lockDelayHeader(w []token) {
	if p.tl.LockDelayLine != 0 {
		p.errorf(w[0].col, "a second service lock-delay line (the first is line %d)", p.tl.LockDelayLine)
		return
	}
	d, ok := p.duration(w[2], "lock-delay", "service lock-delay "+w[2].text)
	if !ok {
		return
	}
	p.tl.LockDelay, p.tl.LockDelayLine = d, p.line
}
