package grade_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/leaselab/leaselab/engine/grade"
	"github.com/leaselab/leaselab/engine/sqlitedb"
)

// goLab is the fencing lab in Go over the lab's table, as a Go student
// writes it; claimBoundary >= makes it the wrong fragment of step 4.
type goLab struct {
	mu            sync.Mutex
	dbs           map[string]*sql.DB
	claimBoundary bool
	// holder is the check renew, complete and release make of the
	// presenter ("" the lab's: owner and fence; "fence": the fence alone;
	// "none": the job id alone).
	holder string
	// longerAt, when not 0, is an instant at which a claim grants a lease
	// 1 ms too long.
	longerAt int64
	// checkThenAct makes renew, complete and release read the job in one
	// statement and write it in another, outside one transaction.
	checkThenAct bool
}

// holds is the WHERE clause's check of the presented owner and fence.
func (l *goLab) holds() string {
	switch l.holder {
	case "fence":
		return "? IS NOT NULL AND fence=?"
	case "none":
		return "? IS NOT NULL AND ? IS NOT NULL"
	}
	return "owner=? AND fence=?"
}

func (l *goLab) db(path string) (*sql.DB, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if db := l.dbs[path]; db != nil {
		return db, nil
	}
	db, err := sqlitedb.Open(path)
	if err != nil {
		return nil, err
	}
	if l.dbs == nil {
		l.dbs = map[string]*sql.DB{}
	}
	l.dbs[path] = db
	return db, nil
}

func (l *goLab) close() {
	for _, db := range l.dbs {
		db.Close()
	}
}

func (l *goLab) exec(path, q string, args ...any) (bool, error) {
	db, err := l.db(path)
	if err != nil {
		return false, err
	}
	r, err := db.Exec(q, args...)
	if err != nil {
		return false, err
	}
	n, err := r.RowsAffected()
	return n == 1, err
}

func (l *goLab) InitDB(path string) error {
	_, err := l.exec(path, `CREATE TABLE IF NOT EXISTS jobs(id TEXT PRIMARY KEY, owner TEXT, until REAL NOT NULL DEFAULT 0,
		fence INTEGER NOT NULL DEFAULT 0, result TEXT, done INTEGER NOT NULL DEFAULT 0)`)
	return err
}

func (l *goLab) Enqueue(path, id string) (bool, error) {
	return l.exec(path, "INSERT OR IGNORE INTO jobs(id) VALUES (?)", id)
}

func (l *goLab) State(path, id string) (map[string]any, error) {
	db, err := l.db(path)
	if err != nil {
		return nil, err
	}
	var (
		owner, result sql.NullString
		until         float64
		fence, done   int64
	)
	err = db.QueryRow("SELECT owner, until, fence, result, done FROM jobs WHERE id=?", id).Scan(&owner, &until, &fence, &result, &done)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	row := map[string]any{"id": id, "owner": nil, "until": until, "fence": fence, "result": nil, "done": done}
	if owner.Valid {
		row["owner"] = owner.String
	}
	if result.Valid {
		row["result"] = result.String
	}
	return row, nil
}

func (l *goLab) Claim(path, id, owner string, now, ttl int64) (*int64, error) {
	if ttl <= 0 {
		return nil, fmt.Errorf("%w: ttl %d", grade.ErrValue, ttl)
	}
	db, err := l.db(path)
	if err != nil {
		return nil, err
	}
	tx, err := db.BeginTx(context.Background(), nil) // BEGIN IMMEDIATE
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	var (
		until       float64
		fence, done int64
	)
	err = tx.QueryRow("SELECT until, fence, done FROM jobs WHERE id=?", id).Scan(&until, &fence, &done)
	held := until > float64(now)
	if l.claimBoundary {
		held = until >= float64(now)
	}
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, nil
	case err != nil:
		return nil, err
	case done != 0 || held:
		return nil, nil
	}
	fence++
	until = float64(now + ttl)
	if l.longerAt != 0 && now == l.longerAt {
		until++
	}
	if _, err := tx.Exec("UPDATE jobs SET owner=?, until=?, fence=? WHERE id=?", owner, until, fence, id); err != nil {
		return nil, err
	}
	return &fence, tx.Commit()
}

func (l *goLab) Renew(path, id, owner string, fence, now, ttl int64) (bool, error) {
	if ttl <= 0 {
		return false, fmt.Errorf("%w: ttl %d", grade.ErrValue, ttl)
	}
	if l.checkThenAct {
		if ok, err := l.checkThenActHolds(path, id, owner, fence, &now); !ok || err != nil {
			return false, err
		}
		return l.exec(path, "UPDATE jobs SET until=? WHERE id=?", now+ttl, id)
	}
	return l.exec(path, "UPDATE jobs SET until=? WHERE id=? AND "+l.holds()+" AND done=0 AND until>?", now+ttl, id, owner, fence, now)
}

// checkThenActHolds reports whether job id is held by owner with fence,
// not done and, unless now is nil, with its lease running at now: the
// check a checkThenAct lab makes in a statement of its own.
func (l *goLab) checkThenActHolds(path, id, owner string, fence int64, now *int64) (bool, error) {
	db, err := l.db(path)
	if err != nil {
		return false, err
	}
	var holder sql.NullString
	var held int64
	var until float64
	var done bool
	err = db.QueryRow("SELECT owner, fence, until, done FROM jobs WHERE id=?", id).Scan(&holder, &held, &until, &done)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil && holder.String == owner && held == fence && !done && (now == nil || until > float64(*now)), err
}

func (l *goLab) Complete(path, id, owner string, fence, now int64, result string) (bool, error) {
	if l.checkThenAct {
		if ok, err := l.checkThenActHolds(path, id, owner, fence, &now); !ok || err != nil {
			return false, err
		}
		return l.exec(path, "UPDATE jobs SET result=?, done=1 WHERE id=?", result, id)
	}
	return l.exec(path, "UPDATE jobs SET result=?, done=1 WHERE id=? AND "+l.holds()+" AND done=0 AND until>?", result, id, owner, fence, now)
}

func (l *goLab) Release(path, id, owner string, fence int64) (bool, error) {
	if l.checkThenAct {
		if ok, err := l.checkThenActHolds(path, id, owner, fence, nil); !ok || err != nil {
			return false, err
		}
		return l.exec(path, "UPDATE jobs SET owner=NULL, until=0 WHERE id=?", id)
	}
	return l.exec(path, "UPDATE jobs SET owner=NULL, until=0 WHERE id=? AND "+l.holds()+" AND done=0", id, owner, fence)
}

func (l *goLab) ClaimMany(path, id string, owners []string, now, ttl int64) ([]*int64, error) {
	out := make([]*int64, len(owners))
	errs := make([]error, len(owners))
	var wg sync.WaitGroup
	for i, o := range owners {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i], errs[i] = l.Claim(path, id, o, now, ttl)
		}()
	}
	wg.Wait()
	return out, errors.Join(errs...)
}

func TestRun_GradesAGoLab(t *testing.T) {
	lab := &goLab{}
	t.Cleanup(lab.close)
	grade.Run(t, lab)
}

// firstFailed grades lab up to its first failed test, and returns it (nil
// when every test passed).
func firstFailed(t *testing.T, lab grade.Lab) *grade.Test {
	t.Helper()
	r, err := grade.Grade(t.Context(), grade.Options{Lab: lab, Dir: tempDir(t), FailFast: true})
	if err != nil {
		t.Fatal(err)
	}
	return r.First()
}

func TestGrade_FailsAGoLabAtItsWrongBoundary(t *testing.T) {
	lab := &goLab{claimBoundary: true}
	t.Cleanup(lab.close)
	first := firstFailed(t, lab)
	if first == nil || first.Name != "step 4: claim" || !strings.HasPrefix(first.Failure.Call, `Claim(path, "j1"`) {
		t.Fatalf("got %+v; want step 4 failing at a claim", first)
	}
}

// stoppingLab is goLab whose Renew stops itself as a call that would not
// end, the way a lab that runs a learner's code under a budget does.
type stoppingLab struct{ *goLab }

func (stoppingLab) Renew(string, string, string, int64, int64, int64) (bool, error) {
	panic(grade.Stop("the call ran more than 20000 statements: an endless loop?"))
}

// A Lab method that panics with a Stop is reported as a hang, in the
// Stop's words; any other panic stays the program's exit.
func TestGrade_AStoppedCallIsAHangNotAPanic(t *testing.T) {
	lab := &goLab{}
	t.Cleanup(lab.close)
	first := firstFailed(t, stoppingLab{lab})
	if first == nil || first.Failure.Broken == nil {
		t.Fatalf("got %+v; want a broken call", first)
	}
	b := first.Failure.Broken
	if first.Name != "step 5: renew" || b.Kind != "hang" || b.Message != "the call ran more than 20000 statements: an endless loop?" {
		t.Errorf("%s: %s %q; want step 5: renew, a hang in the Stop's words", first.Name, b.Kind, b.Message)
	}
}

// A step's timeline calls functions later steps grade: a wrong answer of
// one is charged to the step that introduces it, not to the step whose
// timeline met it. Here a claim at 100 ms, which only the enqueue step's
// timeline makes, grants a lease 1 ms too long: the enqueue step passes,
// and the claim step, which passes its own calls, fails with that one.
func TestGrade_AWrongAnswerIsChargedToTheStepOfItsFunction(t *testing.T) {
	lab := &goLab{longerAt: 100}
	t.Cleanup(lab.close)
	r, err := grade.Grade(t.Context(), grade.Options{Lab: lab, Dir: tempDir(t), FailFast: true})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, test := range r.Tests {
		names = append(names, test.Name)
	}
	first := r.First()
	if first == nil || first.Name != "step 4: claim" || len(r.Tests) != 4 {
		t.Fatalf("ran %q, the first failure %+v; want steps 1 to 3 passed and step 4: claim failed", names, first)
	}
	if f := first.Failure; !strings.HasPrefix(f.Where, "2-enqueue.tl:") || f.Call != `Claim(path, "j1", "A", 100, 1000)` {
		t.Errorf("the failure is at %s, call %s; want the enqueue step's claim at 100 ms\n%s", f.Where, f.Call, grade.FailureText(f))
	}
}

// A Go lab whose renew, complete and release check in one statement and
// write in another fails the race of an old holder's late call against a
// new claim for each of the three, and only those races: its overlaps
// run its calls on two goroutines as a Python lab's run them in two
// processes.
func TestGrade_ACheckThenActGoLabFailsItsOverlaps(t *testing.T) {
	runs := 1
	if n, err := strconv.Atoi(os.Getenv("LEASELAB_OVERLAP_RUNS")); err == nil && n > 0 {
		runs = n
	}
	caught := map[string]int{}
	for range runs {
		lab := &goLab{checkThenAct: true}
		r, err := grade.Grade(t.Context(), grade.Options{Lab: lab, Dir: tempDir(t), Sequences: 1, Rounds: 10})
		lab.close()
		if err != nil {
			t.Fatal(err)
		}
		for _, test := range r.Tests {
			f := test.Failure
			if f == nil {
				continue
			}
			fn, _, _ := strings.Cut(f.Call, "(")
			if race := "race: an old holder's " + strings.ToLower(fn) + " at its lease's end against a new claim, two processes"; test.Name != race {
				t.Errorf("%s failed; want only the races of renew, complete and release to:\n%s", test.Name, grade.FailureText(f))
				continue
			}
			caught[fn]++
			if !strings.Contains(f.Call, " and Claim(path, ") {
				t.Errorf("the failure names %q, not the late %s and the new Claim", f.Call, fn)
			}
		}
	}
	for _, fn := range []string{"Renew", "Complete", "Release"} {
		t.Logf("%s: caught in %d of %d gradings", fn, caught[fn], runs)
		if caught[fn] != runs {
			t.Errorf("a check-then-act %s was caught in %d of %d gradings", fn, caught[fn], runs)
		}
	}
}
