// Package enginehook is how package leasetest reaches leaselab's engine on
// SQLite without linking SQLite: package enginetest, which links it, sets
// both functions when a program imports it; until then they are nil.
package enginehook

import (
	"context"
	"database/sql"

	"github.com/leaselab/leaselab/engine/timeline"
)

var (
	// Memory opens a new, empty in-memory database named name.
	Memory func(name string) (*sql.DB, error)
	// Run plays a timeline on a new, empty in-memory database of its own.
	Run func(ctx context.Context, tl *timeline.Timeline, opts timeline.Options) (*timeline.Trace, error)
)
