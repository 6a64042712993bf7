package command_test

import (
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/command"
	"github.com/leaselab/leaselab/engine/internal/mutant"
)

// leaselab mutants lists every mutant of the build, one a line, its name
// first, then the rule it breaks (in -lang); a build without the mutants
// tag has none, and says how to get them.
func TestMutants_OneALineNameThenRule(t *testing.T) {
	ms := mutant.All()
	code, out, errOut := runCmd(command.Mutants, "")
	if len(ms) == 0 {
		if code != command.ExitBadInput || !strings.Contains(errOut, "go run -tags mutants") {
			t.Fatalf("a build without mutants: exit %d, stderr %q", code, errOut)
		}
		return
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if code != command.ExitPass || len(lines) != len(ms) {
		t.Fatalf("exit %d, %d lines for %d mutants:\n%s", code, len(lines), len(ms), out)
	}
	for i, m := range ms {
		name, rule, _ := strings.Cut(lines[i], " ")
		if name != m.Name || strings.TrimSpace(rule) != m.Breaks {
			t.Errorf("line %d = %q, want %s then %q", i+1, lines[i], m.Name, m.Breaks)
		}
	}
	_, ko, _ := runCmd(command.Mutants, "", "-lang", "ko")
	if !strings.Contains(ko, mutant.Rule("ko", ms[0].Name)) {
		t.Errorf("-lang ko does not word the rules in Korean:\n%s", ko)
	}
}

// A mutant this build does not have is bad input, said once.
func TestCheck_UnknownMutantIsBadInput(t *testing.T) {
	code, _, errOut := runCmd(command.Check, "", "-mutant", "no-such", "-library")
	if code != command.ExitBadInput || strings.Count(errOut, "no-such") != 1 {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}
