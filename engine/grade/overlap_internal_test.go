package grade

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/testkit/nativeonly"
)

// checkThenAct are the fencing lab's functions written as a check in one
// statement and a write in another, outside one transaction: each passes
// every test that makes one call at a time.
var checkThenAct = map[string][2]string{
	"complete": {`        cur = conn.execute(
            "UPDATE jobs SET result=?, done=1 WHERE id=? AND owner=? AND fence=? AND done=0 AND until>?",
            (result, job_id, owner, fence, now))
        return cur.rowcount == 1`, `        row = conn.execute("SELECT owner, fence, done, until FROM jobs WHERE id=?", (job_id,)).fetchone()
        if row is None or row[0] != owner or row[1] != fence or row[2] or not row[3] > now:
            return False
        conn.execute("UPDATE jobs SET result=?, done=1 WHERE id=?", (result, job_id))
        return True`},
	"renew": {`        cur = conn.execute(
            "UPDATE jobs SET until=? WHERE id=? AND owner=? AND fence=? AND done=0 AND until>?",
            (now + ttl, job_id, owner, fence, now))
        return cur.rowcount == 1`, `        row = conn.execute("SELECT owner, fence, done, until FROM jobs WHERE id=?", (job_id,)).fetchone()
        if row is None or row[0] != owner or row[1] != fence or row[2] or not row[3] > now:
            return False
        conn.execute("UPDATE jobs SET until=? WHERE id=?", (now + ttl, job_id))
        return True`},
	"release": {`        cur = conn.execute(
            "UPDATE jobs SET owner=NULL, until=0 WHERE id=? AND owner=? AND fence=? AND done=0",
            (job_id, owner, fence))
        return cur.rowcount == 1`, `        row = conn.execute("SELECT owner, fence, done FROM jobs WHERE id=?", (job_id,)).fetchone()
        if row is None or row[0] != owner or row[1] != fence or row[2]:
            return False
        conn.execute("UPDATE jobs SET owner=NULL, until=0 WHERE id=?", (job_id,))
        return True`},
}

// checkThenActFinish is the courier's finish written the same way.
var checkThenActFinish = [2]string{`        cur = conn.execute(
            "UPDATE jobs SET status='done', result=? WHERE id=? AND owner=? AND token=? AND status='leased'"
            " AND lease_until>? AND (deadline IS NULL OR deadline>?)",
            (result, marker["id"], marker["owner"], marker["token"], now, now))
        return cur.rowcount == 1`, `        row = conn.execute("SELECT owner, token, status, lease_until, deadline FROM jobs WHERE id=?",
                           (marker["id"],)).fetchone()
        if row is None or row[0] != marker["owner"] or row[1] != marker["token"] or row[2] != "leased" \
                or not row[3] > now or (row[4] is not None and not row[4] > now):
            return False
        conn.execute("UPDATE jobs SET status='done', result=? WHERE id=?", (result, marker["id"]))
        return True`}

// overlapGraderOf is a grader of lab's Python module src.
func overlapGraderOf(t *testing.T, lab, src string) *grader {
	t.Helper()
	dir := t.TempDir()
	module := filepath.Join(dir, "student.py")
	if err := os.WriteFile(module, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	prog, err := PythonLab(lab, module, dir)
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Program: prog, Dir: dir, LabName: lab}
	o.defaults()
	g := &grader{o: o}
	if err := g.contain(); err != nil {
		t.Fatal(err)
	}
	return g
}

// runs is how many gradings of each student the overlap tests make:
// LEASELAB_OVERLAP_RUNS, or 1.
func runs(t *testing.T) int {
	if n, err := strconv.Atoi(os.Getenv("LEASELAB_OVERLAP_RUNS")); err == nil && n > 0 {
		return n
	}
	return 1
}

// A check-then-act complete, renew, release or finish fails its overlap in every
// grading (measured: see engine/DECISIONS.md), naming the late call and
// the new claim made at once; the reference fails none.
func TestOverlap_ACheckThenActFailsAndTheReferencePasses(t *testing.T) {
	nativeonly.Python(t)
	ref, err := os.ReadFile("testdata/correct.py")
	if err != nil {
		t.Fatal(err)
	}
	courier, err := os.ReadFile("testdata/courier.py")
	if err != nil {
		t.Fatal(err)
	}
	n := runs(t)
	cases := map[string][2]string{"finish": checkThenActFinish}
	for fn, swap := range checkThenAct {
		cases[fn] = swap
	}
	for fn, swap := range cases {
		t.Run(fn, func(t *testing.T) {
			lab, src, claim := Fencing, string(ref), "claim(path"
			if fn == "finish" {
				lab, src, claim = Courier, string(courier), "claim_next(path"
			}
			if strings.Count(src, swap[0]) != 1 {
				t.Fatalf("the reference's %s is not the one this test rewrites", fn)
			}
			caughtEveryTime(t, overlapGraderOf(t, lab, strings.Replace(src, swap[0], swap[1], 1)), overlapGraderOf(t, lab, src), fn, claim, n)
		})
	}
}

// A check-then-act complete, renew or release in a program of the
// student's own loop (as -cmd runs one, answering in JSON) fails its
// overlap as a Python module's does, and the same program with the
// reference's functions passes.
func TestOverlap_ACheckThenActCmdProgramFails(t *testing.T) {
	nativeonly.Python(t)
	ref, err := os.ReadFile("testdata/correct.py")
	if err != nil {
		t.Fatal(err)
	}
	good := cmdGraderOf(t, string(ref))
	for _, fn := range []string{"complete", "renew", "release"} {
		t.Run(fn, func(t *testing.T) {
			swap := checkThenAct[fn]
			caughtEveryTime(t, cmdGraderOf(t, strings.Replace(string(ref), swap[0], swap[1], 1)), good, fn, "claim(path", runs(t))
		})
	}
}

// caughtEveryTime plays fn's overlap n times on bad and on good: bad must
// fail each time, naming the late fn and the new claim (claim, the
// claim's call up to its first argument), and good never.
func caughtEveryTime(t *testing.T, bad, good *grader, fn, claim string, n int) {
	t.Helper()
	caught := 0
	for range n {
		f, err := bad.overlap(context.Background(), overlap{fn: fn})
		if err != nil {
			t.Fatal(err)
		}
		if f != nil {
			caught++
			if !strings.HasPrefix(f.Call, fn+"(path") || !strings.Contains(f.Call, claim) {
				t.Errorf("the failure names %q, not the late %s and the new claim", f.Call, fn)
			}
		}
		if f, err := good.overlap(context.Background(), overlap{fn: fn}); err != nil || f != nil {
			t.Fatalf("the reference failed: %v\n%s", err, FailureText(f))
		}
	}
	t.Logf("%s: caught in %d of %d gradings", fn, caught, n)
	if caught != n {
		t.Errorf("a check-then-act %s was caught in %d of %d gradings", fn, caught, n)
	}
}

// cmdGraderOf is a grader of a program running testdata/loop.py, its own
// protocol loop, over the fencing lab's module src.
func cmdGraderOf(t *testing.T, src string) *grader {
	t.Helper()
	dir := t.TempDir()
	loop, err := os.ReadFile("testdata/loop.py")
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string][]byte{"loop.py": loop, "correct.py": []byte(src)} {
		if err := os.WriteFile(filepath.Join(dir, name), text, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	o := Options{Program: Program{Command: "python3", Args: []string{"-u", filepath.Join(dir, "loop.py")}, Dir: dir}, Dir: t.TempDir()}
	o.defaults()
	g := &grader{o: o}
	if err := g.contain(); err != nil {
		t.Fatal(err)
	}
	return g
}
