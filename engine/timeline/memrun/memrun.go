// Package memrun runs timelines on in-memory SQLite: each run on a new,
// empty database of its own (sqlitedb.Memory) that is closed when the run
// ends, so runs never see each other and may go on at once. Package
// timeline links no SQLite driver; a program or a test that wants a
// timeline's trace calls this package, natively and under GOOS=js alike.
package memrun

import (
	"context"
	"strconv"
	"sync/atomic"

	"github.com/leaselab/leaselab/engine/sqlitedb"
	"github.com/leaselab/leaselab/engine/timeline"
)

var seq atomic.Int64

// minConns is the pool a timeline without a concurrent claim runs on: the
// store's transaction and a reader beside it.
const minConns = 2

// Run plays tl on a new, empty in-memory database of its own and closes it
// afterwards. Its name never reaches the trace. The pool holds just enough
// connections for tl's widest concurrent claim (one per contender, and a
// reader beside them) and keeps them all open between steps, so a run opens
// few SQLite connections — each costs time, and memory in a browser.
func Run(ctx context.Context, tl *timeline.Timeline, opts timeline.Options) (*timeline.Trace, error) {
	db, err := sqlitedb.Memory("leaselab-timeline-" + strconv.FormatInt(seq.Add(1), 10))
	if err != nil {
		return nil, err
	}
	defer db.Close()
	n := poolSize(tl)
	db.SetMaxOpenConns(n)
	db.SetMaxIdleConns(n)
	return timeline.Run(ctx, db, tl, opts)
}

// poolSize is enough connections for the widest concurrent claim of tl and
// the runner's reads beside it, and no more.
func poolSize(tl *timeline.Timeline) int {
	n := minConns
	for _, s := range tl.Steps {
		n = max(n, len(s.Actors)+1)
	}
	return n
}

// RunSource parses src (named name in messages) and runs it with Run. A
// parse error matches timeline.ErrBadInput.
func RunSource(ctx context.Context, name, src string, opts timeline.Options) (*timeline.Trace, error) {
	tl, err := timeline.Parse(name, src)
	if err != nil {
		return nil, err
	}
	return Run(ctx, tl, opts)
}
