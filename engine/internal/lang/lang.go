// Package lang puts the messages a person reads — a parse error, a
// warning, an invariant's detail, an expectation's mismatch — in the
// language they asked for. A message is a Phrase: an English fmt format
// and its arguments, kept apart until it is read, so that a catalog can
// give the format in another language (with explicit argument indexes,
// %[2]s, when that language orders them its own way). An argument that is
// itself a Text (a Phrase, a Word, or another package's wording with an In
// method) is put in the same language; any other
// argument (a name, a number, a keyword of the timeline language) is
// printed as it is.
//
// A language without a catalog, or a format a catalog lacks, reads in
// English: a message is never lost, only left untranslated, which the
// packages' tests refuse.
package lang

import (
	"fmt"
	"sync"
)

// Phrase is a message: an English format and its arguments.
type Phrase struct {
	format string
	args   []any
}

// P is the message format with args.
func P(format string, args ...any) Phrase { return Phrase{format: format, args: args} }

// Format is the phrase's English format, the key of every catalog.
func (p Phrase) Format() string { return p.format }

// String is the phrase in English.
func (p Phrase) String() string { return p.In("en") }

// In is the phrase in language l.
func (p Phrase) In(l string) string {
	if p.format == "" {
		return ""
	}
	format := p.format
	if f, ok := lookup(l, p.format, false); ok {
		format = f
	}
	args := make([]any, len(p.args))
	for i, a := range p.args {
		if v, ok := a.(Text); ok {
			args[i] = v.In(l)
		} else {
			args[i] = a
		}
	}
	return finish(l, fmt.Sprintf(format, args...))
}

// Text is what reads in a language of its own: a Phrase, a Word, or any
// text another package words (a mutant's rule). A Phrase puts an argument
// that is a Text in its own language.
type Text interface {
	In(l string) string
}

// Word is a word or a fragment a message puts in another (what a name
// names: "job", "worker"), translated by the catalog's words.
type Word string

// In is the word in language l: itself in English, or with no translation.
func (w Word) In(l string) string {
	if t, ok := lookup(l, string(w), true); ok {
		return t
	}
	return string(w)
}

type catalog struct {
	formats, words map[string]string
	finish         func(string) string
	// pending are the tables Add was given and no lookup has built yet.
	pending []func() (formats, words map[string]string)
}

// Finish sets the last pass each phrase of language l (and each phrase in
// it) takes once its arguments are in (Korean picks its particles by the word before them).
// It returns true, as Add does.
func Finish(l string, f func(string) string) bool {
	mu.Lock()
	defer mu.Unlock()
	add(l).finish = f
	return true
}

func finish(l, s string) string {
	mu.RLock()
	c := catalogs[l]
	mu.RUnlock()
	if c == nil || c.finish == nil {
		return s
	}
	return c.finish(s)
}

// add is language l's catalog, made if new; mu is held.
func add(l string) *catalog {
	c := catalogs[l]
	if c == nil {
		c = &catalog{formats: map[string]string{}, words: map[string]string{}}
		catalogs[l] = c
	}
	return c
}

var (
	mu       sync.RWMutex
	catalogs = map[string]*catalog{}
)

// Add adds to language l's catalog the tables that table returns:
// formats (English format -> l's) and words (English word -> l's). table
// runs at the first lookup in l, not in Add: a program that never speaks
// l never builds its tables. It returns true, so that a package can add
// its catalog in a variable's initializer.
func Add(l string, table func() (formats, words map[string]string)) bool {
	mu.Lock()
	defer mu.Unlock()
	c := add(l)
	c.pending = append(c.pending, table)
	return true
}

// built is language l's catalog, nil when l has none, with every table
// Add was given built into it.
func built(l string) *catalog {
	mu.RLock()
	c := catalogs[l]
	ready := c == nil || len(c.pending) == 0
	mu.RUnlock()
	if ready {
		return c
	}
	mu.Lock()
	defer mu.Unlock()
	for _, table := range c.pending {
		formats, words := table()
		for k, v := range formats {
			c.formats[k] = v
		}
		for k, v := range words {
			c.words[k] = v
		}
	}
	c.pending = nil
	return c
}

// Has reports whether language l's catalog gives the format (or, with
// word, the Word) key: what a test asks of every message of a package.
func Has(l, key string, word bool) bool {
	_, ok := lookup(l, key, word)
	return ok
}

func lookup(l, key string, word bool) (string, bool) {
	c := built(l)
	if c == nil {
		return "", false
	}
	mu.RLock()
	defer mu.RUnlock()
	m := c.formats
	if word {
		m = c.words
	}
	s, ok := m[key]
	return s, ok
}
