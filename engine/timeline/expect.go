package timeline

import (
	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/internal/lang"
	"strconv"
	"strings"
)

// judge checks a step's expectation against what happened. Fields describe
// the step's job as it stands after the step (for claim_next and send, the
// job it got), except the receiver's (delivered, total, receipt.*), the
// storage's (storage.*), a concurrent claim's (winner, losers, loser.NAME)
// and enqueue's answer (enqueued); violates= names the invariants the step
// must break.
func (r *runner) judge(s *StepLine, st *Step) *ExpectResult {
	e := s.Expect
	var want, got []string
	if e.Outcome != "" {
		match := st.Outcome.Kind == string(e.Outcome) && (e.Reason == "" || string(e.Reason) == st.Outcome.Reason)
		if !match {
			w := string(e.Outcome)
			if e.Reason != "" {
				w += " " + string(e.Reason)
			}
			want = append(want, w)
			got = append(got, outcomeText(st.Outcome))
		}
	}
	var row *Row
	if j, ok := r.table.get(st.Job); ok && st.Job != "" {
		rr := rowOf(j)
		row = &rr
	}
	missing := map[string]bool{}
	for _, f := range e.Fields {
		g, ok := fieldOf(f.Key, st, row)
		if ok && g == f.Want {
			continue
		}
		want = append(want, f.Key+"="+quoteIfNeeded(f.Want))
		switch {
		case ok:
			got = append(got, f.Key+"="+quoteIfNeeded(g))
		case !missing[g]:
			missing[g] = true
			got = append(got, missingIn(g, r.lang))
		}
	}
	w, g := judgeViolations(e.Violates, st.Verdicts, r.lang)
	want, got = append(want, w...), append(got, g...)
	res := &ExpectResult{Text: e.Text, OK: len(want) == 0}
	if !res.OK {
		res.Expected, res.Got = strings.Join(want, " "), strings.Join(got, " ")
		res.Message = lang.P("%s:%d: expected %s, got %s", r.tl.Name, s.Line, res.Expected, res.Got).In(r.lang)
	}
	return res
}

// judgeViolations compares the invariants a step announced it breaks with
// the ones it broke; it returns the parts that differ. When an invariant
// the step did not announce broke there, the parts end by naming it and
// the violates= that matches the step: what it broke, in the checker's
// order.
func judgeViolations(announced []string, vs []StepVerdict, l string) (want, got []string) {
	var broke, unannounced, all []string
	for _, v := range vs {
		switch {
		case v.OK:
			continue
		case v.Expected:
			broke = append(broke, v.Invariant)
		default:
			unannounced = append(unannounced, v.Invariant)
		}
		all = append(all, v.Invariant)
	}
	if len(broke) == len(announced) {
		return nil, nil
	}
	var held []string
	for _, name := range announced {
		if !containsString(broke, name) {
			held = append(held, lang.P("%s held", name).In(l))
		}
	}
	if len(unannounced) > 0 {
		hint := lang.P("(violated here: %s; did you mean violates=%s?)",
			strings.Join(unannounced, ","), strings.Join(all, ",")).In(l)
		held = append(held, hint)
	}
	return []string{"violates=" + strings.Join(announced, ",")}, held
}

// missingIn is what fieldOf found missing, in language l: "no job",
// "no job J", "no receipt", "nothing stored", "no answer", "no contender
// C", "unknown field F", "no token presented".
func missingIn(what, l string) string {
	for _, prefix := range []string{"no job ", "no contender ", "unknown field "} {
		if rest, ok := strings.CutPrefix(what, prefix); ok {
			return lang.P(prefix+"%s", rest).In(l)
		}
	}
	return lang.Word(what).In(l)
}

// outcomeText is an outcome as an expectation writes it.
func outcomeText(o StepOutcome) string {
	switch {
	case o.Kind == "refused" && o.Reason != "":
		return "refused " + o.Reason
	case o.Error != "":
		return o.Kind + " (" + o.Error + ")"
	}
	return o.Kind
}

// fieldOf returns a field's actual value in canonical text, or, when the
// step has nothing to compare (no job, no receipt), false and what is
// missing.
func fieldOf(key string, st *Step, row *Row) (string, bool) {
	i := func(n int64) string { return strconv.FormatInt(n, 10) }
	orNone := func(s string) string {
		if s == "" {
			return "none"
		}
		return s
	}
	if v, ok, handled := stepField(key, st); handled {
		return v, ok
	}
	if row == nil {
		if st.Job == "" {
			return "no job", false
		}
		return "no job " + st.Job, false
	}
	switch key {
	case "token":
		return i(row.Token), true
	case "lease_until":
		return i(row.LeaseUntil), true
	case "attempt", "attempts":
		return i(row.Attempts), true
	case "qty":
		return i(row.Qty), true
	case "deadline":
		return i(row.Deadline), true
	case "max_attempts":
		return i(row.MaxAttempts), true
	case "status":
		return row.Status, true
	case "owner":
		return orNone(row.Owner), true
	case "result":
		return row.Result, true
	case "reason":
		return orNone(row.Reason), true
	}
	return "unknown field " + key, false
}

func quoteIfNeeded(s string) string {
	if s == "" || strings.ContainsAny(s, " \t\"#") {
		return strconv.Quote(s)
	}
	return s
}

// stepField is a field that belongs to the step rather than its job: the
// receiver's, the storage's, a concurrent claim's and an enqueue's answer.
// handled is false for the job's fields.
func stepField(key string, st *Step) (value string, ok, handled bool) {
	i := func(n int64) string { return strconv.FormatInt(n, 10) }
	orNone := func(s string) string {
		if s == "" {
			return "none"
		}
		return s
	}
	rc, sv := st.Receipt, st.Stored
	switch key {
	case "job":
		return orNone(st.Job), true, true
	case "token":
		if st.Op != string(engine.OpWrite) {
			return "", false, false
		}
		if st.Presented == nil {
			return "no token presented", false, true
		}
		return i(st.Presented.Token), true, true
	case "delivered", "total", "receipt.qty", "receipt.owner", "receipt.token":
		if rc == nil {
			return "no receipt", false, true
		}
		v := map[string]string{"delivered": strconv.FormatBool(rc.Delivered), "total": i(rc.Total),
			"receipt.qty": i(rc.Kept.Qty), "receipt.owner": orNone(rc.Kept.Owner), "receipt.token": i(rc.Kept.Token)}[key]
		return v, true, true
	case "storage.value", "storage.owner", "storage.token":
		if sv == nil {
			return "nothing stored", false, true
		}
		v := map[string]string{"storage.value": sv.Value, "storage.owner": orNone(sv.Owner), "storage.token": i(sv.Token)}[key]
		return v, true, true
	case "winner":
		return orNone(strings.Join(winners(st), ",")), true, true
	case "losers":
		return losersHeard(st), true, true
	case "enqueued":
		if st.Enqueued == nil {
			return "no answer", false, true
		}
		return strconv.FormatBool(*st.Enqueued), true, true
	}
	if name, found := strings.CutPrefix(key, "loser."); found {
		for _, c := range st.Contenders {
			if c.Actor == name {
				return heard(c.Outcome), true, true
			}
		}
		return "no contender " + name, false, true
	}
	return "", false, false
}

// heard is what one contender heard: "ok" for the winner, else the refusal.
func heard(o StepOutcome) string {
	if o.Reason != "" {
		return o.Reason
	}
	return o.Kind
}

// losersHeard is what every loser heard, when they all heard the same;
// else each loser's answer, NAME:ANSWER, comma-separated.
func losersHeard(st *Step) string {
	var each []string
	answers := map[string]bool{}
	for _, c := range st.Contenders {
		if c.Outcome.Kind == "ok" {
			continue
		}
		h := heard(c.Outcome)
		answers[h] = true
		each = append(each, c.Actor+":"+h)
	}
	if len(answers) == 1 {
		return sortedKeys(answers)[0]
	}
	if len(each) == 0 {
		return "none"
	}
	return strings.Join(each, ",")
}
