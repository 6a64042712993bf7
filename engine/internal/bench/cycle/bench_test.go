// Package cycle compares the engine's checked job cycle with goqite's
// message cycle on the same SQLite driver, DSN and database. It has test
// files only, so goqite stays a test-only dependency; make bench runs
// BenchmarkCycle and prints the ratios through engine/internal/benchratio.
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
	name  string // reported as "<name>-cycles/s"
	ratio string // reported median ratio to the baseline; "" for the baseline
	run   func(tb testing.TB, i int)
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
// complete cycle with goqite's send -> receive -> delete cycle, both on one
// *sql.DB (same driver, same DSN, same database). Every iteration runs one
// cycle of each variant, the order rotating every iteration, so the
// machine's drift hits all of them alike. Metrics (medians over rounds):
//
//	leaselab-cycles/s       Enqueue, Claim by id, Complete
//	leaselab-next-cycles/s  Enqueue, ClaimNext, Complete
//	goqite-cycles/s         Send, Receive, Delete
//	x-goqite                leaselab / goqite, per round
//	next-x-goqite           leaselab-next / goqite, per round
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
			ours := leaselab(b, db)
			interleave(b, goqiteCycle(b, db), ours...)
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
		{"leaselab", "x-goqite", func(tb testing.TB, i int) {
			id, now := "id-"+strconv.Itoa(i), int64(i)
			enqueue(tb, id)
			l, err := s.Claim(ctx, id, "w", now, leaseTTL)
			if err != nil || l.Token != 1 {
				tb.Fatalf("claim %s: token %d, %v", id, l.Token, err)
			}
			complete(tb, l, now)
		}},
		{"leaselab-next", "next-x-goqite", func(tb testing.TB, i int) {
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

// interleave runs b.N iterations of one cycle of base and of each of ours,
// and reports each variant's median rate over rounds and, for each of
// ours, the median over rounds of its rate divided by base's.
func interleave(b *testing.B, base variant, ours ...variant) {
	vs := append(slices.Clip(ours), base)
	var (
		spent  = make([]time.Duration, len(vs)) // per variant, this round
		n      int                              // cycles per variant, this round
		rates  = make([][]float64, len(vs))     // per variant, per round
		opened = time.Now()
	)
	closeRound := func() {
		for k := range vs {
			rates[k] = append(rates[k], float64(n)/spent[k].Seconds())
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
	baseRates := rates[len(vs)-1]
	for k, v := range vs {
		b.ReportMetric(median(rates[k]), v.name+"-cycles/s")
		if v.ratio == "" {
			continue
		}
		ratios := make([]float64, len(baseRates))
		for r, br := range baseRates {
			ratios[r] = rates[k][r] / br
		}
		b.ReportMetric(median(ratios), v.ratio)
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
