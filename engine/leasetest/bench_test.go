package leasetest_test

import (
	"context"
	"database/sql"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/leasetest"
	"github.com/leaselab/leaselab/engine/sqlitedb"
	"github.com/leaselab/leaselab/engine/timeline"
)

var benchDB atomic.Int64

// storeQueue is a Store on a database of its own, closed with it.
type storeQueue struct {
	*engine.Store
	db *sql.DB
}

func (q storeQueue) Close() error { return q.db.Close() }

// newStore opens a Store on a fresh in-memory database.
func newStore(ctx context.Context) (storeQueue, error) {
	db, err := sqlitedb.Memory("leasetest-bench-" + strconv.FormatInt(benchDB.Add(1), 10))
	if err != nil {
		return storeQueue{}, err
	}
	s, err := engine.New(ctx, db)
	if err != nil {
		db.Close()
		return storeQueue{}, err
	}
	return storeQueue{s, db}, nil
}

// BenchmarkConformance is Run's work on leaselab's engine (every library
// timeline on a fresh in-memory database, then the random sequences and
// the concurrent rounds) once per iteration: what a user's go test pays
// for the suite.
func BenchmarkConformance(b *testing.B) {
	ctx := context.Background()
	var tls []*timeline.Timeline
	for _, name := range timeline.LibraryNames() {
		tl, err := timeline.LoadLibrary(name)
		if err != nil {
			b.Fatal(err)
		}
		tls = append(tls, tl)
	}
	newQueue := func() (leasetest.Queue, error) { return newStore(ctx) }
	for b.Loop() {
		for _, tl := range tls {
			q, err := newStore(ctx)
			if err != nil {
				b.Fatal(err)
			}
			d, err := leasetest.Timeline(ctx, tl, q)
			q.Close()
			if err != nil || d != nil {
				b.Fatal(d, err)
			}
		}
		if d, err := leasetest.Sequences(ctx, newQueue, leasetest.SequenceOptions{Seed: leasetest.Seed}); err != nil || d != nil {
			b.Fatal(d, err)
		}
		if res, err := leasetest.Concurrent(ctx, newQueue, leasetest.ConcurrentOptions{Seed: leasetest.Seed}); err != nil || res != nil {
			b.Fatal(res, err)
		}
	}
}
