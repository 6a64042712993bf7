//go:build js && wasm

package main

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"syscall/js"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/sqlitedb"
)

// benchTTL is long enough that no lease of the benchmark ends.
const benchTTL = 30_000

// benchStore is the one store every benchCycles call runs on, opened on the
// first call (the page's timelines never see it). Calls run one at a time.
var benchStore struct {
	sync.Mutex
	s    *engine.Store
	next int64 // the next cycle's number: its job id and its now
}

// benchCycles is leaselab.benchCycles(n): n bare enqueue -> claim by id ->
// complete cycles through the engine on an in-memory SQLite database (memdb)
// of its own, the cycle the browser benchmark (make bench) times against
// the official SQLite WebAssembly build. It returns a Promise of the number
// of cycles done (n), and rejects on the first cycle whose claim does not
// get token 1 or whose complete is refused. Job ids and times go on from
// one call to the next; overlapping calls run one after the other.
func benchCycles(_ js.Value, args []js.Value) any {
	if len(args) == 0 || args[0].Type() != js.TypeNumber || args[0].Int() < 0 {
		return rejected(errors.New("leaselab.benchCycles: the argument must be a count of cycles >= 0"))
	}
	n := args[0].Int()
	return promise(func() (any, error) {
		ctx := context.Background()
		benchStore.Lock()
		defer benchStore.Unlock()
		if benchStore.s == nil {
			db, err := sqlitedb.Memory("leaselab-bench")
			if err != nil {
				return nil, err
			}
			s, err := engine.New(ctx, db)
			if err != nil {
				db.Close()
				return nil, err
			}
			benchStore.s = s
		}
		s := benchStore.s
		for range n {
			i := benchStore.next
			benchStore.next++
			id := fmt.Sprintf("bench-%d", i)
			if ok, err := s.Enqueue(ctx, engine.NewJob{ID: id}); err != nil || !ok {
				return nil, fmt.Errorf("benchCycles: enqueue %s: %v, %v", id, ok, err)
			}
			l, err := s.Claim(ctx, id, "w", i, benchTTL)
			if err != nil || l.Token != 1 {
				return nil, fmt.Errorf("benchCycles: claim %s: token %d, %v", id, l.Token, err)
			}
			if err := s.Complete(ctx, l, i, "ok"); err != nil {
				return nil, fmt.Errorf("benchCycles: complete %s: %w", id, err)
			}
		}
		return n, nil
	})
}
