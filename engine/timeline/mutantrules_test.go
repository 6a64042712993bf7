//go:build mutants

package timeline_test

import (
	"testing"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/timeline"
)

// Every mutant's rule is worded in every language, and in English it is the
// engine's own wording; an unknown mutant has no rule.
func TestMutantRule_EveryMutantInEveryLanguage(t *testing.T) {
	ms := engine.Mutants()
	if len(ms) == 0 {
		t.Fatal("engine.Mutants() is empty in a build with the mutants tag")
	}
	for _, m := range ms {
		if got := timeline.MutantRule("en", m.Name); got != m.Breaks {
			t.Errorf("MutantRule(en, %s) = %q, want the engine's %q", m.Name, got, m.Breaks)
		}
		for _, lang := range timeline.Langs() {
			got := timeline.MutantRule(lang, m.Name)
			if got == "" || (lang != "en" && got == m.Breaks) {
				t.Errorf("MutantRule(%s, %s) = %q: no wording of its own", lang, m.Name, got)
			}
		}
	}
	for _, lang := range timeline.Langs() {
		if got := timeline.MutantRule(lang, "no-such-mutant"); got != "" {
			t.Errorf("MutantRule(%s, no-such-mutant) = %q, want \"\"", lang, got)
		}
	}
}
