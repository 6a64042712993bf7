package cycle

import (
	"context"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/sqlitedb"
)

// BenchmarkFileJournal runs the engine's cycle (Enqueue, Claim, Complete)
// on a file database opened by sqlitedb.OpenWith, one goroutine, per
// journal: Open's default (rollback journal, synchronous=FULL), WAL with
// synchronous=NORMAL, and WAL with synchronous=FULL. It reports cycles/s;
// the figures behind sqlitedb.Options' advice.
func BenchmarkFileJournal(b *testing.B) {
	for _, v := range []struct {
		name string
		o    sqlitedb.Options
	}{
		{"default", sqlitedb.Options{}},
		{"wal", sqlitedb.Options{WAL: true}},
		{"wal-durable", sqlitedb.Options{WAL: true, Durable: true}},
	} {
		b.Run(v.name, func(b *testing.B) {
			db, err := sqlitedb.OpenWith(filepath.Join(b.TempDir(), "bench.db"), v.o)
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { db.Close() })
			ctx := context.Background()
			s, err := engine.New(ctx, db)
			if err != nil {
				b.Fatal(err)
			}
			i := 0
			for b.Loop() {
				i++
				id := "j" + strconv.Itoa(i)
				if ok, err := s.Enqueue(ctx, engine.NewJob{ID: id}); !ok || err != nil {
					b.Fatalf("enqueue: %v %v", ok, err)
				}
				l, err := s.Claim(ctx, id, "w", int64(i), leaseTTL)
				if err != nil {
					b.Fatal(err)
				}
				if err := s.Complete(ctx, l, int64(i), "ok"); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "cycles/s")
		})
	}
}
