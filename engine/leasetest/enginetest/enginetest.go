// Package enginetest is the part of the conformance suite (package
// leasetest) that runs leaselab's own engine, on in-memory SQLite: Engine
// gives the engine as a Queue, and Source, RunTimeline and RunTimelines
// hold a timeline's expectations on it before they compare a Queue with
// the reference model.
//
// Package leasetest links no SQLite, so a test that checks its own Queue
// with leasetest.Run builds none (compiling SQLite's translation takes
// minutes of a cold go test); import this package where a test needs the
// engine itself:
//
//	func TestMyTimelines(t *testing.T) {
//		enginetest.RunTimelines(t, "testdata", newMyQueue)
//	}
//
// leasetest's functions of the same names are these once this package is
// linked into the program.
package enginetest

import (
	"context"
	"testing"

	"github.com/leaselab/leaselab/engine/leasetest"
	"github.com/leaselab/leaselab/engine/leasetest/internal/enginehook"
	"github.com/leaselab/leaselab/engine/sqlitedb"
	"github.com/leaselab/leaselab/engine/timeline/memrun"
)

func init() {
	enginehook.Memory, enginehook.Run = sqlitedb.Memory, memrun.Run
}

// Engine returns leaselab's own engine as a Queue: a Store on a fresh
// in-memory SQLite database, closed when t ends. It is a leasetest.Reopener
// (engine.New again over the same database) and an io.Closer.
func Engine(t *testing.T) leasetest.Queue {
	t.Helper()
	return leasetest.Engine(t)
}

// Source checks one timeline's text, called name in messages: it must
// parse (else the errors are NAME:LINE:COL: ...), hold its expectations on
// leaselab's engine and break no invariant it does not announce (else
// NAME:LINE: expected X, got Y, or NAME:LINE: breaks INVARIANT: ...); then,
// when q is not nil, q must answer it as the reference model does
// (leasetest.Timeline's *Difference). Nil when all holds.
func Source(ctx context.Context, name, src string, q leasetest.Queue) []error {
	return leasetest.Source(ctx, name, src, q)
}

// RunTimeline reports, as errors of t, what Source finds in one
// timeline's text, called name in messages, played on a Queue from
// newQueue (none when newQueue is nil).
func RunTimeline(t *testing.T, name, src string, newQueue func(t *testing.T) leasetest.Queue) {
	t.Helper()
	leasetest.RunTimeline(t, name, src, newQueue)
}

// RunTimelines runs every .tl file of dir as a subtest named by the file
// (RunTimeline): each must parse and hold its expectations on leaselab's
// engine, and a Queue from newQueue, when it is not nil, must answer it as
// the reference model does. A failure is at the file's NAME:LINE, NAME as
// dir names it.
func RunTimelines(t *testing.T, dir string, newQueue func(t *testing.T) leasetest.Queue) {
	t.Helper()
	leasetest.RunTimelines(t, dir, newQueue)
}
