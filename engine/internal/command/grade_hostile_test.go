//go:build linux

package command

import (
	"encoding/json"
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/leaselab/leaselab/engine/internal/testkit/nativeonly"
)

// A hostile student: the reference lab with prelude run when the module
// is imported (and init_db's body prefixed by onInit), written where a
// user of its own may read it. Each prelude's long-lived process carries
// marker in its command line, so the test finds it wherever it went.
func hostile(t *testing.T, prelude, onInit string) (student, marker string) {
	t.Helper()
	src, err := os.ReadFile("../../grade/testdata/correct.py")
	if err != nil {
		t.Fatal(err)
	}
	marker = fmt.Sprintf("%d.%d", 700+time.Now().UnixNano()%100, time.Now().UnixNano()%1_000_000)
	body := strings.ReplaceAll(prelude, "MARKER", marker)
	code := string(src)
	if onInit != "" {
		const def = "def init_db(path):\n"
		if strings.Count(code, def) != 1 {
			t.Fatalf("the reference has no single %q", def)
		}
		code = strings.Replace(code, def, def+indent4(strings.ReplaceAll(onInit, "MARKER", marker)), 1)
	}
	student = filepath.Join(openDir(t, 0o755), "student.py")
	if err := os.WriteFile(student, []byte(body+"\n"+code), 0o644); err != nil {
		t.Fatal(err)
	}
	return student, marker
}

// openDir is a new temporary directory with mode, its parent open to
// every user too: another user's program may reach it.
func openDir(t *testing.T, mode os.FileMode) string {
	t.Helper()
	dir := t.TempDir()
	for _, d := range []string{dir, filepath.Dir(dir)} {
		if err := os.Chmod(d, mode); err != nil {
			t.Fatal(err)
		}
	}
	os.Chmod(filepath.Dir(dir), 0o755)
	return dir
}

func indent4(s string) string {
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		b.WriteString("    " + line + "\n")
	}
	return b.String()
}

// processesWith are the processes whose command line holds marker.
func processesWith(marker string) []string {
	var found []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && strings.Contains(string(b), marker) {
			if st, _ := os.ReadFile("/proc/" + e.Name() + "/stat"); !strings.Contains(string(st), ") Z ") {
				found = append(found, e.Name()+": "+strings.ReplaceAll(string(b), "\x00", " "))
			}
		}
	}
	return found
}

// gradescopeResults reads a results.json the grader wrote.
func gradescopeResults(t *testing.T, path string) (score float64, outputs string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no results file: %v", err)
	}
	var r struct {
		Score float64
		Tests []struct{ Name, Output string }
	}
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("results.json is not the grader's: %v\n%s", err, data)
	}
	var b strings.Builder
	for _, x := range r.Tests {
		b.WriteString(x.Name + ": " + x.Output + "\n")
	}
	return r.Score, b.String()
}

// A daemon: two forks and a new session, the grandchild left running a
// sleep that would outlive any test, then writing over the results.
const daemonPrelude = `import os
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execvp("sleep", ["sleep", "MARKER"])
    os._exit(0)
`

func TestGrade_ADaemonTheStudentStartsDoesNotOutliveTheGrader(t *testing.T) {
	nativeonly.Python(t)
	student, marker := hostile(t, daemonPrelude, "")
	out := filepath.Join(t.TempDir(), "results.json")
	code, _, errOut := main1(t, "", "grade", "-format", "gradescope", "-o", out, "-sequences", "3", "-rounds", "3", student)
	if code != ExitPass {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if left := processesWith(marker); len(left) > 0 {
		t.Fatalf("the student's daemon outlived the grader:\n%s", strings.Join(left, "\n"))
	}
	if score, _ := gradescopeResults(t, out); score == 1000 {
		t.Fatal("the results are the student's")
	}
}

// A program that leaves a child holding its standard output and error
// open grades as its answers say: the grader does not wait for the child.
func TestGrade_AChildHoldingThePipesHoldsNeitherTheGraderNorItsScore(t *testing.T) {
	nativeonly.Python(t)
	student, marker := hostile(t, "import subprocess\nsubprocess.Popen([\"sleep\", \"MARKER\"])\n", "")
	code, out, errOut := main1(t, "", "grade", "-timeout", "60s", "-sequences", "3", "-rounds", "3", student)
	if code != ExitPass {
		t.Fatalf("exit %d:\n%s\n%s", code, out, errOut)
	}
	if left := processesWith(marker); len(left) > 0 {
		t.Fatalf("the student's child outlived the grader:\n%s", strings.Join(left, "\n"))
	}
}

// The student's program sees none of the grader's environment: its home
// and temporary directory are its own directory.
func TestGrade_TheStudentSeesNoneOfTheGradersEnvironment(t *testing.T) {
	nativeonly.Python(t)
	t.Setenv("LEASELAB_GRADER_SECRET", "s3cret")
	seen := filepath.Join(openDir(t, 0o777), "env.txt")
	student, _ := hostile(t, "import os\nopen("+fmt.Sprintf("%q", seen)+", \"w\").write(repr(dict(os.environ)))\n", "")
	if code, out, errOut := main1(t, "", "grade", "-fail-fast", "-sequences", "1", "-rounds", "1", student); code != ExitPass {
		t.Fatalf("exit %d:\n%s\n%s", code, out, errOut)
	}
	env, err := os.ReadFile(seen)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(env), "s3cret") || strings.Contains(string(env), "LEASELAB_GRADE") || !strings.Contains(string(env), "'HOME': '/") {
		t.Fatalf("the student's environment: %s", env)
	}
}

// A student that fills its directory is stopped at grade_disk_bytes, and
// its directory is gone after the run. The grader's temporary directory is
// the test's own, so the graders other packages' tests run meanwhile leave
// theirs elsewhere.
func TestGrade_AStudentFillingTheDiskIsStoppedAndLeavesNothing(t *testing.T) {
	nativeonly.Python(t)
	t.Setenv("TMPDIR", t.TempDir())
	student, _ := hostile(t, "", `import os
d = os.path.dirname(path)
for i in range(64):
    with open(os.path.join(d, "fill-%d" % i), "wb") as f:
        f.write(b"x" * (8 << 20))
`)
	before := gradeDirs(t)
	code, out, _ := main1(t, "", "grade", "-fail-fast", student)
	if code != ExitFail || !strings.Contains(out, "grade_disk_bytes") {
		t.Fatalf("exit %d; want 1 naming grade_disk_bytes:\n%s", code, out)
	}
	if len(before) != 0 {
		t.Fatalf("the test's temporary directory holds graders' directories before the run: %v", before)
	}
	if after := gradeDirs(t); len(after) > 0 {
		t.Fatalf("the grader left its directory: %v", after)
	}
}

// gradeDirs are the grader's temporary directories now present.
func gradeDirs(t *testing.T) []string {
	m, err := filepath.Glob(filepath.Join(os.TempDir(), "leaselab-grade-*"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// A student that kills its parent kills no grader: it runs in a PID
// namespace of its own (or as another user), where the grader is out of
// its reach; the grader writes its own verdict.
func TestGrade_AStudentKillingItsParentKillsNoGrader(t *testing.T) {
	nativeonly.Python(t)
	if os.Geteuid() != 0 {
		t.Skip("outside a PID namespace (root's) the student could kill this test: it runs as root in CI")
	}
	student, _ := hostile(t, "", "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n")
	out := filepath.Join(t.TempDir(), "results.json")
	code, _, errOut := main1(t, "", "grade", "-format", "gradescope", "-o", out, "-fail-fast", "-sequences", "3", "-rounds", "3", student)
	if code == ExitBadInput {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if score, _ := gradescopeResults(t, out); score == 1000 {
		t.Fatal("the results are the student's")
	}
}

// SIGTERM mid-grading: the grader stops the student, writes a valid
// results.json of what it graded with "stopped by the platform", and
// returns.
func TestGrade_SIGTERMWritesWhatWasGradedAndStopsTheStudent(t *testing.T) {
	nativeonly.Python(t)
	started := filepath.Join(openDir(t, 0o777), "started")
	// The search's every sequence starts a program: the marker file says
	// the grading is under way, long after the signal's handler is set.
	student, marker := hostile(t, "", fmt.Sprintf("import os, subprocess\nif os.path.exists(%q):\n    subprocess.Popen(['sleep', 'MARKER'])\nopen(%q, 'a').write('x')\n", started, started))
	out := filepath.Join(t.TempDir(), "results.json")
	done := make(chan int, 1)
	go func() {
		code, _, _ := main1(t, "", "grade", "-format", "gradescope", "-o", out, "-sequences", "100000", student)
		done <- code
	}()
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if b, _ := os.ReadFile(started); len(b) >= 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the grading never started the student three times")
		}
	}
	syscall.Kill(os.Getpid(), syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("the grader did not return after SIGTERM")
	}
	_, outputs := gradescopeResults(t, out)
	if !strings.Contains(outputs, "stopped by the platform") {
		t.Fatalf("results.json does not say the platform stopped it:\n%s", outputs)
	}
	if left := processesWith(marker); len(left) > 0 {
		t.Fatalf("the student's processes outlived the stop:\n%s", strings.Join(left, "\n"))
	}
}

// Run as a user of its own, the student reads no file of the grader's and
// writes nowhere but its directory.
func TestGrade_AStudentRunAsItsOwnUserCannotReadTheGraderNorWriteItsResults(t *testing.T) {
	nativeonly.Python(t)
	if os.Geteuid() != 0 {
		t.Skip("running the student as another user needs root: CI runs as root")
	}
	if _, err := exec.LookPath("/usr/bin/python3"); err != nil {
		t.Skip("no system python3 that another user may run")
	}
	source := openDir(t, 0o700) // the grader's own files: root's alone
	secret := filepath.Join(source, "leaselab")
	os.WriteFile(secret, []byte("the grader's binary"), 0o755)
	results := openDir(t, 0o755)
	report := filepath.Join(openDir(t, 0o777), "attempts.txt")
	attempt := fmt.Sprintf(`import os
said = []
for what, do in [("read", lambda: open(%q).read()), ("write", lambda: open(%q, "w").write("{}")), ("tmp", lambda: open("/tmp/leaselab-student-MARKER", "w").write("x"))]:
    try:
        do()
        said.append(what + " allowed")
    except OSError as e:
        said.append(what + " refused")
open(%q, "w").write(",".join(said))
`, secret, filepath.Join(results, "results.json"), report)
	student, marker := hostile(t, attempt, "")
	t.Setenv("PATH", "/usr/local/bin:/usr/bin:/bin")
	code, out, errOut := main1(t, "", "grade", "-user", "nobody", "-format", "gradescope", "-o", filepath.Join(results, "results.json"), "-fail-fast", "-sequences", "1", "-rounds", "1", student)
	if code != ExitPass {
		b, _ := os.ReadFile(filepath.Join(results, "results.json"))
		t.Fatalf("exit %d:\n%s\n%s\n%s", code, out, errOut, b)
	}
	said, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	if string(said) != "read refused,write refused,tmp allowed" {
		t.Fatalf("the student's attempts: %s", said)
	}
	if _, err := os.Stat("/tmp/leaselab-student-" + marker); err == nil {
		t.Fatal("the student's file in /tmp outlived the grading")
	}
}

// The guide's Gradescope recipe, its setup.sh and run_autograder as they
// are written but for the root folder and the user's name, run as root:
// the student's code can neither read the grader's binary nor write the
// results, and results.json is the grader's.
func TestGrade_TheGuidesAutograderKeepsTheGraderAndResultsFromTheStudent(t *testing.T) {
	nativeonly.Python(t)
	if os.Geteuid() != 0 {
		t.Skip("the recipe runs as root, as Gradescope runs it: CI runs as root")
	}
	if _, err := exec.LookPath("useradd"); err != nil {
		t.Skip("no useradd to add the recipe's user")
	}
	root := openDir(t, 0o755)
	user := fmt.Sprintf("llst%d", time.Now().UnixNano()%1_000_000)
	setup, run := guideScript(t, "setup.sh", root, user), guideScript(t, "run_autograder", root, user)
	t.Cleanup(func() { exec.Command("userdel", user).Run() })
	for _, d := range []string{"source", "submission", "results"} {
		os.MkdirAll(filepath.Join(root, d), 0o755)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	copyFile(t, self, filepath.Join(root, "source", "leaselab"))
	src, err := os.ReadFile("../../grade/testdata/correct.py")
	if err != nil {
		t.Fatal(err)
	}
	attempt := fmt.Sprintf(`def init_db(path):
    said = []
    for what, do in [("read", lambda: open(%q, "rb").read(1)), ("write", lambda: open(%q, "w").write("{}"))]:
        try:
            do()
            said.append(what + " allowed")
        except OSError:
            said.append(what + " refused")
    raise RuntimeError(",".join(said))
`, filepath.Join(root, "source", "leaselab"), filepath.Join(root, "results", "results.json"))
	lab := strings.Replace(string(src), "def init_db(path):\n", attempt+"\n\ndef init_db_unused(path):\n", 1)
	os.WriteFile(filepath.Join(root, "submission", "lab.py"), []byte(lab), 0o600)
	for _, script := range []string{setup, run} {
		cmd := exec.Command("bash", "-c", script)
		cmd.Env = []string{asCommand + "=1", "PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v:\n%s\n%s", err, script, out)
		}
	}
	_, outputs := gradescopeResults(t, filepath.Join(root, "results", "results.json"))
	if !strings.Contains(outputs, "read refused,write refused") {
		t.Fatalf("results.json does not show both attempts refused:\n%s", outputs)
	}
}

// guideScript is the guide's code block labelled label, its /autograder
// the folder root, its user student the user called user, and no package
// installed (the machine has them).
func guideScript(t *testing.T, label, root, user string) string {
	t.Helper()
	s := guideBlock(t, label)
	s = strings.ReplaceAll(s, "apt-get install -y python3", "true")
	s = strings.ReplaceAll(s, "/autograder", root)
	s = strings.ReplaceAll(s, "-user student", "-user "+user)
	s = strings.ReplaceAll(s, "nologin student", "nologin "+user)
	return s
}

// guideBlock is the text of the guide's code block labelled label.
func guideBlock(t *testing.T, label string) string {
	t.Helper()
	b, err := os.ReadFile("../../../web/guide.html")
	if err != nil {
		t.Fatal(err)
	}
	open := `<pre tabindex="0" role="region" aria-label="` + label + `"><code>`
	i := strings.Index(string(b), open)
	if i < 0 {
		t.Fatalf("the guide has no %s block", label)
	}
	s := string(b)[i+len(open):]
	return html.UnescapeString(s[:strings.Index(s, "</code></pre>")])
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o755); err != nil {
		t.Fatal(err)
	}
}
