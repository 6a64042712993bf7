package timeline

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/leaselab/leaselab/engine/limits"
)

// Trace's JSON is written here by hand, field by field, in the bytes
// encoding/json gives the same value through an Encoder with
// SetEscapeHTML(false) and SetIndent("", "  "): the struct tags' names in
// field order, omitempty where a tag says it, null for a nil slice or
// pointer, [] and {} for empty ones, and strings escaped as encoding/json
// escapes them. The tests hold the two byte for byte (every library
// timeline, every mutant, both languages, and fuzzed timelines).
//
// Why not encoding/json itself: its reflection (field caches, omitempty
// checks) and its indent pass over the whole output were most of a run's
// encoding time. Written by hand, a WebAssembly run of the library's
// timelines is a fifth faster (Node, 594 against 496 runs a second).

// jsonWriter appends indented JSON to b. Every container begun is ended;
// fresh[i] is true while the i-th open container has no member yet. Its
// begin, end, next and key stay out of line: inlined into every writer
// they made the WebAssembly module 107 KB larger and no run faster.
type jsonWriter struct {
	b     []byte
	fresh []bool
	err   error // the first argument encoding/json could not write, the limit passed or ctx's end

	// max, when above 0, is the most bytes b may hold: once past it, the
	// writer stops at the next element of a list and err is over. ctx,
	// when not nil, is checked at every element of a list too.
	max  int
	over error
	ctx  context.Context
}

// stopped reports whether the writer has stopped: it met an error, b has
// grown past max, or ctx has ended. Lists ask it before each element, so
// an answer too large or no longer wanted stops being written within one
// element.
func (w *jsonWriter) stopped() bool {
	switch {
	case w.err != nil:
	case w.max > 0 && len(w.b) > w.max:
		w.err = w.over
	case w.ctx != nil && w.ctx.Err() != nil:
		w.err = w.ctx.Err()
	default:
		return false
	}
	return true
}

// begin opens an object ('{') or an array ('[').
//
//go:noinline
func (w *jsonWriter) begin(c byte) {
	w.b = append(w.b, c)
	w.fresh = append(w.fresh, true)
}

// end closes the innermost container with c; an empty one stays "{}" or "[]".
//
//go:noinline
func (w *jsonWriter) end(c byte) {
	empty := w.fresh[len(w.fresh)-1]
	w.fresh = w.fresh[:len(w.fresh)-1]
	if !empty {
		w.newline()
	}
	w.b = append(w.b, c)
}

// next starts a member of the innermost container on a line of its own.
//
//go:noinline
func (w *jsonWriter) next() {
	top := len(w.fresh) - 1
	if !w.fresh[top] {
		w.b = append(w.b, ',')
	}
	w.fresh[top] = false
	w.newline()
}

func (w *jsonWriter) newline() {
	w.b = append(w.b, '\n')
	for range w.fresh {
		w.b = append(w.b, ' ', ' ')
	}
}

// key starts an object member; k is a struct tag's name (plain ASCII).
//
//go:noinline
func (w *jsonWriter) key(k string) {
	w.next()
	w.b = append(w.b, '"')
	w.b = append(w.b, k...)
	w.b = append(w.b, '"', ':', ' ')
}

func (w *jsonWriter) str(k, v string) {
	w.key(k)
	w.quote(v)
}

func (w *jsonWriter) int(k string, v int64) {
	w.key(k)
	w.b = strconv.AppendInt(w.b, v, 10)
}

func (w *jsonWriter) bool(k string, v bool) {
	w.key(k)
	w.b = strconv.AppendBool(w.b, v)
}

func (w *jsonWriter) null(k string) {
	w.key(k)
	w.b = append(w.b, "null"...)
}

// object writes k: {…}, its members written by members.
func (w *jsonWriter) object(k string, members func()) {
	w.key(k)
	w.begin('{')
	members()
	w.end('}')
}

// list writes k: [...], one element per x by elem, or null when xs is nil.
func list[T any](w *jsonWriter, k string, xs []T, elem func(T)) {
	if xs == nil {
		w.null(k)
		return
	}
	w.key(k)
	w.begin('[')
	for _, x := range xs {
		if w.stopped() {
			return
		}
		w.next()
		w.begin('{')
		elem(x)
		w.end('}')
	}
	w.end(']')
}

// strings writes k: ["…", …], or null when xs is nil.
func (w *jsonWriter) strings(k string, xs []string) {
	if xs == nil {
		w.null(k)
		return
	}
	w.key(k)
	w.begin('[')
	for _, x := range xs {
		w.next()
		w.quote(x)
	}
	w.end(']')
}

// pointer writes k: {…} by members, or null when p is nil.
func pointer[T any](w *jsonWriter, k string, p *T, members func(*T)) {
	if p == nil {
		w.null(k)
		return
	}
	w.object(k, func() { members(p) })
}

// quote appends s as a JSON string, escaped as encoding/json escapes it
// without HTML escaping: '"' and '\\', the control characters (\b, \f, \n,
// \r, \t by name, the others as \u00XX), each byte of invalid UTF-8 as
// \ufffd, and U+2028 and U+2029.
func (w *jsonWriter) quote(s string) {
	b := append(w.b, '"')
	for {
		n := plainPrefix(s)
		b = append(b, s[:n]...)
		if n == len(s) {
			break
		}
		var size int
		b, size = escapeAt(b, s[n:])
		s = s[n+size:]
	}
	w.b = append(b, '"')
}

// plain marks the bytes a JSON string holds as they are: ASCII from 0x20,
// except '"' and '\\'.
var plain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// plainPrefix is the length of s's longest prefix of plain bytes. It is
// the loop every byte of a trace's strings goes through, kept apart and
// small: in WebAssembly the loop is what V8 optimizes first, and the cost
// of that grows with the function around it.
func plainPrefix(s string) int {
	for i := 0; i < len(s); i++ {
		if !plain[s[i]] {
			return i
		}
	}
	return len(s)
}

// escapeAt appends what the JSON string holds for the character s starts
// with, which is not plain, and says how many bytes of s it took: a named
// or \u00XX escape for ASCII, \ufffd for a byte of invalid UTF-8, \u2028
// and \u2029 escaped, any other character as it is.
func escapeAt(b []byte, s string) ([]byte, int) {
	const hex = "0123456789abcdef"
	if c := s[0]; c < utf8.RuneSelf {
		switch c {
		case '"', '\\':
			return append(b, '\\', c), 1
		case '\b':
			return append(b, '\\', 'b'), 1
		case '\f':
			return append(b, '\\', 'f'), 1
		case '\n':
			return append(b, '\\', 'n'), 1
		case '\r':
			return append(b, '\\', 'r'), 1
		case '\t':
			return append(b, '\\', 't'), 1
		}
		return append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF]), 1
	}
	r, size := utf8.DecodeRuneInString(s)
	switch {
	case r == utf8.RuneError && size == 1:
		return append(b, `\ufffd`...), 1
	case r == '\u2028' || r == '\u2029':
		return append(b, '\\', 'u', '2', '0', '2', hex[r&0xF]), size
	}
	return append(b, s[:size]...), size
}

// value writes an SQL argument as Statement.Args holds it: a string, an
// int64, a bool or nil, as the runner records them; any other value is
// written by encoding/json, indented in place.
func (w *jsonWriter) value(v any) {
	switch v := v.(type) {
	case nil:
		w.b = append(w.b, "null"...)
	case string:
		w.quote(v)
	case int64:
		w.b = strconv.AppendInt(w.b, v, 10)
	case bool:
		w.b = strconv.AppendBool(w.b, v)
	default:
		var out bytes.Buffer
		enc := json.NewEncoder(&out)
		enc.SetEscapeHTML(false)
		enc.SetIndent(string(bytes.Repeat([]byte("  "), len(w.fresh))), "  ")
		if err := enc.Encode(v); err != nil {
			w.err = cmp.Or(w.err, err)
			return
		}
		w.b = append(w.b, bytes.TrimSuffix(out.Bytes(), []byte("\n"))...)
	}
}

// appendJSON appends t's JSON and a final newline to b, or fails as
// encoding/json would on an argument it cannot encode, with an
// *limits.ExceededError once the JSON passes t's limit trace_bytes, or
// with ctx's error once ctx ends (a nil ctx never ends).
func (t *Trace) appendJSON(ctx context.Context, b []byte) ([]byte, error) {
	row := t.limit()
	w := &jsonWriter{b: b, ctx: ctx, max: len(b) + int(row.Value), over: traceExceeded(row)}
	w.begin('{')
	w.int("format", int64(t.Format))
	w.str("name", t.Name)
	w.str("title", t.Title)
	w.str("lang", t.Lang)
	w.str("mutant", t.Mutant)
	w.int("lease", t.Lease)
	list(w, "jobs", t.Jobs, w.jobDecl)
	w.strings("actors", t.Actors)
	list(w, "clocks", t.Clocks, w.clockDecl)
	if t.Service != nil {
		w.object("service", func() { w.clockDecl(*t.Service) })
	}
	if t.LockDelay != 0 {
		w.int("lock_delay", t.LockDelay)
	}
	if t.Takeover != "" {
		w.str("takeover", t.Takeover)
	}
	if t.Nodes != 0 {
		w.int("nodes", int64(t.Nodes))
	}
	list(w, "setup", t.Setup, w.statement)
	list(w, "start", t.Start, w.row)
	list(w, "steps", t.Steps, w.step)
	list(w, "later", t.Later, w.expiry)
	list(w, "final", t.Final, w.row)
	list(w, "storage", t.Storage, w.stored)
	w.object("summary", func() { w.summary(t.Summary) })
	if len(t.Warnings) > 0 {
		w.strings("warnings", t.Warnings)
	}
	w.end('}')
	if !w.stopped() && len(w.b)+1 > w.max {
		w.err = w.over
	}
	if w.err != nil {
		return nil, w.err
	}
	return append(w.b, '\n'), nil
}

// traceExceeded is the error of a trace past the limit row.
func traceExceeded(row limits.Row) error {
	return &limits.ExceededError{Limit: row, What: "the trace"}
}

// stepBytes is how many bytes st adds to the trace's JSON as an element of
// its steps, written into scratch (returned for reuse): the runner counts
// each step against the limit trace_bytes as it makes it.
func stepBytes(scratch []byte, st *Step) ([]byte, int) {
	w := &jsonWriter{b: scratch[:0], fresh: []bool{false, false}}
	w.next()
	w.begin('{')
	w.step(*st)
	w.end('}')
	return w.b, len(w.b)
}

func (w *jsonWriter) jobDecl(j JobDecl) {
	w.int("line", int64(j.Line))
	w.str("id", j.ID)
	w.int("qty", j.Qty)
	w.int("deadline", j.Deadline)
	w.int("max_attempts", j.MaxAttempts)
}

func (w *jsonWriter) clockDecl(c ClockDecl) {
	w.int("line", int64(c.Line))
	w.str("worker", c.Worker)
	w.int("offset", c.Offset)
}

func (w *jsonWriter) statement(s Statement) {
	w.str("sql", s.SQL)
	if s.Args == nil {
		w.null("args")
		return
	}
	w.key("args")
	w.begin('[')
	for _, a := range s.Args {
		w.next()
		w.value(a)
	}
	w.end(']')
}

func (w *jsonWriter) row(r Row) {
	w.str("id", r.ID)
	w.int("qty", r.Qty)
	w.str("owner", r.Owner)
	w.int("lease_until", r.LeaseUntil)
	w.int("token", r.Token)
	w.int("attempts", r.Attempts)
	w.int("max_attempts", r.MaxAttempts)
	w.int("deadline", r.Deadline)
	w.str("status", r.Status)
	w.str("reason", r.Reason)
	w.str("result", r.Result)
}

func (w *jsonWriter) cell(c Cell) {
	w.str("job", c.Job)
	w.str("column", c.Column)
}

func (w *jsonWriter) lease(l *Lease) {
	w.str("job", l.Job)
	w.str("owner", l.Owner)
	w.int("qty", l.Qty)
	w.int("token", l.Token)
	w.int("attempt", l.Attempt)
	w.int("lease_until", l.LeaseUntil)
	if l.Believes != nil {
		w.int("believes", *l.Believes)
	}
}

func (w *jsonWriter) rejection(r *Rejection) {
	w.str("op", r.Op)
	w.str("reason", r.Reason)
	w.object("presented", func() { w.lease(&r.Presented) })
	w.object("current", func() { w.row(r.Current) })
	w.int("now", r.Now)
	w.str("message", r.Message)
}

func (w *jsonWriter) outcome(o StepOutcome) {
	w.str("kind", o.Kind)
	w.str("reason", o.Reason)
	w.str("error", o.Error)
}

// args writes Args, whose every field is omitempty.
func (w *jsonWriter) args(a Args) {
	w.someInt("ttl", a.TTL)
	w.someInt("token", a.Token)
	w.someStr("token_from", a.TokenFrom)
	w.someStr("result", a.Result)
	w.someInt("took", a.Took)
	if a.Fail {
		w.bool("fail", true)
	}
	w.someInt("qty", a.Qty)
	w.someInt("deadline", a.Deadline)
	w.someInt("max_attempts", a.MaxAttempts)
	w.someStr("key", a.Key)
	w.someStr("value", a.Value)
	w.someInt("for", a.For)
	w.someStr("leases", a.Leases)
}

// someInt writes k: v unless v is 0 (omitempty).
func (w *jsonWriter) someInt(k string, v int64) {
	if v != 0 {
		w.int(k, v)
	}
}

// someStr writes k: v unless v is "" (omitempty).
func (w *jsonWriter) someStr(k, v string) {
	if v != "" {
		w.str(k, v)
	}
}

func (w *jsonWriter) contender(c Contender) {
	w.str("actor", c.Actor)
	w.object("outcome", func() { w.outcome(c.Outcome) })
	pointer(w, "lease", c.Lease, w.lease)
}

func (w *jsonWriter) receipt(r *Receipt) {
	w.str("job", r.Job)
	w.int("qty", r.Qty)
	w.str("owner", r.Owner)
	w.int("token", r.Token)
	w.bool("delivered", r.Delivered)
	w.int("total", r.Total)
	w.object("kept", func() {
		w.int("qty", r.Kept.Qty)
		w.str("owner", r.Kept.Owner)
		w.int("token", r.Kept.Token)
	})
}

func (w *jsonWriter) stored(s Stored) {
	w.str("key", s.Key)
	w.str("value", s.Value)
	w.str("owner", s.Owner)
	w.int("token", s.Token)
}

func (w *jsonWriter) expiry(e Expiry) {
	w.int("at", e.At)
	w.str("job", e.Job)
	w.str("owner", e.Owner)
	w.int("token", e.Token)
}

func (w *jsonWriter) verdict(v StepVerdict) {
	w.str("invariant", v.Invariant)
	w.bool("ok", v.OK)
	w.str("detail", v.Detail)
	if v.Expected {
		w.bool("expected", true)
	}
}

func (w *jsonWriter) expectResult(e *ExpectResult) {
	w.str("text", e.Text)
	w.bool("ok", e.OK)
	w.str("expected", e.Expected)
	w.str("got", e.Got)
	w.str("message", e.Message)
}

func (w *jsonWriter) step(s Step) {
	w.int("index", int64(s.Index))
	w.int("line", int64(s.Line))
	w.str("source", s.Source)
	w.str("note", s.Note)
	w.int("time", s.Time)
	w.int("now", s.Now)
	w.int("end", s.End)
	if s.Sent != nil {
		w.int("sent", *s.Sent)
	}
	if s.Heard != nil {
		w.int("heard", *s.Heard)
	}
	w.strings("actors", s.Actors)
	w.str("op", s.Op)
	w.str("job", s.Job)
	w.object("args", func() { w.args(s.Args) })
	w.object("outcome", func() { w.outcome(s.Outcome) })
	pointer(w, "lease", s.Lease, w.lease)
	pointer(w, "presented", s.Presented, w.lease)
	pointer(w, "rejection", s.Rejection, w.rejection)
	list(w, "contenders", s.Contenders, w.contender)
	pointer(w, "receipt", s.Receipt, w.receipt)
	if s.Enqueued == nil {
		w.null("enqueued")
	} else {
		w.bool("enqueued", *s.Enqueued)
	}
	pointer(w, "state", s.State, func(r *Row) { w.row(*r) })
	pointer(w, "stored", s.Stored, func(st *Stored) { w.stored(*st) })
	list(w, "forgot", s.Forgot, func(l Lease) { w.lease(&l) })
	if len(s.Renewed) > 0 {
		list(w, "renewed", s.Renewed, func(l Lease) { w.lease(&l) })
	}
	if len(s.Nodes) > 0 {
		list(w, "nodes", s.Nodes, func(c NodeCall) {
			w.str("node", c.Node)
			w.object("outcome", func() { w.outcome(c.Outcome) })
			pointer(w, "lease", c.Lease, w.lease)
			if c.Released {
				w.bool("released", true)
			}
			if c.Unreached {
				w.bool("unreached", true)
			}
		})
	}
	if s.Watch != nil {
		pointer(w, "watch", s.Watch, func(x *Watch) {
			w.str("holder", x.Holder)
			w.int("token", x.Token)
			w.int("since", x.Since)
			w.int("until", x.Until)
			w.int("waited", x.Waited)
			w.int("wait", x.Wait)
		})
	}
	w.str("explain", s.Explain)
	list(w, "sql", s.SQL, w.statement)
	list(w, "expired", s.Expired, w.expiry)
	list(w, "rows", s.Rows, w.row)
	w.strings("gone", s.Gone)
	list(w, "changed", s.Changed, w.cell)
	list(w, "verdicts", s.Verdicts, w.verdict)
	pointer(w, "expect", s.Expect, w.expectResult)
	if s.Predict != nil {
		w.object("predict", func() {
			w.strings("choices", s.Predict.Choices)
			w.str("answer", s.Predict.Answer)
		})
	}
}

func (w *jsonWriter) summary(s Summary) {
	w.int("steps", int64(s.Steps))
	w.int("expectations", int64(s.Expectations))
	w.int("failed", int64(s.Failed))
	w.int("violations", int64(s.Violations))
	w.int("announced", int64(s.Announced))
	w.bool("passed", s.Passed)
	w.strings("failures", s.Failures)
}
