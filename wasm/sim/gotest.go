//go:build js && wasm && tools

package main

import (
	"syscall/js"

	"github.com/leaselab/leaselab/engine/simrun"
)

// goTest is leaselab.goTest(text, {name, func}): a Promise of a Go test
// file (timeline.GoTest) that replays the timeline on the engine and
// checks its expectations; func names the test function (by default one
// made from name). It rejects as run does.
func goTest(_ js.Value, args []js.Value) any {
	text, name, _, err := runArgs("leaselab.goTest", args)
	if err != nil {
		return rejected(err)
	}
	funcName := ""
	if len(args) > 1 && args[1].Type() == js.TypeObject {
		funcName = stringField(args[1], "func", "")
	}
	return promise(func() (any, error) { return simrun.GoTest(name, text, funcName) })
}
