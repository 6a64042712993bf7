// Package sqliteapi is the engine's HTTP API as the native server runs it:
// the queue in the SQLite database the caller opened (leaselab serve: a
// file, through engine/sqlitedb), and every timeline on a fresh in-memory
// database of its own that lives only for that run — a timeline enqueues
// and claims jobs of its own and must never touch the queue.
package sqliteapi

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/httpapi"
	"github.com/leaselab/leaselab/engine/limits"
	"github.com/leaselab/leaselab/engine/timeline"
	"github.com/leaselab/leaselab/engine/timeline/memrun"
)

// New opens the store on db (creating the schema if missing) and returns
// the API over it, running timelines with RunTimeline. opts come after
// that default, so they may change it.
func New(ctx context.Context, db *sql.DB, opts ...httpapi.Option) (*httpapi.Handler, error) {
	store, err := engine.New(ctx, db)
	if err != nil {
		return nil, err
	}
	return httpapi.New(store, append([]httpapi.Option{httpapi.WithTimeline(RunTimeline)}, opts...)...), nil
}

// TimelineName is the source name a timeline posted to the API runs under;
// error messages read "timeline:LINE:COL: …".
const TimelineName = "timeline"

// RunTimeline parses text and runs it on a fresh in-memory database of its
// own (package engine/timeline/memrun), returning the trace in the one
// encoding every consumer compares byte for byte (timeline.Trace.Encode).
// A mistake in the text wraps httpapi.ErrTimelineInput.
func RunTimeline(ctx context.Context, text string) ([]byte, error) {
	tr, err := memrun.RunSource(ctx, TimelineName, text, timeline.Options{})
	if errors.Is(err, timeline.ErrBadInput) { // a mistake, or a trace past the limit trace_bytes
		return nil, fmt.Errorf("%w: %w", httpapi.ErrTimelineInput, err)
	}
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := tr.EncodeContext(ctx, &b); errors.Is(err, limits.ErrExceeded) {
		return nil, fmt.Errorf("%w: %w", httpapi.ErrTimelineInput, err)
	} else if err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
