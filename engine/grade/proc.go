package grade

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/leaselab/leaselab/engine/internal/lang"
	"github.com/leaselab/leaselab/engine/limits"
)

//go:embed adapter.py
var pythonAdapter []byte

// Broken is why a student's program stopped keeping the protocol: it did
// not start, hung, exited, or wrote something that is not an answer. A
// test that meets one fails with it; leaselab grade's exit status is 2 when the
// program could not even start.
type Broken struct {
	Kind    string // "start", "hang", "exit", "stdout", "import", "disk", "stopped"
	Call    string // the call it was answering, "" at the start
	Message string // what happened, with the end of the student's standard error
	msg     lang.Phrase
}

// broken is a Broken whose message is p.
func broken(kind, call string, p lang.Phrase) *Broken {
	return &Broken{Kind: kind, Call: call, Message: p.String(), msg: p}
}

// in is b's text in language l, after its call.
func (b *Broken) in(l string) string {
	if b.Call == "" {
		return b.msgIn(l)
	}
	return b.Call + ": " + b.msgIn(l)
}

// msgIn is what happened, in language l.
func (b *Broken) msgIn(l string) string {
	if b.msg.Format() != "" {
		return b.msg.In(l)
	}
	return b.Message
}

func (b *Broken) Error() string {
	if b.Call == "" {
		return b.Message
	}
	return b.Call + ": " + b.Message
}

// answer is one line of the protocol from the student.
type answer struct {
	Return  json.RawMessage `json:"return"`
	Error   string          `json:"error"`
	Message string          `json:"message"`
	Ready   bool            `json:"ready"`
	Missing []string        `json:"missing"`
	// Callback and Args are a call back to the grader from inside the
	// student's function (the courier's deliver): it answers the line and
	// the function goes on.
	Callback string            `json:"callback"`
	Args     []json.RawMessage `json:"args"`
}

// process is one run of the student's program, speaking the protocol.
type process struct {
	cmd     *exec.Cmd
	in      io.WriteCloser
	lines   chan []byte // stdout's lines; closed at EOF
	stderr  *tailBuffer
	callMax time.Duration
	broken  *Broken
	missing []string
	done    chan struct{} // closed when the process has exited
	lab     goLab         // a Go student's functions, called in this process; nil for a program
	speaker Speaker       // a program in this process and thread (see Speaker); nil for others
	tooLong atomic.Bool   // standard output had a line over grade_line_bytes
	// overDisk is set when the program's directory passed grade_disk_bytes.
	overDisk atomic.Bool
	// starting is true until the program's ready line: no answer yet is
	// a program that did not start, not one that hangs.
	starting bool
	ownPIDs  bool // it runs in a PID namespace of its own
	// callback answers the student's calls back (see answer); nil
	// refuses them.
	callback func(fn string, args []json.RawMessage) (any, error)

	observe func(Observed) // Options.Observe, or nil
	terms   Terms          // Options.Terms: how the report writes its calls and answers
}

// Program is how to start a student's program: Command and Args, run in
// Dir. For a Python module, Python writes the adapter into dir and
// returns the program that runs it over the module.
type Program struct {
	Command string
	Args    []string
	Dir     string
	// terms are the terms of the program's language when the grader
	// knows it (PythonTerms for the Python adapter), else "".
	terms Terms
}

// Python is the program that runs the Python adapter over the module at
// module (student.py), the adapter written into dir: the fencing lab's
// functions.
func Python(module, dir string) (Program, error) { return PythonLab(Fencing, module, dir) }

// PythonLab is Python for the functions of the lab called lab (Fencing or
// Courier).
func PythonLab(lab, module, dir string) (Program, error) {
	fns, ok := labFunctions[lab]
	if !ok {
		return Program{}, fmt.Errorf("grade: no lab %q (the labs: %s)", lab, strings.Join(Labs(), ", "))
	}
	abs, err := filepath.Abs(module)
	if err != nil {
		return Program{}, err
	}
	ad := filepath.Join(dir, "leaselab_adapter.py")
	if err := os.WriteFile(ad, pythonAdapter, 0o600); err != nil {
		return Program{}, err
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		return Program{}, broken("start", "", lang.P("python3 is not installed (it runs the Python adapter): %s", err.Error()))
	}
	return Program{Command: interpreter(py), Args: []string{"-u", ad, abs, strings.Join(fns, ",")}, Dir: dir, terms: PythonTerms}, nil
}

// interpreter is the Python that py runs, asked once: a version manager's
// shim (pyenv's is a shell script of hundreds of execs) costs more than
// the interpreter's own start, a grading starts Python dozens of times,
// and a shim may need the grader's environment, which the student's
// programs do not get. py itself when it cannot say within a few seconds.
func interpreter(py string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, py, "-c", "import sys; print(sys.executable)").Output()
	exe := strings.TrimSpace(string(out))
	if err != nil || !filepath.IsAbs(exe) {
		return py
	}
	if fi, err := os.Stat(exe); err != nil || fi.IsDir() {
		return py
	}
	return exe
}

// startMax bounds a program's start, up to its ready line.
var startMax = time.Duration(limits.DefaultGrading.StartMs) * time.Millisecond

// contained is how a run's programs are contained: its Sandbox, the
// user it resolved to, and the run's bound on the whole, in seconds.
type contained struct {
	sandbox      Sandbox
	user         *credential
	totalSeconds int64
}

// start runs p contained as c says and waits for its first line:
// {"ready":true} (or an import error).
func start(ctx context.Context, p Program, callMax time.Duration, c contained) (*process, error) {
	cmd := exec.Command(p.Command, p.Args...)
	cmd.Dir = p.Dir
	ownPIDs, err := contain(cmd, c.sandbox, c.user, p.Dir, c.totalSeconds)
	if err != nil {
		return nil, broken("start", "", lang.P("cannot start %s: %s", p.Command, err.Error()))
	}
	// A descendant that keeps the program's standard error open must not
	// keep the grader waiting once the program has exited.
	cmd.WaitDelay = 500 * time.Millisecond
	pr := &process{cmd: cmd, stderr: &tailBuffer{max: limits.DefaultGrading.LogBytes}, callMax: callMax,
		lines: make(chan []byte, 1), done: make(chan struct{}), ownPIDs: ownPIDs}
	cmd.Stderr = pr.stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	pr.in = in
	if err := cmd.Start(); err != nil {
		return nil, broken("start", "", lang.P("cannot start %s: %s", p.Command, err.Error()))
	}
	go pr.readLines(out)
	go func() { cmd.Wait(); close(pr.done) }()
	if p.Dir != "" {
		go pr.watchDisk(p.Dir)
	}
	pr.callMax = max(callMax, startMax) // a start is no call: Python's start-up takes its own time
	pr.starting = true
	a, err := pr.read(ctx, "")
	pr.starting, pr.callMax = false, callMax
	if err != nil {
		pr.close()
		return nil, err
	}
	if !a.Ready {
		pr.close()
		return nil, broken("import", "", lang.P("the module does not load: %s\n%s", a.Error, strings.TrimSpace(a.Message)))
	}
	pr.missing = a.Missing
	return pr, nil
}

// readLines passes the program's standard output on, a line at a time,
// until its end.
func (p *process) readLines(out io.Reader) {
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 64<<10), limits.DefaultGrading.LineBytes)
	for sc.Scan() {
		p.lines <- append([]byte(nil), sc.Bytes()...)
	}
	if errors.Is(sc.Err(), bufio.ErrTooLong) {
		p.tooLong.Store(true)
		go io.Copy(io.Discard, out) // the rest is never read: let the program go on to its end
	}
	close(p.lines)
}

// watchDisk stops the program when the files of its directory pass
// grade_disk_bytes, looking every 100 ms while it runs.
func (p *process) watchDisk(dir string) {
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-p.done:
			return
		case <-t.C:
			if n := dirBytes(dir, limits.DefaultGrading.DiskBytes); n > limits.DefaultGrading.DiskBytes {
				p.overDisk.Store(true)
				p.kill()
				return
			}
		}
	}
}

// call sends one request and reads its answer within the per-call limit.
func (p *process) call(ctx context.Context, fn string, args ...any) (answer, error) {
	if p.broken != nil {
		return answer{}, p.broken
	}
	if p.speaker != nil {
		return p.callSpeaker(fn, args)
	}
	if p.lab != nil {
		return p.callLab(ctx, fn, args)
	}
	req, err := json.Marshal(map[string]any{"fn": fn, "args": args})
	if err != nil {
		return answer{}, err
	}
	what := p.terms.call(fn, args)
	if _, err := p.in.Write(append(req, '\n')); err != nil {
		return answer{}, p.fail(broken("exit", what, lang.P("the program no longer reads its input%s", p.log())))
	}
	return p.read(ctx, what)
}

func (p *process) read(ctx context.Context, what string) (answer, error) {
	t := time.NewTimer(p.callMax)
	defer t.Stop()
	for {
		a, err := p.readLine(ctx, what, t.C)
		if err != nil || a.Callback == "" {
			return a, err
		}
		if err := p.answerCallback(what, a); err != nil {
			return answer{}, err
		}
	}
}

// answerCallback answers the student's call back a with the grader's
// callback, on the program's standard input.
func (p *process) answerCallback(what string, a answer) error {
	reply := map[string]any{"error": "RuntimeError", "message": "the grader offers no callback " + a.Callback + " here"}
	if p.callback != nil {
		if v, err := p.callback(a.Callback, a.Args); err != nil {
			reply = map[string]any{"error": "RuntimeError", "message": err.Error()}
		} else {
			reply = map[string]any{"return": v}
		}
	}
	line, err := json.Marshal(reply)
	if err != nil {
		return err
	}
	if _, err := p.in.Write(append(line, '\n')); err != nil {
		return p.fail(broken("exit", what, lang.P("the program no longer reads its input%s", p.log())))
	}
	return nil
}

// readLine reads one line of the protocol before deadline fires.
func (p *process) readLine(ctx context.Context, what string, deadline <-chan time.Time) (answer, error) {
	select {
	case line, ok := <-p.lines:
		if !ok {
			if p.tooLong.Load() {
				return answer{}, p.fail(broken("stdout", what, lang.P("the program wrote a line longer than %s on standard output, which is the protocol's: write your own output to standard error",
					limits.DefaultGrading.Row("grade_line_bytes"))))
			}
			<-p.done
			if p.overDisk.Load() {
				return answer{}, p.fail(broken("disk", what, lang.P("the files of the program's directory passed %s: it was stopped%s",
					limits.DefaultGrading.Row("grade_disk_bytes"), p.log())))
			}
			return answer{}, p.fail(broken("exit", what, lang.P("the program exited (%v) without answering%s", p.cmd.ProcessState, p.log())))
		}
		var a answer
		if err := json.Unmarshal(line, &a); err != nil || (a.Return == nil && a.Error == "" && !a.Ready && a.Callback == "") {
			return answer{}, p.fail(broken("stdout", what,
				lang.P("the program wrote %q to standard output, which is the protocol's: write your own output to standard error", clip(string(line), 120))))
		}
		return a, nil
	case <-deadline:
		if p.starting {
			return answer{}, p.fail(broken("start", what, lang.P("the program did not start: it said nothing on standard output within %v (the protocol's first line is {\"ready\": true})%s", p.callMax, p.log())))
		}
		return answer{}, p.fail(broken("hang", what, lang.P("no answer within %v: the program hangs (a lock never released, a loop, a sleep?)%s", p.callMax, p.log())))
	case <-ctx.Done():
		if errors.Is(context.Cause(ctx), ErrStopped) {
			return answer{}, p.fail(broken("stopped", what, lang.P("stopped by the platform before the answer came")))
		}
		return answer{}, p.fail(broken("hang", what, lang.P("the overall time limit ran out%s", p.log())))
	}
}

// fail marks the process broken and kills it.
func (p *process) fail(b *Broken) error {
	p.broken = b
	p.kill()
	return b
}

// kill ends the program and every process of its (see killAll).
func (p *process) kill() {
	if p.cmd != nil && p.cmd.Process != nil {
		killAll(p.cmd.Process, p.descendants())
	}
}

// close ends the program: its input closed, killed if it does not exit
// at once, and whatever it started killed with it.
func (p *process) close() {
	if p.lab != nil || p.speaker != nil {
		return
	}
	tree := p.descendants() // before it exits, while they are still its
	p.in.Close()
	select {
	case <-p.done:
	case <-time.After(500 * time.Millisecond):
	}
	if p.cmd.Process != nil {
		killAll(p.cmd.Process, tree)
	}
	<-p.done
}

// descendants are the processes the program started, when killing it
// would not end them: none in a PID namespace of its own, which dies with
// it.
func (p *process) descendants() []int {
	if p.cmd.Process == nil || p.ownPIDs {
		return nil
	}
	return descendants(p.cmd.Process.Pid)
}

func (p *process) log() lang.Phrase {
	s := strings.TrimSpace(p.stderr.String())
	if s == "" {
		return lang.Phrase{}
	}
	return lang.P("\nits standard error ends:\n%s", s)
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = t.b[len(t.b)-t.max:]
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(bytes.ToValidUTF8(t.b, nil))
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// TempDir makes a fresh directory for a run's database files, on disk
// (the system's temporary directory), not in memory: what a student
// writes there is bounded by grade_disk_bytes, and a bound on memory would
// be the machine's. The caller removes it.
func TempDir() (string, error) { return os.MkdirTemp("", "leaselab-grade-") }
