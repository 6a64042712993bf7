package leasetest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/leasetest/internal/enginehook"
	"github.com/leaselab/leaselab/engine/timeline"
)

// Seed is what Run's random sequences start from: a failure is the same on
// every run.
const Seed = 41

// Run is the conformance suite: it runs every library timeline (package
// engine/timeline's Library) and random call sequences on Queues from
// newQueue, each call beside the reference model, and reports every
// Difference as a failure of a subtest ("timeline/NAME", "sequences"),
// at the line of the test that called Run; then rounds of calls made at
// once from several goroutines (Concurrent), a history that cannot be
// linearized failing the subtest "concurrent". It runs 300 sequences
// from Seed, 30 under go test -short; RunWith takes another seed and
// count. newQueue must return an empty Queue each time it is called, safe
// for concurrent use. A Queue that is an io.Closer, or has a Close method
// with no result, is closed when its timeline or sequence ends; a cleanup
// newQueue registers with t runs only when t's subtest ends, and the
// random sequences (hundreds of Queues) share one, so a Queue over a
// server's connections should be closable.
func Run(t *testing.T, newQueue func(t *testing.T) Queue) {
	t.Helper()
	RunWith(t, newQueue, Options{})
}

// Options are RunWith's random sequences.
type Options struct {
	// Seed chooses the sequences: the same seed makes the same ones, and a
	// failure names it. 0 is Seed, Run's.
	Seed uint64
	// Sequences is how many run: 0 is 300, or 30 under go test -short.
	Sequences int
}

// shortSequences is how many random sequences Run makes under -short.
const shortSequences = 30

// RunWith is Run with the random sequences o says.
func RunWith(t *testing.T, newQueue func(t *testing.T) Queue, o Options) {
	t.Helper()
	if o.Seed == 0 {
		o.Seed = Seed
	}
	if o.Sequences <= 0 && testing.Short() {
		o.Sequences = shortSequences
	}
	for _, name := range timeline.LibraryNames() {
		t.Run("timeline/"+name, func(t *testing.T) {
			t.Helper()
			tl, err := timeline.LoadLibrary(name)
			if err != nil {
				t.Fatal(err)
			}
			q := newQueue(t)
			defer closeQueue(q)
			logUnplayed(t, tl, q)
			report(t, func() (*Difference, error) { return Timeline(t.Context(), tl, q) })
		})
	}
	t.Run("sequences", func(t *testing.T) {
		t.Helper()
		report(t, func() (*Difference, error) {
			d, err := Sequences(t.Context(), func() (Queue, error) { return newQueue(t), nil }, SequenceOptions{Seed: o.Seed, Sequences: o.Sequences})
			if d != nil {
				d.Where = fmt.Sprintf("seed %d: %s", o.Seed, d.Where)
			}
			return d, err
		})
	})
	t.Run("concurrent", func(t *testing.T) {
		t.Helper()
		runConcurrent(t, newQueue, o.Seed)
	})
}

// logUnplayed logs, naming tl and the lines, the reopen steps that q,
// which is not a Reopener, cannot take: Timeline skips them.
func logUnplayed(t *testing.T, tl *timeline.Timeline, q Queue) {
	t.Helper()
	if _, ok := q.(Reopener); ok {
		return
	}
	var lines []string
	for _, s := range tl.Steps {
		if s.Verb == timeline.VerbReopen {
			lines = append(lines, strconv.Itoa(s.Line))
		}
	}
	switch {
	case len(lines) == 1:
		t.Logf("%s: the reopen step at line %s is not played: the Queue is not a leasetest.Reopener", tl.Name, lines[0])
	case len(lines) > 1:
		t.Logf("%s: the reopen steps at lines %s are not played: the Queue is not a leasetest.Reopener", tl.Name, strings.Join(lines, ", "))
	}
}

// report fails t with what check found.
func report(t *testing.T, check func() (*Difference, error)) {
	t.Helper()
	d, err := check()
	if err != nil {
		t.Fatal(err)
	}
	if d != nil {
		t.Error(d)
	}
}

// RunTimelines runs every .tl file of dir as a subtest named by the file.
// Each must parse (else the failure is at NAME:LINE:COL) and hold its
// expectations on leaselab's engine (else at NAME:LINE: expected X, got Y);
// then, when newQueue is not nil, it is played on a Queue from newQueue
// beside the reference model (see Timeline), a difference failing at
// NAME:LINE. NAME is the file's path as dir names it. It needs package
// enginetest (see Source).
func RunTimelines(t *testing.T, dir string, newQueue func(t *testing.T) Queue) {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.tl"))
	if err != nil || len(names) == 0 {
		t.Fatalf("leasetest: no .tl files in %s", dir)
	}
	sort.Strings(names)
	for _, path := range names {
		t.Run(filepath.Base(path), func(t *testing.T) {
			t.Helper()
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			RunTimeline(t, path, string(src), newQueue)
		})
	}
}

// RunTimeline is RunTimelines for one timeline's text, called name in
// messages: it reports what Source finds. It needs package enginetest.
func RunTimeline(t *testing.T, name, src string, newQueue func(t *testing.T) Queue) {
	t.Helper()
	var q Queue
	if newQueue != nil {
		q = newQueue(t)
		defer closeQueue(q)
		if tl, err := timeline.Parse(name, src); err == nil {
			logUnplayed(t, tl, q)
		}
	}
	for _, err := range Source(t.Context(), name, src, q) {
		t.Error(err)
	}
}

// Source checks one timeline's text, called name in messages: it must
// parse (else the errors are NAME:LINE:COL: ...), hold its expectations on
// leaselab's engine and break no invariant it does not announce (else
// NAME:LINE: expected X, got Y, or NAME:LINE: breaks INVARIANT: ...); then,
// when q is not nil, q must answer it as the reference does (Timeline's
// *Difference). Nil when all holds.
//
// Source, RunTimeline, RunTimelines and Engine run leaselab's engine on
// SQLite, which this package does not link (so that a test of a Queue
// against the model builds no SQLite): they work in a program that imports
// package enginetest, whose functions of the same names they are, and
// otherwise fail saying so.
func Source(ctx context.Context, name, src string, q Queue) []error {
	tl, err := timeline.Parse(name, src)
	if err != nil {
		return []error{err}
	}
	if enginehook.Run == nil {
		return []error{errNoEngine("Source")}
	}
	tr, err := enginehook.Run(ctx, tl, timeline.Options{})
	if err != nil {
		return []error{err}
	}
	var errs []error
	for _, f := range tr.Summary.Failures {
		errs = append(errs, errors.New(f))
	}
	for _, st := range tr.Steps {
		for _, v := range st.Verdicts {
			if !v.OK && !v.Expected {
				errs = append(errs, fmt.Errorf("%s:%d: breaks %s: %s", name, st.Line, v.Invariant, v.Detail))
			}
		}
	}
	if q != nil {
		d, err := Timeline(ctx, tl, q)
		switch {
		case err != nil:
			errs = append(errs, err)
		case d != nil:
			errs = append(errs, d)
		}
	}
	return errs
}

var dbSeq atomic.Int64

// Engine returns leaselab's own engine as a Queue: a Store on a fresh
// in-memory SQLite database, closed when t ends. It is a Reopener (New
// again over the same database). It needs package enginetest (see Source).
func Engine(t *testing.T) Queue {
	t.Helper()
	q, err := newEngine()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { q.Close() })
	return q
}

// errNoEngine is fn's error in a program that does not link enginetest.
func errNoEngine(fn string) error {
	return fmt.Errorf("leasetest: %s runs leaselab's engine on SQLite, which package leasetest does not link: "+
		"call enginetest.%s (package github.com/leaselab/leaselab/engine/leasetest/enginetest)", fn, fn)
}

// newEngine opens a Store on a fresh in-memory database.
func newEngine() (*engineQueue, error) {
	if enginehook.Memory == nil {
		return nil, errNoEngine("Engine")
	}
	db, err := enginehook.Memory("leasetest-" + strconv.FormatInt(dbSeq.Add(1), 10))
	if err != nil {
		return nil, err
	}
	q := &engineQueue{db: db}
	if err := q.Reopen(context.Background()); err != nil {
		db.Close()
		return nil, err
	}
	return q, nil
}

type engineQueue struct {
	*engine.Store
	db *sql.DB
}

func (q *engineQueue) Reopen(ctx context.Context) (err error) {
	q.Store, err = engine.New(ctx, q.db)
	return err
}

// Close closes the database.
func (q *engineQueue) Close() error { return q.db.Close() }
