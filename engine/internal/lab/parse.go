package lab

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/leaselab/leaselab/engine/limits"
)

// word is one whitespace-separated word of a line and its 1-based column.
type word struct {
	text string
	col  int
}

// parser holds one Parse's state.
type parser struct {
	lab   *Lab
	lim   limits.Limits
	line  int
	errs  ErrorList
	seen  map[string]int // header word -> the line that set it
	at    map[string]int // lease, heartbeat -> the column of the value its line set
	code  bool           // a statement came before: comments are no longer the title
	bad   bool           // the current line has its error
	title bool
}

// headerWords are the words a lab's lines start with, for "did you mean".
var headerWords = []string{"title", "jobs", "workers", "work", "poll", "gc", "crash", "offset", "drift", "delay", "horizon",
	"lease", "heartbeat", "margin", "max_attempts", "deadline", "storage", "receiver", "sweep", "runs", "seed", "plot"}

// Parse reads a lab's text (named name in messages) with limits.Default.
// It reports every mistake, one a line, as an ErrorList of
// NAME:LINE:COL: message (errors.Is(err, ErrBadInput)); nothing is run.
func Parse(name, src string) (*Lab, error) { return ParseLimits(name, src, limits.Default) }

// ParseLimits is Parse under the limits lim.
func ParseLimits(name, src string, lim limits.Limits) (*Lab, error) {
	p := &parser{lim: lim, seen: map[string]int{}, at: map[string]int{}, lab: &Lab{Name: name,
		Workload: Workload{Jobs: 20, Workers: 3, Work: Dist{Kind: "fixed", A: 1000}, Poll: 100, Horizon: 60_000},
		Policy:   Policy{Lease: 1000, Margin: -1, Fenced: true, Idempotent: true},
		Runs:     20, Seed: 1, Plot: []string{"dup_ms"}, Limits: lim}}
	if len(src) > lim.TextBytes {
		p.line = 1
		p.limitf(1, lim.Row("text_bytes"), "the text is %d bytes", len(src))
		return nil, p.errs
	}
	for i, line := range strings.Split(src, "\n") {
		p.line, p.bad = i+1, false
		p.parseLine(strings.TrimSuffix(line, "\r"))
	}
	if len(p.errs) == 0 {
		p.checkHeartbeats()
	}
	p.checkPauseSweep()
	p.line, p.bad = len(strings.Split(src, "\n")), false
	p.checkSize()
	if len(p.errs) > 0 {
		return nil, p.errs
	}
	return p.lab, nil
}

func (p *parser) errorf(col int, format string, args ...any) {
	if p.bad {
		return
	}
	p.bad = true
	p.errs = append(p.errs, &Error{Name: p.lab.Name, Line: p.line, Col: col, Msg: fmt.Sprintf(format, args...)})
}

// limitf is the mistake of passing the limit row.
func (p *parser) limitf(col int, row limits.Row, format string, args ...any) {
	if p.bad {
		return
	}
	p.errorf(col, "%s: over the limit %s", fmt.Sprintf(format, args...), row)
	p.errs[len(p.errs)-1].Err = &limits.ExceededError{Limit: row, What: "the lab"}
}

// split cuts a line into words; a word that starts with # starts the
// comment, and a double-quoted word (Go escapes) may hold spaces.
func (p *parser) split(line string) (words []word, comment string, ok bool) {
	runes := []rune(line)
	for i := 0; i < len(runes); {
		switch r := runes[i]; {
		case unicode.IsSpace(r):
			i++
		case r == '#':
			return words, strings.TrimSpace(string(runes[i+1:])), true
		case r == '"':
			j := i + 1
			for ; j < len(runes) && runes[j] != '"'; j++ {
				if runes[j] == '\\' {
					j++
				}
			}
			if j >= len(runes) {
				p.errorf(i+1, "unterminated quote")
				return nil, "", false
			}
			words = append(words, word{string(runes[i : j+1]), i + 1})
			i = j + 1
		default:
			j := i
			for j < len(runes) && !unicode.IsSpace(runes[j]) {
				j++
			}
			words = append(words, word{string(runes[i:j]), i + 1})
			i = j
		}
	}
	return words, "", true
}

func (p *parser) parseLine(line string) {
	w, comment, ok := p.split(line)
	if !ok {
		return
	}
	if len(w) == 0 {
		if comment != "" && !p.code && !p.title {
			p.lab.Title.En, p.title = comment, true
		}
		return
	}
	p.code = true
	head := w[0].text
	if !slices.Contains(headerWords, head) {
		p.errorf(w[0].col, "unknown word %q%s", head, didYouMean(head, headerWords))
		return
	}
	key := head
	if head == "sweep" && len(w) > 1 {
		key = "sweep " + w[1].text
	}
	if head == "title" && len(w) > 1 {
		key = "title " + w[1].text
	}
	if prev, ok := p.seen[key]; ok {
		p.errorf(w[0].col, "%s is set twice (line %d): one line each", key, prev)
		return
	}
	p.seen[key] = p.line
	p.apply(w[0], w[1:])
}

// apply sets what the line headed by the word at says, from its args.
func (p *parser) apply(at word, args []word) {
	head := at.text
	wl, pol := &p.lab.Workload, &p.lab.Policy
	switch head {
	case "title":
		p.titleLine(at, args)
	case "jobs":
		if n, ok := p.count(at, args, 1, int64(p.lim.Jobs), "jobs"); ok {
			wl.Jobs = int(n)
		}
	case "workers":
		if n, ok := p.count(at, args, 1, int64(p.lim.Workers), "workers"); ok {
			wl.Workers = int(n)
		}
	case "runs":
		if n, ok := p.count(at, args, 1, int64(p.lim.LabRuns), "lab_runs"); ok {
			p.lab.Runs = int(n)
		}
	case "seed":
		if p.arity(at, args, 1, "seed N") {
			n, err := strconv.ParseUint(args[0].text, 10, 64)
			if err != nil {
				p.errorf(args[0].col, "seed %q is not a whole number from 0 to %d", args[0].text, uint64(math.MaxUint64))
			}
			p.lab.Seed = n
		}
	case "work":
		if d, ok := p.dist(at, args, false); ok {
			wl.Work = *d
		}
	case "offset", "drift":
		wl.Drift = p.optDist(at, args, true)
	case "delay":
		wl.Delay = p.optDist(at, args, false)
	case "gc":
		wl.GCEvery, wl.GCPause = p.pairDist(at, args, "every", "pause")
	case "crash":
		wl.CrashEvery, wl.Restart = p.pairDist(at, args, "every", "restart")
	case "poll":
		if p.arity(at, args, 1, "poll DURATION") {
			if v, ok := p.duration(args[0], 1); ok {
				wl.Poll = v
			}
		}
	case "horizon":
		if p.arity(at, args, 1, "horizon DURATION") {
			if v, ok := p.duration(args[0], 1); ok {
				wl.Horizon = v
			}
		}
	case "lease", "heartbeat", "margin", "max_attempts", "deadline":
		if p.arity(at, args, 1, head+" VALUE") {
			if v, ok := p.value(head, args[0]); ok {
				*pol = pol.with(head, v)
				p.at[head] = args[0].col
			}
		}
	case "storage":
		if v, ok := p.choice(at, args, "fenced", "unfenced"); ok {
			pol.Fenced = v == "fenced"
		}
	case "receiver":
		if v, ok := p.choice(at, args, "idempotent", "not-idempotent"); ok {
			pol.Idempotent = v == "idempotent"
		}
	case "sweep":
		p.sweep(at, args)
	case "plot":
		p.plot(at, args)
	}
}

func (p *parser) titleLine(head word, args []word) {
	if len(args) != 2 || !slices.Contains([]string{"en", "ko"}, args[0].text) || !strings.HasPrefix(args[1].text, `"`) {
		p.errorf(head.col, `write title LANG "text" (LANG en or ko)`)
		return
	}
	s, err := strconv.Unquote(args[1].text)
	if err != nil {
		p.errorf(args[1].col, "bad quoted text: %v", err)
		return
	}
	if args[0].text == "ko" {
		p.lab.Title.Ko = s
	} else {
		p.lab.Title.En, p.title = s, true
	}
}

// arity reports whether the line has exactly n arguments.
func (p *parser) arity(head word, args []word, n int, form string) bool {
	switch {
	case len(args) < n:
		p.errorf(head.col+len([]rune(head.text)), "%s needs %d value(s): write %s", head.text, n, form)
		return false
	case len(args) > n:
		p.errorf(args[n].col, "unexpected %q: write %s", args[n].text, form)
		return false
	}
	return true
}

// count reads one whole number in lo..hi; hi is the limit row name's.
func (p *parser) count(head word, args []word, lo, hi int64, limit string) (int64, bool) {
	if !p.arity(head, args, 1, head.text+" N") {
		return 0, false
	}
	n, err := strconv.ParseInt(args[0].text, 10, 64)
	switch {
	case err != nil:
		p.errorf(args[0].col, "%s %q is not a whole number", head.text, args[0].text)
	case n < lo:
		p.errorf(args[0].col, "%s %d is below %d", head.text, n, lo)
	case n > hi:
		p.limitf(args[0].col, p.lim.Row(limit), "%s %d", head.text, n)
	default:
		return n, true
	}
	return 0, false
}

// duration reads 250ms, 1.5s or 2m as whole ms, at least lo; a signed
// one may be negative.
func (p *parser) duration(w word, lo int64) (int64, bool) {
	v, err := parseDuration(w.text)
	switch {
	case err != "":
		p.errorf(w.col, "%q: %s", w.text, err)
	case v < lo:
		p.errorf(w.col, "%s is below %s", w.text, ms(lo))
	case v > p.lim.MaxTime || -v > p.lim.MaxTime:
		p.limitf(w.col, p.lim.Row("max_time"), "%s", w.text)
	default:
		return v, true
	}
	return 0, false
}

// parseDuration is a duration's ms, or what is wrong with it.
func parseDuration(s string) (int64, string) {
	num, unit := s, ""
	for _, u := range []string{"ms", "s", "m"} {
		if strings.HasSuffix(s, u) {
			num, unit = strings.TrimSuffix(s, u), u
			break
		}
	}
	if unit == "" {
		return 0, "a duration needs a unit: 250ms, 1.5s or 2m"
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) || strings.ContainsAny(num, "eExXpP_") {
		return 0, "not a duration: write 250ms, 1.5s or 2m"
	}
	scale := map[string]float64{"ms": 1, "s": 1000, "m": 60_000}[unit]
	v := f * scale
	if math.Abs(v) > 1e15 {
		return 0, "too long"
	}
	if v != math.Trunc(v) {
		return 0, "not a whole number of ms"
	}
	return int64(v), ""
}

// value reads a swept parameter's value: a count for max_attempts, off
// or a duration for heartbeat, margin, deadline, delay and offset, a
// duration for lease and pause.
func (p *parser) value(param string, w word) (int64, bool) {
	switch param {
	case "max_attempts":
		n, err := strconv.ParseInt(w.text, 10, 64)
		if err != nil || n < 0 || n > 1_000_000 {
			p.errorf(w.col, "max_attempts %q is not a whole number from 0 (unlimited) to 1000000", w.text)
			return 0, false
		}
		return n, true
	case "lease", "pause":
		return p.duration(w, 1)
	}
	if w.text == "off" {
		if param == "margin" {
			return -1, true
		}
		return 0, true
	}
	if v, err := parseDuration(w.text); err == "" && v == 0 && param != "margin" {
		p.errorf(w.col, "%s is below 1ms: write `%s off` for none", w.text, param)
		return 0, false
	}
	return p.duration(w, map[string]int64{"heartbeat": 1, "margin": 0, "deadline": 1, "delay": 1, "offset": 1, "drift": 1}[param])
}

func (p *parser) choice(head word, args []word, kinds ...string) (string, bool) {
	if !p.arity(head, args, 1, head.text+" "+strings.Join(kinds, "|")) {
		return "", false
	}
	if !slices.Contains(kinds, args[0].text) {
		p.errorf(args[0].col, "unknown %s %q%s", head.text, args[0].text, didYouMean(args[0].text, kinds))
		return "", false
	}
	return args[0].text, true
}

// optDist reads "off" or a distribution.
func (p *parser) optDist(head word, args []word, signed bool) *Dist {
	if len(args) == 1 && args[0].text == "off" {
		return nil
	}
	d, _ := p.dist(head, args, signed)
	return d
}

// pairDist reads "HEAD every DIST KEY DIST" or "HEAD off".
func (p *parser) pairDist(head word, args []word, first, second string) (*Dist, *Dist) {
	if len(args) == 1 && args[0].text == "off" {
		return nil, nil
	}
	form := head.text + " " + first + " DIST " + second + " DIST"
	if len(args) == 0 || args[0].text != first {
		col := head.col + len([]rune(head.text))
		if len(args) > 0 {
			col = args[0].col
		}
		p.errorf(col, "write %s (or %s off)", form, head.text)
		return nil, nil
	}
	k := slices.IndexFunc(args, func(w word) bool { return w.text == second })
	if k < 0 {
		p.errorf(args[len(args)-1].col, "no %q: write %s", second, form)
		return nil, nil
	}
	a, ok1 := p.dist(args[0], args[1:k], false)
	b, ok2 := p.dist(args[k], args[k+1:], false)
	if !ok1 || !ok2 {
		return nil, nil
	}
	return a, b
}

// dist reads a distribution (see Dist); signed allows negative draws.
func (p *parser) dist(head word, args []word, signed bool) (*Dist, bool) {
	if len(args) == 0 {
		p.errorf(head.col+len([]rune(head.text)), "%s needs a distribution: %s", head.text, strings.Join(distKinds, ", "))
		return nil, false
	}
	kind := args[0]
	lo := int64(0)
	if signed {
		lo = -p.lim.MaxTime
	}
	need := map[string]int{"fixed": 1, "uniform": 2, "exponential": 1, "lognormal": 2}
	switch kind.text {
	case "mixture":
		return p.mixture(kind, args[1:], signed)
	case "fixed", "uniform", "exponential", "lognormal":
	default:
		p.errorf(kind.col, "unknown distribution %q%s", kind.text, didYouMean(kind.text, distKinds))
		return nil, false
	}
	if !p.arity(kind, args[1:], need[kind.text], kind.text+map[string]string{
		"fixed": " D", "uniform": " FROM TO", "exponential": " MEAN", "lognormal": " MEDIAN SPREAD"}[kind.text]) {
		return nil, false
	}
	d := Dist{Kind: kind.text}
	if kind.text == "exponential" || kind.text == "lognormal" {
		lo = 1
	}
	var ok bool
	if d.A, ok = p.duration(args[1], lo); !ok {
		return nil, false
	}
	switch kind.text {
	case "uniform":
		if d.B, ok = p.duration(args[2], lo); !ok {
			return nil, false
		}
		if d.B < d.A {
			p.errorf(args[2].col, "uniform's end %s is before its start %s", args[2].text, args[1].text)
			return nil, false
		}
	case "lognormal":
		s, err := strconv.ParseFloat(args[2].text, 64)
		if err != nil || !(s >= 0 && s <= 3) {
			p.errorf(args[2].col, "lognormal's spread %q is not a number from 0 to 3 (0.5 is a modest tail, 1.5 a long one)", args[2].text)
			return nil, false
		}
		d.Sigma = s
	}
	return &d, true
}

// mixture reads "W DIST | W DIST ...".
func (p *parser) mixture(head word, args []word, signed bool) (*Dist, bool) {
	d := Dist{Kind: "mixture"}
	for len(args) > 0 {
		end := slices.IndexFunc(args, func(w word) bool { return w.text == "|" })
		part := args
		if end >= 0 {
			part, args = args[:end], args[end+1:]
		} else {
			args = nil
		}
		if len(part) < 2 {
			p.errorf(head.col, "write mixture WEIGHT DIST | WEIGHT DIST ...")
			return nil, false
		}
		wgt, err := strconv.ParseFloat(part[0].text, 64)
		if err != nil || !(wgt > 0 && wgt <= 1e6) {
			p.errorf(part[0].col, "weight %q is not a number above 0", part[0].text)
			return nil, false
		}
		if part[1].text == "mixture" {
			p.errorf(part[1].col, "a mixture's parts are not mixtures")
			return nil, false
		}
		sub, ok := p.dist(part[0], part[1:], signed)
		if !ok {
			return nil, false
		}
		d.Parts = append(d.Parts, Part{wgt, *sub})
	}
	if len(d.Parts) < 2 {
		p.errorf(head.col, "a mixture has two parts or more: mixture 0.9 fixed 1s | 0.1 fixed 10s")
		return nil, false
	}
	return &d, true
}

// sweep reads "sweep PARAM V1 V2 ..." or "sweep PARAM FROM..TO step S".
func (p *parser) sweep(head word, args []word) {
	if len(args) < 2 {
		p.errorf(head.col, "write sweep PARAM V1 V2 ... or sweep PARAM FROM..TO step STEP (PARAM one of %s)", strings.Join(sweepable, ", "))
		return
	}
	param := args[0]
	if !slices.Contains(sweepable, param.text) && param.text != "drift" {
		p.errorf(param.col, "cannot sweep %q%s: a sweep varies one of %s", param.text, didYouMean(param.text, sweepable), strings.Join(sweepable, ", "))
		return
	}
	if len(p.lab.Sweeps) == 2 {
		p.errorf(head.col, "a lab sweeps at most two parameters")
		return
	}
	s := Sweep{Param: param.text, Line: p.line, ParamCol: param.col}
	if from, to, ok := strings.Cut(args[1].text, ".."); ok {
		if len(args) != 4 || args[2].text != "step" {
			p.errorf(args[1].col, "write sweep %s FROM..TO step STEP", param.text)
			return
		}
		a, ok1 := p.value(param.text, word{from, args[1].col})
		b, ok2 := p.value(param.text, word{to, args[1].col + len([]rune(from)) + 2})
		st, ok3 := p.value(param.text, args[3])
		if !ok1 || !ok2 || !ok3 {
			return
		}
		if st <= 0 || b < a {
			p.errorf(args[1].col, "a range goes up from FROM to TO by a STEP above 0")
			return
		}
		if (b-a)/st >= int64(p.lim.LabPoints) {
			p.limitf(args[1].col, p.lim.Row("lab_points"), "%d values", (b-a)/st+1)
			return
		}
		for v := a; v <= b; v += st {
			s.Values = append(s.Values, v)
			s.Cols = append(s.Cols, args[1].col)
		}
	} else {
		for _, w := range args[1:] {
			v, ok := p.value(param.text, w)
			if !ok {
				return
			}
			if n := len(s.Values); n > 0 && v <= s.Values[n-1] {
				p.errorf(w.col, "the values go up: %s is not above the one before", w.text)
				return
			}
			s.Values = append(s.Values, v)
			s.Cols = append(s.Cols, w.col)
		}
	}
	if s.Param == "lease" && s.Values[0] < 1 {
		p.errorf(args[1].col, "a lease is at least 1ms")
		return
	}
	p.lab.Sweeps = append(p.lab.Sweeps, s)
}

func (p *parser) plot(head word, args []word) {
	if len(args) == 0 {
		p.errorf(head.col, "write plot METRIC ... (one of %s)", strings.Join(MetricNames(), ", "))
		return
	}
	var out []string
	for _, w := range args {
		if !slices.Contains(MetricNames(), w.text) {
			p.errorf(w.col, "unknown metric %q%s", w.text, didYouMean(w.text, MetricNames()))
			return
		}
		out = append(out, w.text)
	}
	p.lab.Plot = out
}

// checkHeartbeats refuses every point whose heartbeat is not shorter than
// its lease: a renew sent at or after the lease's end finds it ended. The
// error is at the value that makes the point so, a swept one before a
// written one, the heartbeat before the lease, one a line.
func (p *parser) checkHeartbeats() {
	blamed := map[int]bool{}
	for _, pt := range p.lab.Points() {
		hb, lease := pt.Policy.Heartbeat, pt.Policy.Lease
		if hb == 0 || hb < lease {
			continue
		}
		hbLine, hbCol, hbFrom := p.origin("heartbeat", pt)
		leaseLine, leaseCol, leaseFrom := p.origin("lease", pt)
		msg := fmt.Sprintf("heartbeat %s is not shorter than the lease %s (%s)", paramValue("heartbeat", hb), paramValue("lease", lease), leaseFrom)
		line, col := hbLine, hbCol
		if p.swept("lease") && !p.swept("heartbeat") {
			msg = fmt.Sprintf("lease %s is not longer than the heartbeat %s (%s)", paramValue("lease", lease), paramValue("heartbeat", hb), hbFrom)
			line, col = leaseLine, leaseCol
		}
		if !blamed[line] {
			blamed[line] = true
			p.line, p.bad = line, false
			p.errorf(col, "%s: a renew at or after the lease's end can never keep it", msg)
		}
	}
}

// checkPauseSweep refuses a sweep of pause in a lab without GC pauses (no
// gc line, or gc off): it would vary the length of pauses that never
// come. The error is at the sweep's parameter and says what to add; a gc
// line that has its own error is left to it.
func (p *parser) checkPauseSweep() {
	if p.lab.Workload.GCEvery != nil || !p.swept("pause") {
		return
	}
	if gc, ok := p.seen["gc"]; ok && slices.ContainsFunc(p.errs, func(e *Error) bool { return e.Line == gc }) {
		return
	}
	for _, s := range p.lab.Sweeps {
		if s.Param == "pause" {
			p.line, p.bad = s.Line, false
			p.errorf(s.ParamCol, "sweep pause varies the length of GC pauses, and this lab has none: add a line gc every DIST pause DIST (each point replaces its pause)")
		}
	}
}

// swept reports whether a sweep varies param.
func (p *parser) swept(param string) bool {
	return slices.ContainsFunc(p.lab.Sweeps, func(s Sweep) bool { return s.Param == param })
}

// origin is where pt's value of param was written: its line and column,
// and the same in words ("line 3", or "the default" when no line set it).
func (p *parser) origin(param string, pt Point) (line, col int, words string) {
	for i, s := range p.lab.Sweeps {
		if s.Param == param {
			k := slices.Index(s.Values, pt.Values[i])
			return s.Line, s.Cols[k], "line " + strconv.Itoa(s.Line)
		}
	}
	if line, ok := p.seen[param]; ok {
		return line, p.at[param], "line " + strconv.Itoa(line)
	}
	return 0, 0, "the default"
}

// checkSize holds the whole lab to the limits lab_points, lab_work and
// lab_calls (estimated), at the line of the sweep or the runs or jobs that
// pass them, or for lab_calls the last of the lines its estimate reads.
func (p *parser) checkSize() {
	points := 1
	for _, s := range p.lab.Sweeps {
		points *= len(s.Values)
		if points > p.lim.LabPoints {
			p.line = s.Line
			p.limitf(1, p.lim.Row("lab_points"), "%d points", points)
			return
		}
	}
	work := points * p.lab.Runs * p.lab.Workload.Jobs
	if work > p.lim.LabWork {
		p.line = max(p.seen["runs"], p.seen["jobs"], 1)
		p.limitf(1, p.lim.Row("lab_work"), "%d points × %d runs × %d jobs is %d job-runs", points, p.lab.Runs, p.lab.Workload.Jobs, work)
		return
	}
	if len(p.errs) > 0 {
		return // a line's mistake may have left a value the estimate would misjudge
	}
	if calls, most := p.lab.estimateCalls(p.lim); calls > int64(p.lim.LabCalls) {
		p.line, p.bad = 1, false
		for _, k := range []string{"jobs", "workers", "work", "horizon", "heartbeat", "runs"} {
			p.line = max(p.line, p.seen[k])
		}
		for _, s := range p.lab.Sweeps {
			p.line = max(p.line, s.Line)
		}
		p.limitf(1, p.lim.Row("lab_calls"), "%d points × %d runs of up to %d engine calls is about %d calls", points, p.lab.Runs, most, calls)
	}
}
