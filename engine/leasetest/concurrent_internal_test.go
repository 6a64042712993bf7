package leasetest

import (
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/history"
)

// Run's report of a round no order fits says what a Queue must do to
// pass it and how to read the calls that follow: the marks, and the
// intervals' clock.
func TestConcurrentFailure_SaysWhatToFixAndHowToReadTheCalls(t *testing.T) {
	granted := history.Answer{Outcome: engine.OutcomeOK, Token: 1, LeaseUntil: 100}
	res, err := history.Check(history.History{
		{Client: "setup", Call: engine.OpEnqueue, Args: history.Args{Job: "a"}, Invoke: 0, Return: 1,
			Answer: history.Answer{Outcome: engine.OutcomeOK, Created: true}},
		{Client: "w1", Call: engine.OpClaim, Args: history.Args{Job: "a", Owner: "w1", TTL: 100}, Invoke: 10, Return: 20, Answer: granted},
		{Client: "w2", Call: engine.OpClaim, Args: history.Args{Job: "a", Owner: "w2", TTL: 100}, Invoke: 11, Return: 21, Answer: granted},
	})
	if err != nil || res.Verdict != history.NotLinearizable {
		t.Fatalf("the round is not the failing one wanted: %v %v", res, err)
	}
	msg := concurrentFailure(res)
	for _, want := range []string{
		"calls made at once by 4 clients cannot be put in any order the contract allows",
		"take effect at one instant between its start and its return",
		"one lock or transaction",
		"[invoke, return] in nanoseconds since the round began",
		res.String(),
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("the report lacks %q:\n%s", want, msg)
		}
	}
}
