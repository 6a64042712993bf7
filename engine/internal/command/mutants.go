package command

import (
	"fmt"

	"github.com/leaselab/leaselab/engine/internal/mutant"
)

// Mutants runs `leaselab mutants [-lang en|ko]`: every broken engine this
// build holds, one a line, its name first, then the rule it breaks. A build
// without the mutants tag holds none, and says how to get them.
func Mutants(args []string, o IO) int {
	c := newCommand("mutants", o, "leaselab mutants [-lang en|ko]\n\n"+
		"Lists the broken engines (mutants) this build holds: a name, then the rule it breaks.")
	lang := c.langFlag()
	if code, done := c.parse(args); done {
		return code
	}
	if !checkLang(*lang, o.Stderr) {
		return ExitBadInput
	}
	ms := mutant.All()
	if len(ms) == 0 {
		fmt.Fprintln(o.Stderr, "leaselab mutants: this build has no mutants; build with the mutants tag: go run -tags mutants . mutants")
		return ExitBadInput
	}
	width := 0
	for _, m := range ms {
		width = max(width, len(m.Name))
	}
	for _, m := range ms {
		fmt.Fprintf(o.Stdout, "%-*s  %s\n", width, m.Name, mutant.Rule(*lang, m.Name))
	}
	return ExitPass
}
