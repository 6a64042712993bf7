package engine_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine"
)

// TestObserver_SeesEveryStatementSQLiteRunsInOrder holds the store's
// statement plumbing (prepared once, reused in every transaction) to the
// observer's contract: the statements SQLite itself reports running are
// exactly the ones the observer saw, in the same order, with the same
// arguments — with transactions and without, on first use of each statement
// and on reuse. Transaction control (BEGIN IMMEDIATE, COMMIT, ROLLBACK) is
// run by database/sql's driver outside SQLite's statement trace, so it is
// compared as the observer's bracketing only.
func TestObserver_SeesEveryStatementSQLiteRunsInOrder(t *testing.T) {
	for _, mode := range []struct {
		name string
		opts []engine.Option
		tx   bool
	}{
		{"transactions", nil, true},
		{"without transactions", []engine.Option{engine.WithoutTransactions()}, false},
	} {
		t.Run(mode.name, func(t *testing.T) {
			ctx := context.Background()
			db := memDB(t)
			db.SetMaxOpenConns(1) // one connection, so one trace sees everything
			ran := traceStatements(t, db)
			var seen []engine.Statement
			s, err := engine.New(ctx, db, append(mode.opts, engine.WithObserver(func(st engine.Statement) {
				seen = append(seen, st)
			}))...)
			if err != nil {
				t.Fatal(err)
			}
			for round := range 2 { // round 0 prepares, round 1 reuses
				playObservedOps(t, s, fmt.Sprint("r", round))
			}

			var want []string
			var control int
			for _, st := range seen {
				switch st.SQL {
				case "BEGIN IMMEDIATE", "COMMIT", "ROLLBACK":
					control++
				default:
					want = append(want, expand(t, st))
				}
			}
			if got := *ran; !slices.Equal(got, want) {
				t.Fatalf("SQLite ran %d statements, the observer saw %d:\n%s",
					len(got), len(want), sideBySide(got, want))
			}
			if mode.tx != (control > 0) {
				t.Errorf("observer saw %d transaction statements; transactions on: %v", control, mode.tx)
			}
			if len(want) < 20 {
				t.Errorf("only %d statements ran: the operations did not run", len(want))
			}
		})
	}
}

// playObservedOps runs every kind of operation, accepted and refused, on
// jobs named with prefix, and checks each outcome.
func playObservedOps(t *testing.T, s *engine.Store, prefix string) {
	t.Helper()
	ctx := context.Background()
	a, b := prefix+"-a", prefix+"-b"
	mustBool := func(op string, got bool, err error, want bool) {
		t.Helper()
		if err != nil || got != want {
			t.Fatalf("%s = %v, %v; want %v", op, got, err, want)
		}
	}
	ok, err := s.Enqueue(ctx, engine.NewJob{ID: a, Qty: 2})
	mustBool("Enqueue(a)", ok, err, true)
	ok, err = s.Enqueue(ctx, engine.NewJob{ID: a})
	mustBool("Enqueue(a) again", ok, err, false)
	ok, err = s.Enqueue(ctx, engine.NewJob{ID: b, Deadline: 5000, MaxAttempts: 3})
	mustBool("Enqueue(b)", ok, err, true)
	if j, err := s.Get(ctx, a); err != nil || j == nil || j.Qty != 2 {
		t.Fatalf("Get(a) = %+v, %v", j, err)
	}
	la, err := s.Claim(ctx, a, "A", 0, 1000)
	if err != nil || la.Token != 1 {
		t.Fatalf("Claim(a, A) = %+v, %v", la, err)
	}
	if _, err := s.Claim(ctx, a, "B", 999, 1000); !errors.Is(err, engine.ErrHeld) {
		t.Fatalf("Claim(a, B) at 999 = %v; want held", err)
	}
	lb, err := s.Claim(ctx, a, "B", 1000, 1000)
	if err != nil || lb.Token != 2 {
		t.Fatalf("Claim(a, B) at 1000 = %+v, %v", lb, err)
	}
	if err := s.Complete(ctx, la, 1001, "late"); !errors.Is(err, engine.ErrSuperseded) {
		t.Fatalf("stale Complete = %v; want superseded", err)
	}
	if lb, err = s.Renew(ctx, lb, 1500, 1000); err != nil || lb.LeaseUntil != 2500 {
		t.Fatalf("Renew = %+v, %v", lb, err)
	}
	if err := s.Complete(ctx, lb, 2000, "ok"); err != nil {
		t.Fatalf("Complete = %v", err)
	}
	ln, err := s.ClaimNext(ctx, "C", 2000, 10_000)
	if err != nil || ln.JobID != b || ln.LeaseUntil != 5000 {
		t.Fatalf("ClaimNext = %+v, %v; want %s until its deadline", ln, err, b)
	}
	if err := s.Release(ctx, ln); err != nil {
		t.Fatalf("Release = %v", err)
	}
	if tokens, err := s.ClaimMany(ctx, b, []string{"D"}, 2000, 100); err != nil || !slices.Equal(tokens, []int64{2}) {
		t.Fatalf("ClaimMany = %v, %v", tokens, err)
	}
	if _, err := s.ClaimNext(ctx, "E", 5000, 100); !errors.Is(err, engine.ErrEmpty) {
		t.Fatalf("ClaimNext past the deadline = %v; want empty", err)
	}
}

// expand writes st's arguments into its text the way SQLite's expanded SQL
// does: integers in decimal, text quoted, nil as NULL.
func expand(t *testing.T, st engine.Statement) string {
	t.Helper()
	parts := strings.Split(st.SQL, "?")
	if len(parts)-1 != len(st.Args) {
		t.Fatalf("%d placeholders, %d arguments: %q %v", len(parts)-1, len(st.Args), st.SQL, st.Args)
	}
	var b strings.Builder
	for i, a := range st.Args {
		b.WriteString(parts[i])
		switch a := a.(type) {
		case nil:
			b.WriteString("NULL")
		case string:
			b.WriteString("'" + strings.ReplaceAll(a, "'", "''") + "'")
		case int64:
			fmt.Fprint(&b, a)
		default:
			t.Fatalf("argument %d of %q has type %T", i, st.SQL, a)
		}
	}
	b.WriteString(parts[len(parts)-1])
	return b.String()
}

func sideBySide(got, want []string) string {
	var b strings.Builder
	for i := range max(len(got), len(want)) {
		g, w := "-", "-"
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		mark := "  "
		if g != w {
			mark = "!="
		}
		fmt.Fprintf(&b, "%s ran:  %s\n   saw:  %s\n", mark, g, w)
	}
	return b.String()
}

// traceStatements records, through SQLite's own statement trace on the
// pool's one connection (traceConn, one per driver), the expanded text of
// every prepared statement that runs on it.
func traceStatements(t *testing.T, db *sql.DB) *[]string {
	t.Helper()
	var ran []string
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	err = conn.Raw(func(dc any) error {
		return traceConn(dc, func(sql string) { ran = append(ran, sql) })
	})
	if err != nil {
		t.Fatal(err)
	}
	return &ran
}
