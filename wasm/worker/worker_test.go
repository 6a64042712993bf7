//go:build !js

package main

import (
	"context"
	"database/sql"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/httpapi"
	"github.com/leaselab/leaselab/engine/sqlitedb"
)

// goTool is the go command of the toolchain running the test.
func goTool(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("go")
	if err != nil {
		t.Fatal("no go command:", err)
	}
	return p
}

// The Worker's build links the D1 driver and the engine, and no SQLite:
// D1 is the only database it has.
func TestWorker_LinksD1AndNoSQLite(t *testing.T) {
	cmd := exec.Command(goTool(t), "list", "-deps", ".")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	for _, need := range []string{
		"github.com/syumai/workers/cloudflare/d1",
		"github.com/leaselab/leaselab/engine",
		"github.com/leaselab/leaselab/engine/httpapi",
		"database/sql",
	} {
		if !slices.Contains(deps, need) {
			t.Errorf("the Worker does not link %s", need)
		}
	}
	for _, d := range deps {
		if strings.Contains(d, "ncruces") || strings.Contains(strings.ToLower(d), "sqlite") {
			t.Errorf("the Worker links %s", d)
		}
	}
}

// schemaOf lists the database's tables and indexes with their SQL, each
// run of whitespace made one space.
func schemaOf(t *testing.T, db *sql.DB) []string {
	t.Helper()
	rows, err := db.Query(`SELECT type, name, tbl_name, sql FROM sqlite_master
WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var typ, name, tbl, text string
		if err := rows.Scan(&typ, &name, &tbl, &text); err != nil {
			t.Fatal(err)
		}
		out = append(out, typ+" "+name+" on "+tbl+": "+strings.Join(strings.Fields(text), " "))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// The D1 migration creates exactly the schema engine.New creates.
func TestMigration_IsTheEngineSchema(t *testing.T) {
	ctx := context.Background()
	fromEngine, err := sqlitedb.Memory(strings.ReplaceAll(t.Name(), "/", "_") + "-engine")
	if err != nil {
		t.Fatal(err)
	}
	defer fromEngine.Close()
	if _, err := engine.New(ctx, fromEngine); err != nil {
		t.Fatal(err)
	}
	migrated, err := sqlitedb.Memory(strings.ReplaceAll(t.Name(), "/", "_") + "-migration")
	if err != nil {
		t.Fatal(err)
	}
	defer migrated.Close()
	files, err := filepath.Glob(filepath.Join("migrations", "*.sql"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no migrations: %v", err)
	}
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := migrated.ExecContext(ctx, string(text)); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
	want, got := schemaOf(t, fromEngine), schemaOf(t, migrated)
	if len(want) == 0 || !slices.Equal(got, want) {
		t.Fatalf("the migrations create\n%s\nengine.New creates\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// The Worker reads every time on its own clock unless told otherwise:
// LEASELAB_CLOCK unset is the server mode, and wrangler.toml ships it.
func TestClockMode_ServerUnlessSetToClient(t *testing.T) {
	for _, tc := range []struct {
		setting string
		want    httpapi.ClockMode
		err     bool
	}{
		{"", httpapi.ServerClock, false},
		{"server", httpapi.ServerClock, false},
		{"client", httpapi.ClientClock, false},
		{"Client", "", true},
	} {
		got, err := clockMode(tc.setting)
		if got != tc.want || (err != nil) != tc.err {
			t.Errorf("clockMode(%q) = %q, %v; want %q, error %v", tc.setting, got, err, tc.want, tc.err)
		}
	}
	toml, err := os.ReadFile("wrangler.toml")
	if err != nil {
		t.Fatal(err)
	}
	var vars []string
	for _, line := range strings.Split(string(toml), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "LEASELAB_CLOCK") {
			vars = append(vars, strings.Join(strings.Fields(line), " "))
		}
	}
	if !slices.Equal(vars, []string{`LEASELAB_CLOCK = "server"`}) {
		t.Fatalf("wrangler.toml sets %q, want LEASELAB_CLOCK = \"server\" once", vars)
	}
}
