package grade_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leaselab/leaselab/engine/grade"
	"github.com/leaselab/leaselab/engine/internal/testkit/nativeonly"
	"github.com/leaselab/leaselab/engine/timeline"
	"github.com/leaselab/leaselab/engine/timeline/memrun"
)

// gradeCourier grades the courier module at path.
func gradeCourier(t *testing.T, path string, o grade.Options) *grade.Report {
	t.Helper()
	dir := tempDir(t)
	prog, err := grade.PythonLab(grade.Courier, path, dir)
	if err != nil {
		t.Fatal(err)
	}
	o.Program, o.Dir, o.LabName = prog, dir, grade.Courier
	r, err := grade.Grade(context.Background(), light(o))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// courierVariant is testdata/courier.py with old replaced by new (exactly
// once), as a module in a temporary directory.
func courierVariant(t *testing.T, old, new string) string {
	t.Helper()
	return variantOf(t, "testdata/courier.py", old, new)
}

func TestCourier_PassesACorrectImplementation(t *testing.T) {
	nativeonly.Python(t)
	t.Parallel() // waits on its own Python processes
	r := gradeCourier(t, "testdata/courier.py", full(grade.Options{}))
	if first := r.First(); first != nil {
		t.Fatalf("%s failed:\n%s", first.Name, grade.FailureText(first.Failure))
	}
	steps, searched := 0, false
	for _, test := range r.Tests {
		if test.Skipped != "" {
			continue
		}
		if strings.HasPrefix(test.Name, "step ") {
			steps++
		}
		searched = searched || test.Name == "search: random calls beside the contract"
	}
	if steps != 10 || !searched {
		t.Errorf("%d steps ran, the search ran: %v; want the courier's 10 steps and the search", steps, searched)
	}
}

// Each one-fragment mistake fails at the step that introduces its rule,
// naming the call, with the contract's answer and the student's.
func TestCourier_FailsEachWrongFragmentAtItsStep(t *testing.T) {
	nativeonly.Python(t)
	cases := []struct {
		name, old, new string
		step, call     string // the failed test, and the start of the call it names
		want, got      string // "" leaves it unchecked; got is a prefix
		detail         string // a part of the failure's detail, "" unchecked
	}{
		{"claim_next holds a lease at lease_until", "cur_owner is not None and until > now", "cur_owner is not None and until >= now",
			"step 4: claim_next", `claim_next(path, "C", 1000, 500)`, "", "None", ""},
		{"claim_next counts no attempt", "(owner, lease_until, token + 1, attempts + 1, job_id)", "(owner, lease_until, token + 1, attempts, job_id)",
			"step 4: claim_next", `claim_next(path, "A", 0, 1000)`, "", "", "the answers agree, the tables differ"},
		{"claim_next takes the lowest id, not the first enqueued", "ORDER BY rowid\").fetchall()", "ORDER BY id\").fetchall()",
			"step 4: claim_next", `claim_next(path, "E", 2100, 1000)`, `{"attempt": 1, "id": "b", "lease_until": 3100, "owner": "E", "qty": 1, "token": 1}`, `{"attempt": 1, "id": "a"`, ""},
		{"claim_next takes lease_ms 0", "    if lease_ms <= 0:\n        raise ValueError(\"lease_ms must be positive\")\n", "",
			"step 4: claim_next", `claim_next(path, "A", 0, 0)`, "raise ValueError", `{"attempt": 1`, ""},
		{"finish at lease_until", "AND lease_until>? AND", "AND lease_until>=? AND",
			"step 5: finish", `finish(path, {"attempt": 1, "id": "j1", "lease_until": 1000, "owner": "A", "qty": 1, "token": 1}, 1000`, "False", "True", ""},
		{"finish ignores the token", "WHERE id=? AND owner=? AND token=? AND status='leased'\"\n            \" AND lease_until>? AND (deadline IS NULL OR deadline>?)\",\n            (result, marker[\"id\"], marker[\"owner\"], marker[\"token\"], now, now)",
			"WHERE id=? AND owner=? AND status='leased'\"\n            \" AND lease_until>? AND (deadline IS NULL OR deadline>?)\",\n            (result, marker[\"id\"], marker[\"owner\"], now, now)",
			"step 5: finish", `finish(path, {"attempt": 1, "id": "j2", "lease_until": 3000, "owner": "A", "qty": 1, "token": 1}, 3100`, "False", "True", ""},
		{"quarantine one attempt late", "max_attempts > 0 and attempts >= max_attempts", "max_attempts > 0 and attempts > max_attempts",
			"step 6: quarantine", `claim_next(path, "D", 1000, 500)`, "None", `{"attempt": 3`, ""},
		{"quarantine names the deadline first", "            if max_attempts > 0 and attempts >= max_attempts:\n                conn.execute(\"UPDATE jobs SET status='quarantined', reason='attempts' WHERE id=?\", (job_id,))\n                continue\n            if deadline is not None and now >= deadline:\n                conn.execute(\"UPDATE jobs SET status='quarantined', reason='deadline' WHERE id=?\", (job_id,))\n                continue\n",
			"            if deadline is not None and now >= deadline:\n                conn.execute(\"UPDATE jobs SET status='quarantined', reason='deadline' WHERE id=?\", (job_id,))\n                continue\n            if max_attempts > 0 and attempts >= max_attempts:\n                conn.execute(\"UPDATE jobs SET status='quarantined', reason='attempts' WHERE id=?\", (job_id,))\n                continue\n",
			"step 7: deadline", `claim_next(path, "G", 3500, 1000)`, "None", "None", "the answers agree, the tables differ"},
		{"the lease outlasts the deadline", "lease_until = now + lease_ms if deadline is None else min(now + lease_ms, deadline)", "lease_until = now + lease_ms",
			"step 7: deadline", `claim_next(path, "A", 0, 1000)`, "", `{"attempt": 1, "id": "s1", "lease_until": 1000`, ""},
		{"deadline quarantine one ms late", "deadline is not None and now >= deadline", "deadline is not None and now > deadline",
			"step 7: deadline", `claim_next(path, "C", 100, 1000)`, "", `{"attempt": 2, "id": "s2"`, ""},
		{"send inside the transaction", "    delivered_at = deliver(marker)  # outside any transaction\n",
			"    hold = _connect(path)\n    hold.execute(\"BEGIN IMMEDIATE\")  # the send kept inside a transaction\n    delivered_at = deliver(marker)\n    hold.execute(\"COMMIT\")\n",
			"step 8: send", `send(path, "A", 0, 1000, deliver)`, "True", "True", "still locked"},
		{"send delivers part of the marker", "deliver(marker)  #", "deliver({\"id\": marker[\"id\"], \"qty\": marker[\"qty\"]})  #",
			"step 8: send", `send(path, "A", 0, 1000, deliver)`, "", "", "whole marker"},
		{"receiver applies a resend", "INSERT OR IGNORE INTO received", "INSERT OR REPLACE INTO received",
			"step 9: receive", `receive(path, "order-7", 2)`, "False", "True", ""},
		{"claim_next reads outside its transaction", "ORDER BY rowid\").fetchall()\n",
			"ORDER BY rowid\").fetchall()\n        conn.execute(\"COMMIT\")  # the read ends its transaction\n        __import__(\"time\").sleep(0.02)\n        conn.execute(\"BEGIN IMMEDIATE\")\n",
			"step 10: two processes claim the next job at once", `claim_next(path, "A", 0, 1000) and claim_next(path, "B", 0, 1000)`, "", "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // each waits on its own Python processes
			r := gradeCourier(t, courierVariant(t, tc.old, tc.new), grade.Options{FailFast: true})
			first := r.First()
			if first == nil {
				t.Fatal("passed; want a failure")
			}
			f := first.Failure
			if first.Name != tc.step || !strings.HasPrefix(f.Call, tc.call) {
				t.Fatalf("failed at %s, call %s; want %s, call %s\n%s", first.Name, f.Call, tc.step, tc.call, grade.FailureText(f))
			}
			if (tc.want != "" && f.Want != tc.want) || !strings.HasPrefix(f.Got, tc.got) || !strings.Contains(f.Detail, tc.detail) {
				t.Errorf("want %q got %q detail %q; want them %q, %q… and …%q…", f.Want, f.Got, f.Detail, tc.want, tc.got, tc.detail)
			}
		})
	}
}

// Both labs' step timelines hold on the engine: every expectation written
// in them is the contract's answer, and none draws a warning, which the
// simulator a grading link opens would show the learner.
func TestSteps_StepTimelinesHoldOnTheEngineWithoutWarnings(t *testing.T) {
	for dir, n := range map[string]int{"steps": 8, "steps/courier": 8} {
		files, err := filepath.Glob(dir + "/*.tl")
		if err != nil || len(files) != n {
			t.Fatalf("%s: %d step timelines (%v); want %d", dir, len(files), err, n)
		}
		for _, file := range files {
			holdsWithoutWarnings(t, file)
		}
	}
}

func holdsWithoutWarnings(t *testing.T, file string) {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := memrun.RunSource(context.Background(), filepath.Base(file), string(src), timeline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Warnings) > 0 {
		t.Errorf("%s: warnings %q", file, tr.Warnings)
	}
	if !tr.Summary.Passed || tr.Summary.Expectations == 0 {
		t.Errorf("%s: %d expectations, failures %v; want every one held", file, tr.Summary.Expectations, tr.Summary.Failures)
	}
}

// A program that breaks the protocol in send or receive, steps that are
// calls rather than timelines, fails at the call it broke on, named as
// the step's other failures are, with the contract's answer beside it.
func TestCourier_ABrokenSendOrReceiveNamesItsCallAndTheContractsAnswer(t *testing.T) {
	nativeonly.Python(t)
	// A call's budget is short where the case waits it out (the hang), and
	// the grader's own elsewhere: on a loaded machine a sound call beside
	// the spinning one may take longer than a short budget.
	cases := []struct {
		name, old, new, kind, step, where string
		budget                            time.Duration
	}{
		{"receive hangs", "def receive(path, business_id, qty):\n", "def receive(path, business_id, qty):\n    while True:\n        pass\n",
			"hang", "step 9: receive", "receive 1", time.Second},
		{"send exits", "def send(path, owner, now, lease_ms, deliver):\n", "def send(path, owner, now, lease_ms, deliver):\n    import os\n    os._exit(3)\n",
			"exit", "step 8: send", "send 1", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // each waits on its own Python processes
			r := gradeCourier(t, courierVariant(t, tc.old, tc.new), grade.Options{FailFast: true, CallTimeout: tc.budget})
			first := r.First()
			if first == nil || first.Failure.Broken == nil {
				t.Fatalf("want a broken-protocol failure, got %+v", first)
			}
			f := first.Failure
			if first.Name != tc.step || f.Broken.Kind != tc.kind {
				t.Fatalf("failed at %s as %q; want %s as %q", first.Name, f.Broken.Kind, tc.step, tc.kind)
			}
			if f.Where != tc.where || f.Want != "True" {
				t.Errorf("the failure is at %q, the contract's answer %q; want %q and True", f.Where, f.Want, tc.where)
			}
			var b strings.Builder
			grade.WriteText(&b, r, "en")
			if want := "First difference: " + tc.step + " (" + tc.where + ")\n"; !strings.Contains(b.String(), want) {
				t.Errorf("the report does not say %q:\n%s", want, b.String())
			}
		})
	}
}

// A timeline one lab's functions cannot tell, played with the other lab's
// name, is refused naming the lab that can tell it: a courier step's
// timeline replayed as the fencing lab's, and a story that claims by id
// replayed as the courier's.
func TestTimeline_RefusalNamesTheLabThatCanTellIt(t *testing.T) {
	courierSrc := "lease 1000ms\njob j1 qty=2\n\n0ms A claim -> ok job=j1 token=1\n"
	fencingSrc := "lease 1000ms\njob j1\n\n0ms A claim j1 -> ok token=1\n"
	cases := []struct {
		lab, src, other string
	}{
		{grade.Fencing, courierSrc, "the courier lab's functions can"},
		{grade.Courier, fencingSrc, "the fencing lab's functions can"},
	}
	for _, tc := range cases {
		_, err := grade.Timeline(context.Background(), grade.Options{LabName: tc.lab, Dir: t.TempDir()}, "x.tl", tc.src)
		if err == nil || !strings.Contains(err.Error(), "the "+tc.lab+" lab's functions cannot tell it") || !strings.Contains(err.Error(), tc.other) {
			t.Errorf("as the %s lab: %v; want it refused, saying %q", tc.lab, err, tc.other)
		}
	}
}
