//go:build mutants

package mutant_test

import (
	"testing"

	"github.com/leaselab/leaselab/engine/internal/mutant"
	"github.com/leaselab/leaselab/engine/timeline"
)

// Every mutant's rule is worded in every language of the timelines, and in
// English it is the catalog's own wording; an unknown mutant has no rule.
func TestRule_EveryMutantInEveryLanguage(t *testing.T) {
	ms := mutant.All()
	if len(ms) == 0 {
		t.Fatal("mutant.All() is empty in a build with the mutants tag")
	}
	for _, m := range ms {
		if got := mutant.Rule("en", m.Name); got != m.Breaks {
			t.Errorf("Rule(en, %s) = %q, want the catalog's %q", m.Name, got, m.Breaks)
		}
		for _, lang := range timeline.Langs() {
			got := mutant.Rule(lang, m.Name)
			if got == "" || (lang != "en" && got == m.Breaks) {
				t.Errorf("Rule(%s, %s) = %q: no wording of its own", lang, m.Name, got)
			}
		}
	}
	for _, lang := range timeline.Langs() {
		if got := mutant.Rule(lang, "no-such-mutant"); got != "" {
			t.Errorf("Rule(%s, no-such-mutant) = %q, want \"\"", lang, got)
		}
	}
}
