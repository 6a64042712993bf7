package explore

import "testing"

// A found timeline's title counts its steps as English does: the verb
// agrees with one step and with more.
func TestTitle_CountsItsStepsInAgreement(t *testing.T) {
	for _, c := range []struct {
		steps int
		goal  Goal
		want  string
	}{
		{1, Goal{Mutant: "m"}, "Found by leaselab explore: 1 step tells m from the correct engine (7 states searched)"},
		{2, Goal{Mutant: "m"}, "Found by leaselab explore: 2 steps tell m from the correct engine (7 states searched)"},
		{1, Goal{Property: "p"}, "Found by leaselab explore: 1 step breaks p (7 states searched)"},
		{2, Goal{Property: "p"}, "Found by leaselab explore: 2 steps break p (7 states searched)"},
		{1, Goal{Property: "p", Engine: "e"}, "Found by leaselab explore: 1 step breaks p on e (7 states searched)"},
		{3, Goal{Property: "p", Engine: "e"}, "Found by leaselab explore: 3 steps break p on e (7 states searched)"},
	} {
		if got := title(c.goal, &Found{Steps: make([]Step, c.steps), States: 7}); got != c.want {
			t.Errorf("%d steps, %+v: %q, want %q", c.steps, c.goal, got, c.want)
		}
	}
}
