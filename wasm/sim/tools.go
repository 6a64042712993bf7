//go:build js && wasm && tools

package main

import "syscall/js"

// addTools puts the tools' calls into the API: the tools build
// (leaselab-tools.wasm) answers them, the player build does not.
func addTools(api map[string]any) {
	api["goTest"] = js.FuncOf(goTest)
	api["explore"] = js.FuncOf(exploreCall)
	api["grade"] = js.FuncOf(gradeCall)
	api["gradePython"] = js.FuncOf(gradePythonCall)
	api["lab"] = js.FuncOf(labCall)
	api["labSVG"] = js.FuncOf(labSVG)
	api["labStory"] = js.FuncOf(labStory)
	api["history"] = js.FuncOf(historyCall)
}
