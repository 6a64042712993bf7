package history

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/limits"
)

// MaxLineBytes bounds one line of the JSON lines format: a call whose
// names and result are at their limits, every byte escaped, is about
// 27 KB.
const MaxLineBytes = 64 << 10

// InputError is a mistake in a history's JSON lines, at its line and
// column (from 1; the column counts characters).
type InputError struct {
	Line, Col int
	Msg       string
}

func (e *InputError) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

// Write writes h in the JSON lines format, one call a line, in h's order:
// a call's required arguments always, its optional ones (enqueue's qty,
// deadline and max_attempts, a result) when not zero, and its answer's
// fields for its outcome.
func Write(w io.Writer, h History) error {
	bw := bufio.NewWriter(w)
	var b []byte
	for i := range h {
		var err error
		if b, err = appendOperation(b[:0], &h[i]); err != nil {
			return fmt.Errorf("call %d: %w", i+1, err)
		}
		if _, err := bw.Write(append(b, '\n')); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// jsonWriter appends JSON to b, keeping the first error (invalid UTF-8 in
// a string).
type jsonWriter struct {
	b   []byte
	err error
}

func (w *jsonWriter) str(s string) {
	var err error
	w.b, err = jsontext.AppendQuote(w.b, s)
	if w.err == nil {
		w.err = err
	}
}

// field writes ,"name": (no comma before the first of an object).
func (w *jsonWriter) field(name string) {
	if c := w.b[len(w.b)-1]; c != '{' {
		w.b = append(w.b, ',')
	}
	w.str(name)
	w.b = append(w.b, ':')
}

func (w *jsonWriter) strField(name, v string) { w.field(name); w.str(v) }
func (w *jsonWriter) intField(name string, v int64) {
	w.field(name)
	w.b = strconv.AppendInt(w.b, v, 10)
}

func appendOperation(b []byte, o *Operation) ([]byte, error) {
	args, okFields, found := callSpec(o.Call)
	if !found {
		return b, fmt.Errorf("unknown call %q", o.Call)
	}
	w := &jsonWriter{b: append(b, '{')}
	w.strField("client", o.Client)
	w.strField("call", string(o.Call))
	w.field("args")
	w.b = append(w.b, '{')
	for _, name := range args {
		switch {
		case optionalArg(o.Call, name) && o.Args.zero(name):
		case name == "job" || name == "owner" || name == "result":
			w.strField(name, o.Args.str(name))
		default:
			w.intField(name, *o.Args.int(name))
		}
	}
	w.b = append(w.b, '}')
	w.intField("invoke", o.Invoke)
	w.intField("return", o.Return)
	w.field("answer")
	w.b = append(w.b, '{')
	appendAnswer(w, &o.Answer, okFields)
	w.b = append(w.b, '}', '}')
	return w.b, w.err
}

func appendAnswer(w *jsonWriter, a *Answer, okFields []string) {
	w.strField("outcome", string(a.Outcome))
	switch a.Outcome {
	case engine.OutcomeRefused:
		if a.Refusal != "" {
			w.strField("refusal", string(a.Refusal))
		}
	case engine.OutcomeError:
		w.strField("error", a.Error)
	case engine.OutcomeOK:
		for _, f := range okFields {
			switch f {
			case "job":
				if a.Job != "" {
					w.strField("job", a.Job)
				}
			case "token":
				w.intField("token", a.Token)
			case "lease_until":
				w.intField("lease_until", a.LeaseUntil)
			case "created":
				w.field("created")
				w.b = strconv.AppendBool(w.b, a.Created)
			case "row":
				w.field("row")
				appendRow(w, a.Row)
			}
		}
	}
}

// rowFields are a state answer's row's fields, as the HTTP API writes a
// job.
var rowFields = []string{"id", "qty", "owner", "lease_until", "token", "attempts", "max_attempts", "deadline", "status", "reason", "result"}

func appendRow(w *jsonWriter, j *engine.Job) {
	w.b = append(w.b, '{')
	for _, f := range rowFields {
		if s, ok := rowStr(j, f); ok {
			w.strField(f, *s)
		} else {
			w.intField(f, *rowInt(j, f))
		}
	}
	w.b = append(w.b, '}')
}

// rowStr is the row's text column f, and false for an integer column.
func rowStr(j *engine.Job, f string) (*string, bool) {
	switch f {
	case "id":
		return &j.ID, true
	case "owner":
		return &j.Owner, true
	case "status":
		return (*string)(&j.Status), true
	case "reason":
		return &j.Reason, true
	case "result":
		return &j.Result, true
	}
	return nil, false
}

func rowInt(j *engine.Job, f string) *int64 {
	switch f {
	case "qty":
		return &j.Qty
	case "lease_until":
		return &j.LeaseUntil
	case "token":
		return &j.Token
	case "attempts":
		return &j.Attempts
	case "max_attempts":
		return &j.MaxAttempts
	}
	return &j.Deadline
}

// optionalArg: an argument a line may leave out, meaning zero.
func optionalArg(call engine.Op, name string) bool {
	return call == engine.OpEnqueue && name != "job" || name == "result"
}

func (a *Args) str(name string) string {
	switch name {
	case "job":
		return a.Job
	case "owner":
		return a.Owner
	}
	return a.Result
}

// Read reads a history in the JSON lines format (see the package
// documentation), strictly: a line that is not one JSON object of the
// format's fields, a field named twice, an unknown field, a field the call
// or outcome does not take, a required field left out, a value of the
// wrong type, a number that is not a whole int64, invalid UTF-8, or a
// history Validate refuses is an *InputError at its line and column.
// It reads at most limits.Default.HistoryCalls lines of at most
// MaxLineBytes.
func Read(r io.Reader) (History, error) {
	br := bufio.NewReaderSize(r, MaxLineBytes+1)
	var h History
	for n := 1; ; n++ {
		line, err := br.ReadSlice('\n')
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			return nil, &InputError{Line: n, Col: 1, Msg: fmt.Sprintf("a line longer than %d bytes", MaxLineBytes)}
		case err != nil && !errors.Is(err, io.EOF):
			return nil, err
		}
		if len(line) == 0 && err != nil {
			return h, nil
		}
		line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
		if len(h) == limits.Default.HistoryCalls {
			return nil, &InputError{Line: n, Col: 1, Msg: "more calls than the limit " + limits.Default.Row("history_calls").String()}
		}
		o, perr := readLine(line, n)
		if perr != nil {
			return nil, perr
		}
		h = append(h, o)
		if err != nil {
			return h, nil
		}
	}
}

// lineReader reads one line's object.
type lineReader struct {
	line []byte
	n    int
	dec  *jsontext.Decoder
}

// fail is a mistake at byte off of the line.
func (p *lineReader) fail(off int64, format string, args ...any) error {
	off = min(max(off, 0), int64(len(p.line)))
	return &InputError{Line: p.n, Col: utf8.RuneCount(p.line[:off]) + 1, Msg: fmt.Sprintf(format, args...)}
}

// at is the offset of the next token.
func (p *lineReader) at() int64 {
	off := p.dec.InputOffset()
	for off < int64(len(p.line)) && bytes.IndexByte([]byte(" \t\r\n,:"), p.line[off]) >= 0 {
		off++
	}
	return off
}

// token reads the next token, a syntax error as a mistake at its place.
func (p *lineReader) token() (jsontext.Token, error) {
	t, err := p.dec.ReadToken()
	return t, p.syntax(err)
}

func (p *lineReader) syntax(err error) error {
	var syn *jsontext.SyntacticError
	switch {
	case err == nil:
		return nil
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return p.fail(int64(len(p.line)), "the line ends inside its JSON object")
	case errors.As(err, &syn):
		return p.fail(syn.ByteOffset, "invalid JSON: %v", syn.Err)
	}
	return p.fail(0, "invalid JSON: %v", err)
}

// want reads the next value, of kind k (a kind of jsontext: '"', '0',
// '{', 't' for either boolean), or fails at it naming what.
func (p *lineReader) want(what string, k jsontext.Kind) (int64, error) {
	at := p.at()
	got := p.dec.PeekKind()
	if !strings.ContainsRune(`nft"0{}[]`, rune(got)) {
		_, err := p.token()
		return at, err
	}
	if got == k || (k == 't' && got == 'f') {
		return at, nil
	}
	names := map[jsontext.Kind]string{'"': "a string", '0': "a whole number", '{': "an object", 't': "true or false"}
	return at, p.fail(at, "%s: want %s, got %s", what, names[k], kindText(got))
}

func kindText(k jsontext.Kind) string {
	switch k {
	case '"':
		return "a string"
	case '0':
		return "a number"
	case '{':
		return "an object"
	case '[':
		return "an array"
	}
	return k.String()
}

func (p *lineReader) str(what string) (string, error) {
	if _, err := p.want(what, '"'); err != nil {
		return "", err
	}
	t, err := p.token()
	return t.String(), err
}

func (p *lineReader) integer(what string) (int64, error) {
	at, err := p.want(what, '0')
	if err != nil {
		return 0, err
	}
	v, err := p.dec.ReadValue()
	if err != nil {
		return 0, p.syntax(err)
	}
	n, err := strconv.ParseInt(string(v), 10, 64)
	if err != nil {
		return 0, p.fail(at, "%s: %s is not a whole number from -2^63 to 2^63-1", what, v)
	}
	return n, nil
}

func (p *lineReader) boolean(what string) (bool, error) {
	if _, err := p.want(what, 't'); err != nil {
		return false, err
	}
	t, err := p.token()
	return err == nil && t.Kind() == 't', err
}

// pos is where a field is: its name's offset and its value's.
type pos struct{ name, value int64 }

// object reads an object, calling member with each field's name and
// place; member reads the value. It returns the object's offset.
func (p *lineReader) object(what string, member func(name string, at pos) error) (int64, error) {
	start, err := p.want(what, '{')
	if err != nil {
		return start, err
	}
	if _, err := p.token(); err != nil {
		return start, err
	}
	for p.dec.PeekKind() != '}' {
		at := p.at()
		t, err := p.token()
		if err != nil {
			return start, err
		}
		if err := member(t.String(), pos{at, p.at()}); err != nil {
			return start, err
		}
	}
	_, err = p.token()
	return start, err
}

// fields notes where each field of an object was read, to check the
// required ones and refuse those its call does not take once the whole
// line is read.
type fields map[string]pos

// check refuses a field of got that is not in allowed and names the first
// of required that got lacks.
func (p *lineReader) check(what string, start int64, got fields, allowed, required []string, whose string) error {
	for _, name := range sortedByOffset(got) {
		if !slices.Contains(allowed, name) {
			return p.fail(got[name].name, "%s: %s takes no %s", what, whose, name)
		}
	}
	for _, name := range required {
		if _, ok := got[name]; !ok {
			return p.fail(start, "%s: %s needs %s", what, whose, name)
		}
	}
	return nil
}

func sortedByOffset(f fields) []string {
	names := make([]string, 0, len(f))
	for n := range f {
		names = append(names, n)
	}
	slices.SortFunc(names, func(a, b string) int { return cmp.Compare(f[a].name, f[b].name) })
	return names
}
