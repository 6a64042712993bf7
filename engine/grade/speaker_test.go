package grade_test

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/leaselab/leaselab/engine/grade"
)

// pipeSpeaker is a Speaker natively: the page's Python modules in a
// python3 of its own (testdata/inpage_serve.py), one line a call.
type pipeSpeaker struct {
	t       *testing.T
	student string // the student's module, written into the run's folder
	in      *json.Encoder
	out     *bufio.Reader
}

func newPipeSpeaker(t *testing.T, student string) *pipeSpeaker {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed")
	}
	dir := t.TempDir()
	for name, src := range grade.PageAdapter() {
		if err := os.WriteFile(filepath.Join(dir, name), src, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	src, err := os.ReadFile(student)
	if err != nil {
		t.Fatal(err)
	}
	mod := filepath.Join(dir, "student.py")
	if err := os.WriteFile(mod, src, 0o600); err != nil {
		t.Fatal(err)
	}
	serve, _ := filepath.Abs("testdata/inpage_serve.py")
	cmd := exec.Command(py, serve, dir)
	cmd.Stderr = os.Stderr
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close(); cmd.Wait() })
	return &pipeSpeaker{t: t, student: mod, in: json.NewEncoder(in), out: bufio.NewReaderSize(out, 1<<20)}
}

// ask calls method with args and answers its text, answering the
// student's calls back with callback on the way.
func (s *pipeSpeaker) ask(callback func([]byte) []byte, method string, args ...any) ([]byte, error) {
	if err := s.in.Encode(map[string]any{"m": method, "a": args}); err != nil {
		return nil, err
	}
	for {
		line, err := s.out.ReadBytes('\n')
		if err != nil {
			return nil, err
		}
		var m struct {
			Answer   *string `json:"answer"`
			Callback string  `json:"callback"`
		}
		if err := json.Unmarshal(line, &m); err != nil {
			return nil, err
		}
		if m.Answer != nil {
			return []byte(*m.Answer), nil
		}
		reply := []byte(`{"error": "RuntimeError", "message": "no callback"}`)
		if callback != nil {
			reply = callback(line)
		}
		if err := s.in.Encode(json.RawMessage(reply)); err != nil {
			return nil, err
		}
	}
}

func (s *pipeSpeaker) Start(functions []string, callMax time.Duration) ([]byte, error) {
	req, _ := json.Marshal(map[string]any{"path": s.student, "functions": functions, "ms": callMax.Milliseconds()})
	return s.ask(nil, "start", string(req))
}

func (s *pipeSpeaker) Call(request []byte, callMax time.Duration, callback func([]byte) []byte) ([]byte, error) {
	var req map[string]any
	if err := json.Unmarshal(request, &req); err != nil {
		return nil, err
	}
	req["ms"] = callMax.Milliseconds()
	line, _ := json.Marshal(req)
	return s.ask(callback, "call", string(line))
}

func (s *pipeSpeaker) Rows(path, query string) ([]byte, error) {
	req, _ := json.Marshal(map[string]any{"path": path, "query": query})
	return s.ask(nil, "rows", string(req))
}

// gradeSpeaker grades student through a pipeSpeaker, its files in a
// folder of the run's own.
func gradeSpeaker(t *testing.T, student, lab string, o grade.Options) *grade.Report {
	t.Helper()
	o.Speaker, o.LabName, o.Dir = newPipeSpeaker(t, student), lab, t.TempDir()
	r, err := grade.Grade(t.Context(), o)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// firstOf is a report's first failure as a line: the test, where, the
// call; "pass" when it passed.
func firstOf(r *grade.Report) string {
	t := r.First()
	if t == nil {
		return "pass"
	}
	return t.Name + " | " + t.Failure.Where + " | " + t.Failure.Call
}

// Through a Speaker (the page's Python modules, one call at a time) the
// correct lab passes and each one-mistake variant fails at the step and
// call where its mistake shows, as in its own process: the e2e suite
// holds the page's verdicts to native leaselab grade's for the same
// files.
func TestSpeaker_FailsEachMistakeAtItsStepAndCall(t *testing.T) {
	for _, tc := range []struct{ file, test, call string }{
		{"correct.py", "", ""},
		{"mistakes/1-create-table.py", "step 1: init_db", "init_db(path)"},
		{"mistakes/2-insert-or-replace.py", "step 2: enqueue", `enqueue(path, "j1")`},
		{"mistakes/3-state-empty-dict.py", "step 3: state", `state(path, "j2")`},
		{"mistakes/4-claim-boundary.py", "step 4: claim", `claim(path, "j1", "A", 0, 1000)`},
		{"mistakes/5-renew-revives.py", "step 5: renew", `renew(path, "j1", "A", 1, 1999, 1000)`},
		{"mistakes/6-complete-done.py", "step 6: complete", `complete(path, "j1", "B", 2, 1999, "again")`},
		{"mistakes/7-release-resets-fence.py", "step 7: release", `release(path, "j1", "A", 1)`},
		{"mistakes/8-claim-many-first-only.py", "step 8: claim_many", `claim_many(path, "m1", ["A", "B", "C", "D", "E", "F", "G", "H"], 0, 1000)`},
		{"mistakes/9-no-ttl-check.py", "step 4: claim", `claim(path, "j1", "A", 0, 0)`},
	} {
		t.Run(strings.TrimSuffix(filepath.Base(tc.file), ".py"), func(t *testing.T) {
			t.Parallel()
			r := gradeSpeaker(t, filepath.Join("testdata", tc.file), grade.Fencing, grade.Options{Sequences: 12, Rounds: 5, FailFast: true})
			first := r.First()
			switch {
			case tc.test == "" && first != nil:
				t.Errorf("the correct lab failed through a Speaker: %s", firstOf(r))
			case tc.test != "" && (first == nil || first.Name != tc.test || first.Failure.Call != tc.call):
				t.Errorf("through a Speaker: %s; want %s | %s", firstOf(r), tc.test, tc.call)
			}
		})
	}
}

// The courier lab passes through a Speaker, send's deliver calling back
// into the grader mid-call; the tests of two programs at once are
// skipped, saying why.
func TestSpeaker_PassesTheCourierWithItsCallsBack(t *testing.T) {
	r := gradeSpeaker(t, "testdata/courier.py", grade.Courier, grade.Options{Sequences: 12, Rounds: 5})
	if !r.Passed() {
		t.Fatalf("the correct courier failed through a Speaker: %s\n%s", firstOf(r), grade.FailureText(r.First().Failure))
	}
	skipped := 0
	for _, test := range r.Tests {
		if strings.Contains(test.Skipped, "shares the grader's one thread") {
			skipped++
		}
	}
	if skipped != 2 { // two processes claiming at once; an old holder's finish beside a new claim
		t.Errorf("%d tests skipped as two programs at once; want 2", skipped)
	}
}

// A call that never ends is stopped at its budget and named, test and
// call (step 2's timeline is the first to claim); the steps before it
// keep their verdicts, and with StopAtHang no test after it runs.
func TestSpeaker_StopsAnEndlessCallAtItsBudget(t *testing.T) {
	for _, tc := range []struct{ name, loop string }{
		{"python", "    while True:\n        pass\n"},
		{"caught", "    while True:\n        try:\n            pass\n        except BaseException:\n            pass\n"},
		{"sql", "    sqlite3.connect(path).execute('WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c').fetchall()\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			student := variantOf(t, "testdata/correct.py", "    if ttl <= 0:\n        raise ValueError(\"ttl must be positive\")\n    conn = _connect(path)\n    try:\n        conn.execute(\"BEGIN IMMEDIATE\")",
				tc.loop+"    conn = _connect(path)\n    try:\n        conn.execute(\"BEGIN IMMEDIATE\")")
			r := gradeSpeaker(t, student, grade.Fencing, grade.Options{StopAtHang: true, CallTimeout: time.Second})
			if len(r.Tests) != 2 {
				t.Errorf("%d tests in the report; want the grading stopped after the hang, at the second", len(r.Tests))
			}
			first := r.First()
			if first == nil || first.Name != "step 2: enqueue" || first.Failure.Broken == nil || !strings.HasPrefix(first.Failure.Call, "claim(") {
				t.Fatalf("first failure %s; want step 2's claim, stopped\n%s", firstOf(r), grade.FailureText(first.Failure))
			}
			if msg := first.Failure.Broken.Error(); !strings.Contains(msg, "ran longer than 1000 ms") {
				t.Errorf("the stop says %q; want its budget named", msg)
			}
			for _, test := range r.Tests[:1] {
				if test.Failure != nil {
					t.Errorf("%s failed before the loop: %s", test.Name, firstOf(r))
				}
			}
		})
	}
}
