package leasetest_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/testkit/nativeonly"
)

// A test of a Queue against the model builds no SQLite: package leasetest
// links no SQLite driver (compiling SQLite's translation is minutes of a
// cold go test). Its engine on SQLite is package enginetest's.
func TestLeasetest_LinksNoSQLite(t *testing.T) {
	nativeonly.Test(t, "the go command")
	out, err := exec.Command("go", "list", "-deps", "github.com/leaselab/leaselab/engine/leasetest").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "github.com/leaselab/leaselab/engine/model") || !slices.Contains(deps, "testing") {
		t.Fatalf("go list -deps gave an implausible list: %q", deps)
	}
	for _, d := range deps {
		if strings.Contains(d, "ncruces") || strings.Contains(d, "sqlite") {
			t.Errorf("package leasetest links %s", d)
		}
	}
}
