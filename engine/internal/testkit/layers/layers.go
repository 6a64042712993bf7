// Package layers is the module's whiteboard: its packages in layers, from
// the programs at the top to the drivers at the bottom, each importing
// only packages of the layers below it. The README shows it (Whiteboard
// writes the block), and the package's test holds both the imports of
// every build (native, the browser's and the Worker's GOOS=js) and the
// README to it.
//
// The packages under engine/internal that the board lists are the
// application's own (the command's, the page's), importable only inside
// engine/; the other packages under engine/internal are the tools,
// benchmarks and tests, which stand beside the whiteboard: they may import
// any package, and no package of the whiteboard imports them.
package layers

import (
	"fmt"
	"strings"
)

// Layer is one row of the whiteboard.
type Layer struct {
	Name     string   // what the row holds
	Packages []string // folders from the module's root ("." is serve.go's)
}

// Board is the whiteboard, top to bottom.
var Board = []Layer{
	{"the programs", []string{".", "wasm/sim", "wasm/worker"}},
	{"the leaselab command, public for the programs", []string{"engine/command"}},
	{"the command's subcommands", []string{"engine/internal/command"}},
	{"a course site; the page's files; the API over SQLite; the API's contract suite; a lab in JavaScript, in Python",
		[]string{"engine/internal/coursesite", "engine/internal/webserve", "engine/httpapi/sqliteapi", "engine/httpapi/httpapitest", "wasm/jslab", "wasm/pylab"}},
	{"what the browser's engine answers; the HTTP API; the grader of a student's code; the conformance suite's engine on SQLite",
		[]string{"engine/simrun", "engine/httpapi", "engine/grade", "engine/leasetest/enginetest"}},
	{"the explorer; the conformance suite; the lease lab", []string{"engine/internal/explore", "engine/leasetest", "engine/internal/lab"}},
	{"a timeline on a fresh in-memory database; the conformance suite's way to it, linking no SQLite",
		[]string{"engine/timeline/memrun", "engine/leasetest/internal/enginehook"}},
	{"the timeline language and its runner", []string{"engine/timeline"}},
	{"concurrent histories checked against the model", []string{"engine/history"}},
	{"the invariants' checker; the model", []string{"engine/check", "engine/model"}},
	{"the engine: the store, its operations and rejections", []string{"engine"}},
	{"SQLite opened for the engine; the limits; the messages' languages; the mutants' names",
		[]string{"engine/sqlitedb", "engine/limits", "engine/internal/lang", "engine/internal/mutant"}},
	{"the browser's database/sql driver; the contract every driver keeps", []string{"wasm/sqlitejs", "engine/drivertest"}},
}

// Rank is the layer of the folder pkg (0 at the top), and false for a
// folder the whiteboard does not hold.
func Rank(pkg string) (int, bool) {
	for i, l := range Board {
		for _, p := range l.Packages {
			if p == pkg {
				return i, true
			}
		}
	}
	return 0, false
}

// Whiteboard is the board as the README shows it: a fenced block, a line
// a layer from the top, its number, its packages and what it holds; each
// line imports only the lines below it.
func Whiteboard() string {
	var b strings.Builder
	b.WriteString("```\n")
	for i, l := range Board {
		fmt.Fprintf(&b, "%2d  %s  (%s)\n", i+1, strings.Join(l.Packages, "  "), l.Name)
	}
	b.WriteString("```\n")
	return b.String()
}
