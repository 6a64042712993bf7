package timeline

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrNotComparable: Compare was given traces of two different timelines.
var ErrNotComparable = errors.New("timeline: the traces are not of one timeline")

// Difference is the first step at which two runs of one timeline part ways,
// typically the correct engine and a mutant (the worksheet): what the step
// answered or left behind is not the same in both traces.
type Difference struct {
	// Step is the step's 0-based index; Line and Source are its line.
	Step   int    `json:"step"`
	Line   int    `json:"line"`
	Source string `json:"source"`
	// Aspects name what differs, in this order: "outcome" (kind or
	// reason), "winner" (who won a concurrent claim), "token" and
	// "lease_until" (of the lease the step granted), "receipt" (the
	// receiver's delivered or total), "enqueued", "state" (the row a state
	// step read), "storage" (the value a write left or a read found) and
	// "rows" (the jobs table after the step).
	Aspects []string `json:"aspects"`
	// Cells are the jobs-table cells that differ after the step, in the
	// first trace's row order (then rows only the second has), then
	// column order; empty unless Aspects holds "rows".
	Cells []CellDiff `json:"cells"`
}

// CellDiff is one cell of the jobs table that two traces disagree on.
type CellDiff struct {
	// Job is the row's id; Column the column's name as in Row's JSON.
	Job    string `json:"job"`
	Column string `json:"column"`
	// A and B are the cell in the first and the second trace, as text;
	// "" in both for a row that only one trace has ("id" then says which).
	A string `json:"a"`
	B string `json:"b"`
}

// Compare finds the first step at which a and b, two traces of the same
// timeline (same steps, same lines), differ, or returns nil when every
// step agrees: the timeline does not tell the two engines apart. Only what
// the engines did counts; the language of the explanations, the SQL text
// and the invariant verdicts (which follow from the rows) do not.
// Traces of different timelines return ErrNotComparable.
func Compare(a, b *Trace) (*Difference, error) {
	if len(a.Steps) != len(b.Steps) {
		return nil, fmt.Errorf("%w: %d steps against %d", ErrNotComparable, len(a.Steps), len(b.Steps))
	}
	ta, tb := append([]Row(nil), a.Start...), append([]Row(nil), b.Start...)
	for i := range a.Steps {
		sa, sb := &a.Steps[i], &b.Steps[i]
		if sa.Line != sb.Line || sa.Source != sb.Source {
			return nil, fmt.Errorf("%w: step %d is line %d in one and line %d in the other", ErrNotComparable, i+1, sa.Line, sb.Line)
		}
		ta, tb = sa.Apply(ta), sb.Apply(tb)
		if d := compareStep(sa, sb, ta, tb); d != nil {
			return d, nil
		}
	}
	return nil, nil
}

// compareStep compares one step of two runs, given the jobs table after
// it in each.
func compareStep(a, b *Step, rowsA, rowsB []Row) *Difference {
	var aspects []string
	if a.Outcome.Kind != b.Outcome.Kind || a.Outcome.Reason != b.Outcome.Reason {
		aspects = append(aspects, "outcome")
	}
	if strings.Join(winners(a), ",") != strings.Join(winners(b), ",") {
		aspects = append(aspects, "winner")
	}
	la, lb := a.Lease, b.Lease
	if la == nil {
		la = &Lease{}
	}
	if lb == nil {
		lb = &Lease{}
	}
	if la.Token != lb.Token {
		aspects = append(aspects, "token")
	}
	if la.LeaseUntil != lb.LeaseUntil {
		aspects = append(aspects, "lease_until")
	}
	if !sameReceipt(a.Receipt, b.Receipt) {
		aspects = append(aspects, "receipt")
	}
	if (a.Enqueued == nil) != (b.Enqueued == nil) || (a.Enqueued != nil && *a.Enqueued != *b.Enqueued) {
		aspects = append(aspects, "enqueued")
	}
	if (a.State == nil) != (b.State == nil) || (a.State != nil && *a.State != *b.State) {
		aspects = append(aspects, "state")
	}
	if (a.Stored == nil) != (b.Stored == nil) || (a.Stored != nil && *a.Stored != *b.Stored) {
		aspects = append(aspects, "storage")
	}
	cells := diffRows(rowsA, rowsB)
	if len(cells) > 0 {
		aspects = append(aspects, "rows")
	}
	if len(aspects) == 0 {
		return nil
	}
	if cells == nil {
		cells = []CellDiff{}
	}
	return &Difference{Step: a.Index, Line: a.Line, Source: a.Source, Aspects: aspects, Cells: cells}
}

func sameReceipt(a, b *Receipt) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Delivered == b.Delivered && a.Total == b.Total && a.Job == b.Job && a.Qty == b.Qty
}

// diffRows lists the cells that differ between two jobs tables, matching
// rows by id.
func diffRows(a, b []Row) []CellDiff {
	byID := make(map[string]*Row, len(b))
	for i := range b {
		byID[b[i].ID] = &b[i]
	}
	var out []CellDiff
	seen := map[string]bool{}
	for i := range a {
		ra := &a[i]
		seen[ra.ID] = true
		rb := byID[ra.ID]
		if rb == nil {
			out = append(out, CellDiff{Job: ra.ID, Column: "id", A: ra.ID})
			continue
		}
		ca, cb := rowCells(ra), rowCells(rb)
		for k := range ca {
			if ca[k].value != cb[k].value {
				out = append(out, CellDiff{Job: ra.ID, Column: ca[k].column, A: ca[k].value, B: cb[k].value})
			}
		}
	}
	for i := range b {
		if !seen[b[i].ID] {
			out = append(out, CellDiff{Job: b[i].ID, Column: "id", B: b[i].ID})
		}
	}
	return out
}

type cell struct{ column, value string }

// rowCells is a row's columns in Row's order, as text.
func rowCells(r *Row) []cell {
	n := func(v int64) string { return strconv.FormatInt(v, 10) }
	return []cell{
		{"qty", n(r.Qty)}, {"owner", r.Owner}, {"lease_until", n(r.LeaseUntil)}, {"token", n(r.Token)},
		{"attempts", n(r.Attempts)}, {"max_attempts", n(r.MaxAttempts)}, {"deadline", n(r.Deadline)},
		{"status", r.Status}, {"reason", r.Reason}, {"result", r.Result},
	}
}
