//go:build !js

package engine

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net/url"
	"sync"
	"testing"

	"github.com/leaselab/leaselab/engine/sqlitedb"
)

// textOnly is a driver connection that passes for one running SQL text
// itself (driverConn) but asks for every statement with arguments to be
// prepared (driver.ErrSkip), as a driver may: it wraps ncruces' go-sqlite3
// connection, which prepares through database/sql. The store runs on it
// through the driver's connection, preparing each statement itself.
type textOnly struct {
	driver.Conn // ncruces' connection: Prepare, Close, Begin
}

func (c textOnly) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	return c.Conn.(driver.ExecerContext).ExecContext(ctx, query, args) // ErrSkip with arguments
}

func (c textOnly) QueryContext(context.Context, string, []driver.NamedValue) (driver.Rows, error) {
	return nil, driver.ErrSkip
}

func (c textOnly) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	return c.Conn.(driver.ConnBeginTx).BeginTx(ctx, opts)
}

func (c textOnly) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	return c.Conn.(driver.ConnPrepareContext).PrepareContext(ctx, query)
}

// textOnlyConnector opens textOnly connections to the shared in-memory
// database name.
type textOnlyConnector struct {
	dsn string
	d   driver.Driver
}

func (c textOnlyConnector) Connect(context.Context) (driver.Conn, error) {
	conn, err := c.d.Open(c.dsn)
	if err != nil {
		return nil, err
	}
	return textOnly{conn}, nil
}

func (c textOnlyConnector) Driver() driver.Driver { return c.d }

// textOnlyDB opens a fresh in-memory database of textOnly connections,
// named after the test and name.
func textOnlyDB(t *testing.T, name string) *sql.DB {
	t.Helper()
	native, err := sqlitedb.Memory(t.Name() + "-native")
	if err != nil {
		t.Fatal(err)
	}
	d := native.Driver()
	native.Close()
	dsn := "file:/" + url.PathEscape(t.Name()+"-"+name) + "?vfs=memdb&_pragma=busy_timeout(10000)"
	db := sql.OpenDB(textOnlyConnector{dsn: dsn, d: d})
	t.Cleanup(func() { db.Close() })
	return db
}

// A store over a driver whose connections run SQL text goes through them
// (querier.go); over ncruces' go-sqlite3, which prepares through
// database/sql, it goes through database/sql.
func TestNew_RunsOnTheDriversConnectionOnlyWhenItRunsText(t *testing.T) {
	ctx := context.Background()
	native, err := sqlitedb.Memory(t.Name())
	if err != nil {
		t.Fatal(err)
	}
	defer native.Close()
	for _, tc := range []struct {
		name string
		db   *sql.DB
		want bool
	}{
		{"ncruces' go-sqlite3", native, false},
		{"a driver running SQL text", textOnlyDB(t, "text"), true},
	} {
		s, err := New(ctx, tc.db)
		if err != nil {
			t.Fatal(err)
		}
		if s.viaDriver != tc.want {
			t.Errorf("%s: viaDriver %v, want %v", tc.name, s.viaDriver, tc.want)
		}
	}
}

// Through the driver's connection, every operation keeps its contract —
// grants, refusals, the row read back, the jobs in order, the statements the
// observer sees, one winner of a concurrent claim — whether the driver runs
// a statement's text or asks for it to be prepared (driver.ErrSkip).
func TestDriverPath_OperationsKeepTheirContract(t *testing.T) {
	ctx := context.Background()
	for _, observed := range []bool{false, true} {
		var (
			mu   sync.Mutex
			seen []string
		)
		var opts []Option
		if observed {
			opts = append(opts, WithObserver(func(st Statement) {
				mu.Lock()
				seen = append(seen, st.SQL)
				mu.Unlock()
			}))
		}
		s, err := New(ctx, textOnlyDB(t, fmt.Sprint(observed)), opts...)
		if err != nil {
			t.Fatal(err)
		}
		if !s.viaDriver {
			t.Fatal("the store does not run on the driver's connection")
		}
		for _, id := range []string{"a", "b"} {
			if ok, err := s.Enqueue(ctx, NewJob{ID: id, Qty: 2, Deadline: 5000}); !ok || err != nil {
				t.Fatalf("Enqueue(%s) = %v, %v", id, ok, err)
			}
		}
		if ok, err := s.Enqueue(ctx, NewJob{ID: "a"}); ok || err != nil {
			t.Fatalf("Enqueue(a) again = %v, %v; want false, nil", ok, err)
		}
		a, err := s.Claim(ctx, "a", "A", 0, 1000)
		if err != nil || a.Token != 1 || a.LeaseUntil != 1000 || a.Qty != 2 {
			t.Fatalf("Claim = %+v, %v", a, err)
		}
		b, err := s.Claim(ctx, "a", "B", 1000, 1000)
		if err != nil || b.Token != 2 {
			t.Fatalf("Claim at the lease's end = %+v, %v", b, err)
		}
		if err := s.Complete(ctx, a, 1001, "late"); !errors.Is(err, ErrSuperseded) {
			t.Fatalf("stale Complete = %v, want ErrSuperseded", err)
		}
		if _, err := s.Renew(ctx, b, 1500, 1000); err != nil {
			t.Fatalf("Renew = %v", err)
		}
		if err := s.Complete(ctx, b, 1600, "ok"); err != nil {
			t.Fatalf("Complete = %v", err)
		}
		j, err := s.Get(ctx, "a")
		if err != nil || j == nil || j.Status != StatusDone || j.Result != "ok" || j.Token != 2 || j.Owner != "B" || j.Deadline != 5000 {
			t.Fatalf("Get(a) = %+v, %v", j, err)
		}
		if j, err := s.Get(ctx, "missing"); j != nil || err != nil {
			t.Fatalf("Get(missing) = %+v, %v", j, err)
		}
		n, err := s.ClaimNext(ctx, "C", 2000, 1000)
		if err != nil || n.JobID != "b" || n.Token != 1 {
			t.Fatalf("ClaimNext = %+v, %v", n, err)
		}
		if err := s.Release(ctx, n); err != nil {
			t.Fatalf("Release = %v", err)
		}
		tokens, err := s.ClaimMany(ctx, "b", []string{"D", "E", "F", "G"}, 3000, 1000)
		if err != nil {
			t.Fatal(err)
		}
		winners := 0
		for _, tok := range tokens {
			if tok != 0 {
				winners++
				if tok != 2 {
					t.Errorf("the winner's token %d, want 2", tok)
				}
			}
		}
		if winners != 1 {
			t.Errorf("ClaimMany tokens %v: %d winners", tokens, winners)
		}
		jobs, err := s.Jobs(ctx)
		if err != nil || len(jobs) != 2 || jobs[0].ID != "a" || jobs[1].ID != "b" || jobs[1].Token != 2 {
			t.Fatalf("Jobs = %+v, %v", jobs, err)
		}
		some, err := s.Inspect(ctx, "b")
		if err != nil || len(some) != 1 || some[0] != jobs[1] {
			t.Fatalf("Inspect(b) = %+v, %v; want %+v", some, err, jobs[1])
		}
		if observed && (len(seen) == 0 || seen[len(seen)-1] != "COMMIT") {
			t.Errorf("the observer saw %q", seen)
		}
	}
}
