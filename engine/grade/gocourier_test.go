package grade_test

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/grade"
)

// courierLab is the courier lab in Go over its tables, as a Go student
// writes it; heldAtEnd makes the wrong fragment of step 4: a lease still
// held at its lease_until.
type courierLab struct {
	files     goLab // the open databases, by path
	heldAtEnd bool
	// checkThenAct makes finish read the job in one statement and write it
	// in another, outside one transaction.
	checkThenAct bool
}

func (l *courierLab) InitDB(path string) error {
	if _, err := l.files.exec(path, `CREATE TABLE IF NOT EXISTS jobs(id TEXT PRIMARY KEY, qty INTEGER NOT NULL DEFAULT 1,
		owner TEXT, lease_until INTEGER NOT NULL DEFAULT 0, token INTEGER NOT NULL DEFAULT 0,
		attempts INTEGER NOT NULL DEFAULT 0, max_attempts INTEGER NOT NULL DEFAULT 0, deadline INTEGER,
		status TEXT NOT NULL DEFAULT 'pending', reason TEXT, result TEXT)`); err != nil {
		return err
	}
	_, err := l.files.exec(path, "CREATE TABLE IF NOT EXISTS received(business_id TEXT PRIMARY KEY, qty INTEGER NOT NULL)")
	return err
}

func (l *courierLab) Enqueue(path, id string, qty int64, deadline *int64, maxAttempts int64) (bool, error) {
	return l.files.exec(path, "INSERT OR IGNORE INTO jobs(id, qty, deadline, max_attempts) VALUES (?, ?, ?, ?)", id, qty, deadline, maxAttempts)
}

func (l *courierLab) State(path, id string) (map[string]any, error) {
	db, err := l.files.db(path)
	if err != nil {
		return nil, err
	}
	var (
		qty, until, token, attempts, most int64
		owner, reason, result             sql.NullString
		deadline                          sql.NullInt64
		status                            string
	)
	err = db.QueryRow("SELECT qty, owner, lease_until, token, attempts, max_attempts, deadline, status, reason, result FROM jobs WHERE id=?", id).
		Scan(&qty, &owner, &until, &token, &attempts, &most, &deadline, &status, &reason, &result)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	null := func(v any, valid bool) any {
		if valid {
			return v
		}
		return nil
	}
	return map[string]any{"id": id, "qty": qty, "owner": null(owner.String, owner.Valid), "lease_until": until, "token": token,
		"attempts": attempts, "max_attempts": most, "deadline": null(deadline.Int64, deadline.Valid), "status": status,
		"reason": null(reason.String, reason.Valid), "result": null(result.String, result.Valid)}, nil
}

// courierJob is what claim_next reads of a row.
type courierJob struct {
	id                                string
	qty, until, token, attempts, most int64
	owner                             sql.NullString
	deadline                          sql.NullInt64
}

func (l *courierLab) ClaimNext(path, owner string, now, leaseMs int64) (*grade.Marker, error) {
	if leaseMs <= 0 {
		return nil, fmt.Errorf("%w: lease_ms %d", grade.ErrValue, leaseMs)
	}
	db, err := l.files.db(path)
	if err != nil {
		return nil, err
	}
	tx, err := db.Begin() // BEGIN IMMEDIATE
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	rows, err := tx.Query("SELECT id, qty, owner, lease_until, token, attempts, max_attempts, deadline FROM jobs WHERE status IN ('pending', 'leased') ORDER BY rowid")
	if err != nil {
		return nil, err
	}
	var jobs []courierJob
	for rows.Next() {
		var j courierJob
		if err := rows.Scan(&j.id, &j.qty, &j.owner, &j.until, &j.token, &j.attempts, &j.most, &j.deadline); err != nil {
			rows.Close()
			return nil, err
		}
		jobs = append(jobs, j)
	}
	if err := rows.Close(); err != nil {
		return nil, err
	}
	for _, j := range jobs {
		held := j.owner.Valid && j.until > now
		if l.heldAtEnd {
			held = j.owner.Valid && j.until >= now
		}
		reason := ""
		switch {
		case held:
			continue
		case j.most > 0 && j.attempts >= j.most:
			reason = "attempts"
		case j.deadline.Valid && now >= j.deadline.Int64:
			reason = "deadline"
		}
		if reason != "" {
			if _, err := tx.Exec("UPDATE jobs SET status='quarantined', reason=? WHERE id=?", reason, j.id); err != nil {
				return nil, err
			}
			continue
		}
		m := grade.Marker{ID: j.id, Qty: j.qty, Owner: owner, Token: j.token + 1, Attempt: j.attempts + 1, LeaseUntil: now + leaseMs}
		if j.deadline.Valid {
			m.LeaseUntil = min(m.LeaseUntil, j.deadline.Int64)
		}
		if _, err := tx.Exec("UPDATE jobs SET owner=?, lease_until=?, token=?, attempts=?, status='leased' WHERE id=?",
			owner, m.LeaseUntil, m.Token, m.Attempt, j.id); err != nil {
			return nil, err
		}
		return &m, tx.Commit()
	}
	return nil, tx.Commit() // the quarantines made on the way stay
}

func (l *courierLab) Finish(path string, m grade.Marker, now int64, result string) (bool, error) {
	if l.checkThenAct {
		db, err := l.files.db(path)
		if err != nil {
			return false, err
		}
		var n int
		err = db.QueryRow(`SELECT count(*) FROM jobs WHERE id=? AND owner=? AND token=? AND status='leased'
			AND lease_until>? AND (deadline IS NULL OR deadline>?)`, m.ID, m.Owner, m.Token, now, now).Scan(&n)
		if n == 0 || err != nil {
			return false, err
		}
		return l.files.exec(path, "UPDATE jobs SET status='done', result=? WHERE id=?", result, m.ID)
	}
	return l.files.exec(path, `UPDATE jobs SET status='done', result=? WHERE id=? AND owner=? AND token=? AND status='leased'
		AND lease_until>? AND (deadline IS NULL OR deadline>?)`, result, m.ID, m.Owner, m.Token, now, now)
}

func (l *courierLab) Send(path, owner string, now, leaseMs int64, deliver func(grade.Marker) (int64, error)) (*bool, error) {
	m, err := l.ClaimNext(path, owner, now, leaseMs) // committed: its lock is released
	if m == nil || err != nil {
		return nil, err
	}
	at, err := deliver(*m) // outside any transaction
	if err != nil {
		return nil, err
	}
	ok, err := l.Finish(path, *m, at, "sent")
	return &ok, err
}

func (l *courierLab) Receive(path, id string, qty int64) (bool, error) {
	return l.files.exec(path, "INSERT OR IGNORE INTO received(business_id, qty) VALUES (?, ?)", id, qty)
}

func TestRunCourier_GradesAGoCourierLab(t *testing.T) {
	lab := &courierLab{}
	t.Cleanup(lab.files.close)
	grade.RunCourier(t, lab)
}

// A Go courier lab with one mistake fails at the step that introduces
// its function, at a call of it, charged to its rule.
func TestGrade_FailsAGoCourierLabAtItsWrongBoundary(t *testing.T) {
	lab := &courierLab{heldAtEnd: true}
	t.Cleanup(lab.files.close)
	r, err := grade.Grade(t.Context(), grade.Options{CourierLab: lab, Dir: tempDir(t), FailFast: true})
	if err != nil {
		t.Fatal(err)
	}
	first := r.First()
	if r.Lab != grade.Courier || first == nil || first.Name != "step 4: claim_next" ||
		!strings.HasPrefix(first.Failure.Call, "ClaimNext(path, ") || first.Failure.Rule != "claim_next" {
		t.Fatalf("lab %s, first failure %+v; want step 4 failing at a claim_next", r.Lab, first)
	}
}

// A Go lab is graded as its own lab's: a CourierLab named the fencing
// lab, or given beside a Lab, is refused before anything runs.
func TestGrade_RefusesAGoLabUnderTheOtherLabsName(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    grade.Options
	}{
		{"a CourierLab as the fencing lab", grade.Options{CourierLab: &courierLab{}, LabName: grade.Fencing}},
		{"a Lab as the courier lab", grade.Options{Lab: &goLab{}, LabName: grade.Courier}},
		{"a Lab and a CourierLab", grade.Options{Lab: &goLab{}, CourierLab: &courierLab{}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.o.Dir = tempDir(t)
			if r, err := grade.Grade(t.Context(), tc.o); err == nil || !strings.Contains(err.Error(), "a CourierLab the courier's") {
				t.Fatalf("report %v, error %v; want a refusal naming each Go lab's lab", r, err)
			}
		})
	}
}

// A Go courier lab whose finish checks in one statement and writes in
// another fails the race of an old holder's late finish against a new
// claim_next, and only that race, its report naming the calls as Go
// writes them: Finish of a grade.Marker, ClaimNext.
func TestGrade_ACheckThenActGoCourierLabFailsItsOverlap(t *testing.T) {
	runs := 1
	if n, err := strconv.Atoi(os.Getenv("LEASELAB_OVERLAP_RUNS")); err == nil && n > 0 {
		runs = n
	}
	caught := 0
	for range runs {
		lab := &courierLab{checkThenAct: true}
		r, err := grade.Grade(t.Context(), grade.Options{CourierLab: lab, Dir: tempDir(t), Sequences: 1, Rounds: 10})
		lab.files.close()
		if err != nil {
			t.Fatal(err)
		}
		for _, test := range r.Tests {
			switch f := test.Failure; {
			case f == nil:
			case !strings.HasPrefix(test.Name, "race: an old holder's finish"):
				t.Errorf("%s failed; want only the finish's race to:\n%s", test.Name, grade.FailureText(f))
			default:
				caught++
				if !strings.HasPrefix(f.Call, "Finish(path, grade.Marker{ID: ") || !strings.Contains(f.Call, " and ClaimNext(path, ") {
					t.Errorf("the failure names %q, not the late Finish of a Marker and the new ClaimNext, in Go", f.Call)
				}
			}
		}
	}
	t.Logf("caught in %d of %d gradings", caught, runs)
	if caught != runs {
		t.Errorf("a check-then-act Finish was caught in %d of %d gradings", caught, runs)
	}
}
