package timeline

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine"
)

// The page asks at an unmarked step with an expectation (predict.js
// CHOICES) what the engine would offer were the step marked: the choices
// of every operation with an outcome, in the same order.
func TestPredict_ThePagesChoicesAreTheEngines(t *testing.T) {
	b, err := os.ReadFile("../../web/predict.js")
	if err != nil {
		t.Skipf("no web/predict.js beside the module: %v", err)
	}
	table := regexp.MustCompile(`(?s)export const CHOICES = \{(.*?)\n\};`).FindSubmatch(b)
	if table == nil {
		t.Fatal("web/predict.js holds no CHOICES table")
	}
	page := map[string][]string{}
	for _, m := range regexp.MustCompile(`(?m)^\s*(\w+): \[(.*)\],$`).FindAllStringSubmatch(string(table[1]), -1) {
		var choices []string
		for _, c := range strings.Split(m[2], ", ") {
			choices = append(choices, strings.Trim(c, "'"))
		}
		page[m[1]] = choices
	}
	ops := map[engine.Op]bool{}
	for op := range outcomesOf {
		ops[op] = true
	}
	for op := range refusalsOf {
		ops[op] = true
	}
	for op := range ops {
		want := prediction(op, "", StepOutcome{Kind: string(engine.OutcomeOK)}).Choices
		if got, ok := page[string(op)]; !ok || !slices.Equal(got, want) {
			t.Errorf("CHOICES.%s is %q, want the engine's %q", op, got, want)
		}
		delete(page, string(op))
	}
	for op := range page {
		t.Errorf("CHOICES.%s names no operation with an outcome", op)
	}
}
