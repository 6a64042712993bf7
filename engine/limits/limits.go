// Package limits is the one table of bounds on what a caller can send
// leaselab and on what leaselab sends back, so that every door — the CLI,
// the HTTP API, the page, the embeds, the Worker — runs the same inputs.
//
// What it bounds: a timeline's text, its steps and jobs, its workers, the
// contenders of one concurrent claim and the latest instant it names; the
// length of a name (a job id, a worker) and of a result; one page of a job
// list; a lease lab (leaselab lab, a sweep of lease policies run on the
// engine): its text, points, runs, work and engine calls; and the bytes of each answer
// made from a timeline (a trace, a transcript, a check table, an exported
// Go test, the two traces the page shows side by side, an explorer's
// report).
//
// How each bound is held: the timeline parser refuses a text over one (a
// parse error at the line and column where the text goes over, naming the
// limit and its value, and nothing runs); package engine refuses a name or a
// result over its limit as an invalid argument; an answer is counted while
// it is produced (Buffer), and an excess stops the work there with an
// *ExceededError naming the limit (errors.Is ErrExceeded), never after the
// whole answer was built. A caller that needs other bounds passes its own
// Limits (timeline.ParseLimits).
//
// Each default is far beyond what a hand-written timeline needs and small
// enough that a run at the limits finishes in about a second natively and
// in a couple of seconds in a browser.
package limits

import (
	"errors"
	"fmt"
)

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
	// NameBytes is the longest job id, worker or owner name, in bytes. A
	// name is repeated in every step that touches its job, so it bounds
	// what one step of a trace can weigh.
	NameBytes int `json:"name_bytes"`
	// ResultBytes is the longest result a complete stores, in bytes.
	ResultBytes int `json:"result_bytes"`
	// ListPage is how many jobs one page of a job list holds when the
	// request names no limit.
	ListPage int `json:"list_page"`
	// ListPageMax is the most jobs one page of a job list may ask for.
	ListPageMax int `json:"list_page_max"`
	// TraceBytes is the largest trace, in bytes of its JSON (what
	// Trace.Encode writes); each of the two traces a worksheet (the page's
	// side-by-side comparison) shows is held to it.
	TraceBytes int `json:"trace_bytes"`
	// ReportBytes is the largest text answer made from a timeline besides
	// its trace: a transcript, a check table, an exported Go test, an
	// explorer's report.
	ReportBytes int `json:"report_bytes"`
	// LabPoints is the most points, of policies and workloads, one lab
	// sweeps (the product of its sweeps' lengths).
	LabPoints int `json:"lab_points"`
	// LabRuns is the most seeded runs of one point.
	LabRuns int `json:"lab_runs"`
	// LabWork is the most job-runs of one lab: points times runs times
	// jobs, the work a lab asks of the engine.
	LabWork int `json:"lab_work"`
	// LabOps is the most engine calls one run of a lab may make; a run
	// that needs more stops the lab with an *ExceededError.
	LabOps int `json:"lab_ops"`
	// LabCalls is the most engine calls of one lab, all its runs
	// together: the time it takes. A lab estimated over it (points times
	// runs times the calls a run makes working each job once, a renew
	// every heartbeat of its work) is refused before it runs; one whose
	// runs make more calls than estimated (a livelock claims a job again
	// and again) stops with an *ExceededError when their count passes it.
	LabCalls int `json:"lab_calls"`
	// HistoryCalls is the most calls of one concurrent history that
	// package engine/history reads or checks (leaselab history).
	HistoryCalls int `json:"history_calls"`
}

// DefaultMaxTime is Default's max_time, a constant for the doors that
// need one (the HTTP API bounds a lease's ttl by it).
const DefaultMaxTime = 1_000_000_000 // 11.6 days of virtual time, in ms

// Default is the table every door uses.
var Default = Limits{
	TextBytes:  128 << 10, // a long timeline is 5 KB
	Steps:      2000,      // a long timeline has 40
	Jobs:       1000,
	Workers:    100,
	Contenders: 16,
	MaxTime:    DefaultMaxTime,
	// A name is a word or two in a timeline; a result, a line.
	NameBytes:   128,
	ResultBytes: 4096,
	// One job's JSON is at most about 26 KB (its id, owner and result at
	// their limits, every byte escaped as \u00XX), so a page at
	// ListPageMax is at most about 13 MB, and about 2.3 MB unescaped.
	ListPage:    100,
	ListPageMax: 500,
	// A 2,000-step timeline that names a job of NameBytes in every step
	// traces to 9.1 MB; a long hand-written timeline's trace is 40 KB.
	TraceBytes:  16 << 20,
	ReportBytes: 4 << 20,
	// A lab of 20 points of 50 runs of 20 jobs (20,000 job-runs) takes
	// about a second natively; a run of 20 jobs makes about 90 calls, and
	// its fresh database takes as long as 50 more. LabCalls is about six
	// such labs (159,000 calls as it counts them), more than the largest
	// one lab_work admits at their pace: about 10 s natively.
	LabPoints: 100,
	LabRuns:   1000,
	LabWork:   100_000,
	LabOps:    20_000,
	LabCalls:  1_000_000,
	// A concurrent round of the conformance suite records about 40 calls;
	// a checked history of 10,000 calls holds at most about 45 MB.
	HistoryCalls: 10_000,
}

// PageBytes bounds the author's side, not the visitor's: the largest file
// of a built site that leaselab prerender reads (a page, the text a
// src= names, a bundle's manifest). A larger page is skipped with a
// warning, left to the engine in the browser, and the rest of the site is
// prerendered; nothing reads a byte past the bound, whatever the file
// claims its size is.
const PageBytes = 8 << 20 // a long page with timelines is 100 KB

// PageRow is PageBytes as the documentation's tables list it, after Rows.
var PageRow = Row{"page_bytes", PageBytes, "bytes of one file of a built site that leaselab prerender reads"}

// PrerenderFenceBytes and PrerenderPageBytes are a site's build-time
// budget: what computing its pages' answers ahead of time (leaselab
// prerender, the npm package's plugins, the Sphinx extension) may cost.
// An answer is a timeline's trace in one language (a worksheet's two
// traces together) or a lab's result with its plot; its bytes are what
// it costs to compute and to hold, and what its page downloads. Each
// answer is held to PrerenderFenceBytes as it is made (the run stops at
// the step that passes it), and all of one page's answers together to
// PrerenderPageBytes, so a build's time and memory grow with its pages,
// never with one fence. The answer that would pass either is refused,
// naming its page, its place and the limit: nothing of it is written.
const (
	PrerenderFenceBytes = 4 << 20  // a long hand-written timeline's trace is 40 KB
	PrerenderPageBytes  = 16 << 20 // a page of ten such timelines in two languages is 800 KB
)

// PrerenderRows are the build-time budget as the documentation's tables
// list it, after PageRow.
var PrerenderRows = []Row{
	{"prerender_fence_bytes", PrerenderFenceBytes, "bytes of one answer a site's build prerenders: a timeline's trace in one language (a worksheet's two), a lab's result and plot"},
	{"prerender_page_bytes", PrerenderPageBytes, "bytes of all the answers one page's fences and elements prerender together"},
}

// Grading bounds one run of leaselab grade over a student's program: how
// long one answer and the whole run may take, the bytes the program may
// write, and how much the run asks of it. The time limits make a
// program that hangs a verdict, never a grader that hangs; the byte
// limits keep what the grader holds of the program's output small
// whatever it writes; the counts keep a run of a correct implementation
// within seconds. A course may change the times and counts for a run
// (leaselab grade's flags); the bytes are fixed.
type Grading struct {
	// CallMs is the longest one answer may take, in ms (a program's start,
	// up to its ready line, gets StartMs).
	CallMs, StartMs int64
	// TotalMs is the longest a whole run may take, in ms.
	TotalMs int64
	// LineBytes is the longest line the program may write on standard
	// output: a longer one is a broken protocol, named so.
	LineBytes int
	// LogBytes is how much of the end of the program's standard error
	// the grader keeps, to show when the program breaks.
	LogBytes int
	// Sequences is how many random call sequences the search tries, and
	// SequenceCalls the most calls in one.
	Sequences, SequenceCalls int
	// Rounds is how many rounds each race runs.
	Rounds int
	// LinkRunBytes is the most bytes of the student's run a report's
	// simulator link carries (its impl= parameter), or of a race's
	// history (history=), as it travels and as its text once inflated: a
	// longer one is left out of the link, and the page refuses a
	// parameter over it.
	LinkRunBytes int
	// MemoryBytes, FileBytes and Processes bound each program of a
	// student's as the kernel counts them: its address space, the size of
	// one file it writes, and (run as a user of its own) the processes and
	// threads of that user. DiskBytes bounds all the files of its
	// directory: the grader stops the program past it.
	MemoryBytes, FileBytes, DiskBytes int64
	Processes                         int
	// StopMs is how long the grader takes, once told to stop (SIGTERM or
	// SIGINT), to end the student's programs and write its report.
	StopMs int64
}

// DefaultGrading is the table leaselab grade uses unless a run says
// otherwise.
var DefaultGrading = Grading{
	CallMs:  5_000, // a student's call takes a few ms; a Python start 50
	StartMs: 10_000,
	TotalMs: 120_000, // a correct fencing lab grades in about 4 s
	// One answer is a line of JSON: a row's dict, a list of fences.
	LineBytes:     1 << 20,
	LogBytes:      4096,
	Sequences:     120,
	SequenceCalls: 30,
	Rounds:        50,
	// A run of a lab's step to its difference is about 1 KB in a link.
	LinkRunBytes: 64 << 10,
	// Python with claim_many's threads maps about 300 MB; a lab's
	// database files are a few KB each.
	MemoryBytes: 2 << 30,
	FileBytes:   64 << 20,
	DiskBytes:   256 << 20,
	Processes:   256,
	StopMs:      5_000,
}

// Rows names each grading limit with its value, in the order the
// documentation lists them, after Limits' rows and PageRow.
func (g Grading) Rows() []Row {
	return []Row{
		{"grade_call_ms", g.CallMs, "ms one answer of a student's program may take"},
		{"grade_start_ms", g.StartMs, "ms a student's program may take to start and say it is ready"},
		{"grade_total_ms", g.TotalMs, "ms a whole grading run may take"},
		{"grade_line_bytes", int64(g.LineBytes), "bytes of one line a student's program writes on standard output"},
		{"grade_log_bytes", int64(g.LogBytes), "bytes of the end of a student's standard error the report shows"},
		{"grade_sequences", int64(g.Sequences), "random call sequences a grading run's search tries"},
		{"grade_sequence_calls", int64(g.SequenceCalls), "calls in one random sequence"},
		{"grade_rounds", int64(g.Rounds), "rounds of each race (two processes, claim_many's threads)"},
		{"grade_link_run_bytes", int64(g.LinkRunBytes), "bytes of the student's run (impl=) or a race's history (history=) a report's simulator link carries, encoded and inflated"},
		{"grade_memory_bytes", g.MemoryBytes, "bytes of address space of each of a student's processes"},
		{"grade_file_bytes", g.FileBytes, "bytes of one file a student's process writes"},
		{"grade_disk_bytes", g.DiskBytes, "bytes of all the files in a student's directory"},
		{"grade_processes", int64(g.Processes), "processes and threads of a student run as a user of its own"},
		{"grade_stop_ms", g.StopMs, "ms from SIGTERM or SIGINT to the grader's exit, its report written"},
	}
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
		{"result_bytes", int64(l.ResultBytes), "bytes of a job's result or a stored value"},
		{"list_page", int64(l.ListPage), "jobs in one page of a job list when the request names no limit"},
		{"list_page_max", int64(l.ListPageMax), "jobs one page of a job list may ask for"},
		{"trace_bytes", int64(l.TraceBytes), "bytes of a trace's JSON, each of a worksheet's two"},
		{"report_bytes", int64(l.ReportBytes), "bytes of a transcript, check table, Go test or explorer report"},
		{"lab_points", int64(l.LabPoints), "points one lab sweeps"},
		{"lab_runs", int64(l.LabRuns), "seeded runs of one point"},
		{"lab_work", int64(l.LabWork), "job-runs of one lab: points times runs times jobs"},
		{"lab_ops", int64(l.LabOps), "engine calls of one run of a lab"},
		{"lab_calls", int64(l.LabCalls), "engine calls of one lab, all its runs: estimated before it runs, counted as it runs"},
		{"history_calls", int64(l.HistoryCalls), "calls of one concurrent history that leaselab history checks"},
	}
}

// Row returns the limit called name (one of the names Rows gives); it
// panics on another name, which is a bug in the caller.
func (l Limits) Row(name string) Row { return rowNamed(l.Rows(), name) }

// Row returns the grading limit called name, as Limits.Row does.
func (g Grading) Row(name string) Row { return rowNamed(g.Rows(), name) }

func rowNamed(rows []Row, name string) Row {
	for _, r := range rows {
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

// ErrExceeded is what every *ExceededError matches with errors.Is.
var ErrExceeded = errors.New("limits: an answer passed its limit")

// ExceededError is an answer that grew past its limit while it was being
// produced: the work stopped there, and nothing of the answer is given.
type ExceededError struct {
	Limit Row    // the limit passed
	What  string // what passed it, e.g. "the trace"
}

// Error names what passed which limit.
func (e *ExceededError) Error() string {
	return fmt.Sprintf("%s passes the limit %s; nothing of it is given", e.What, e.Limit)
}

// Is makes errors.Is(err, ErrExceeded) true.
func (e *ExceededError) Is(target error) bool { return target == ErrExceeded }

// Buffer collects an answer of at most Max bytes. A Write that would take
// it past Max writes nothing and returns an *ExceededError for Limit (and
// so does every Write after it), so a producer that stops at its first
// write error stops as soon as its answer is too large, holding at most Max
// bytes.
type Buffer struct {
	Limit Row    // the limit; its Value is the most bytes the buffer takes
	What  string // what is being produced, for the error
	b     []byte
	err   error
}

// NewBuffer is a Buffer for the limit row and the answer what.
func NewBuffer(row Row, what string) *Buffer { return &Buffer{Limit: row, What: what} }

// Write appends p, or fails as Buffer says.
func (b *Buffer) Write(p []byte) (int, error) {
	if !b.room(len(p)) {
		return 0, b.err
	}
	b.b = append(b.b, p...)
	return len(p), nil
}

// WriteString is Write of a string.
func (b *Buffer) WriteString(s string) (int, error) {
	if !b.room(len(s)) {
		return 0, b.err
	}
	b.b = append(b.b, s...)
	return len(s), nil
}

// room reports whether n more bytes stay within the limit, and records the
// excess when they do not.
func (b *Buffer) room(n int) bool {
	if b.err == nil && int64(len(b.b))+int64(n) > b.Limit.Value {
		b.err = &ExceededError{Limit: b.Limit, What: b.What}
	}
	return b.err == nil
}

// Err is the first Write's error, nil while the answer is within its limit.
func (b *Buffer) Err() error { return b.err }

// Bytes is what was written; nil once the limit was passed.
func (b *Buffer) Bytes() []byte {
	if b.err != nil {
		return nil
	}
	return b.b
}
