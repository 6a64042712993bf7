package grade

import (
	_ "embed"
	"encoding/json"
	"time"

	"github.com/leaselab/leaselab/engine/internal/lang"
)

// Speaker is a student's program that runs in the grader's own process
// and thread, with no pipes to speak the protocol on: the Python lab in
// a browser's Pyodide. It runs the Python adapter's protocol (see the
// package doc) through calls that answer before they return, so a call
// that would not end is the Speaker's to stop: past its budget it
// answers {"stopped": why}, which the report gives as a hang, in those
// words. PageAdapter holds the Python modules that do all of that in
// the interpreter; a Speaker carries their JSON text.
//
// A Speaker runs one call at a time: the tests that need two programs at
// once are skipped where the program shares the grader's thread.
type Speaker interface {
	// Start loads the student's code afresh, each of its calls bound by
	// callMax, and answers the protocol's first line: {"ready": true,
	// "missing": [...]}, or the import's error.
	Start(functions []string, callMax time.Duration) ([]byte, error)
	// Call answers one request line, {"fn", "args"}, within callMax;
	// callback answers each of the student's calls back (a line
	// {"callback", "args"}) with the grader's reply line.
	Call(request []byte, callMax time.Duration, callback func(line []byte) []byte) ([]byte, error)
	// Rows reads a query's rows from the database file at path, as the
	// student's code sees that file: {"columns": [...], "rows": [[...],
	// ...]} or {"error": why}. The query BEGIN IMMEDIATE asks whether
	// the file's write lock is free: it begins a write transaction
	// without waiting and rolls it back, answering no rows, or the error
	// SQLite gives while another connection holds the lock.
	Rows(path, query string) ([]byte, error)
}

//go:embed inpage.py
var inPage []byte

// PageAdapter are the Python modules a Speaker runs in its interpreter,
// by file name: leaselab_adapter.py, the protocol (the one leaselab
// grade runs a program with), and leaselab_inpage.py, which speaks it
// through calls: start, call, rows and sql, each taking and answering
// JSON text, and CALLBACK, the function through which the student's
// calls back reach the grader. In it, threads run one after another as
// they start, and each call is stopped past its budget, at a line of the
// student's Python or inside a statement of SQLite.
func PageAdapter() map[string][]byte {
	return map[string][]byte{"leaselab_adapter.py": pythonAdapter, "leaselab_inpage.py": inPage}
}

// startSpeaker loads the student's code in s, as start does a program.
func startSpeaker(s Speaker, lab string, callMax time.Duration) (*process, error) {
	line, err := s.Start(labFunctions[lab], max(callMax, startMax))
	if err != nil {
		return nil, broken("start", "", lang.P("cannot start the program: %s", err.Error()))
	}
	a, stopped, err := speakerAnswer(line)
	if err != nil {
		return nil, broken("start", "", lang.P("the program's first line is not the protocol's: %q", clip(string(line), 120)))
	}
	switch {
	case stopped != "":
		return nil, broken("hang", "", lang.P("%s", stopped))
	case !a.Ready:
		return nil, broken("import", "", lang.P("the module does not load: %s\n%s", a.Error, a.Message))
	}
	return &process{speaker: s, callMax: callMax, missing: a.Missing}, nil
}

// callSpeaker makes one call on the process's Speaker: it answers before
// it returns, so no timer can stop it; its own budget does.
func (p *process) callSpeaker(fn string, args []any) (answer, error) {
	what := p.terms.call(fn, args)
	req, err := json.Marshal(map[string]any{"fn": fn, "args": args})
	if err != nil {
		return answer{}, err
	}
	callback := p.callback
	line, err := p.speaker.Call(req, p.callMax, func(line []byte) []byte {
		var a answer
		reply := map[string]any{"error": "RuntimeError", "message": "the grader offers no callback here"}
		if json.Unmarshal(line, &a) == nil && callback != nil {
			if v, err := callback(a.Callback, a.Args); err != nil {
				reply = map[string]any{"error": "RuntimeError", "message": err.Error()}
			} else {
				reply = map[string]any{"return": v}
			}
		}
		out, _ := json.Marshal(reply)
		return out
	})
	if err != nil {
		return answer{}, p.fail(broken("exit", what, lang.P("the program stopped: %s", err.Error())))
	}
	a, stopped, err := speakerAnswer(line)
	if err != nil || (a.Return == nil && a.Error == "") {
		return answer{}, p.fail(broken("stdout", what, lang.P("the program answered %q, which is not the protocol's", clip(string(line), 120))))
	}
	if stopped != "" {
		return answer{}, p.fail(broken("hang", what, lang.P("%s", stopped)))
	}
	return a, nil
}

// speakerAnswer is a Speaker's line: the protocol's answer, and why the
// call was stopped ("" when it was not).
func speakerAnswer(line []byte) (answer, string, error) {
	var a answer
	var s struct {
		Stopped string `json:"stopped"`
	}
	if err := json.Unmarshal(line, &a); err != nil {
		return a, "", err
	}
	err := json.Unmarshal(line, &s)
	return a, s.Stopped, err
}
