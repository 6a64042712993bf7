package timeline

import (
	"sort"

	"github.com/leaselab/leaselab/engine"
)

// table mirrors the jobs table in insertion order. The runner applies to
// it the rows each step wrote, read back from the database, so a step
// costs what it changed, not the size of the table.
type table struct {
	rows  map[string]engine.Job
	order []string // ids in insertion order
}

func newTable() *table { return &table{rows: map[string]engine.Job{}} }

// reset makes the table jobs (as Store.Jobs reads them) and returns the ids
// it held that jobs does not.
func (t *table) reset(jobs []engine.Job) (gone []string) {
	next := make(map[string]engine.Job, len(jobs))
	order := make([]string, 0, len(jobs))
	for _, j := range jobs {
		next[j.ID] = j
		order = append(order, j.ID)
	}
	for _, id := range t.order {
		if _, ok := next[id]; !ok {
			gone = append(gone, id)
		}
	}
	t.rows, t.order = next, order
	return gone
}

func (t *table) get(id string) (engine.Job, bool) {
	j, ok := t.rows[id]
	return j, ok
}

// apply puts rows (in insertion order) into the table: a known row is
// replaced in place, unless it is in moved (a row deleted and inserted
// again, which goes to the end); a new one is appended.
func (t *table) apply(rows []engine.Job, moved map[string]bool) {
	if len(moved) > 0 {
		kept := t.order[:0]
		for _, id := range t.order {
			if !moved[id] {
				kept = append(kept, id)
			}
		}
		t.order = kept
		for id := range moved {
			delete(t.rows, id)
		}
	}
	for _, j := range rows {
		if _, ok := t.rows[j.ID]; !ok {
			t.order = append(t.order, j.ID)
		}
		t.rows[j.ID] = j
	}
}

// all is every row in insertion order.
func (t *table) all() []engine.Job {
	out := make([]engine.Job, len(t.order))
	for i, id := range t.order {
		out[i] = t.rows[id]
	}
	return out
}

func rowOf(j engine.Job) Row {
	return Row{ID: j.ID, Qty: j.Qty, Owner: j.Owner, LeaseUntil: j.LeaseUntil, Token: j.Token, Attempts: j.Attempts,
		MaxAttempts: j.MaxAttempts, Deadline: j.Deadline, Status: string(j.Status), Reason: j.Reason, Result: j.Result}
}

func rowsOf(jobs []engine.Job) []Row {
	out := make([]Row, len(jobs))
	for i, j := range jobs {
		out[i] = rowOf(j)
	}
	return out
}

// changedCells lists the cells of after that differ from the same rows in
// before, in after's order and then in Row's column order; a row before
// does not hold reports every column.
func changedCells(before map[string]engine.Job, after []engine.Job) []Cell {
	out := []Cell{}
	for i := range after {
		a := &after[i]
		p, seen := before[a.ID]
		for _, c := range []struct {
			name    string
			changed bool
		}{
			{"id", p.ID != a.ID}, {"qty", p.Qty != a.Qty}, {"owner", p.Owner != a.Owner},
			{"lease_until", p.LeaseUntil != a.LeaseUntil}, {"token", p.Token != a.Token},
			{"attempts", p.Attempts != a.Attempts}, {"max_attempts", p.MaxAttempts != a.MaxAttempts},
			{"deadline", p.Deadline != a.Deadline}, {"status", p.Status != a.Status},
			{"reason", p.Reason != a.Reason}, {"result", p.Result != a.Result},
		} {
			if c.changed || !seen {
				out = append(out, Cell{Job: a.ID, Column: c.name})
			}
		}
	}
	return out
}

// TableAt rebuilds the jobs table after step n (0: before the first step;
// len(Steps): after the last) from Start and the rows each step changed, in
// insertion order. It costs the steps up to n, not the table times the
// steps; a reader that moves step by step applies one step at a time with
// Step.Apply.
func (t *Trace) TableAt(n int) []Row {
	rows := append([]Row(nil), t.Start...)
	for i := 0; i < n && i < len(t.Steps); i++ {
		rows = t.Steps[i].Apply(rows)
	}
	return rows
}

// Apply returns rows (a table in insertion order) with the step's changes:
// the rows it removed taken out, the rows it changed put in place, the new
// ones appended (a row removed and written again goes to the end, as
// SQLite's INSERT OR REPLACE puts it).
func (s *Step) Apply(rows []Row) []Row {
	if len(s.Gone) > 0 {
		gone := map[string]bool{}
		for _, id := range s.Gone {
			gone[id] = true
		}
		kept := rows[:0:0]
		for _, r := range rows {
			if !gone[r.ID] {
				kept = append(kept, r)
			}
		}
		rows = kept
	}
	at := make(map[string]int, len(rows))
	for i, r := range rows {
		at[r.ID] = i
	}
	for _, r := range s.Rows {
		if i, ok := at[r.ID]; ok {
			rows[i] = r
			continue
		}
		at[r.ID] = len(rows)
		rows = append(rows, r)
	}
	return rows
}

// StorageAt is the fenced storage after step n, in key order.
func (t *Trace) StorageAt(n int) []Stored {
	vals := map[string]Stored{}
	for i := 0; i < n && i < len(t.Steps); i++ {
		if st := t.Steps[i]; st.Stored != nil && st.Op == "write" {
			vals[st.Stored.Key] = *st.Stored
		}
	}
	out := make([]Stored, 0, len(vals))
	for _, v := range vals {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}
