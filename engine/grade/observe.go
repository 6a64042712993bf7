package grade

import "github.com/leaselab/leaselab/engine"

// Observed is one call of a lab function as the grader made it, for a
// view that shows a run call by call: the call in the student's terms
// (Options.Terms), the contract's answer (a claim_many's in words, its
// winner left open) and the student's, and the contract's table after
// the call. Options.Observe hears each one as soon as the student's code
// has answered, before the grader compares.
type Observed struct {
	Call, Want, Got string
	WantRows        []engine.Job
}

// Played is one step of a timeline as the student's code played it: the
// calls of lab functions the step made, each "call → answer" in the
// student's terms, and the student's table after the step.
type Played struct {
	Calls []string
	Rows  []engine.Job
}
