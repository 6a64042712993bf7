package timeline

import (
	"strconv"
	"strings"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/check"
	"github.com/leaselab/leaselab/engine/internal/lang"
)

// What follows "->": an outcome (ok, refused REASON, empty, invalid,
// failed), then field=value checks, then violates=INVARIANT,...

// refusalsOf are the refusals each op can hear, in the order they are
// checked.
var refusalsOf = map[engine.Op][]engine.Refusal{
	engine.OpClaim:     {engine.RefusedNotFound, engine.RefusedDone, engine.RefusedQuarantined, engine.RefusedHeld},
	engine.OpClaimMany: {engine.RefusedNotFound, engine.RefusedDone, engine.RefusedQuarantined, engine.RefusedHeld},
	engine.OpRenew:     writeRefusals,
	engine.OpComplete:  writeRefusals,
	engine.OpRelease:   {engine.RefusedNotFound, engine.RefusedSuperseded, engine.RefusedDone, engine.RefusedQuarantined},
	engine.OpSend:      writeRefusals, // its complete
	engine.OpWrite:     {engine.RefusedFenced},
}

var writeRefusals = []engine.Refusal{engine.RefusedNotFound, engine.RefusedSuperseded, engine.RefusedDone,
	engine.RefusedQuarantined, engine.RefusedExpired}

// outcomesOf are the outcomes each op can end with ("refused" for the ops
// in refusalsOf); an op not listed takes no expectation.
var outcomesOf = map[engine.Op][]engine.Outcome{
	engine.OpClaimNext: {engine.OutcomeOK, engine.OutcomeEmpty, engine.OutcomeInvalid},
	engine.OpSend:      {engine.OutcomeOK, engine.OutcomeRefused, engine.OutcomeEmpty, engine.OutcomeInvalid, engine.OutcomeFailed},
	engine.OpDeliver:   {engine.OutcomeOK, engine.OutcomeInvalid},
	engine.OpEnqueue:   {engine.OutcomeOK, engine.OutcomeInvalid},
	engine.OpState:     {engine.OutcomeOK, engine.OutcomeEmpty},
	engine.OpRead:      {engine.OutcomeOK, engine.OutcomeEmpty},
	engine.OpReopen:    {engine.OutcomeOK},
}

// refusals are the refusals op can hear in this timeline.
func (p *parser) refusals(op engine.Op) []engine.Refusal { return refusalsIn(op, p.tl.Storage) }

// refusalsIn are the refusals op can hear over storage: a write to a
// storage that asks the lock service hears what a complete hears.
func refusalsIn(op engine.Op, storage string) []engine.Refusal {
	if op == engine.OpWrite && storage == StorageSequencer {
		return append([]engine.Refusal{engine.RefusedFenced}, writeRefusals...)
	}
	return refusalsOf[op]
}

func outcomesFor(op engine.Op) []engine.Outcome {
	if o, ok := outcomesOf[op]; ok {
		return o
	}
	if _, ok := refusalsOf[op]; ok {
		return []engine.Outcome{engine.OutcomeOK, engine.OutcomeRefused, engine.OutcomeInvalid}
	}
	return nil
}

// expectation parses what follows "->".
func (p *parser) expectation(ll lexed, s *StepLine) (*Expectation, bool) {
	e := &Expectation{Text: ll.expectText}
	op := s.Op()
	if outcomesFor(op) == nil {
		p.errorf(ll.arrow, "%s has no outcome to expect", s.Verb)
		return nil, false
	}
	if len(ll.expect) == 0 {
		p.errorf(ll.arrow, "-> needs an expectation: an outcome (%s) or field=value", outcomeList(op))
		return nil, false
	}
	words := ll.expect
	for i := range words {
		words[i].text = strings.TrimSuffix(words[i].text, ",")
	}
	words, ok := p.outcome(words, e, s)
	if !ok {
		return nil, false
	}
	for _, w := range words {
		key, val, found := strings.Cut(w.text, "=")
		if !found {
			p.errorf(w.col, "unexpected %q: after the outcome come field=value checks", w.text)
			return nil, false
		}
		valTok := token{text: val, col: w.col + len([]rune(key)) + 1}
		if key == "violates" {
			if !p.violates(valTok, e) {
				return nil, false
			}
			continue
		}
		want, ok := p.fieldValue(key, valTok, w.col, s)
		if !ok {
			return nil, false
		}
		e.Fields = append(e.Fields, FieldCheck{Key: key, Want: want})
	}
	return e, true
}

// outcome reads the outcome words at the start of an expectation, if any.
func (p *parser) outcome(words []token, e *Expectation, s *StepLine) ([]token, bool) {
	if len(words) == 0 || strings.Contains(words[0].text, "=") {
		return words, true
	}
	w, op := words[0], s.Op()
	words = words[1:]
	e.Outcome = engine.Outcome(w.text)
	nodesFail := p.tl.Nodes != 0 && (s.Verb == VerbClaim || s.Verb == VerbRenew) && e.Outcome == engine.OutcomeFailed
	if !containsOutcome(outcomesFor(op), e.Outcome) && !nodesFail {
		switch e.Outcome {
		case engine.OutcomeOK, engine.OutcomeRefused, engine.OutcomeEmpty, engine.OutcomeInvalid, engine.OutcomeFailed:
			p.errorf(w.col, "%s is never %s (it ends %s)", describeOp(s), w.text, outcomeList(op))
		default:
			p.errorf(w.col, "unknown outcome %q (%s)%s", w.text, outcomeList(op), didYouMean(w.text, outcomeNames(op)))
		}
		return nil, false
	}
	if e.Outcome != engine.OutcomeRefused || len(words) == 0 || strings.Contains(words[0].text, "=") {
		return words, true
	}
	r := words[0]
	words = words[1:]
	reason := r.text
	if reason == "not" && len(words) > 0 && words[0].text == "found" {
		words, reason = words[1:], "not_found"
	}
	e.Reason = engine.Refusal(strings.ReplaceAll(reason, "-", "_"))
	if !containsRefusal(p.refusals(op), e.Reason) {
		if e.Reason.Valid() {
			p.errorf(r.col, "%s is never refused %s (it hears %s)", describeOp(s), e.Reason, p.refusalList(op))
		} else {
			p.errorf(r.col, "unknown refusal reason %q (%s hears %s)", r.text, describeOp(s), p.refusalList(op))
		}
		return nil, false
	}
	return words, true
}

// violates reads violates=INVARIANT[,INVARIANT].
func (p *parser) violates(t token, e *Expectation) bool {
	col := t.col
	for _, name := range strings.Split(t.text, ",") {
		if !containsString(check.Invariants(), name) {
			p.errorf(col, "unknown invariant %q (%s)%s", name, strings.Join(check.Invariants(), ", "), didYouMean(name, check.Invariants()))
			return false
		}
		e.Violates = append(e.Violates, name)
		col += len([]rune(name)) + 1
	}
	return true
}

func describeOp(s *StepLine) string {
	if s.Op() == engine.OpClaimMany {
		return "a concurrent claim"
	}
	return "`" + string(s.Op()) + "`"
}

func outcomeNames(op engine.Op) []string {
	var out []string
	for _, o := range outcomesFor(op) {
		out = append(out, string(o))
	}
	return out
}

func outcomeList(op engine.Op) string {
	out := outcomeNames(op)
	for i, o := range out {
		if o == string(engine.OutcomeRefused) {
			out[i] = "refused REASON"
		}
	}
	return strings.Join(out, ", ")
}

func (p *parser) refusalList(op engine.Op) string {
	var out []string
	for _, r := range p.refusals(op) {
		out = append(out, string(r))
	}
	return strings.Join(out, ", ")
}

func containsOutcome(list []engine.Outcome, o engine.Outcome) bool {
	for _, x := range list {
		if x == o {
			return true
		}
	}
	return false
}

func containsRefusal(list []engine.Refusal, r engine.Refusal) bool {
	for _, x := range list {
		if x == r {
			return true
		}
	}
	return false
}

// fieldKeys say which steps each field belongs to.
var fieldKeys = map[string]func(*StepLine) bool{
	"delivered": isReceiving, "total": isReceiving,
	"receipt.qty": isReceiving, "receipt.owner": isReceiving, "receipt.token": isReceiving,
	"storage.value": isStoring, "storage.owner": isStoring, "storage.token": isStoring,
	"winner": isRace, "losers": isRace,
	"enqueued": func(s *StepLine) bool { return s.Verb == VerbEnqueue },
}

// jobFieldKeys describe the step's job after the step.
var jobFieldKeys = []string{"token", "lease_until", "attempts", "attempt", "qty", "deadline", "max_attempts",
	"status", "owner", "result", "reason", "job"}

// fieldOwners say whose the step's own fields are, for messages.
var fieldOwners = map[string]lang.Word{
	"delivered": "the receiver's: only send and deliver have it", "total": "the receiver's: only send and deliver have it",
	"receipt": "the receiver's: only send and deliver have it",
	"storage": "the storage's: only write and read have it",
	"winner":  "a concurrent claim's (A,B claim JOB)", "losers": "a concurrent claim's (A,B claim JOB)",
	"enqueued": "enqueue's answer",
}

func isReceiving(s *StepLine) bool { return s.Verb == VerbSend || s.Verb == VerbDeliver }
func isStoring(s *StepLine) bool   { return s.Verb == VerbWrite || s.Verb == VerbRead }
func isRace(s *StepLine) bool      { return s.Op() == engine.OpClaimMany }

// fieldValue validates one field check and returns its canonical value.
func (p *parser) fieldValue(key string, val token, keyCol int, s *StepLine) (string, bool) {
	unquoted, ok := p.unquote(val)
	if !ok {
		return "", false
	}
	val.text = unquoted
	if !p.fieldBelongs(key, keyCol, s) {
		return "", false
	}
	switch key {
	case "token", "attempt", "attempts", "qty", "total", "max_attempts", "receipt.qty", "receipt.token", "storage.token":
		n, ok := p.count(val, key)
		return strconv.FormatInt(n, 10), ok
	case "lease_until", "deadline":
		n, ok := parseMillis(val.text)
		if !ok {
			p.errorf(val.col, "malformed %s %q: an instant like 1000ms, 1.5s or 1000", lang.Word(key), val.text)
		}
		return strconv.FormatInt(n, 10), ok
	case "delivered", "enqueued":
		b, ok := p.boolean(val, key)
		return strconv.FormatBool(b), ok
	case "status":
		return p.oneOf(val, key, "pending", "leased", "done", "quarantined")
	case "reason":
		return p.oneOf(val, "reason (why a job is quarantined)", engine.ReasonAttempts, engine.ReasonDeadline, "none")
	case "owner", "job", "receipt.owner", "storage.owner":
		if val.text == "none" && key != "job" {
			return "none", true
		}
		return p.ident(val, strings.TrimPrefix(strings.TrimPrefix(key, "receipt."), "storage."))
	case "winner":
		return p.contender(val, s, "winner")
	case "losers":
		return p.refusalValue(val, s)
	case "result", "storage.value":
		return val.text, true
	}
	if strings.HasPrefix(key, "loser.") {
		return p.refusalValue(val, s)
	}
	return "", false // fieldBelongs let through only the keys above
}

// fieldBelongs checks that a field exists and belongs to the step.
func (p *parser) fieldBelongs(key string, col int, s *StepLine) bool {
	if belongs, ok := fieldKeys[key]; ok {
		if !belongs(s) {
			p.errorf(col, "%s= is %s", key, fieldOwners[strings.Split(key, ".")[0]])
		}
		return belongs(s)
	}
	if name, ok := strings.CutPrefix(key, "loser."); ok {
		if !isRace(s) {
			p.errorf(col, "%s= belongs to a concurrent claim (A,B claim JOB)", key)
			return false
		}
		if _, ok := p.contender(token{text: name, col: col + len("loser.")}, s, "loser"); !ok {
			return false
		}
		return true
	}
	if containsString(jobFieldKeys, key) {
		if s.Job == "" && s.Verb != VerbSend && s.Op() != engine.OpClaimNext {
			p.errorf(col, "%s= describes the step's job, and %s has none", key, describeOp(s))
			return false
		}
		return true
	}
	all := append(append([]string{}, jobFieldKeys...), sortedKeys(map[string]bool{
		"delivered": true, "total": true, "receipt.qty": true, "receipt.owner": true, "receipt.token": true,
		"storage.value": true, "storage.owner": true, "storage.token": true, "winner": true, "losers": true,
		"loser.NAME": true, "enqueued": true, "violates": true})...)
	p.errorf(col, "unknown field %q (%s)%s", key, strings.Join(all, ", "), didYouMean(key, all))
	return false
}

func (p *parser) oneOf(val token, what string, options ...string) (string, bool) {
	if containsString(options, val.text) {
		return val.text, true
	}
	p.errorf(val.col, "%s is %s or %s, not %q", lang.Word(what), strings.Join(options[:len(options)-1], ", "), options[len(options)-1], val.text)
	return "", false
}

// contender checks a name against a concurrent claim's contenders; a
// winner may be "none" (nobody won).
func (p *parser) contender(val token, s *StepLine, what string) (string, bool) {
	if what == "winner" && val.text == "none" {
		return "none", true
	}
	name, ok := p.ident(val, "contender")
	if !ok {
		return "", false
	}
	if !containsString(s.Actors, name) {
		p.errorf(val.col, "%s %q is not one of the contenders %s", lang.Word(what), name, strings.Join(s.Actors, ","))
		return "", false
	}
	return name, true
}

func (p *parser) refusalValue(val token, s *StepLine) (string, bool) {
	r := engine.Refusal(strings.ReplaceAll(val.text, "-", "_"))
	if !containsRefusal(refusalsOf[engine.OpClaimMany], r) {
		p.errorf(val.col, "a loser of a concurrent claim hears %s, not %q", p.refusalList(engine.OpClaimMany), val.text)
		return "", false
	}
	return string(r), true
}
