package grade

import "github.com/leaselab/leaselab/engine"

// LabRows are jobs as the lab's table holds them (lab is Fencing or
// Courier): its columns, and each row's values in them, as SQLite gives
// them back (NULL nil, an integer int64, text a string), for a page that
// draws the tables of a Failure (WantRows, GotRows).
func LabRows(lab string, jobs []engine.Job) (columns []string, rows [][]any) {
	text := func(s string, null bool) any {
		if null {
			return nil
		}
		return s
	}
	rows = make([][]any, len(jobs))
	for i, j := range jobs {
		done := j.Status == engine.StatusDone
		if lab == Courier {
			var deadline any
			if j.Deadline != 0 {
				deadline = j.Deadline
			}
			rows[i] = []any{j.ID, j.Qty, text(j.Owner, j.Owner == ""), j.LeaseUntil, j.Token, j.Attempts, j.MaxAttempts,
				deadline, string(j.Status), text(j.Reason, j.Reason == ""), text(j.Result, j.Result == "" && !done)}
			continue
		}
		d := int64(0)
		if done {
			d = 1
		}
		rows[i] = []any{j.ID, text(j.Owner, j.Owner == ""), j.LeaseUntil, j.Token, text(j.Result, j.Result == "" && !done), d}
	}
	if lab == Courier {
		return []string{"id", "qty", "owner", "lease_until", "token", "attempts", "max_attempts", "deadline", "status", "reason", "result"}, rows
	}
	return []string{"id", "owner", "until", "fence", "result", "done"}, rows
}
