//go:build js && wasm && tools

package main

import (
	"errors"
	"syscall/js"

	"github.com/leaselab/leaselab/engine/simrun"
)

// historyCall is leaselab.history(text): a Promise of what the page's
// history view draws of text, a concurrent history in the JSON lines
// format, checked for linearizability by the native checker's code
// (simrun.HistoryJSON, history.Drawing as JSON). A line that is not a
// call of the format rejects with its {line, col, msg}.
func historyCall(_ js.Value, args []js.Value) any {
	if len(args) == 0 || args[0].Type() != js.TypeString {
		return rejected(errors.New("leaselab.history: the first argument is the history's text (JSON lines)"))
	}
	text := args[0].String()
	return promise(func() (any, error) {
		out, err := simrun.HistoryJSON(text)
		if err != nil {
			return nil, err
		}
		return string(out), nil
	})
}
