package simrun

import (
	"slices"

	"github.com/leaselab/leaselab/engine/check"
	"github.com/leaselab/leaselab/engine/internal/mutant"
	"github.com/leaselab/leaselab/engine/limits"
	"github.com/leaselab/leaselab/engine/timeline"
)

// Facts is what never changes in a build of the page's engine, and all the
// page asks of it before its first run: the library, the languages a step
// can be explained in, each language's mutants, the bounds on a timeline
// and the checker's invariants. Its JSON form is the object the engine's
// worker hands the page (web/engine-worker.js), without the version, which
// names the build itself.
//
// make wasm writes a build's Facts into its module as the custom section
// FactsSection (engine/internal/build/wasmfacts), computed natively with the tags
// of the page's build, so that the worker reads them without running any
// Go: on 2 cores, computing them in WebAssembly as the engine started put
// the simulator's cold first trace at 586 ms against 522 (medians of 10
// cold loads each, alternating).
type Facts struct {
	Library    []Entry             `json:"library"`
	Langs      []string            `json:"langs"`
	Mutants    map[string][]Mutant `json:"mutants"`
	Limits     map[string]int64    `json:"limits"`
	Invariants []string            `json:"invariants"`
}

// FactsSection names the custom section of the page's module that holds its
// Facts as JSON.
const FactsSection = "leaselab.facts"

// Mutant is one broken engine of the build: its name and the rule it
// breaks, worded in one language.
type Mutant struct {
	Name   string `json:"name"`
	Breaks string `json:"breaks"`
}

// BuildFacts computes the Facts of the build it runs in. They depend on its
// build tags: only a build with the mutants tag has mutants.
func BuildFacts() Facts {
	f := Facts{
		Library:    Library(),
		Langs:      timeline.Langs(),
		Mutants:    map[string][]Mutant{},
		Limits:     Limits(),
		Invariants: check.Invariants(),
	}
	for _, l := range f.Langs {
		f.Mutants[l] = Mutants(l)
	}
	return f
}

// Mutants lists the build's mutants, each with the rule it breaks worded in
// lang; a lang that is not one of timeline.Langs words them in English.
// A build without the mutants tag has none (an empty list).
func Mutants(lang string) []Mutant {
	if !slices.Contains(timeline.Langs(), lang) {
		lang = "en"
	}
	out := []Mutant{}
	for _, m := range mutant.All() {
		out = append(out, Mutant{Name: m.Name, Breaks: mutant.Rule(lang, m.Name)})
	}
	return out
}

// Limits is limits.Default as {name: value}, named as limits.Rows names
// them (the JSON names of limits.Limits).
func Limits() map[string]int64 {
	out := map[string]int64{}
	for _, r := range limits.Default.Rows() {
		out[r.Name] = r.Value
	}
	return out
}
