package grade

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

//go:embed adapter.py
var pythonAdapter []byte

// Broken is why a student's program stopped keeping the protocol: it did
// not start, hung, exited, or wrote something that is not an answer. A
// test that meets one fails with it; leaselab grade's exit status is 2 when the
// program could not even start.
type Broken struct {
	Kind    string // "start", "hang", "exit", "stdout", "import"
	Call    string // the call it was answering, "" at the start
	Message string // what happened, with the end of the student's standard error
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
	lab     Lab           // a Go student's functions, called in this process; nil for a program

	observe func(Observed) // Options.Observe, or nil
}

// Program is how to start a student's program: Command and Args, run in
// Dir. For a Python module, Python writes the adapter into dir and
// returns the program that runs it over the module.
type Program struct {
	Command string
	Args    []string
	Dir     string
}

// Python is the program that runs the Python adapter over the module at
// module (student.py), the adapter written into dir.
func Python(module, dir string) (Program, error) {
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
		return Program{}, &Broken{Kind: "start", Message: "python3 is not installed (it runs the Python adapter): " + err.Error()}
	}
	return Program{Command: py, Args: []string{"-u", ad, abs}, Dir: dir}, nil
}

// startMax bounds a program's start, up to its ready line.
const startMax = 10 * time.Second

// start runs p and waits for its first line: {"ready":true} (or an
// import error).
func start(ctx context.Context, p Program, callMax time.Duration) (*process, error) {
	cmd := exec.Command(p.Command, p.Args...)
	cmd.Dir = p.Dir
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
	pr := &process{cmd: cmd, stderr: &tailBuffer{max: 4096}, callMax: callMax,
		lines: make(chan []byte, 1), done: make(chan struct{})}
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
		return nil, &Broken{Kind: "start", Message: "cannot start " + p.Command + ": " + err.Error()}
	}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			pr.lines <- append([]byte(nil), sc.Bytes()...)
		}
		close(pr.lines)
	}()
	go func() { cmd.Wait(); close(pr.done) }()
	pr.callMax = max(callMax, startMax) // a start is no call: Python's start-up takes its own time
	a, err := pr.read(ctx, "")
	pr.callMax = callMax
	if err != nil {
		pr.close()
		return nil, err
	}
	if !a.Ready {
		pr.close()
		return nil, &Broken{Kind: "import", Message: fmt.Sprintf("the module does not load: %s\n%s", a.Error, strings.TrimSpace(a.Message))}
	}
	pr.missing = a.Missing
	return pr, nil
}

// call sends one request and reads its answer within the per-call limit.
func (p *process) call(ctx context.Context, fn string, args ...any) (answer, error) {
	if p.broken != nil {
		return answer{}, p.broken
	}
	if p.lab != nil {
		return p.callLab(ctx, fn, args)
	}
	req, err := json.Marshal(map[string]any{"fn": fn, "args": args})
	if err != nil {
		return answer{}, err
	}
	what := callText(fn, args)
	if _, err := p.in.Write(append(req, '\n')); err != nil {
		return answer{}, p.fail(&Broken{Kind: "exit", Call: what, Message: "the program no longer reads its input" + p.log()})
	}
	return p.read(ctx, what)
}

func (p *process) read(ctx context.Context, what string) (answer, error) {
	t := time.NewTimer(p.callMax)
	defer t.Stop()
	select {
	case line, ok := <-p.lines:
		if !ok {
			<-p.done
			return answer{}, p.fail(&Broken{Kind: "exit", Call: what,
				Message: fmt.Sprintf("the program exited (%v) without answering", p.cmd.ProcessState) + p.log()})
		}
		var a answer
		if err := json.Unmarshal(line, &a); err != nil || (a.Return == nil && a.Error == "" && !a.Ready) {
			return answer{}, p.fail(&Broken{Kind: "stdout", Call: what,
				Message: fmt.Sprintf("the program wrote %q to standard output, which is the protocol's: write your own output to standard error", clip(string(line), 120))})
		}
		return a, nil
	case <-t.C:
		return answer{}, p.fail(&Broken{Kind: "hang", Call: what,
			Message: fmt.Sprintf("no answer within %v: the program hangs (a lock never released, a loop, a sleep?)", p.callMax) + p.log()})
	case <-ctx.Done():
		return answer{}, p.fail(&Broken{Kind: "hang", Call: what, Message: "the overall time limit ran out" + p.log()})
	}
}

// fail marks the process broken and kills it.
func (p *process) fail(b *Broken) error {
	p.broken = b
	p.kill()
	return b
}

func (p *process) kill() {
	if p.cmd != nil && p.cmd.Process != nil {
		p.cmd.Process.Kill()
	}
}

// close ends the program: its input closed, killed if it does not exit
// at once.
func (p *process) close() {
	if p.lab != nil {
		return
	}
	p.in.Close()
	select {
	case <-p.done:
	case <-time.After(500 * time.Millisecond):
		p.kill()
		<-p.done
	}
}

func (p *process) log() string {
	s := strings.TrimSpace(p.stderr.String())
	if s == "" {
		return ""
	}
	return "\nits standard error ends:\n" + s
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

// callText is a call as Python would write it, without the path.
func callText(fn string, args []any) string {
	parts := make([]string, 0, len(args))
	for i, a := range args {
		if i == 0 {
			parts = append(parts, "path")
			continue
		}
		parts = append(parts, pyValue(a))
	}
	return fn + "(" + strings.Join(parts, ", ") + ")"
}

// pyValue is a Go value as Python would print it.
func pyValue(v any) string {
	switch v := v.(type) {
	case nil:
		return "None"
	case bool:
		if v {
			return "True"
		}
		return "False"
	case string:
		return fmt.Sprintf("%q", v)
	case []string:
		q := make([]string, len(v))
		for i, s := range v {
			q[i] = fmt.Sprintf("%q", s)
		}
		return "[" + strings.Join(q, ", ") + "]"
	}
	return fmt.Sprint(v)
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// TempDir makes a fresh directory for a run's database files, in memory
// (/dev/shm) where the system has it: grading needs no durability, and a
// student's every commit waits for the disk otherwise. The caller removes
// it.
func TempDir() (string, error) {
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		if dir, err := os.MkdirTemp("/dev/shm", "leaselab-grade-"); err == nil {
			return dir, nil
		}
	}
	return os.MkdirTemp("", "leaselab-grade-")
}
