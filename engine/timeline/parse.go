package timeline

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// maxErrors bounds the list Parse returns; a text that wrong needs fixing
// from the top anyway.
const maxErrors = 50

// Parse reads a timeline and validates it whole: unknown verbs, fields and
// jobs, times going backwards, malformed numbers and implicit tokens for a
// job the actor never claimed are all reported here, as an ErrorList of
// NAME:LINE:COL: message, before anything runs. name is the source name
// used in messages. Parse never panics, whatever src holds.
func Parse(name, src string) (*Timeline, error) {
	p := &parser{name: name, tl: &Timeline{Name: name}, actorSeen: map[string]bool{}}
	p.parse(src)
	if len(p.errs) > 0 {
		sort.SliceStable(p.errs, func(i, j int) bool {
			if p.errs[i].Line != p.errs[j].Line {
				return p.errs[i].Line < p.errs[j].Line
			}
			return p.errs[i].Col < p.errs[j].Col
		})
		if len(p.errs) > maxErrors {
			p.errs = p.errs[:maxErrors]
		}
		return nil, p.errs
	}
	return p.tl, nil
}

type parser struct {
	name      string
	tl        *Timeline
	errs      ErrorList
	line      int
	leaseLine int
	prevEnd   int64 // the clock after the previous good step
	steps     int   // step lines seen, good or bad
	actorSeen map[string]bool
	// jobRefs are the jobs steps name, checked against the declared and
	// enqueued jobs once every line is read.
	jobRefs []jobRef
	// tokenRefs are the implicit tokens, checked once every line is read.
	tokenRefs []tokenRef
}

type jobRef struct {
	id        string
	line, col int
	step      int // index into tl.Steps
}

type tokenRef struct {
	actor, job string
	line, col  int
	step       int
}

func (p *parser) errorf(col int, format string, args ...any) {
	if len(p.errs) <= maxErrors {
		p.errs = append(p.errs, &Error{Name: p.name, Line: p.line, Col: col, Msg: fmt.Sprintf(format, args...)})
	}
}

func (p *parser) parse(src string) {
	lines := strings.Split(src, "\n")
	for i, raw := range lines {
		p.line = i + 1
		raw = strings.TrimSuffix(raw, "\r")
		ll, ok := p.lex(raw)
		if !ok {
			if len(ll.words) > 0 && !isHeaderWord(ll.words[0].text) {
				p.steps++
			}
			continue
		}
		switch {
		case len(ll.words) == 0 && ll.arrow == 0:
			if ll.comment != "" && p.tl.Title == "" && p.steps == 0 && !ll.hasCode {
				p.tl.Title = ll.comment
			}
		case len(ll.words) == 0:
			p.errorf(ll.arrow, "an expectation needs a step before it")
		case ll.words[0].text == "lease":
			p.header(ll, p.leaseHeader)
		case ll.words[0].text == "job":
			p.header(ll, p.jobHeader)
		default:
			p.steps++
			p.step(ll, strings.TrimSpace(raw))
		}
	}
	p.resolve()
}

func isHeaderWord(s string) bool { return s == "lease" || s == "job" }

func (p *parser) header(ll lexed, f func(lexed)) {
	if p.steps > 0 {
		p.errorf(ll.words[0].col, "%q lines come before the first step (enqueue adds a job mid-timeline)", ll.words[0].text)
		return
	}
	if ll.arrow != 0 {
		p.errorf(ll.arrow, "a header line has no expectation")
		return
	}
	f(ll)
}

func (p *parser) leaseHeader(ll lexed) {
	w := ll.words
	if p.leaseLine != 0 {
		p.errorf(w[0].col, "a second lease line (the first is line %d)", p.leaseLine)
		return
	}
	if len(w) != 2 {
		p.errorf(w[0].col, "a lease line is `lease DURATION`, e.g. `lease 1000ms`")
		return
	}
	d, ok := p.millis(w[1], "lease")
	if !ok {
		return
	}
	if d <= 0 {
		p.errorf(w[1].col, "lease must be more than 0 ms")
		return
	}
	p.tl.Lease, p.leaseLine = d, p.line
}

func (p *parser) jobHeader(ll lexed) {
	w := ll.words
	if len(w) < 2 || strings.Contains(w[1].text, "=") {
		p.errorf(w[0].col, "a job line is `job ID [qty=N] [deadline=T] [attempts=N]`")
		return
	}
	id := w[1]
	if !p.name1(id, "job") {
		return
	}
	for _, j := range p.tl.Jobs {
		if j.ID == id.text {
			p.errorf(id.col, "job %s is declared twice (first on line %d)", id.text, j.Line)
			return
		}
	}
	d := JobDecl{Line: p.line, ID: id.text, Qty: 1}
	kv, ok := p.keyValues(w[2:], map[string]bool{"qty": true, "deadline": true, "attempts": true}, "a job line")
	if !ok {
		return
	}
	for _, a := range kv {
		var n int64
		if a.key == "deadline" {
			n, ok = p.millis(a.val, a.key)
		} else {
			n, ok = p.count(a.val, a.key)
		}
		if !ok {
			return
		}
		switch a.key {
		case "qty":
			if n > 0 {
				d.Qty = n
			}
		case "deadline":
			d.Deadline = n
		case "attempts":
			d.Attempts = n
		}
	}
	p.tl.Jobs = append(p.tl.Jobs, d)
}

// argKeys are the key=value arguments each verb takes.
var argKeys = map[Verb][]string{
	VerbClaim:    {"ttl"},
	VerbRenew:    {"ttl", "token"},
	VerbComplete: {"token", "result"},
	VerbRelease:  {"token"},
	VerbSend:     {"ttl", "took", "fail"},
	VerbDeliver:  {"token"},
	VerbEnqueue:  {"qty", "deadline", "attempts"},
	VerbState:    {},
}

var allArgKeys = map[string]bool{"ttl": true, "token": true, "result": true, "took": true, "fail": true,
	"qty": true, "deadline": true, "attempts": true}

func (p *parser) step(ll lexed, source string) {
	w := ll.words
	s := StepLine{Line: p.line, Source: source}
	rel, t, ok := p.time(w[0])
	if !ok {
		return
	}
	if rel {
		if t > math.MaxInt64-p.prevEnd {
			p.errorf(w[0].col, "time %s is too large", w[0].text)
			return
		}
		t += p.prevEnd
	} else if t < p.prevEnd {
		p.errorf(w[0].col, "time goes backwards: %d ms is before %d ms, where the previous step ended", t, p.prevEnd)
		return
	}
	s.Time = t
	p.prevEnd = t // even if the rest of the line is bad, later times count from here
	if len(w) < 3 {
		p.errorf(w[0].col, "a step is `TIME ACTOR VERB [JOB] [key=value ...] [-> expectation]`")
		return
	}
	actors, ok := p.actors(w[1])
	if !ok {
		return
	}
	s.Actors = actors
	verb := Verb(w[2].text)
	if _, known := argKeys[verb]; !known {
		p.errorf(w[2].col, "unknown verb %q (verbs: %s)", w[2].text, verbList())
		return
	}
	s.Verb = verb
	rest := w[3:]
	jobCol := 0
	if len(rest) > 0 && !strings.Contains(rest[0].text, "=") {
		if !p.name1(rest[0], "job") {
			return
		}
		s.Job, jobCol = rest[0].text, rest[0].col
		rest = rest[1:]
	}
	switch {
	case verb == VerbSend && s.Job != "":
		p.errorf(jobCol, "send takes no job: it claims the oldest claimable one (expect it with -> job=%s)", s.Job)
		return
	case s.Job == "" && verb != VerbSend && verb != VerbClaim:
		p.errorf(w[2].col, "%s needs a job: `%s JOB`", verb, verb)
		return
	case len(actors) > 1 && verb != VerbClaim:
		p.errorf(w[1].col, "only claim takes several actors (a concurrent claim)")
		return
	case len(actors) > 1 && s.Job == "":
		p.errorf(w[2].col, "a concurrent claim names its job: `%s claim JOB`", w[1].text)
		return
	}
	allowed := map[string]bool{}
	for _, k := range argKeys[verb] {
		allowed[k] = true
	}
	kv, ok := p.keyValues(rest, allowed, string(verb))
	if !ok {
		return
	}
	hasTTL := false
	for _, a := range kv {
		switch a.key {
		case "ttl", "took", "deadline":
			n, ok := p.millis(a.val, a.key)
			if !ok {
				return
			}
			switch a.key {
			case "ttl":
				s.TTL, hasTTL = n, true
			case "took":
				s.Took = n
			default:
				s.Deadline = n
			}
		case "token", "qty", "attempts":
			n, ok := p.count(a.val, a.key)
			if !ok {
				return
			}
			switch a.key {
			case "token":
				s.Token, s.HasToken = n, true
			case "qty":
				s.Qty = n
			default:
				s.Attempts = n
			}
		case "result":
			s.Result = a.val.text
		case "fail":
			b, ok := p.boolean(a.val, a.key)
			if !ok {
				return
			}
			s.Fail = b
		}
	}
	if s.Took > math.MaxInt64-s.Time {
		p.errorf(w[0].col, "took=%d ms runs the clock past its end", s.Took)
		return
	}
	if verb == VerbClaim || verb == VerbRenew || verb == VerbSend {
		if !hasTTL {
			if p.tl.Lease == 0 {
				p.errorf(w[2].col, "%s needs a lease duration: add a `lease 1000ms` header line or ttl=", verb)
				return
			}
			s.TTL = p.tl.Lease
		}
	}
	if verb == VerbComplete && !hasKey(kv, "result") {
		s.Result = actors[0]
	}
	if ll.arrow != 0 {
		e, ok := p.expectation(ll, &s)
		if !ok {
			return
		}
		s.Expect = e
	}
	idx := len(p.tl.Steps)
	if s.Job != "" {
		p.jobRefs = append(p.jobRefs, jobRef{id: s.Job, line: p.line, col: jobCol, step: idx})
	}
	if !s.HasToken && (verb == VerbRenew || verb == VerbComplete || verb == VerbRelease || verb == VerbDeliver) {
		p.tokenRefs = append(p.tokenRefs, tokenRef{actor: actors[0], job: s.Job, line: p.line, col: w[1].col, step: idx})
	}
	for _, a := range actors {
		if !p.actorSeen[a] {
			p.actorSeen[a] = true
			p.tl.Actors = append(p.tl.Actors, a)
		}
	}
	p.prevEnd = s.End()
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

func verbList() string {
	s := make([]string, len(Verbs))
	for i, v := range Verbs {
		s[i] = string(v)
	}
	return strings.Join(s, ", ")
}

// resolve checks what needs the whole text: that every job a step names is
// declared or enqueued somewhere, and that every implicit token has a claim
// before it that could have given it.
func (p *parser) resolve() {
	known := map[string]bool{}
	for _, j := range p.tl.Jobs {
		known[j.ID] = true
	}
	for _, s := range p.tl.Steps {
		if s.Verb == VerbEnqueue {
			known[s.Job] = true
		}
	}
	for _, r := range p.jobRefs {
		if !known[r.id] {
			p.line = r.line
			p.errorf(r.col, "unknown job %s: declare it with a `job %s` line or enqueue it", r.id, r.id)
		}
	}
	// claimed[actor] holds the jobs the actor claimed by id before a step,
	// and "" once it has claimed the next job or sent (either may give it
	// any job).
	claimed := map[string]map[string]bool{}
	refs := p.tokenRefs
	for i, s := range p.tl.Steps {
		for len(refs) > 0 && refs[0].step == i {
			r := refs[0]
			refs = refs[1:]
			if c := claimed[r.actor]; !c[r.job] && !c[""] {
				p.line = r.line
				p.errorf(r.col, "%s never claimed %s before this line, so it holds no token: claim it first, or say token=N", r.actor, r.job)
			}
		}
		if s.Verb == VerbClaim || s.Verb == VerbSend {
			for _, a := range s.Actors {
				if claimed[a] == nil {
					claimed[a] = map[string]bool{}
				}
				claimed[a][s.Job] = true
			}
		}
	}
}

// expectation parses what follows "->".
func (p *parser) expectation(ll lexed, s *StepLine) (*Expectation, bool) {
	e := &Expectation{Text: ll.expectText}
	if len(ll.expect) == 0 {
		p.errorf(ll.arrow, "-> needs an expectation: ok, refused REASON, empty, invalid, failed, or field=value")
		return nil, false
	}
	words := ll.expect
	for i := range words {
		words[i].text = strings.TrimSuffix(words[i].text, ",")
	}
	// Outcome words first.
	if len(words) > 0 && !strings.Contains(words[0].text, "=") {
		w := words[0]
		words = words[1:]
		switch w.text {
		case "ok", "empty", "invalid", "failed":
			e.Outcome = w.text
		case "refused":
			e.Outcome = w.text
			if len(words) > 0 && !strings.Contains(words[0].text, "=") {
				r := words[0]
				words = words[1:]
				reason := r.text
				if reason == "not" && len(words) > 0 && words[0].text == "found" {
					words = words[1:]
					reason = "not-found"
				}
				reason = strings.ReplaceAll(reason, "_", "-")
				if !validReason(reason) {
					p.errorf(r.col, "unknown refusal reason %q (not-found, done, quarantined, held, superseded, expired)", r.text)
					return nil, false
				}
				e.Reason = reason
			}
		default:
			p.errorf(w.col, "unknown outcome %q (ok, refused REASON, empty, invalid, failed)", w.text)
			return nil, false
		}
		if !outcomePossible(s, e.Outcome) {
			p.errorf(w.col, "%s is never %s", describeOp(s), e.Outcome)
			return nil, false
		}
	}
	for _, w := range words {
		key, val, found := strings.Cut(w.text, "=")
		if !found {
			p.errorf(w.col, "unexpected %q: after the outcome come field=value checks", w.text)
			return nil, false
		}
		valTok := token{text: val, col: w.col + len([]rune(key)) + 1}
		want, ok := p.fieldValue(key, valTok, w.col, s)
		if !ok {
			return nil, false
		}
		e.Fields = append(e.Fields, FieldCheck{Key: key, Want: want})
	}
	return e, true
}

func validReason(r string) bool {
	switch r {
	case "not-found", "done", "quarantined", "held", "superseded", "expired":
		return true
	}
	return false
}

func outcomePossible(s *StepLine, outcome string) bool {
	switch outcome {
	case "refused":
		return s.Verb != VerbDeliver && s.Verb != VerbEnqueue && s.Verb != VerbState && s.Op() != "claim-next"
	case "empty":
		return s.Op() == "claim-next" || s.Verb == VerbSend || s.Verb == VerbState
	case "failed":
		return s.Verb == VerbSend
	}
	return true
}

func describeOp(s *StepLine) string {
	if s.Op() == "claim-many" {
		return "a concurrent claim"
	}
	return "`" + s.Op() + "`"
}

// fieldValue validates one field check and returns its canonical value.
func (p *parser) fieldValue(key string, val token, keyCol int, s *StepLine) (string, bool) {
	unquoted, ok := p.unquote(val)
	if !ok {
		return "", false
	}
	val.text = unquoted
	switch key {
	case "token", "attempt", "attempts", "qty", "total":
		if key == "total" && s.Verb != VerbSend && s.Verb != VerbDeliver {
			p.errorf(keyCol, "total= is the receiver's: only send and deliver have it")
			return "", false
		}
		n, ok := p.count(val, key)
		return strconv.FormatInt(n, 10), ok
	case "lease_until", "deadline":
		n, ok := p.millis(val, key)
		return strconv.FormatInt(n, 10), ok
	case "delivered", "enqueued":
		if key == "delivered" && s.Verb != VerbSend && s.Verb != VerbDeliver {
			p.errorf(keyCol, "delivered= is the receiver's: only send and deliver have it")
			return "", false
		}
		if key == "enqueued" && s.Verb != VerbEnqueue {
			p.errorf(keyCol, "enqueued= belongs to enqueue")
			return "", false
		}
		b, ok := p.boolean(val, key)
		return strconv.FormatBool(b), ok
	case "status":
		switch val.text {
		case "pending", "leased", "done", "quarantined":
			return val.text, true
		}
		p.errorf(val.col, "status is pending, leased, done or quarantined, not %q", val.text)
		return "", false
	case "reason":
		switch val.text {
		case "attempts", "deadline", "none":
			return val.text, true
		}
		p.errorf(val.col, "reason (why a job is quarantined) is attempts, deadline or none, not %q", val.text)
		return "", false
	case "owner", "job":
		if key == "owner" && val.text == "none" {
			return "none", true
		}
		return val.text, p.name1(val, key)
	case "winner":
		if s.Op() != "claim-many" {
			p.errorf(keyCol, "winner= belongs to a concurrent claim (A,B claim JOB)")
			return "", false
		}
		if val.text == "none" {
			return "none", true
		}
		for _, a := range s.Actors {
			if a == val.text {
				return a, true
			}
		}
		p.errorf(val.col, "winner %q is not one of the contenders %s", val.text, strings.Join(s.Actors, ","))
		return "", false
	case "result":
		return val.text, true
	}
	p.errorf(keyCol, "unknown field %q (token, lease_until, attempt, qty, deadline, status, owner, result, reason, job, delivered, total, winner, enqueued)", key)
	return "", false
}

type keyValue struct {
	key string
	val token // the value, unquoted
	col int   // the key's column
}

// keyValues parses key=value words, each key at most once and allowed.
func (p *parser) keyValues(words []token, allowed map[string]bool, what string) ([]keyValue, bool) {
	var out []keyValue
	seen := map[string]bool{}
	for _, w := range words {
		key, val, found := strings.Cut(w.text, "=")
		if !found {
			p.errorf(w.col, "unexpected %q: arguments are key=value", w.text)
			return nil, false
		}
		switch {
		case !allowed[key] && allArgKeys[key]:
			p.errorf(w.col, "%s takes no %s=", what, key)
			return nil, false
		case !allowed[key]:
			p.errorf(w.col, "unknown field %q", key)
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
		if key != "result" && v == "" {
			p.errorf(vt.col, "%s= needs a value", key)
			return nil, false
		}
		out = append(out, keyValue{key: key, val: vt, col: w.col})
	}
	return out, true
}

func (p *parser) unquote(t token) (string, bool) {
	if !strings.HasPrefix(t.text, `"`) {
		if strings.Contains(t.text, `"`) {
			p.errorf(t.col, "a quoted value is the whole value: key=\"...\"")
			return "", false
		}
		return t.text, true
	}
	s, err := strconv.Unquote(t.text)
	if err != nil {
		p.errorf(t.col, "malformed quoted value %s", t.text)
		return "", false
	}
	return s, true
}

func (p *parser) actors(t token) ([]string, bool) {
	parts := strings.Split(t.text, ",")
	col := t.col
	seen := map[string]bool{}
	for _, a := range parts {
		if !p.name1(token{text: a, col: col}, "actor") {
			return nil, false
		}
		if seen[a] {
			p.errorf(col, "actor %s is listed twice", a)
			return nil, false
		}
		seen[a] = true
		col += len([]rune(a)) + 1
	}
	return parts, true
}

// name1 checks a name: Unicode letters and digits, "-" and "_".
func (p *parser) name1(t token, what string) bool {
	if t.text == "" {
		p.errorf(t.col, "missing %s name", what)
		return false
	}
	col := t.col
	for i, r := range []rune(t.text) {
		ok := unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_' || (i > 0 && unicode.IsMark(r))
		if !ok {
			p.errorf(col, "%s name %q: %q is not allowed (letters, digits, - and _)", what, t.text, r)
			return false
		}
		col++
	}
	return true
}

// time parses a step's time: 1000ms, 1.5s, 1000, or +200ms relative to
// the end of the previous step.
func (p *parser) time(t token) (rel bool, ms int64, ok bool) {
	s := t.text
	if strings.HasPrefix(s, "+") {
		rel, s = true, s[1:]
	}
	ms, ok = parseMillis(s)
	if !ok {
		p.errorf(t.col, "malformed time %q: a step starts with a time like 0ms, 1.5s, 1000 or +200ms", t.text)
	}
	return rel, ms, ok
}

func (p *parser) millis(t token, key string) (int64, bool) {
	n, ok := parseMillis(t.text)
	if !ok {
		p.errorf(t.col, "malformed %s %q: a duration like 1000ms, 1.5s or 1000", key, t.text)
	}
	return n, ok
}

func (p *parser) count(t token, key string) (int64, bool) {
	n, ok := parseCount(t.text)
	if !ok {
		p.errorf(t.col, "malformed %s %q: a whole number", key, t.text)
	}
	return n, ok
}

func (p *parser) boolean(t token, key string) (bool, bool) {
	switch t.text {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	p.errorf(t.col, "%s is true or false, not %q", key, t.text)
	return false, false
}

// parseCount parses a whole number of 0 or more that fits an int64.
func parseCount(s string) (int64, bool) {
	if s == "" || !allDigits(s) {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

// parseMillis parses a duration or instant in ms: "1000ms", "1.5s", "2s",
// "1000". Seconds take up to three decimals; the result is whole ms.
func parseMillis(s string) (int64, bool) {
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "ms"):
		s = s[:len(s)-2]
	case strings.HasSuffix(s, "s"):
		s, mult = s[:len(s)-1], 1000
	}
	whole, frac, hasFrac := strings.Cut(s, ".")
	if whole == "" || !allDigits(whole) || (hasFrac && (frac == "" || !allDigits(frac))) {
		return 0, false
	}
	if hasFrac && (mult == 1 || len(frac) > 3) {
		return 0, false
	}
	w, err := strconv.ParseInt(whole, 10, 64)
	if err != nil {
		return 0, false
	}
	var f int64
	if hasFrac {
		f, _ = strconv.ParseInt((frac + "00")[:3], 10, 64)
	}
	if w > (math.MaxInt64-f)/mult {
		return 0, false
	}
	return w*mult + f, true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
