// Package cycle compares the engine's checked job cycle with goqite's
// message cycle, and with the floor (the same cycle as bare SQL, with no
// checks), on the same SQLite driver, DSN and database. It has test files
// only, so goqite stays a test-only dependency; make bench runs
// BenchmarkCycle and prints the ratios through engine/internal/bench/ratio.
package cycle

import (
	"context"
	"database/sql"
	"path/filepath"
	"slices"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"maragu.dev/goqite"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/sqlitedb"
)

// goqiteSchema is goqite v0.4.0's schema_sqlite.sql, verbatim: the module
// ships it as a file, not as Go, so the benchmark creates it itself.
const goqiteSchema = `create table goqite (
  id text primary key default ('m_' || lower(hex(randomblob(16)))),
  created text not null default (strftime('%Y-%m-%dT%H:%M:%fZ')),
  updated text not null default (strftime('%Y-%m-%dT%H:%M:%fZ')),
  queue text not null,
  body blob not null,
  timeout text not null default (strftime('%Y-%m-%dT%H:%M:%fZ')),
  received integer not null default 0,
  priority integer not null default 0
) strict;

create trigger goqite_updated_timestamp after update on goqite begin
  update goqite set updated = strftime('%Y-%m-%dT%H:%M:%fZ') where id = old.id;
end;

create index goqite_queue_priority_created_idx on goqite (queue, priority desc, created);`

// round is the least duration of one round: each round yields one rate per
// variant, and the reported figures are medians over rounds.
const round = 100 * time.Millisecond

// leaseTTL is long enough that no lease of the benchmark ends.
const leaseTTL = 30_000

// variant is one queue's full cycle; run performs cycle number i and fails
// tb unless every step had the expected outcome.
type variant struct {
	name string // reported as "<name>-cycles/s"
	run  func(tb testing.TB, i int)
}

// ratio is a reported metric: the median over rounds of the rate of the
// variant named num divided by the rate of the one named den.
type ratio struct {
	unit, num, den string
}

// ratios are BenchmarkCycle's ratios: the engine's cycles to goqite's
// (higher is better), and the floor's to the engine's claim by id, that is
// how many times the floor's time a cycle the engine takes (lower is
// better).
var ratios = []ratio{
	{"x-goqite", "leaselab", "goqite"},
	{"next-x-goqite", "leaselab-next", "goqite"},
	{"x-floor", "floor", "leaselab"},
}

// storages are the databases the cycles are compared on, each opened fresh.
var storages = []struct {
	name string
	open func(tb testing.TB) (*sql.DB, error)
}{
	{"memdb", func(testing.TB) (*sql.DB, error) {
		return sqlitedb.Memory("bench-" + strconv.FormatInt(memSeq.Add(1), 10))
	}},
	{"file", func(tb testing.TB) (*sql.DB, error) {
		return sqlitedb.Open(filepath.Join(tb.TempDir(), "bench.db"))
	}},
}

var memSeq atomic.Int64

// BenchmarkCycle compares, per storage, our checked enqueue -> claim ->
// complete cycle with goqite's send -> receive -> delete cycle and with the
// floor, all on one *sql.DB (same driver, same DSN, same database). Every
// iteration runs one cycle of each variant, the order rotating every
// iteration, so the machine's drift hits all of them alike. Metrics
// (medians over rounds):
//
//	leaselab-cycles/s       Enqueue, Claim by id, Complete
//	leaselab-next-cycles/s  Enqueue, ClaimNext, Complete
//	floor-cycles/s          the same three steps as bare SQL (floorCycle)
//	goqite-cycles/s         Send, Receive, Delete
//	x-goqite                leaselab / goqite, per round
//	next-x-goqite           leaselab-next / goqite, per round
//	x-floor                 floor / leaselab, per round
//
// ns/op is suppressed: one iteration is three cycles.
func BenchmarkCycle(b *testing.B) {
	for _, st := range storages {
		b.Run(st.name, func(b *testing.B) {
			db, err := st.open(b)
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { db.Close() })
			vs := append(leaselab(b, db), floorCycle(b, db), goqiteCycle(b, db))
			interleave(b, vs, ratios)
		})
	}
}

// leaselab returns the engine's two cycles on a store in db.
func leaselab(tb testing.TB, db *sql.DB) []variant {
	ctx := context.Background()
	s, err := engine.New(ctx, db)
	if err != nil {
		tb.Fatal(err)
	}
	enqueue := func(tb testing.TB, id string) {
		if ok, err := s.Enqueue(ctx, engine.NewJob{ID: id}); err != nil || !ok {
			tb.Fatalf("enqueue %s: %v, %v", id, ok, err)
		}
	}
	complete := func(tb testing.TB, l engine.Lease, now int64) {
		if err := s.Complete(ctx, l, now, "ok"); err != nil {
			tb.Fatalf("complete %s: %v", l.JobID, err)
		}
	}
	return []variant{
		{"leaselab", func(tb testing.TB, i int) {
			id, now := "id-"+strconv.Itoa(i), int64(i)
			enqueue(tb, id)
			l, err := s.Claim(ctx, id, "w", now, leaseTTL)
			if err != nil || l.Token != 1 {
				tb.Fatalf("claim %s: token %d, %v", id, l.Token, err)
			}
			complete(tb, l, now)
		}},
		{"leaselab-next", func(tb testing.TB, i int) {
			id, now := "next-"+strconv.Itoa(i), int64(i)
			enqueue(tb, id)
			l, err := s.ClaimNext(ctx, "w", now, leaseTTL)
			if err != nil || l.JobID != id || l.Token != 1 {
				tb.Fatalf("claim next: want %s#1, got %s#%d, %v", id, l.JobID, l.Token, err)
			}
			complete(tb, l, now)
		}},
	}
}

// floorSchema is the floor's table: the engine's job columns the cycle
// touches, without its constraints, indexes or other tables.
const floorSchema = `CREATE TABLE floor (
	id TEXT PRIMARY KEY NOT NULL,
	owner TEXT,
	lease_until INTEGER NOT NULL DEFAULT 0,
	token INTEGER NOT NULL DEFAULT 0,
	status TEXT NOT NULL DEFAULT 'pending',
	result TEXT
) WITHOUT ROWID`

// floorCycle creates the floor's table in db and returns its cycle: the
// engine's enqueue, claim by id and complete as one bare statement each,
// prepared once, each its own transaction, with no check of what they
// did; the least a cycle with a lease and a fencing token costs on this
// driver.
func floorCycle(tb testing.TB, db *sql.DB) variant {
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, floorSchema); err != nil {
		tb.Fatal(err)
	}
	var stmts [3]*sql.Stmt
	for k, q := range []string{
		`INSERT INTO floor (id) VALUES (?)`,
		`UPDATE floor SET owner = ?, lease_until = ?, token = token + 1, status = 'leased'
			WHERE id = ? AND status = 'pending'`,
		`UPDATE floor SET status = 'done', result = ?, owner = NULL
			WHERE id = ? AND token = ? AND status = 'leased' AND lease_until > ?`,
	} {
		st, err := db.PrepareContext(ctx, q)
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { st.Close() })
		stmts[k] = st
	}
	return variant{name: "floor", run: func(_ testing.TB, i int) {
		id, now := "floor-"+strconv.Itoa(i), int64(i)
		stmts[0].ExecContext(ctx, id)
		stmts[1].ExecContext(ctx, "w", now+leaseTTL, id)
		stmts[2].ExecContext(ctx, "ok", id, 1, now)
	}}
}

// goqiteCycle creates goqite's schema in db and returns its cycle.
func goqiteCycle(tb testing.TB, db *sql.DB) variant {
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, goqiteSchema); err != nil {
		tb.Fatal(err)
	}
	q := goqite.New(goqite.NewOpts{DB: db, Name: "bench"})
	body := []byte("yo")
	return variant{name: "goqite", run: func(tb testing.TB, _ int) {
		if err := q.Send(ctx, goqite.Message{Body: body}); err != nil {
			tb.Fatal(err)
		}
		m, err := q.Receive(ctx)
		if err != nil || m == nil {
			tb.Fatalf("receive: %v, %v", m, err)
		}
		if err := q.Delete(ctx, m.ID); err != nil {
			tb.Fatal(err)
		}
	}}
}

// interleave runs b.N iterations of one cycle of each variant, and
// reports each variant's median rate over rounds and each ratio's median
// over rounds.
func interleave(b *testing.B, vs []variant, rs []ratio) {
	var (
		spent  = make([]time.Duration, len(vs)) // per variant, this round
		n      int                              // cycles per variant, this round
		rates  = map[string][]float64{}         // per variant, per round
		opened = time.Now()
	)
	closeRound := func() {
		for k, v := range vs {
			rates[v.name] = append(rates[v.name], float64(n)/spent[k].Seconds())
			spent[k] = 0
		}
		n, opened = 0, time.Now()
	}
	b.ResetTimer()
	for i := range b.N {
		for j := range vs {
			k := (i + j) % len(vs)
			t := time.Now()
			vs[k].run(b, i)
			spent[k] += time.Since(t)
		}
		n++
		if time.Since(opened) >= round {
			closeRound()
		}
	}
	if n > 0 {
		closeRound()
	}
	b.StopTimer()
	for _, v := range vs {
		b.ReportMetric(median(rates[v.name]), v.name+"-cycles/s")
	}
	for _, r := range rs {
		num, den := rates[r.num], rates[r.den]
		if len(num) == 0 || len(den) == 0 {
			b.Fatalf("ratio %s: no variant %q or %q", r.unit, r.num, r.den)
		}
		per := make([]float64, len(den))
		for k := range den {
			per[k] = num[k] / den[k]
		}
		b.ReportMetric(median(per), r.unit)
	}
	b.ReportMetric(0, "ns/op")
}

// median of xs (not empty); xs is left as it was.
func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	m := len(s) / 2
	if len(s)%2 == 0 {
		return (s[m-1] + s[m]) / 2
	}
	return s[m]
}
