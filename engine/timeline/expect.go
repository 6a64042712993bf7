package timeline

import (
	"fmt"
	"strconv"
	"strings"
)

// judge checks a step's expectation against what happened. Fields describe
// the step's job as it stands after the step (for claim-next and send, the
// job it got), except delivered and total (the receipt), winner (a
// concurrent claim) and enqueued (an enqueue's answer).
func (r *runner) judge(s *StepLine, st *Step) *ExpectResult {
	e := s.Expect
	var want, got []string
	if e.Outcome != "" {
		match := st.Outcome.Kind == e.Outcome && (e.Reason == "" || e.Reason == st.Outcome.Reason)
		if !match {
			w := e.Outcome
			if e.Reason != "" {
				w += " " + e.Reason
			}
			want = append(want, w)
			got = append(got, outcomeText(st.Outcome))
		}
	}
	row := rowByID(st.Rows, st.Job)
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
			got = append(got, g)
		}
	}
	res := &ExpectResult{Text: e.Text, OK: len(want) == 0}
	if !res.OK {
		res.Expected, res.Got = strings.Join(want, " "), strings.Join(got, " ")
		res.Message = fmt.Sprintf("%s:%d: expected %s, got %s", r.tl.Name, s.Line, res.Expected, res.Got)
	}
	return res
}

// outcomeText is an outcome as an expectation writes it.
func outcomeText(o Outcome) string {
	switch {
	case o.Kind == "refused" && o.Reason != "":
		return "refused " + o.Reason
	case o.Error != "":
		return o.Kind + " (" + o.Error + ")"
	}
	return o.Kind
}

func rowByID(rows []Row, id string) *Row {
	if id == "" {
		return nil
	}
	for i := range rows {
		if rows[i].ID == id {
			return &rows[i]
		}
	}
	return nil
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
	switch key {
	case "job":
		return orNone(st.Job), true
	case "delivered", "total":
		if st.Receipt == nil {
			return "no receipt", false
		}
		if key == "total" {
			return i(st.Receipt.Total), true
		}
		return strconv.FormatBool(st.Receipt.Delivered), true
	case "winner":
		return orNone(strings.Join(winners(st), ",")), true
	case "enqueued":
		if st.Enqueued == nil {
			return "no answer", false
		}
		return strconv.FormatBool(*st.Enqueued), true
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
