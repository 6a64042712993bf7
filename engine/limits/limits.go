// Package limits is the one table of bounds on what a visitor can send: a
// timeline's text, its steps and jobs, the contenders of one concurrent
// claim and the instants it names, the length of a name (a job id, a
// worker) and of a result, and the size of one page of a job list. The
// timeline parser enforces the timeline's (an excess is a parse error at
// the line and column where it happens, naming the limit and its value,
// and nothing runs), the engine refuses a name or a result over its limit
// as an invalid argument, and every door — the CLI, the HTTP API, the
// page, the embeds, the Worker — uses the same table, so what runs in one
// runs in all.
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
	// NameBytes is the longest job id, worker or owner name, in bytes.
	NameBytes int `json:"name_bytes"`
	// ResultBytes is the longest result a complete stores, in bytes.
	ResultBytes int `json:"result_bytes"`
	// ListPage is how many jobs one page of a job list holds when the
	// request names no limit.
	ListPage int `json:"list_page"`
	// ListPageMax is the most jobs one page of a job list may ask for.
	ListPageMax int `json:"list_page_max"`
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
	// A name is a word or two in a lesson; a result, a line.
	NameBytes:   128,
	ResultBytes: 4096,
	// One job's JSON is at most about 26 KB (its id, owner and result at
	// their limits, every byte escaped as \u00XX), so a page at
	// ListPageMax is at most about 13 MB, and about 2.3 MB unescaped.
	ListPage:    100,
	ListPageMax: 500,
}

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
		{"name_bytes", int64(l.NameBytes), "bytes of a job id, worker or owner name"},
		{"result_bytes", int64(l.ResultBytes), "bytes of a job's result"},
		{"list_page", int64(l.ListPage), "jobs in one page of a job list when the request names no limit"},
		{"list_page_max", int64(l.ListPageMax), "jobs one page of a job list may ask for"},
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
