// Package simrun is what the browser simulator runs, one code path for the
// page's engine (wasm/sim, GOOS=js) and for the traces make wasm computes
// ahead of time (engine/internal/build/tracegen, native): a timeline's text in,
// its trace as JSON bytes out. The parity rule — the same timeline gives
// byte-identical bytes natively and in WebAssembly — is stated over this
// package's output (see wasm/parity).
//
// It is the page's, not a library: public only because the browser's
// program outside engine/ imports it, it carries no compatibility promise
// and may change with the page in any release.
package simrun

import (
	"context"
	"errors"

	"github.com/leaselab/leaselab/engine/timeline"
	"github.com/leaselab/leaselab/engine/timeline/memrun"
)

// Options choose the engine and the language of a run; the zero value is the
// correct engine explained in English. See timeline.Options.
type Options = timeline.Options

// TraceJSON parses text (named name in error messages) and runs it on a
// fresh in-memory SQLite database of its own (memrun.Run), which is gone when
// it returns. It returns the trace in its one JSON form
// (timeline.Trace.Encode, the form the golden files hold). Bad text returns
// the parser's error (a timeline.ErrorList of line:col mistakes, in
// opts.Lang) and runs nothing.
func TraceJSON(ctx context.Context, name, text string, opts Options) ([]byte, error) {
	tl, err := timeline.Parse(name, text)
	var list timeline.ErrorList
	if errors.As(err, &list) && opts.Lang != "" {
		return nil, list.Localized(opts.Lang)
	}
	if err != nil {
		return nil, err
	}
	tr, err := memrun.Run(ctx, tl, opts)
	if err != nil {
		return nil, err
	}
	b, err := encode(ctx, tr)
	return []byte(b), err
}

// Entry is one library timeline: its file name, its title (its first
// comment line) and its text.
type Entry struct {
	Name  string `json:"name"`
	Title string `json:"title"`
	Text  string `json:"text"`
}

// Library lists the timelines that come with leaselab
// (engine/timeline/library), in teaching order; a timeline without a title
// is titled by its name. It parses none of them (timeline.Title): the
// engine lists the library as it starts, before its first run.
func Library() []Entry {
	var out []Entry
	for _, name := range timeline.LibraryNames() {
		text, err := timeline.LibrarySource(name)
		if err != nil {
			continue // LibraryNames lists only what LibrarySource reads
		}
		title := timeline.Title(text)
		if title == "" {
			title = name
		}
		out = append(out, Entry{Name: name, Title: title, Text: text})
	}
	return out
}
