package engine_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/testkit/nativeonly"
)

// Package engine reaches the database only through database/sql: it links
// no SQLite driver, so the Cloudflare Worker (D1) build does not carry one.
func TestEngine_LinksNoSQLiteDriver(t *testing.T) {
	nativeonly.Test(t, "the go command")
	out, err := exec.Command("go", "list", "-deps", "github.com/leaselab/leaselab/engine").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 || !slices.Contains(deps, "database/sql") {
		t.Fatalf("go list -deps gave an implausible list: %q", deps)
	}
	for _, d := range deps {
		if strings.Contains(d, "sqlite") || strings.Contains(d, "ncruces") {
			t.Errorf("package engine links %s", d)
		}
	}
}
