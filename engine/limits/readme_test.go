package limits_test

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/limits"
)

// The README states the limits as the table holds them.
func TestREADME_StatesEveryLimit(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Skipf("no README beside the module: %v", err)
	}
	for _, r := range limits.Default.Rows() {
		row := "| `" + r.Name + "` | " + strconv.FormatInt(r.Value, 10) + " |"
		if !strings.Contains(string(b), row) {
			t.Errorf("the README lacks the row %q", row)
		}
	}
}

// The author's guide (web/guide.html) states the limits as the table holds
// them.
func TestGuide_StatesEveryLimit(t *testing.T) {
	b, err := os.ReadFile("../../web/guide.html")
	if err != nil {
		t.Skipf("no guide beside the module: %v", err)
	}
	for _, r := range limits.Default.Rows() {
		row := "<tr><td><code>" + r.Name + "</code></td><td>" + strconv.FormatInt(r.Value, 10) + "</td>"
		if !strings.Contains(string(b), row) {
			t.Errorf("the guide lacks the row %q", row)
		}
	}
}
