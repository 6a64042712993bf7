package grade_test

import (
	"context"
	"errors"
	"github.com/leaselab/leaselab/engine/internal/testkit/nativeonly"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leaselab/leaselab/engine/grade"
	"github.com/leaselab/leaselab/engine/limits"
)

// gradeFile grades the module at path, stopping at the first failure.
func gradeFile(t *testing.T, path string, o grade.Options) (*grade.Report, error) {
	t.Helper()
	dir := tempDir(t)
	prog, err := grade.Python(path, dir)
	if err != nil {
		t.Fatal(err)
	}
	o.Program, o.Dir = prog, dir
	return grade.Grade(context.Background(), light(o))
}

// light is o with a 5 s call timeout and, unless o sets them, a light
// search and short races: 12 sequences and 5 rounds, not
// limits.DefaultGrading's. A test about a step, a story or a report
// needs no more; the tests that a correct lab passes the default grading
// set the defaults (full), and the tests of a race or the search their own.
func light(o grade.Options) grade.Options {
	if o.CallTimeout == 0 {
		o.CallTimeout = 5 * time.Second
	}
	if o.Sequences == 0 {
		o.Sequences = 12
	}
	if o.Rounds == 0 {
		o.Rounds = 5
	}
	return o
}

// full is o with limits.DefaultGrading's sequences and rounds: the
// grading a class gets.
func full(o grade.Options) grade.Options {
	o.Sequences, o.Rounds = limits.DefaultGrading.Sequences, limits.DefaultGrading.Rounds
	return o
}

// variant writes testdata/correct.py with old replaced by new (exactly
// once) as a module in a temporary directory.
func variant(t *testing.T, old, new string) string {
	t.Helper()
	return variantOf(t, "testdata/correct.py", old, new)
}

// variantOf writes the reference implementation ref with old replaced by
// new (exactly once) as a module in a temporary directory.
func variantOf(t *testing.T, ref, old, new string) string {
	t.Helper()
	src, err := os.ReadFile(ref)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(src), old) != 1 {
		t.Fatalf("the fragment %q is not in %s exactly once", old, ref)
	}
	path := filepath.Join(t.TempDir(), "student.py")
	if err := os.WriteFile(path, []byte(strings.Replace(string(src), old, new, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestRun_PassesACorrectImplementation(t *testing.T) {
	nativeonly.Python(t)
	t.Parallel() // waits on its own Python processes
	r, err := gradeFile(t, "testdata/correct.py", full(grade.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	if first := r.First(); first != nil {
		t.Fatalf("%s failed:\n%s", first.Name, grade.FailureText(first.Failure))
	}
	ran := 0
	for _, test := range r.Tests {
		if test.Skipped == "" {
			ran++
		}
	}
	if ran < 8+6+2 {
		t.Errorf("only %d tests ran; want the 8 steps, at least 6 stories, the race and the search", ran)
	}
}

// linkMost bounds a link to a wrong fragment's first difference.
const linkMost = 4096

// The lab's wrong fragments, and the other mistakes a student makes: each
// must fail at the step that introduces its function, naming the call.
func TestRun_FailsEachWrongFragmentAtItsStep(t *testing.T) {
	nativeonly.Python(t)
	cases := []struct {
		name, old, new string
		step, call     string // the failed test, and the start of the call it names
		want, got      string
	}{
		{"init_db not idempotent", "CREATE TABLE IF NOT EXISTS jobs", "CREATE TABLE jobs",
			"step 1: init_db", `init_db(path)`, "None", "raise OperationalError"},
		{"enqueue replaces", "INSERT OR IGNORE", "INSERT OR REPLACE",
			"step 2: enqueue", `enqueue(path, "j1")`, "False", "True"},
		{"state answers an empty dict", "        if row is None:\n            return None\n", "        if not row:\n            return {}\n",
			"step 3: state", `state(path, "j2")`, "None", "{}"},
		{"claim refuses at until", "row[2] or row[0] > now", "row[2] or row[0] >= now",
			"step 4: claim", `claim(path, "j1", "A", 0, 1000)`, "1", "None"}, // a fresh job's until is 0: >= refuses it at 0
		{"claim takes ttl 0", "    if ttl <= 0:\n        raise ValueError(\"ttl must be positive\")\n    conn = _connect(path)\n    try:\n        conn.execute(\"BEGIN IMMEDIATE\")",
			"    conn = _connect(path)\n    try:\n        conn.execute(\"BEGIN IMMEDIATE\")",
			"step 4: claim", `claim(path, "j1", "A", 0, 0)`, "raise ValueError", "1"},
		{"renew revives at until", "AND done=0 AND until>?\",\n            (now + ttl", "AND done=0 AND until>=?\",\n            (now + ttl",
			"step 5: renew", `renew(path, "j1", "A", 1, 1999, 1000)`, "False", "True"},
		{"renew ignores the fence", "\"UPDATE jobs SET until=? WHERE id=? AND owner=? AND fence=? AND done=0 AND until>?\",\n            (now + ttl, job_id, owner, fence, now)",
			"\"UPDATE jobs SET until=? WHERE id=? AND owner=? AND done=0 AND until>?\",\n            (now + ttl, job_id, owner, now)",
			"step 5: renew", `renew(path, "j1", "A", 2, 1500, 1000)`, "False", "True"},
		{"complete overwrites a done job", "AND done=0 AND until>?\",\n            (result", "AND done>=0 AND until>?\",\n            (result",
			"step 6: complete", `complete(path, "j1", "B", 2, 1999, "again")`, "False", "True"},
		{"complete ignores the owner", "\"UPDATE jobs SET result=?, done=1 WHERE id=? AND owner=? AND fence=? AND done=0 AND until>?\",\n            (result, job_id, owner, fence, now)",
			"\"UPDATE jobs SET result=?, done=1 WHERE id=? AND fence=? AND done=0 AND until>?\",\n            (result, job_id, fence, now)",
			"step 6: complete", `complete(path, "j1", "C", 2, 1100, "C")`, "False", "True"},
		{"complete ignores the fence", "AND owner=? AND fence=? AND done=0 AND until>?\",\n            (result, job_id, owner, fence, now)",
			"AND owner=? AND done=0 AND until>?\",\n            (result, job_id, owner, now)",
			"step 6: complete", `complete(path, "j2", "A", 1, 3100, "A")`, "False", "True"},
		{"claim ignores until", "row[2] or row[0] > now", "row[2]",
			"step 4: claim", `claim(path, "j1", "B", 999, 1000)`, "None", "2"},
		{"release resets the fence", "SET owner=NULL, until=0 WHERE", "SET owner=NULL, until=0, fence=0 WHERE",
			"step 7: release", `release(path, "j1", "A", 1)`, "True", "True"},
		{"claim_many claims for the first only", "        return list(pool.map(lambda o: claim(path, job_id, o, now, ttl), owners))",
			"        return [claim(path, job_id, owners[0], now, ttl)]",
			"step 8: claim_many", `claim_many(path, "m1", ["A", "B", "C", "D", "E", "F", "G", "H"], 0, 1000)`, "", "[1]"},
		{"state answers a stale copy", "def state(path, job_id):\n", "_cache = {}\n\n\ndef state(path, job_id):\n    if job_id in _cache:\n        return _cache[job_id]\n    _cache[job_id] = _state(path, job_id)\n    return _cache[job_id]\n\n\ndef _state(path, job_id):\n",
			"step 3: state", `state(path, "j1")`, "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // each waits on its own Python processes
			r, err := gradeFile(t, variant(t, tc.old, tc.new), grade.Options{FailFast: true})
			if err != nil {
				t.Fatal(err)
			}
			first := r.First()
			if first == nil {
				t.Fatal("passed; want a failure")
			}
			f := first.Failure
			if first.Name != tc.step || !strings.HasPrefix(f.Call, tc.call) {
				t.Fatalf("failed at %s, call %s; want %s, call %s\n%s", first.Name, f.Call, tc.step, tc.call, grade.FailureText(f))
			}
			if (tc.want != "" && f.Want != tc.want) || !strings.HasPrefix(f.Got, tc.got) {
				t.Errorf("want %q got %q; want them %q and %q", f.Want, f.Got, tc.want, tc.got)
			}
			if f.Timeline == "" && tc.step != "step 8: claim_many" {
				t.Error("no timeline reproduces the failure")
			}
			// The link carries the student's run beside the engine's; a
			// run is about 1 KB of it.
			link := f.Link(grade.DefaultSimulator, "en")
			if f.Timeline != "" && (f.RunParam() == "" || len(link) > linkMost) {
				t.Errorf("the link is %d bytes, impl= %d; want the student's run in at most %d", len(link), len(f.RunParam()), linkMost)
			}
			t.Logf("link: %d bytes, impl= %d", len(link), len(f.RunParam()))
		})
	}
}

func TestRun_FailsARacyClaimAtClaimMany(t *testing.T) {
	nativeonly.Python(t)
	r, err := gradeFile(t, "testdata/race.py", grade.Options{FailFast: true})
	if err != nil {
		t.Fatal(err)
	}
	first := r.First()
	if first == nil {
		t.Fatal("passed; want claim_many to let more than one owner win")
	}
	if first.Name != "step 8: claim_many" || !strings.HasPrefix(first.Failure.Call, "claim_many(") {
		t.Fatalf("failed at %s, call %s; want step 8, claim_many\n%s", first.Name, first.Failure.Call, grade.FailureText(first.Failure))
	}
}

// A program that breaks the protocol fails the test it was in, saying
// how, and never hangs the grader: a Python student's that hangs or
// exits; a program of the student's own loop (as -cmd runs one) that
// prints on standard output, which the Python adapter keeps for itself.
func TestRun_ReportsAProgramThatHangsExitsOrPrints(t *testing.T) {
	nativeonly.Python(t)
	loop := "        ret = getattr(correct, req[\"fn\"])(*req[\"args\"])\n"
	renewPrints := func(what string) string {
		return "        if req[\"fn\"] == \"renew\":\n            print(" + what + ")\n" + loop
	}
	cases := []struct {
		name, old, new, kind, step string
		own                        bool // the student's own loop, not the adapter
	}{
		{"hangs", "def enqueue(path, job_id):\n", "def enqueue(path, job_id):\n    while True:\n        pass\n", "hang", "step 1: init_db", false},
		{"exits", "def state(path, job_id):\n", "def state(path, job_id):\n    import os\n    os._exit(3)\n", "exit", "step 3: state", false},
		{"prints", loop, renewPrints("'renewing'"), "stdout", "step 5: renew", true},
		// A line one byte over grade_line_bytes (with its newline), and one at it.
		{"prints a line over grade_line_bytes", loop, renewPrints("'x' * (1 << 20)"), "stdout", "step 5: renew", true},
		{"prints a line at grade_line_bytes", loop, renewPrints("'x' * ((1 << 20) - 1)"), "stdout", "step 5: renew", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// A short budget only where the case waits it out: a sound call
			// may take longer than one on a loaded machine.
			o := grade.Options{FailFast: true}
			if tc.kind == "hang" {
				o.CallTimeout = time.Second
			}
			var r *grade.Report
			var err error
			if tc.own {
				o.Program, o.Dir = ownLoop(t, tc.old, tc.new), tempDir(t)
				r, err = grade.Grade(context.Background(), light(o))
			} else {
				r, err = gradeFile(t, variant(t, tc.old, tc.new), o)
			}
			if err != nil {
				t.Fatal(err)
			}
			first := r.First()
			if first == nil || first.Failure.Broken == nil {
				t.Fatalf("want a broken-protocol failure, got %+v", first)
			}
			if first.Name != tc.step || first.Failure.Broken.Kind != tc.kind {
				t.Errorf("failed at %s as %q; want %s as %q: %v", first.Name, first.Failure.Broken.Kind, tc.step, tc.kind, first.Failure.Broken)
			}
			// The report says what broke once, as the answer to the call.
			text := grade.FailureText(first.Failure)
			if n := strings.Count(text, first.Failure.Broken.Message); n != 1 || !strings.Contains(text, "yours:    your program broke the protocol: "+first.Failure.Broken.Message) {
				t.Errorf("the verdict appears %d times, not once as the answer:\n%s", n, text)
			}
			if named := strings.Contains(first.Failure.Broken.Message, "grade_line_bytes (1048576 bytes"); named != strings.Contains(tc.name, "over") {
				t.Errorf("the verdict names grade_line_bytes: %v; want it only for a line over it: %.200s", named, first.Failure.Broken.Message)
			}
		})
	}
}

// A claim_many that hangs or exits is reported at its round, with the
// contract's answer beside what broke: the step's place is never empty.
func TestRun_ABrokenClaimManyNamesItsRoundAndTheContractsAnswer(t *testing.T) {
	nativeonly.Python(t)
	old := "def claim_many(path, job_id, owners, now, ttl):\n"
	cases := []struct{ name, new, kind string }{
		{"hangs", old + "    while True:\n        pass\n", "hang"},
		{"exits", old + "    import os\n    os._exit(3)\n", "exit"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // each waits on its own Python processes
			o := grade.Options{FailFast: true}
			if tc.kind == "hang" { // a short budget only where the case waits it out
				o.CallTimeout = time.Second
			}
			r, err := gradeFile(t, variant(t, old, tc.new), o)
			if err != nil {
				t.Fatal(err)
			}
			first := r.First()
			if first == nil || first.Failure.Broken == nil || first.Failure.Broken.Kind != tc.kind {
				t.Fatalf("want a broken-protocol failure (%s), got %+v", tc.kind, first)
			}
			f := first.Failure
			if first.Name != "step 8: claim_many" || f.Where != "round 1" || !strings.HasPrefix(f.Want, "a list of 8:") {
				t.Errorf("failed at %s (%q), the contract's answer %q; want step 8: claim_many (round 1) and \"a list of 8: ...\"", first.Name, f.Where, f.Want)
			}
			var b strings.Builder
			grade.WriteText(&b, r, "en")
			if want := "First difference: step 8: claim_many (round 1)\n"; !strings.Contains(b.String(), want) {
				t.Errorf("the report does not say %q:\n%s", want, b.String())
			}
		})
	}
}

func TestRun_RefusesAModuleThatDoesNotLoad(t *testing.T) {
	nativeonly.Python(t)
	path := filepath.Join(t.TempDir(), "student.py")
	if err := os.WriteFile(path, []byte("import no_such_module_here\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := gradeFile(t, path, grade.Options{})
	var b *grade.Broken
	if !errors.As(err, &b) || b.Kind != "import" || !strings.Contains(b.Message, "ModuleNotFoundError") {
		t.Fatalf("got %v; want an import failure naming ModuleNotFoundError", err)
	}
}

// A module that does not load is reported by the student's own line, the
// error and its kind, without the import machinery's frames.
func TestRun_RefusesAModuleThatDoesNotLoadAtItsLine(t *testing.T) {
	nativeonly.Python(t)
	for _, tc := range []struct{ name, src, kind, line string }{
		{"a syntax error", "def init_db(path)\n    pass\n", "SyntaxError", "line 1"},
		{"an error at import", "import os\nx = {}['k']\n", "KeyError", "line 2, in <module>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "student.py")
			if err := os.WriteFile(path, []byte(tc.src), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := gradeFile(t, path, grade.Options{})
			var b *grade.Broken
			if !errors.As(err, &b) || b.Kind != "import" {
				t.Fatalf("got %v; want an import failure", err)
			}
			if !strings.Contains(b.Message, tc.kind) || !strings.Contains(b.Message, tc.line) || strings.Contains(b.Message, "<frozen") {
				t.Errorf("the verdict %q; want %s at %s and no frame of the import machinery", b.Message, tc.kind, tc.line)
			}
		})
	}
}

// An exception names the student's line it was raised at; a function the
// module lacks is named with the module's own file name.
func TestRun_NamesTheStudentsLineOfAnException(t *testing.T) {
	nativeonly.Python(t)
	path := variant(t, "def release(path, job_id, owner, fence):\n", "def release(path, job_id, owner, fence):\n    {}['x']\n")
	r, err := gradeFile(t, path, grade.Options{FailFast: true})
	if err != nil {
		t.Fatal(err)
	}
	first := r.First()
	if first == nil || first.Name != "step 7: release" {
		t.Fatalf("first failure %+v; want step 7: release", first)
	}
	if want := "raise KeyError: 'x' (student.py line 84, in release)"; first.Failure.Got != want {
		t.Errorf("yours: %q; want %q", first.Failure.Got, want)
	}
}

func TestRun_NamesAMissingFunctionByTheModulesFile(t *testing.T) {
	nativeonly.Python(t)
	src, err := os.ReadFile(variant(t, "def release(path, job_id, owner, fence):\n", "def _release(path, job_id, owner, fence):\n"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "lab3.py")
	if err := os.WriteFile(path, src, 0o600); err != nil {
		t.Fatal(err)
	}
	r, err := gradeFile(t, path, grade.Options{FailFast: true})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	grade.WriteText(&b, r, "en")
	if first := r.First(); first == nil || first.Failure.Got != "raise AttributeError: lab3.py defines no release" {
		t.Errorf("first failure %+v; want release's call answered that lab3.py defines no release", first)
	}
	if !strings.HasPrefix(b.String(), "your code does not define: release\n") || strings.Contains(b.String(), "student.py") {
		t.Errorf("the report names another file or not the function:\n%s", b.String())
	}
}

// ownLoop is the program of testdata/loop.py, a student's own protocol
// loop over testdata/correct.py, with old replaced by new (exactly once).
func ownLoop(t *testing.T, old, new string) grade.Program {
	t.Helper()
	path := variantOf(t, "testdata/loop.py", old, new)
	src, err := os.ReadFile("testdata/correct.py")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(filepath.Dir(path), "correct.py"), src, 0o600); err != nil {
		t.Fatal(err)
	}
	return grade.Program{Command: "python3", Args: []string{"-u", path}, Dir: filepath.Dir(path)}
}

// tempDir is a run's directory, removed when t ends.
func tempDir(t testing.TB) string {
	t.Helper()
	dir, err := grade.TempDir()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// The overall limit ends a run whose code hangs longer than it, however
// long the per-call limit: the test it was in fails saying so, and so do
// the tests after it, without starting.
func TestGrade_OverallLimitEndsAHangingRun(t *testing.T) {
	nativeonly.Python(t)
	hang := variant(t, "def init_db(path):\n", "def init_db(path):\n    import time\n    time.sleep(60)\n")
	r, err := gradeFile(t, hang, grade.Options{CallTimeout: time.Minute, TotalTimeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Tests) < 2 {
		t.Fatalf("%d tests reported; want every one", len(r.Tests))
	}
	for _, test := range r.Tests {
		if test.Skipped != "" {
			continue
		}
		if test.Failure == nil || test.Failure.Broken == nil || !strings.Contains(test.Failure.Broken.Message, "overall time limit") {
			t.Fatalf("%s: %+v; want a failure naming the overall time limit", test.Name, test.Failure)
		}
	}
	// The text report says so on each test's line after the first, which
	// alone is shown in full.
	var b strings.Builder
	grade.WriteText(&b, r, "en")
	fails := 0
	for _, line := range strings.Split(b.String(), "\n") {
		if !strings.HasPrefix(line, "FAIL") {
			continue
		}
		if fails++; fails > 1 && !strings.Contains(line, "the overall time limit (2s) ran out before this test") {
			t.Errorf("the line %q does not say the test never ran", line)
		}
	}
	if fails < 2 {
		t.Fatalf("%d FAIL lines; want every test's:\n%s", fails, b.String())
	}
}
