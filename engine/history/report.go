package history

import (
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/leaselab/leaselab/engine"
)

// String is the result as a person reads it: the verdict and, for a
// failure, its calls in the order they were invoked, each with its number
// in the history (from 1: a JSON lines file's line), client, interval,
// call and answer, marked
//
//	!  the first call that no order can place (Stuck)
//	*  a call whose interval meets it (Overlaps)
//	?  a call in flight at the cut, taken as answering anything (InFlight)
//
// then the model's rows after the longest order of them it accepts.
func (r *Result) String() string {
	var b strings.Builder
	clients := map[string]bool{}
	for _, o := range r.History {
		clients[o.Client] = true
	}
	size := fmt.Sprintf("%d calls of %d clients", len(r.History), len(clients))
	switch r.Verdict {
	case Linearizable:
		return "linearizable: " + size + "\n"
	case Unknown:
		return fmt.Sprintf("unknown: %s; the check ran out of its time (%s) before it decided\n", size, r.timeout)
	}
	f := r.Failure
	fmt.Fprintf(&b, "not linearizable: %s; no order of the calls %s fits the contract's model", size, jobText(f.Job))
	if len(f.Jobs) > 1 {
		fmt.Fprintf(&b, " (nor of those on job %s)", strings.Join(f.Jobs[1:], ", "))
	}
	fmt.Fprintf(&b, ".\nThe smallest failing part found, %d calls, in the order they were invoked\n", len(f.Calls))
	b.WriteString("(! the first call no order can place, * a call overlapping it, ? in flight at the cut: any answer):\n")
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	var placed []string
	for _, c := range f.Calls {
		o := &r.History[c.Index]
		mark := " "
		switch {
		case c.Stuck:
			mark = "!"
		case c.Overlaps:
			mark = "*"
		}
		if c.InFlight {
			mark += "?"
		}
		fmt.Fprintf(tw, "  %s\tcall %d\t%s\t[%d, %d]\t%s\t→ %s\n", mark, c.Index+1, o.Client, o.Invoke, o.Return,
			describeCall(o), describeAnswer(o))
		if c.Placed {
			placed = append(placed, strconv.Itoa(c.Index+1))
		}
	}
	tw.Flush()
	if f.Rows != nil {
		fmt.Fprintf(&b, "The model's rows after the longest order of them it accepts (calls %s, in some order):\n%s",
			orNone(strings.Join(placed, ", ")), describeRows(f.Rows))
	}
	return b.String()
}

func jobText(job string) string {
	if job == "" {
		return "(they span jobs: a claim_next is among them)"
	}
	return "on job " + job
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// describeCall is a call and its arguments: "claim a by c1 now=0 ttl=100",
// "complete a c1#1 now=99 result=\"r\"".
func describeCall(o *Operation) string {
	a := &o.Args
	lease := name(a.Job) + " " + name(a.Owner) + "#" + strconv.FormatInt(a.Token, 10)
	switch o.Call {
	case engine.OpEnqueue:
		s := "enqueue " + name(a.Job)
		for _, f := range []struct {
			name string
			v    int64
		}{{"qty", a.Qty}, {"deadline", a.Deadline}, {"max_attempts", a.MaxAttempts}} {
			if f.v != 0 {
				s += fmt.Sprintf(" %s=%d", f.name, f.v)
			}
		}
		return s
	case engine.OpState:
		return "state " + name(a.Job)
	case engine.OpClaim:
		return fmt.Sprintf("claim %s by %s now=%d ttl=%d", name(a.Job), name(a.Owner), a.Now, a.TTL)
	case engine.OpClaimNext:
		return fmt.Sprintf("claim_next by %s now=%d ttl=%d", name(a.Owner), a.Now, a.TTL)
	case engine.OpRenew:
		return fmt.Sprintf("renew %s now=%d ttl=%d", lease, a.Now, a.TTL)
	case engine.OpComplete, OpFinish:
		return fmt.Sprintf("%s %s now=%d result=%q", o.Call, lease, a.Now, a.Result)
	}
	return string(o.Call) + " " + lease
}

// describeAnswer is a call's answer: "ok token=2 lease_until=200",
// "refused superseded", "error: database is locked".
func describeAnswer(o *Operation) string {
	a := &o.Answer
	switch a.Outcome {
	case engine.OutcomeRefused:
		if a.Refusal == "" {
			return "refused (no rule named)"
		}
		return "refused " + string(a.Refusal)
	case engine.OutcomeError:
		return "error: " + a.Error
	case engine.OutcomeOK:
	default:
		return string(a.Outcome)
	}
	switch o.Call {
	case engine.OpEnqueue:
		return "ok created=" + strconv.FormatBool(a.Created)
	case engine.OpState:
		return "ok " + describeRow(a.Row)
	case engine.OpClaim, engine.OpClaimNext, engine.OpRenew:
		s := fmt.Sprintf("ok token=%d lease_until=%d", a.Token, a.LeaseUntil)
		if a.Job != "" {
			s = "ok " + name(a.Job) + fmt.Sprintf(" token=%d lease_until=%d", a.Token, a.LeaseUntil)
		}
		return s
	}
	return "ok"
}

// name is a job id or owner as a report shows it: quoted when empty or
// when it holds a space or a quote.
func name(s string) string {
	if s == "" || strings.ContainsAny(s, " \t\"#") || strconv.Quote(s) != `"`+s+`"` {
		return strconv.Quote(s)
	}
	return s
}

// describeRow is a row, its fields named as the jobs table's columns
// (max_attempts and deadline 0: none).
func describeRow(j *engine.Job) string {
	return fmt.Sprintf("%s %s qty=%d owner=%q lease_until=%d token=%d attempts=%d max_attempts=%d deadline=%d reason=%q result=%q",
		name(j.ID), j.Status, j.Qty, j.Owner, j.LeaseUntil, j.Token, j.Attempts, j.MaxAttempts, j.Deadline, j.Reason, j.Result)
}

// describeRows is each row on a line of its own, indented; "(none)" for
// no rows.
func describeRows(rows []engine.Job) string {
	if len(rows) == 0 {
		return "  (none)\n"
	}
	var b strings.Builder
	for i := range rows {
		b.WriteString("  " + describeRow(&rows[i]) + "\n")
	}
	return b.String()
}
