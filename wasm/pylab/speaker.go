//go:build js && wasm

package pylab

import (
	"encoding/json"
	"errors"
	"fmt"
	"syscall/js"
	"time"

	"github.com/leaselab/leaselab/engine/grade"
)

// The places in Pyodide's file system: the adapter's modules, the
// student's module (a folder of its own, so that a traceback's frames
// in it are the student's), and the run's database files.
const (
	libDir     = "/leaselab/lib"
	studentDir = "/leaselab/student"
	runDir     = "/tmp/leaselab-grade"
)

// speaker is the student's module in Pyodide as a grade.Speaker: each
// method calls leaselab_inpage's function of its name.
type speaker struct {
	mod     js.Value // leaselab_inpage, a PyProxy
	student string
	// onCall hears each call before it runs, in Python's terms; path is
	// the database file of the last call, sql the statements it ran.
	onCall func(call string)
	path   string
	// back answers the student's calls back during a call; nil between.
	back     func(line []byte) []byte
	callback js.Func
}

// newSpeaker writes the adapter and source into py's file system, with a
// fresh folder for the run, and imports the adapter.
func newSpeaker(py js.Value, source string) (s *speaker, err error) {
	err = catch(func() {
		fs := py.Get("FS")
		py.Call("runPython", "import shutil\nshutil.rmtree('"+runDir+"', ignore_errors=True)\nshutil.rmtree('"+studentDir+"', ignore_errors=True)")
		for _, d := range []string{libDir, studentDir, runDir} {
			fs.Call("mkdirTree", d)
		}
		for name, src := range grade.PageAdapter() {
			fs.Call("writeFile", libDir+"/"+name, string(src))
		}
		fs.Call("writeFile", studentDir+"/student.py", source)
		py.Call("runPython", "import sys\nif '"+libDir+"' not in sys.path:\n    sys.path.insert(0, '"+libDir+"')")
		s = &speaker{mod: py.Call("pyimport", "leaselab_inpage"), student: studentDir + "/student.py"}
	})
	if err != nil {
		return nil, err
	}
	s.callback = js.FuncOf(func(_ js.Value, args []js.Value) any {
		if s.back == nil || len(args) < 2 {
			return `{"error": "RuntimeError", "message": "the grader offers no callback here"}`
		}
		line := fmt.Sprintf(`{"callback": %s, "args": %s}`, js.Global().Get("JSON").Call("stringify", args[0]).String(), args[1].String())
		return string(s.back([]byte(line)))
	})
	s.mod.Set("CALLBACK", s.callback)
	return s, nil
}

// close ends the speaker: its callback is released.
func (s *speaker) close() {
	s.mod.Set("CALLBACK", js.Null())
	s.callback.Release()
	s.mod.Call("destroy")
}

// ask calls leaselab_inpage's method with a JSON text and answers its.
func (s *speaker) ask(method string, arg ...any) (out []byte, err error) {
	err = catch(func() { out = []byte(s.mod.Call(method, arg...).String()) })
	return out, err
}

func (s *speaker) Start(functions []string, callMax time.Duration) ([]byte, error) {
	req, err := json.Marshal(map[string]any{"path": s.student, "functions": functions, "ms": callMax.Milliseconds()})
	if err != nil {
		return nil, err
	}
	return s.ask("start", string(req))
}

func (s *speaker) Call(request []byte, callMax time.Duration, callback func([]byte) []byte) ([]byte, error) {
	var req struct {
		Fn   string            `json:"fn"`
		Args []json.RawMessage `json:"args"`
		Ms   int64             `json:"ms"`
	}
	if err := json.Unmarshal(request, &req); err != nil {
		return nil, err
	}
	if len(req.Args) > 0 {
		json.Unmarshal(req.Args[0], &s.path)
	}
	if s.onCall != nil {
		s.onCall(pythonCall(req.Fn, req.Args))
	}
	req.Ms = callMax.Milliseconds()
	line, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	s.back = callback
	defer func() { s.back = nil }()
	return s.ask("call", string(line))
}

func (s *speaker) Rows(path, query string) ([]byte, error) {
	req, err := json.Marshal(map[string]any{"path": path, "query": query})
	if err != nil {
		return nil, err
	}
	return s.ask("rows", string(req))
}

// statements are the SQL the last call ran.
func (s *speaker) statements() []string {
	var out []string
	if raw, err := s.ask("sql"); err == nil {
		json.Unmarshal(raw, &out)
	}
	return out
}

var _ grade.Speaker = (*speaker)(nil)

// catch runs f and returns what JavaScript (or Python, through Pyodide)
// threw in it.
func catch(f func()) (err error) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		if je, ok := r.(js.Error); ok {
			msg := je.Value.String()
			if m := je.Value.Get("message"); m.Type() == js.TypeString {
				msg = m.String()
			}
			err = errors.New(msg)
			return
		}
		panic(r)
	}()
	f()
	return nil
}
