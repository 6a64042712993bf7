// Package memrun runs timelines on fresh in-memory SQLite databases
// (engine/sqlitedb's memdb): the native home of package timeline, which
// links no SQLite driver itself.
package memrun

import (
	"context"
	"strconv"
	"sync/atomic"

	"github.com/leaselab/leaselab/engine/sqlitedb"
	"github.com/leaselab/leaselab/engine/timeline"
)

var seq atomic.Int64

// Run plays tl on a new, empty in-memory database of its own and closes it
// afterwards. Its name never reaches the trace.
func Run(ctx context.Context, tl *timeline.Timeline, opts timeline.Options) (*timeline.Trace, error) {
	db, err := sqlitedb.Memory("leaselab-timeline-" + strconv.FormatInt(seq.Add(1), 10))
	if err != nil {
		return nil, err
	}
	defer db.Close()
	return timeline.Run(ctx, db, tl, opts)
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
