// Package limits is the one table of bounds on what a visitor can send: a
// timeline's text, its steps and jobs, the contenders of one concurrent
// claim and the instants it names. The timeline parser enforces them (an
// excess is a parse error at the line and column where it happens, naming
// the limit and its value, and nothing runs), and every door a timeline
// comes in by — the CLI, the HTTP API, the page, the embeds, the Worker —
// uses the same table, so a timeline that runs in one runs in all.
//
// Each default is far beyond what a lesson needs and small enough that a
// run at the limits finishes in about a second natively and in a couple of
// seconds in a browser.
package limits

import "fmt"

// Limits bounds one timeline.
type Limits struct {
	// TextBytes is the largest text, in bytes.
	TextBytes int `json:"text_bytes"`
	// Steps is the most step lines.
	Steps int `json:"steps"`
	// Jobs is the most jobs, declared and enqueued together.
	Jobs int `json:"jobs"`
	// Workers is the most distinct worker names.
	Workers int `json:"workers"`
	// Contenders is the most workers in one concurrent claim (each gets a
	// connection of its own).
	Contenders int `json:"contenders"`
	// MaxTime is the latest instant and the longest duration, in ms.
	MaxTime int64 `json:"max_time"`
}

// DefaultMaxTime is Default's max_time, a constant for the doors that
// need one (the HTTP API bounds a lease's ttl by it).
const DefaultMaxTime = 1_000_000_000 // 11.6 days of virtual time, in ms

// Default is the table every door uses.
var Default = Limits{
	TextBytes:  128 << 10, // a long lesson is 5 KB
	Steps:      2000,      // a long lesson has 40
	Jobs:       1000,
	Workers:    100,
	Contenders: 16,
	MaxTime:    DefaultMaxTime,
}

// PageBytes bounds the author's side, not the visitor's: the largest file
// of a built course site that leaselab prerender reads (a page, the text a
// src= names, a bundle's manifest). A larger page is skipped with a
// warning, left to the engine in the browser, and the rest of the site is
// prerendered; nothing reads a byte past the bound, whatever the file
// claims its size is.
const PageBytes = 8 << 20 // a long lesson's page is 100 KB

// PageRow is PageBytes as the documentation's tables list it, after Rows.
var PageRow = Row{"page_bytes", PageBytes, "bytes of one file of a built site that leaselab prerender reads"}

// Rows names each limit with its value, in the order the documentation
// lists them.
func (l Limits) Rows() []Row {
	return []Row{
		{"text_bytes", int64(l.TextBytes), "bytes of timeline text"},
		{"steps", int64(l.Steps), "step lines"},
		{"jobs", int64(l.Jobs), "jobs, declared and enqueued"},
		{"workers", int64(l.Workers), "distinct worker names"},
		{"contenders", int64(l.Contenders), "workers in one concurrent claim"},
		{"max_time", l.MaxTime, "ms: the latest instant and the longest duration"},
	}
}

// Row returns the limit called name (one of the names Rows gives); it
// panics on another name, which is a bug in the caller.
func (l Limits) Row(name string) Row {
	for _, r := range l.Rows() {
		if r.Name == name {
			return r
		}
	}
	panic("limits: no limit " + name)
}

// Row is one limit: its name, its value and what it counts.
type Row struct {
	Name  string
	Value int64
	Unit  string
}

// String is "name (value unit)", as messages quote it.
func (r Row) String() string { return fmt.Sprintf("%s (%d %s)", r.Name, r.Value, r.Unit) }
