package timeline

import (
	"math"
	"slices"
	"strings"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/internal/lang"
)

// A step line: TIME ACTOR VERB [OBJECT] [key=value ...] [-> expectation],
// or TIME wait.

// verbArgs are the key=value arguments each verb takes.
var verbArgs = map[Verb][]string{
	VerbClaim:    {"ttl", "nodes"},
	VerbRenew:    {"ttl", "token", "arrives", "nodes"},
	VerbComplete: {"token", "result", "arrives"},
	VerbRelease:  {"token", "arrives", "nodes"},
	VerbSend:     {"ttl", "took", "fail"},
	VerbDeliver:  {"token", "arrives"},
	VerbEnqueue:  jobFields,
	VerbState:    {},
	VerbWrite:    {"key", "value", "token", "arrives"},
	VerbRead:     {},
	VerbPause:    {},
	VerbCrash:    {},
	VerbWait:     {},
	VerbReopen:   {},
}

// argsOf is the arguments verb takes in this timeline: nodes= only under
// `service nodes`.
func (p *parser) argsOf(verb Verb) []string {
	if p.tl.Nodes != 0 {
		return verbArgs[verb]
	}
	return slices.DeleteFunc(slices.Clone(verbArgs[verb]), func(k string) bool { return k == "nodes" })
}

// verbObject is what follows a verb: a job, a storage key, a duration, or
// nothing.
type verbObject int

const (
	objNone        verbObject = iota
	objJob                    // required
	objOptionalJob            // claim: without one, the oldest claimable job
	objKey                    // read
	objDuration               // pause
)

var verbObjects = map[Verb]verbObject{
	VerbClaim: objOptionalJob, VerbRenew: objJob, VerbComplete: objJob, VerbRelease: objJob,
	VerbDeliver: objJob, VerbEnqueue: objJob, VerbState: objJob, VerbWrite: objJob,
	VerbRead: objKey, VerbPause: objDuration,
}

// usage is how each verb is written, for messages.
var usage = map[Verb]string{
	VerbRenew: "renew JOB", VerbComplete: "complete JOB", VerbRelease: "release JOB",
	VerbDeliver: "deliver JOB", VerbEnqueue: "enqueue JOB", VerbState: "state JOB",
	VerbWrite: "write JOB [key=K] [value=V]", VerbRead: "read KEY", VerbPause: "pause DURATION (e.g. pause 2s)",
}

func (p *parser) step(ll lexed, source, note string) {
	w := ll.words
	s := StepLine{Line: p.line, Source: source, Note: note}
	if !p.noArrowTypos(w) || !p.stepTime(w, &s) {
		return
	}
	if len(w) > 1 && w[1].text == string(VerbWait) {
		p.waitStep(ll, s)
		return
	}
	if len(w) > 2 && w[1].text == "service" && (w[2].text == string(VerbJump) || w[2].text == string(VerbDrift)) {
		p.serviceStep(ll, s)
		return
	}
	if len(w) > 2 && w[1].text != "service" && (w[2].text == string(VerbJump) || w[2].text == string(VerbDrift)) {
		p.workerClockStep(ll, s)
		return
	}
	if len(w) > 2 && w[1].text == "service" && w[2].text == string(VerbLeaderChange) {
		p.leaderChangeStep(ll, s)
		return
	}
	if len(w) > 1 && isVerb(w[1].text) && (len(w) < 3 || !isVerb(w[2].text)) {
		p.errorf(w[1].col, "%s needs an actor before it: `TIME ACTOR %s`", w[1].text, w[1].text)
		return
	}
	if len(w) < 3 {
		p.errorf(w[0].col, "a step is `TIME ACTOR VERB [JOB] [key=value ...] [-> expectation]`, or `TIME wait`")
		return
	}
	verb := Verb(w[2].text)
	if _, known := verbArgs[verb]; !known {
		names := verbNames()
		if w[1].text == "service" { // `TIME service jump|drift|leader-change …` as well
			names = append(names, string(VerbJump), string(VerbDrift), string(VerbLeaderChange))
		}
		if hint := didYouMean(w[2].text, names); hint.Format() != "" || !isHeaderWord(w[1].text) {
			p.errorf(w[2].col, "unknown verb %q (verbs: %s)%s", w[2].text, verbList(), hint)
		} else {
			p.timedHeader(w)
		}
		return
	}
	s.Verb = verb
	if !p.stepActors(w[1], &s) {
		return
	}
	rest, ok := p.stepObject(w, &s)
	if !ok {
		return
	}
	kv, ok := p.keyValues(rest, p.argsOf(verb), string(verb))
	if !ok || !p.stepArgs(kv, &s, w) || !p.stepDefaults(kv, &s, w) {
		return
	}
	if p.tl.Nodes != 0 && !p.nodeStep(&s, w, ll) {
		return
	}
	if p.tl.Takeover != "" && (s.Op() == engine.OpClaimNext || s.Op() == engine.OpClaimMany || s.Verb == VerbSend) {
		p.errorf(w[2].col, "under `takeover observed` a candidate claims a job by id, one at a time: it watches that job's record (claim-next, send and a concurrent claim would let the service judge the lease's end)")
		return
	}
	if ll.arrow != 0 {
		more, ok := p.predictMark(&ll, &s)
		if !ok {
			return
		}
		if more {
			e, ok := p.expectation(ll, &s)
			if !ok {
				return
			}
			s.Expect = e
		}
	}
	p.record(s, w)
}

// PredictMark is the word after "->" that marks a step for a learner's
// prediction (StepLine.Predict).
const PredictMark = "?"

// predictMark reads the mark `?`, when it is the first word after "->":
// it marks the step for a learner's prediction and is no part of the
// expectation, which may follow it. It reports whether words follow
// for an expectation, and false for ok when the step cannot be marked
// (its operation has no outcome to predict) or the mark is run into the
// next word.
func (p *parser) predictMark(ll *lexed, s *StepLine) (more, ok bool) {
	if len(ll.expect) == 0 || !strings.HasPrefix(ll.expect[0].text, PredictMark) {
		return true, true
	}
	mark := ll.expect[0]
	if mark.text != PredictMark {
		p.errorf(mark.col, "the prediction mark ? is a word of its own: `-> ? %s`", strings.TrimPrefix(mark.text, PredictMark))
		return false, false
	}
	if outcomesFor(s.Op()) == nil {
		p.errorf(mark.col, "%s has no outcome to predict", s.Verb)
		return false, false
	}
	s.Predict = true
	ll.expect = ll.expect[1:]
	ll.expectText = strings.TrimSpace(strings.TrimPrefix(ll.expectText, PredictMark))
	return len(ll.expect) > 0, true
}

// timedHeader refuses a header line written with a time, as a step
// (`500ms clock A +5s`): its words after the time are the header line to
// move above the steps.
func (p *parser) timedHeader(w []token) {
	texts := make([]string, 0, len(w)-1)
	for _, t := range w[1:] {
		texts = append(texts, t.text)
	}
	line := strings.Join(texts, " ")
	if w[1].text == "job" {
		p.errorf(w[1].col, "%q lines come before the first step, with no time: write `%s` above the steps (enqueue adds a job mid-timeline)", w[1].text, line)
		return
	}
	p.errorf(w[1].col, "%q lines come before the first step, with no time: write `%s` above the steps", w[1].text, line)
}

// isVerb tells whether word is a verb a step's actor takes.
func isVerb(word string) bool {
	_, known := verbArgs[Verb(word)]
	return known
}

// noArrowTypos refuses the arrows people write for "->".
func (p *parser) noArrowTypos(w []token) bool {
	for _, t := range w {
		if strings.HasPrefix(t.text, "=>") || strings.HasPrefix(t.text, "→") {
			p.errorf(t.col, "an expectation starts with -> (a hyphen and >), not %s", string([]rune(t.text)[:min(2, len([]rune(t.text)))]))
			return false
		}
	}
	return true
}

// stepTime reads the step's time: absolute (1000ms, 1.5s, 1000) or
// relative to where the previous step left the clock (+200ms).
func (p *parser) stepTime(w []token, s *StepLine) bool {
	t := w[0]
	text, rel := t.text, strings.HasPrefix(t.text, "+")
	if rel {
		text = text[1:]
	}
	if len(w) > 1 && allDigits(strings.TrimSuffix(text, ".")) && isUnit(w[1].text) {
		p.errorf(w[1].col, "no space between a number and its unit: write %s%s", t.text, w[1].text)
		return false
	}
	ms, ok := parseMillis(text)
	if !ok {
		p.errorf(t.col, "%s", malformedTime("time", t.text, lang.P("a step starts with a time like 0ms, 1.5s, 1000 or +200ms")))
		return false
	}
	if rel {
		if ms > math.MaxInt64-p.prevEnd {
			ms = math.MaxInt64 - p.prevEnd
		}
		ms += p.prevEnd
	} else if ms < p.tl.Epoch {
		p.errorf(t.col, "time %d ms is before the epoch, %d ms: with an epoch line, times are real instants", ms, p.tl.Epoch)
		return false
	} else if ms < p.prevTime {
		if p.prevTime == p.prevEnd {
			p.errorf(t.col, "time goes backwards: %d ms is before %d ms, where the previous step ended", ms, p.prevEnd)
		} else {
			p.errorf(t.col, "time goes backwards: %d ms is before %d ms, where the previous step began", ms, p.prevTime)
		}
		return false
	}
	if !p.withinInstant(t.col, ms, "time") {
		return false
	}
	s.Time = ms
	p.prevEnd, p.prevTime = ms, ms // even if the rest of the line is bad, later times count from here
	return true
}

func (p *parser) waitStep(ll lexed, s StepLine) {
	w := ll.words
	if len(w) > 2 {
		p.errorf(w[2].col, "wait takes nothing: `TIME wait` lets time pass to TIME")
		return
	}
	s.Verb = VerbWait
	if ll.arrow != 0 {
		p.errorf(ll.arrow, "wait has no outcome to expect")
		return
	}
	p.tl.Steps = append(p.tl.Steps, s)
}

// serviceStep reads `TIME service jump ±D` and `TIME service drift
// ±Rms/s`: the lock service's clock jumps, or starts drifting, at TIME.
func (p *parser) serviceStep(ll lexed, s StepLine) {
	w := ll.words
	verb := Verb(w[2].text)
	s.Verb = verb
	if p.tl.Nodes != 0 {
		if len(w) < 4 || !p.tl.isNode(w[3].text) {
			p.errorf(w[2].col, "with `service nodes`, a %s names the node whose clock moves: `TIME service %s nK …`, nK one of n1 to n%d", verb, verb, p.tl.Nodes)
			return
		}
		s.Node = w[3].text
		w = append(w[:3:3], w[4:]...)
	}
	switch {
	case p.tl.Service == nil && p.tl.Nodes == 0:
		p.errorf(w[1].col, "a service %s moves the lock service's clock: declare it first with a `service clock OFFSET` line (e.g. `service clock +0ms`)", verb)
		return
	case ll.arrow != 0:
		p.errorf(ll.arrow, "a service %s has no outcome to expect", verb)
		return
	case len(w) != 4 && verb == VerbJump:
		p.errorf(w[2].col, "a jump is `TIME service jump ±D`, e.g. `500ms service jump +300ms` (the service's clock jumps 300 ms ahead) or `-300ms`")
		return
	case len(w) != 4:
		p.errorf(w[2].col, "a drift is `TIME service drift ±Rms/s`, e.g. `500ms service drift +100ms/s` (the service's clock gains 100 ms each second) or `+0ms/s` (it stops drifting)")
		return
	}
	p.clockMove(w[3], s)
}

// workerClockStep reads `TIME WORKER jump ±D` and `TIME WORKER drift
// ±Rms/s`: a worker's own clock jumps, or starts drifting, at TIME. It is
// no action of the worker's: a paused worker's clock moves too.
func (p *parser) workerClockStep(ll lexed, s StepLine) {
	w := ll.words
	s.Verb = Verb(w[2].text)
	actor, ok := p.ident(w[1], "actor")
	switch {
	case !ok:
		return
	case p.tl.Nodes != 0:
		p.errorf(w[1].col, "under `service nodes` each node judges the lock on its own clock: a worker's clock moves nothing there (move a node's: `TIME service %s nK …`)", s.Verb)
		return
	case ll.arrow != 0:
		p.errorf(ll.arrow, "a clock's %s has no outcome to expect", s.Verb)
		return
	case len(w) != 4 && s.Verb == VerbJump:
		p.errorf(w[2].col, "a worker's jump is `TIME WORKER jump ±D`, e.g. `500ms B jump +5s` (B's clock jumps 5 s ahead) or `-5s`")
		return
	case len(w) != 4:
		p.errorf(w[2].col, "a worker's drift is `TIME WORKER drift ±Rms/s`, e.g. `500ms B drift +100ms/s` (B's clock gains 100 ms each second) or `+0ms/s` (it stops drifting)")
		return
	}
	s.Actors, s.Node = []string{actor}, actor
	if p.clockMove(w[3], s) && !p.actorSeen[actor] {
		p.actorSeen[actor] = true
		p.tl.Actors = append(p.tl.Actors, actor)
	}
}

// clockMove reads the amount of a jump (±D) or a drift (±Rms/s) of the
// clock s.Node names ("" the service's) and keeps the step; it reports
// whether it did.
func (p *parser) clockMove(arg token, s StepLine) bool {
	verb := s.Verb
	sign := int64(1)
	switch {
	case strings.HasPrefix(arg.text, "+"):
	case strings.HasPrefix(arg.text, "-"):
		sign = -1
	default:
		if s.Node == "" {
			p.errorf(arg.col, "%s %s has no sign: write +%s (the service's clock ahead) or -%s (behind)", verb, arg.text, arg.text, arg.text)
		} else {
			p.errorf(arg.col, "%s %s has no sign: write +%s (the clock ahead) or -%s (behind)", verb, arg.text, arg.text, arg.text)
		}
		return false
	}
	num := token{text: arg.text[1:], col: arg.col + 1}
	if verb == VerbJump {
		d, ok := p.millis(num, "jump")
		if !ok {
			return false
		}
		if d == 0 {
			p.errorf(num.col, "a jump of 0 ms moves nothing")
			return false
		}
		s.Jump = sign * d
	} else {
		rate, ok := strings.CutSuffix(num.text, "ms/s")
		n, isNum := parseMillis(rate)
		switch {
		case !ok || !isNum || !allDigits(rate):
			p.errorf(num.col, "malformed drift %q: a rate in whole ms per second, like +100ms/s or -20ms/s", arg.text)
			return false
		case n >= 1000 && sign < 0:
			if s.Node == "" {
				p.errorf(num.col, "a drift of %s would stop or reverse the service's clock: it is under 1000 ms/s", arg.text)
			} else {
				p.errorf(num.col, "a drift of %s would stop or reverse the clock: it is under 1000 ms/s", arg.text)
			}
			return false
		case n >= 1000:
			p.errorf(num.col, "a drift of %s is too fast: a rate is under 1000 ms/s, ahead or behind", arg.text)
			return false
		}
		s.Drift = sign * n
	}
	idx := len(p.tl.Steps)
	p.tl.Steps = append(p.tl.Steps, s)
	if reads := s.Time + p.tl.movedOffset(s.Node, s.Time, idx+1); reads < 0 {
		p.tl.Steps = p.tl.Steps[:idx]
		if s.Node == "" {
			p.errorf(arg.col, "after this jump the service's clock would read %d ms at %d ms: a clock reads 0 ms or later", reads, s.Time)
		} else {
			p.errorf(arg.col, "after this jump the clock would read %d ms at %d ms: a clock reads 0 ms or later", reads, s.Time)
		}
		return false
	}
	return true
}

// leaderChangeStep reads `TIME service leader-change reset|keep`: a new
// leader takes over the lock service, and either starts every valid
// lease's ttl again or leaves each the time it had left.
func (p *parser) leaderChangeStep(ll lexed, s StepLine) {
	w := ll.words
	s.Verb = VerbLeaderChange
	switch {
	case ll.arrow != 0:
		p.errorf(ll.arrow, "a service %s has no outcome to expect", s.Verb)
		return
	case len(w) != 4 || (w[3].text != LeasesReset && w[3].text != LeasesKeep):
		col := w[2].col
		if len(w) > 3 {
			col = w[3].col
		}
		p.errorf(col, "a leader change is `TIME service leader-change reset` (every valid lease starts its whole ttl again, as etcd's new leader renews the leases it takes over) or `TIME service leader-change keep` (every lease keeps the time it had left, as checkpointed leases do)")
		return
	}
	s.Leases = w[3].text
	p.tl.Steps = append(p.tl.Steps, s)
}

// stepActors reads the actor, or the contenders of a concurrent claim.
func (p *parser) stepActors(t token, s *StepLine) bool {
	parts := strings.Split(t.text, ",")
	if len(parts) > p.lim.Contenders {
		p.limitf(t.col, p.lim.Row("contenders"), "%d contenders", len(parts))
		return false
	}
	col := t.col
	seen := map[string]bool{}
	fresh := 0 // names this line adds
	for _, a := range parts {
		name, ok := p.ident(token{text: a, col: col}, "actor")
		if !ok {
			return false
		}
		if seen[name] {
			p.errorf(col, "actor %s is listed twice", name)
			return false
		}
		if !p.actorSeen[name] {
			fresh++
		}
		if !p.actorFree(name, col, s.Time, fresh) {
			return false
		}
		seen[name] = true
		s.Actors = append(s.Actors, name)
		col += len([]rune(a)) + 1
	}
	switch {
	case len(parts) > 1 && s.Verb != VerbClaim:
		p.errorf(t.col, "only claim takes several actors (a concurrent claim)")
		return false
	}
	return true
}

// actorFree checks that a worker may act at t: it is not inside a pause,
// its clock does not read below 0, and it does not go over the limit
// workers (fresh: the new names of this line so far, itself included).
func (p *parser) actorFree(name string, col int, t int64, fresh int) bool {
	if pa, ok := p.paused[name]; ok && t >= pa.from && t < pa.to && pa.sending {
		p.errorf(col, "%s is sending from %d ms to %d ms (line %d): it hears back from the receiver at %d ms; move this step to %d ms or later",
			name, pa.from, pa.to, pa.line, pa.to, pa.to)
		return false
	}
	if pa, ok := p.paused[name]; ok && t >= pa.from && t < pa.to {
		p.errorf(col, "%s is paused from %d ms to %d ms (line %d): a paused worker does nothing; move this step to %d ms or later, or shorten the pause",
			name, pa.from, pa.to, pa.line, pa.to)
		return false
	}
	if sv := p.tl.Service; sv != nil && t+p.tl.serviceOffset(t, len(p.tl.Steps)) < 0 {
		off := p.tl.serviceOffset(t, len(p.tl.Steps))
		p.errorf(col, "the service's clock reads %d ms at %d ms (it is %d ms behind): the first step comes at %d ms or later", t+off, t, -off, -off)
		return false
	}
	if off := p.offsets[name]; p.tl.Service == nil && t+off < 0 {
		p.errorf(col, "%s's clock reads %d ms at %d ms (it is %d ms behind): its first step comes at %d ms or later", name, t+off, t, -off, -off)
		return false
	}
	if !p.actorSeen[name] && len(p.actorSeen)+fresh > p.lim.Workers {
		p.limitf(col, p.lim.Row("workers"), "worker %d (%s)", len(p.actorSeen)+fresh, name)
		return false
	}
	return true
}

// stepObject reads what follows the verb and returns the words after it.
func (p *parser) stepObject(w []token, s *StepLine) ([]token, bool) {
	rest := w[3:]
	obj := verbObjects[s.Verb]
	has := len(rest) > 0 && !strings.Contains(rest[0].text, "=")
	switch {
	case obj == objNone && has:
		if s.Verb == VerbSend {
			p.errorf(rest[0].col, "%s takes no job: it claims the oldest claimable one (expect it with -> job=%s)", s.Verb, rest[0].text)
		} else {
			p.errorf(rest[0].col, "%s takes no job", s.Verb)
		}
		return nil, false
	case (obj == objJob || obj == objKey || obj == objDuration) && !has:
		p.errorf(w[2].col, "%s needs %s: `%s`", s.Verb, map[verbObject]lang.Word{objJob: "a job", objKey: "a key", objDuration: "a duration"}[obj], usage[s.Verb])
		return nil, false
	case !has && len(s.Actors) > 1:
		p.errorf(w[2].col, "a concurrent claim names its job: `%s claim JOB`", w[1].text)
		return nil, false
	case !has:
		return rest, true
	}
	switch obj {
	case objDuration:
		if len(rest) > 1 && isUnit(rest[1].text) {
			p.errorf(rest[1].col, "no space between a number and its unit: write %s%s", rest[0].text, rest[1].text)
			return nil, false
		}
		d, ok := p.duration(rest[0], "pause", "pause "+rest[0].text)
		if ok && d <= 0 {
			p.errorf(rest[0].col, "a pause lasts more than 0 ms")
			ok = false
		}
		s.For = d
		return rest[1:], ok
	case objKey:
		key, ok := p.ident(rest[0], "key")
		s.Key = key
		return rest[1:], ok
	}
	job, ok := p.ident(rest[0], "job")
	if !ok {
		return nil, false
	}
	s.Job = job
	if s.Verb == VerbEnqueue {
		ok = p.knowJob(job, rest[0].col) // known from here on, even if the rest is wrong
	} else {
		p.jobRefs = append(p.jobRefs, jobRef{id: job, line: p.line, col: rest[0].col})
	}
	return rest[1:], ok
}

// stepArgs reads the key=value arguments into s.
func (p *parser) stepArgs(kv []keyValue, s *StepLine, w []token) bool {
	for _, a := range kv {
		var ok bool
		switch a.key {
		case "ttl":
			s.TTL, ok = p.duration(a.val, a.key, a.key+"="+a.val.text)
		case "took":
			s.Took, ok = p.duration(a.val, a.key, a.key+"="+a.val.text)
		case "token":
			s.Token, ok = p.count(a.val, a.key)
			s.HasToken = true
		case "result":
			s.Result, ok = a.val.text, p.withinResult(a.val, a.key)
		case "value":
			s.Value, ok = a.val.text, p.withinResult(a.val, a.key)
		case "key":
			s.Key, ok = p.ident(a.val, "key")
		case "fail":
			s.Fail, ok = p.boolean(a.val, a.key)
		case "arrives":
			s.Arrives, ok = p.arrival(a.val, s.Time)
		case "nodes":
			s.Reach, ok = p.reach(a.val)
		default: // the job fields of enqueue
			continue
		}
		if !ok {
			return false
		}
	}
	if s.Verb == VerbEnqueue {
		f, ok := p.jobFieldValues(kv, s.Time)
		s.Qty, s.Deadline, s.MaxAttempts = f.qty, f.deadline, f.maxAttempts
		if !ok {
			return false
		}
	}
	if s.Took > 0 && !p.withinInstant(w[0].col, s.Time+s.Took, "the send's end") {
		return false
	}
	return true
}

// arrival reads arrives=: the instant a message sent at sent takes
// effect, absolute (17000ms) or after the send (+8000ms), and later than
// the send.
func (p *parser) arrival(t token, sent int64) (int64, bool) {
	rel := strings.HasPrefix(t.text, "+")
	text := strings.TrimPrefix(t.text, "+")
	at, ok := parseMillis(text)
	if !ok {
		p.errorf(t.col, "%s", malformedTime("arrives", t.text, lang.P("an instant like 17000ms, or +8000ms after the send")))
		return 0, false
	}
	if rel {
		at += sent
	}
	if at <= sent {
		p.errorf(t.col, "arrives=%s is not after the send at %d ms: a message in flight arrives later", t.text, sent)
		return 0, false
	}
	return at, p.withinInstant(t.col, at, "arrives")
}

// stepDefaults fills in what the line left out: the lease header's ttl, the
// actor's name as a complete's result and a write's value, the job as a
// write's key.
func (p *parser) stepDefaults(kv []keyValue, s *StepLine, w []token) bool {
	if s.Verb == VerbClaim || s.Verb == VerbRenew || s.Verb == VerbSend {
		if !hasKey(kv, "ttl") {
			if p.tl.Lease == 0 && p.leaseLine == 0 {
				p.errorf(w[2].col, "%s needs a lease duration: add a `lease 1000ms` header line or ttl=", s.Verb)
				return false
			}
			s.TTL = p.tl.Lease
		}
	}
	if s.Verb == VerbComplete && !hasKey(kv, "result") {
		s.Result = s.Actors[0]
	}
	if s.Verb == VerbWrite {
		if !hasKey(kv, "value") {
			s.Value = s.Actors[0]
		}
		if s.Key == "" {
			s.Key = s.Job
		}
	}
	return true
}

// record keeps a good step: its implicit token to check, its actors, its
// pause, and the clock it leaves.
func (p *parser) record(s StepLine, w []token) {
	idx := len(p.tl.Steps)
	switch s.Verb {
	case VerbRenew, VerbComplete, VerbRelease, VerbDeliver, VerbWrite:
		if !s.HasToken {
			p.tokenRefs = append(p.tokenRefs, tokenRef{actor: s.Actors[0], job: s.Job, line: p.line, col: w[1].col, step: idx})
		}
	case VerbPause:
		p.paused[s.Actors[0]] = pause{from: s.Time, to: s.Time + s.For, line: p.line}
	case VerbSend:
		if s.Took > 0 { // the courier waits to hear back; the others go on
			p.paused[s.Actors[0]] = pause{from: s.Time, to: s.End(), line: p.line, sending: true}
		}
	}
	for _, a := range s.Actors {
		if !p.actorSeen[a] {
			p.actorSeen[a] = true
			p.tl.Actors = append(p.tl.Actors, a)
		}
	}
	p.prevEnd, p.prevTime = s.End(), s.Time
	p.tl.Steps = append(p.tl.Steps, s)
}

func hasKey(kv []keyValue, key string) bool {
	for _, a := range kv {
		if a.key == key {
			return true
		}
	}
	return false
}

func verbNames() []string {
	s := make([]string, len(Verbs))
	for i, v := range Verbs {
		s[i] = string(v)
	}
	return s
}

func verbList() string { return strings.Join(verbNames(), ", ") }

type keyValue struct {
	key string
	val token // the value, unquoted
	col int   // the key's column
}

// keyValues reads key=value words, each key at most once and one of
// allowed; what names the line for messages.
func (p *parser) keyValues(words []token, allowed []string, what string) ([]keyValue, bool) {
	var out []keyValue
	seen := map[string]bool{}
	for i, w := range words {
		key, val, found := strings.Cut(w.text, "=")
		switch {
		case !found && isUnit(w.text) && i > 0 && allDigits(strings.TrimSuffix(words[i-1].text[strings.Index(words[i-1].text, "=")+1:], ".")):
			p.errorf(w.col, "no space between a number and its unit: write %s%s", words[i-1].text, w.text)
			return nil, false
		case !found:
			p.errorf(w.col, "unexpected %q: arguments are key=value (%s takes %s)", w.text, lang.Word(what), fieldsText(allowed))
			return nil, false
		case !p.allowedKey(key, w.col, allowed, what):
			return nil, false
		case seen[key]:
			p.errorf(w.col, "%s= is given twice", key)
			return nil, false
		}
		seen[key] = true
		vt := token{text: val, col: w.col + len([]rune(key)) + 1}
		v, ok := p.unquote(vt)
		if !ok {
			return nil, false
		}
		vt.text = v
		if key != "result" && key != "value" && v == "" {
			p.errorf(vt.col, "%s= needs a value", key)
			return nil, false
		}
		out = append(out, keyValue{key: key, val: vt, col: w.col})
	}
	return out, true
}

// allowedKey checks one argument's key against what the line takes.
func (p *parser) allowedKey(key string, col int, allowed []string, what string) bool {
	for _, a := range allowed {
		if a == key {
			return true
		}
	}
	switch {
	case key == "attempts" && containsString(allowed, "max_attempts"):
		p.errorf(col, "the attempts budget is max_attempts=N (attempts= after -> checks the count of claims)")
	case len(allowed) == 0:
		p.errorf(col, "%s takes no arguments", lang.Word(what))
	case allArgKeys[key]:
		p.errorf(col, "%s takes no %s= (it takes %s)", lang.Word(what), key, fieldsText(allowed))
	default:
		p.errorf(col, "unknown field %q: %s takes %s%s", key, lang.Word(what), fieldsText(allowed), didYouMean(key, allowed))
	}
	return false
}

// allArgKeys are the keys some verb or header takes.
var allArgKeys = func() map[string]bool {
	m := map[string]bool{}
	for _, keys := range verbArgs {
		for _, k := range keys {
			m[k] = true
		}
	}
	return m
}()

func fieldsText(keys []string) string {
	if len(keys) == 0 {
		return "nothing"
	}
	return strings.Join(keys, "=, ") + "="
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// withinResult refuses a result or a stored value over the limit
// result_bytes: the engine would refuse it at run time.
func (p *parser) withinResult(t token, key string) bool {
	if len(t.text) > p.lim.ResultBytes {
		p.limitf(t.col, p.lim.Row("result_bytes"), "%s of %d bytes", lang.Word(key), len(t.text))
		return false
	}
	return true
}
