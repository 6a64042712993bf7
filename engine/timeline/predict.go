package timeline

import (
	"slices"

	"github.com/leaselab/leaselab/engine"
)

// taughtRefusals are the refusals a lesson is about: a learner is offered
// each one its step's operation can hear. The others (not_found,
// quarantined) are offered only when they are the answer.
var taughtRefusals = []engine.Refusal{engine.RefusedHeld, engine.RefusedExpired, engine.RefusedSuperseded,
	engine.RefusedFenced, engine.RefusedDone}

// prediction is the question of a step marked `-> ?` whose operation is op
// (over storage) and which ended with out: the outcomes its operation can
// end with, as an expectation writes them (Prediction.Choices), and out.
func prediction(op engine.Op, storage string, out StepOutcome) *Prediction {
	answer := out.Kind
	if out.Reason != "" {
		answer += " " + out.Reason
	}
	var choices []string
	for _, o := range outcomesFor(op) {
		switch o {
		case engine.OutcomeInvalid:
		case engine.OutcomeRefused:
			for _, r := range refusalsIn(op, storage) {
				if slices.Contains(taughtRefusals, r) {
					choices = append(choices, string(o)+" "+string(r))
				}
			}
		default:
			choices = append(choices, string(o))
		}
	}
	if !slices.Contains(choices, answer) {
		choices = append(choices, answer)
	}
	return &Prediction{Choices: choices, Answer: answer}
}
