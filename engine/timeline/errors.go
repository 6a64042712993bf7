package timeline

import (
	"errors"

	"github.com/leaselab/leaselab/engine/internal/lang"
	"strconv"
	"strings"
)

// ErrBadInput is what every parse and validation error matches with
// errors.Is: the timeline text is wrong, and nothing has run.
var ErrBadInput = errors.New("timeline: bad input")

// ErrNotFresh: Run was given a database that already holds jobs, or
// receipts or stored values the timeline would meet (it sends, delivers,
// writes or reads). A timeline's story starts from nothing.
var ErrNotFresh = errors.New("timeline: the database is not empty")

// ErrLang: Options.Lang names a language with no phrase table.
var ErrLang = errors.New("timeline: unknown language")

// Error is one mistake in a timeline's text, at a line and a column (both
// 1-based; the column counts characters, not bytes).
type Error struct {
	Name string // the source name given to Parse
	Line int
	Col  int
	Msg  string
	// Err, when not nil, is the cause Msg tells of (an answer's
	// *limits.ExceededError); errors.Is and errors.As reach it.
	Err error
	// msg is Msg before it was put in English; the zero Phrase for an
	// error made with Msg alone.
	msg  lang.Phrase
	lang string // the language Msg is in; "" is English
}

// newError is the mistake msg at a line and a column.
func newError(name string, line, col int, msg lang.Phrase) *Error {
	return &Error{Name: name, Line: line, Col: col, Msg: msg.String(), msg: msg}
}

// Error formats as NAME:LINE:COL: message.
func (e *Error) Error() string { return e.In(e.lang) }

// In is Error in language l (see Langs): NAME:LINE:COL: message.
func (e *Error) In(l string) string {
	m := e.Msg
	if e.msg.Format() != "" && l != "" {
		m = e.msg.In(l)
	}
	return e.Name + ":" + strconv.Itoa(e.Line) + ":" + strconv.Itoa(e.Col) + ": " + m
}

// In is the list in language l, one mistake a line.
func (l ErrorList) In(lg string) string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.In(lg))
	}
	return b.String()
}

// Is makes errors.Is(err, ErrBadInput) true.
func (e *Error) Is(target error) bool { return target == ErrBadInput }

// Unwrap is the cause, or nil.
func (e *Error) Unwrap() error { return e.Err }

// ErrorList is every mistake Parse found, in line and column order.
type ErrorList []*Error

// Error is the mistakes one per line.
func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Localized is a copy of the list whose messages (Msg, and so Error) are
// in language lg: what a caller that shows Msg alone (the page) hands on.
func (l ErrorList) Localized(lg string) ErrorList {
	out := make(ErrorList, len(l))
	for i, e := range l {
		c := *e
		if e.msg.Format() != "" {
			c.Msg, c.lang = e.msg.In(lg), lg
		}
		out[i] = &c
	}
	return out
}

// Unwrap exposes each *Error, so errors.Is(err, ErrBadInput) and errors.As
// work on the list.
func (l ErrorList) Unwrap() []error {
	out := make([]error, len(l))
	for i, e := range l {
		out[i] = e
	}
	return out
}
