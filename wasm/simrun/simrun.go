// Package simrun is what the browser simulator runs, one code path for the
// page's engine (wasm/sim, GOOS=js) and for the traces make wasm computes
// ahead of time (engine/internal/tracegen, native): a timeline's text in,
// its trace as JSON bytes out. The parity rule — the same timeline gives
// byte-identical bytes natively and in WebAssembly — is stated over this
// package's output (see wasm/parity).
package simrun

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"sync/atomic"

	"github.com/leaselab/leaselab/engine/sqlitedb"
	"github.com/leaselab/leaselab/engine/timeline"
)

// Options choose the engine and the language of a run; the zero value is the
// correct engine explained in English. See timeline.Options.
type Options = timeline.Options

// minConns is the pool size a timeline without a concurrent claim runs on:
// the store's transaction and a reader beside it.
const minConns = 2

var dbSeq atomic.Uint64

// TraceJSON parses text (named name in error messages) and runs it on a
// fresh in-memory SQLite database of its own, which is gone when it returns.
// It returns the trace in its one JSON form (timeline.Trace.Encode, the form
// the golden files hold). Bad text returns the parser's error (a
// timeline.ErrorList of line:col mistakes) and runs nothing.
func TraceJSON(ctx context.Context, name, text string, opts Options) ([]byte, error) {
	tl, err := timeline.Parse(name, text)
	if err != nil {
		return nil, err
	}
	db, err := sqlitedb.Memory(fmt.Sprintf("leaselab-sim-%d", dbSeq.Add(1)))
	if err != nil {
		return nil, err
	}
	defer db.Close()
	db.SetMaxOpenConns(poolSize(tl))
	return traceOn(ctx, db, tl, opts)
}

// poolSize is enough connections for the widest concurrent claim of tl
// (one per contender) and the runner's reads beside it, and no more.
func poolSize(tl *timeline.Timeline) int {
	n := minConns
	for _, s := range tl.Steps {
		if len(s.Actors)+1 > n {
			n = len(s.Actors) + 1
		}
	}
	return n
}

func traceOn(ctx context.Context, db *sql.DB, tl *timeline.Timeline, opts Options) ([]byte, error) {
	tr, err := timeline.Run(ctx, db, tl, opts)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := tr.Encode(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Entry is one library timeline: its file name, its title (its first
// comment line) and its text.
type Entry struct {
	Name, Title, Text string
}

// Library lists the timelines that come with leaselab
// (engine/timeline/library), in teaching order.
func Library() []Entry {
	var out []Entry
	for _, name := range timeline.LibraryNames() {
		text, err := timeline.LibrarySource(name)
		if err != nil {
			continue // LibraryNames lists only what LibrarySource reads
		}
		title := name
		if tl, err := timeline.Parse(name, text); err == nil && tl.Title != "" {
			title = tl.Title
		}
		out = append(out, Entry{Name: name, Title: title, Text: text})
	}
	return out
}
