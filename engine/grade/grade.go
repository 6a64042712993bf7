package grade

import (
	"cmp"
	"context"
	"embed"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/internal/lang"
	"github.com/leaselab/leaselab/engine/leasetest"
	"github.com/leaselab/leaselab/engine/limits"
	"github.com/leaselab/leaselab/engine/timeline"
)

//go:embed steps/*.tl steps/courier/*.tl
var stepFiles embed.FS

// Options are a grading run's program and bounds.
type Options struct {
	// Program starts the student's program (Python for a Python module);
	// Lab, when not nil, is a Go student's fencing lab instead, and
	// CourierLab a Go student's courier lab (at most one of the two).
	Program    Program
	Lab        Lab
	CourierLab CourierLab
	// Speaker, when not nil, is the student's Python program running in
	// this process (a page's Pyodide), of either lab, instead of Program.
	Speaker Speaker
	// LabName is the lab graded: Fencing or Courier; "" is Courier for
	// a CourierLab, else Fencing. A Lab is the fencing lab's, a CourierLab
	// the courier's.
	LabName string
	// Dir is a fresh directory for the run's database files.
	Dir string
	// CallTimeout bounds each answer; TotalTimeout the whole run (0:
	// limits.DefaultGrading's grade_call_ms and grade_total_ms).
	CallTimeout, TotalTimeout time.Duration
	// Sequences is how many random call sequences the search tries (0:
	// grade_sequences); Seed chooses them.
	Sequences int
	Seed      uint64
	// Rounds is how many rounds each race runs (0: grade_rounds):
	// claim_many's in step 8, and two processes'.
	Rounds int
	// FailFast stops at the first failed test; the tests after it are
	// not in the report.
	FailFast bool
	// StopAtHang stops after a test whose call was stopped for never
	// ending: each test after it would wait out its per-call limit on the
	// same loop. The tests after it are not in the report.
	StopAtHang bool
	// Progress, if not nil, hears each test's name as it starts; Tested,
	// if not nil, hears each test as it ends, with its verdict, before the
	// next one starts (a run that never ends keeps what it heard).
	Progress func(name string)
	Tested   func(Test)
	// Observe, if not nil, hears each call of a lab function the grader
	// makes through a test's queue, with the contract's answer and table.
	Observe func(Observed)
	// Sandbox is how the student's programs are contained (see Sandbox);
	// the zero value contains them as far as the grader's user may.
	Sandbox Sandbox
	// Terms is the language the report writes calls and answers in (""
	// chooses by the program: PythonTerms for Python and PythonLab's,
	// GoTerms for a Lab, JSONTerms for any other program).
	Terms Terms
}

// ErrStopped is the cause to cancel a grading's context with when the
// platform stops it (SIGTERM, SIGINT): Grade then ends the student's
// programs at once and returns the report of what it graded, the test
// under way and every test after it failed as stopped by the platform.
var ErrStopped = errors.New("grade: stopped by the platform")

func (o *Options) defaults() {
	if o.LabName == "" {
		o.LabName = Fencing
		if o.CourierLab != nil {
			o.LabName = Courier
		}
	}
	switch {
	case o.Terms != "":
	case o.Lab != nil || o.CourierLab != nil:
		o.Terms = GoTerms
	case o.Speaker != nil:
		o.Terms = PythonTerms
	case o.Program.terms != "":
		o.Terms = o.Program.terms
	default:
		o.Terms = JSONTerms
	}
	d := limits.DefaultGrading
	if o.CallTimeout <= 0 {
		o.CallTimeout = time.Duration(d.CallMs) * time.Millisecond
	}
	if o.TotalTimeout <= 0 {
		o.TotalTimeout = time.Duration(d.TotalMs) * time.Millisecond
	}
	if o.Sequences <= 0 {
		o.Sequences = d.Sequences
	}
	if o.Rounds <= 0 {
		o.Rounds = d.Rounds
	}
}

// Test is one graded test: a step of the lab, a library story, a
// mutant's timeline, a race or the search.
type Test struct {
	Name string
	// Skipped says why the test did not run; "" when it ran.
	Skipped string
	// title and why are Name and Skipped in any language.
	title, why lang.Phrase
	// Failure is nil when the test passed.
	Failure *Failure
	// Elapsed is how long it ran.
	Elapsed time.Duration
}

// Failure is where the student's code parted from the contract.
type Failure struct {
	// Where is the timeline's NAME:LINE, "call N" of a random sequence, or
	// "round N" of a race.
	Where string
	// Call is the lab's call in the student's terms (Options.Terms); Want
	// the contract's answer, Got the student's ("raise ValueError",
	// "None", "True", ... in Python).
	Call, Want, Got string
	// Detail says more, in the lab's terms: an answer not of its
	// function's form, answers that agree beside tables that differ, a
	// broken invariant, a rule a mutant breaks.
	Detail string
	// WantRows and GotRows are the table after the call, the contract's
	// and the student's (read from their file); for a race's round (History
	// set), the model's after the longest order of the calls it fits, and
	// the student's after the round.
	WantRows, GotRows []engine.Job
	// Timeline reproduces the difference on the engine (leaselab check
	// replays it); "" when none can.
	Timeline string
	// Run is the student's run of Timeline up to the difference, step by
	// step: Run[k] holds what their code answered in the timeline's k-th
	// step and their table after it (Run[0]: init_db and the jobs the
	// header declares); the last is the step that differs. nil when the
	// difference was not found by playing Timeline.
	Run []Played
	// History is a race's round that no order of its calls fits: every
	// call of the round with the instants it was sent and answered, in
	// the JSON lines format of package engine/history (leaselab history
	// FILE checks it again). Link opens it drawn, a lane a process. ""
	// for any other failure.
	History string `json:"history,omitempty"`
	// Broken is set when the program hung, exited or wrote to standard
	// output.
	Broken *Broken
	// Lab is the lab whose table WantRows and GotRows are (Fencing or
	// Courier).
	Lab string
	// Rule is the rule of Lab (one of Rules(Lab)) the failure is charged
	// to: the one whose contract its first difference breaks, the lab
	// function of the call that differs (a courier's claim_next that
	// quarantines a job or not, or caps a lease at its deadline, or not:
	// quarantine or deadline), init_db when no call was made. "" for a
	// test the overall time limit left unrun.
	Rule string
	// fn is the lab function whose answer or table differs ("" when
	// unknown).
	fn string
	// where, call, want, got and detail are Where, Call, Want, Got and
	// Detail in any language, when the grader wrote them (a timeline's
	// NAME:LINE and an answer are no language's).
	where, call, want, got, detail lang.Phrase
}

// at sets where the failure is.
func (f *Failure) at(p lang.Phrase) *Failure { f.where, f.Where = p, p.String(); return f }

// calls sets the call, in words.
func (f *Failure) calls(p lang.Phrase) *Failure { f.call, f.Call = p, p.String(); return f }

// wants sets the contract's answer, in words.
func (f *Failure) wants(p lang.Phrase) *Failure { f.want, f.Want = p, p.String(); return f }

// gets sets the student's answers, in words.
func (f *Failure) gets(p lang.Phrase) *Failure { f.got, f.Got = p, p.String(); return f }

// explain sets what more the failure says.
func (f *Failure) explain(p lang.Phrase) *Failure { f.detail, f.Detail = p, p.String(); return f }

// Report is a grading run's result.
type Report struct {
	Tests []Test
	// Lab is the lab graded (Fencing or Courier).
	Lab string
	// Simulator is the simulator page the text report's link opens the
	// first difference in ("": DefaultSimulator).
	Simulator string
	// Missing are the lab's functions the module does not define.
	Missing []string
	// Elapsed is how long the run took.
	Elapsed time.Duration
	// Weights are the points each rule carries (nil: DefaultWeights(Lab)).
	Weights Weights
	// unrun: the code could not run at all (Unrun); every rule lost.
	unrun bool
}

// Passed reports whether every test that ran passed.
func (r *Report) Passed() bool { return r.First() == nil }

// First is the first failed test, or nil.
func (r *Report) First() *Test {
	for i := range r.Tests {
		if r.Tests[i].Failure != nil {
			return &r.Tests[i]
		}
	}
	return nil
}

// grader is one run.
type grader struct {
	o    Options
	seq  int
	miss []string
	c    contained
}

// contain resolves the run's sandbox, and gives its directory to the
// student's user when it has one.
func (g *grader) contain() error {
	u, err := lookupUser(g.o.Sandbox.User)
	if err != nil {
		return err
	}
	g.c = contained{sandbox: g.o.Sandbox, user: u, totalSeconds: int64(g.o.TotalTimeout / time.Second)}
	if g.o.goLab() == nil && g.o.Speaker == nil && g.o.Dir != "" {
		return giveDir(g.o.Dir, u)
	}
	return nil
}

// Grade grades the program of o: the lab's eight steps in order, every
// library story the lab's functions can tell, each mutant's
// distinguishing timeline (in a build with mutants), two races (claim_many
// on threads in step 8; two processes claiming one job) and a bounded random search
// for a sequence of calls on which the program and the contract disagree,
// shortest first; for the courier lab (o.LabName), its nine steps, two
// processes calling claim_next at once, and the stories its functions can
// tell. Each test starts the program afresh, on a fresh
// database file in o.Dir; each failure is charged to a rule of the lab
// (Failure.Rule, Report.Scores). The error is a *Broken when the program cannot
// start or load (nothing was graded), or the context's.
func Grade(ctx context.Context, o Options) (*Report, error) {
	o.defaults()
	if _, ok := labFunctions[o.LabName]; !ok || (o.Lab != nil && o.LabName != Fencing) || (o.CourierLab != nil && o.LabName != Courier) ||
		(o.Lab != nil && o.CourierLab != nil) {
		return nil, fmt.Errorf("grade: no lab %q for this program (the labs: %s; a Go Lab is the fencing lab's, a CourierLab the courier's)", o.LabName, strings.Join(Labs(), ", "))
	}
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, o.TotalTimeout)
	defer cancel()
	g := &grader{o: o}
	if err := g.contain(); err != nil {
		return nil, err
	}
	defer endUser(g.c.user, g.o.Dir)
	p, err := g.start(ctx)
	if err != nil {
		return nil, err
	}
	g.miss = p.missing
	p.close()
	r := &Report{Lab: o.LabName, Missing: g.miss}
	tests := g.tests()
	charged := map[int]*Failure{} // a failure met by an earlier step, by the step it is charged to
	for i, t := range tests {
		if o.Progress != nil {
			o.Progress(t.name.String())
		}
		test, began := Test{Name: t.name.String(), title: t.name, Skipped: t.skip.String(), why: t.skip}, time.Now()
		late := false // the overall time limit ran out before the test
		switch {
		case t.skip.Format() != "":
		case errors.Is(context.Cause(ctx), ErrStopped):
			test.Failure = &Failure{Broken: broken("stopped", "", lang.P("stopped by the platform before this test"))}
		case ctx.Err() != nil:
			late = true
			test.Failure = &Failure{Broken: broken("hang", "", lang.P("the overall time limit (%v) ran out before this test", o.TotalTimeout))}
		default:
			f, err := t.run(ctx)
			if err != nil {
				var b *Broken
				if !errors.As(err, &b) {
					return nil, err
				}
				f = &Failure{Broken: b, Call: b.Call}
			}
			if j := chargedTo(tests, i, f); j != i {
				charged[j] = cmp.Or(charged[j], f)
				f = nil
			}
			test.Failure = cmp.Or(f, charged[i])
			endUser(g.c.user, g.o.Dir) // nothing of the student's outlives its test
		}
		if f := test.Failure; f != nil {
			f.Lab = o.LabName
			if !late {
				f.Rule = charge(o.LabName, f)
			}
		}
		test.Elapsed = time.Since(began)
		r.Tests = append(r.Tests, test)
		if o.Tested != nil {
			o.Tested(test)
		}
		if f := test.Failure; f != nil && (o.FailFast || o.StopAtHang && f.Broken != nil && f.Broken.Kind == "hang") {
			break
		}
	}
	r.Elapsed = time.Since(start)
	return r, nil
}

type testCase struct {
	name, skip lang.Phrase
	run        func(ctx context.Context) (*Failure, error)
	// fn is the lab function whose rules the test, a step, introduces
	// ("" for none).
	fn string
}

// chargedTo is the test a failure of test i is charged to: the later step
// that introduces the function whose wrong answer or table it is (a step's
// timeline calls functions that later steps grade), else i. A program
// that broke the protocol fails the test it broke in.
func chargedTo(ts []testCase, i int, f *Failure) int {
	if f == nil || f.Broken != nil || f.fn == "" {
		return i
	}
	for j := i + 1; j < len(ts); j++ {
		if ts[j].fn == f.fn {
			return j
		}
	}
	return i
}

func (g *grader) start(ctx context.Context) (*process, error) {
	if g.o.Speaker != nil {
		p, err := startSpeaker(g.o.Speaker, g.o.LabName, g.o.CallTimeout)
		if p != nil {
			p.observe, p.terms = g.o.Observe, g.o.Terms
		}
		return p, err
	}
	if lab := g.o.goLab(); lab != nil {
		return &process{lab: lab, callMax: g.o.CallTimeout, observe: g.o.Observe, terms: g.o.Terms}, nil
	}
	p, err := start(ctx, g.o.Program, g.o.CallTimeout, g.c)
	if p != nil {
		p.observe, p.terms = g.o.Observe, g.o.Terms
	}
	return p, err
}

// goLab is o's Go lab, nil when it grades a program.
func (o *Options) goLab() goLab {
	switch {
	case o.Lab != nil:
		return fencingGo{o.Lab}
	case o.CourierLab != nil:
		return courierGo{o.CourierLab}
	}
	return nil
}

// dbPath is a fresh database file's path.
func (g *grader) dbPath() string {
	g.seq++
	return filepath.Join(g.o.Dir, "jobs-"+strconv.Itoa(g.seq)+".db")
}

// stepNames are the lab's steps, in order, and the function each
// introduces.
var stepNames = []string{"init_db", "enqueue", "state", "claim", "renew", "complete", "release", "claim_many"}

func (g *grader) tests() []testCase {
	if g.o.LabName == Courier {
		return g.courierTests()
	}
	var ts []testCase
	for i, fn := range stepNames {
		name := lang.P("step %d: %s", i+1, fn)
		file := fmt.Sprintf("steps/%d-%s.tl", i+1, strings.ReplaceAll(fn, "_", "-"))
		src, err := stepFiles.ReadFile(file)
		if err != nil {
			panic(err) // embedded: a missing step is a build's mistake
		}
		ts = append(ts, testCase{name: name, fn: fn, run: func(ctx context.Context) (*Failure, error) {
			if f, err := g.timeline(ctx, path.Base(file), string(src)); f != nil || err != nil {
				return f, err
			}
			if extra := stepExtras[fn]; extra != nil {
				return g.withQueue(ctx, extra(g))
			}
			return nil, nil
		}})
	}
	ts = append(ts, g.storyTests()...)
	ts = append(ts, g.mutantTests()...)
	ts = append(ts,
		testCase{name: lang.P("race: two processes claim one job"), skip: g.speakerSkip(), run: func(ctx context.Context) (*Failure, error) {
			return g.raceProcesses(ctx, race{fn: "claim", want: lang.P("1 from one process, %s from the other", g.o.Terms.none()),
				args: func(path, job, owner string) []any { return []any{path, job, owner, int64(0), int64(1000)} }})
		}})
	ts = append(ts, g.overlapTests()...)
	ts = append(ts, testCase{name: lang.P("search: random calls beside the contract"), run: g.search})
	return ts
}

// storyTests are the library's stories, each played on the student's
// code, or skipped saying why the lab's functions cannot tell it.
func (g *grader) storyTests() []testCase {
	var ts []testCase
	for _, name := range timeline.LibraryNames() {
		tl, err := timeline.LoadLibrary(name)
		if err != nil {
			panic(err)
		}
		tc := testCase{name: lang.P("story: %s", name)}
		if why := outside(g.o.LabName, tl); why.Format() != "" {
			tc.skip = why
		} else {
			src, err := timeline.LibrarySource(name)
			if err != nil {
				panic(err)
			}
			tc.run = func(ctx context.Context) (*Failure, error) { return g.timeline(ctx, name, src) }
		}
		ts = append(ts, tc)
	}
	return ts
}

// outside says why a story cannot be told with the functions of the lab
// called lab, "" when it can.
func outside(lab string, tl *timeline.Timeline) lang.Phrase {
	if lab == Courier {
		return outsideCourier(tl)
	}
	return outsideLab(tl)
}

// outsideLab says why a story cannot be told with the lab's functions, ""
// when it can.
func outsideLab(tl *timeline.Timeline) lang.Phrase {
	noColumn := lang.P("its jobs have a quantity, a deadline or an attempts budget, which the lab's table has no column for")
	for _, j := range tl.Jobs {
		if j.Qty > 1 || j.Deadline != 0 || j.MaxAttempts != 0 {
			return noColumn
		}
	}
	for _, s := range tl.Steps {
		switch s.Verb {
		case timeline.VerbDeliver, timeline.VerbWrite, timeline.VerbRead, timeline.VerbSend:
			return lang.P("its %s steps are not one of the lab's functions", string(s.Verb))
		case timeline.VerbEnqueue:
			if s.Qty > 1 || s.Deadline != 0 || s.MaxAttempts != 0 {
				return noColumn
			}
		}
	}
	return lang.Phrase{}
}

// Timeline plays one timeline's text, called name, on o's program (a
// fresh one, on a fresh database in o.Dir) beside the contract: nil when
// the program answered every call and held every row as the contract
// does. The error is for a text that does not parse, a program that
// cannot start, or a timeline the lab's functions cannot tell.
func Timeline(ctx context.Context, o Options, name, src string) (*Failure, error) {
	o.defaults()
	tl, err := timeline.Parse(name, src)
	if err != nil {
		return nil, err
	}
	if why := outside(o.LabName, tl); why.Format() != "" {
		msg := fmt.Sprintf("%s: the %s lab's functions cannot tell it: %s", name, o.LabName, why)
		for _, other := range Labs() {
			if other != o.LabName && outside(other, tl).Format() == "" {
				msg += fmt.Sprintf("; the %s lab's functions can", other)
			}
		}
		return nil, errors.New(msg)
	}
	g := &grader{o: o}
	if err := g.contain(); err != nil {
		return nil, err
	}
	defer endUser(g.c.user, g.o.Dir)
	f, err := g.timeline(ctx, name, src)
	var b *Broken
	if errors.As(err, &b) {
		f, err = &Failure{Broken: b, Call: b.Call}, nil
	}
	if f != nil {
		f.Lab, f.Rule = o.LabName, charge(o.LabName, f)
	}
	return f, err
}

// timeline plays src on a fresh program and database beside the contract.
func (g *grader) timeline(ctx context.Context, name, src string) (*Failure, error) {
	tl, err := timeline.Parse(name, src)
	if err != nil {
		return nil, err
	}
	var f *Failure
	_, err = g.withQueue(ctx, func(ctx context.Context, q *labQueue) (*Failure, error) {
		var run []Played
		d, err := leasetest.TimelineSteps(ctx, tl, asQueue(q), func(int) {
			run = append(run, Played{Calls: q.said, Rows: q.seen})
			q.said = nil
		})
		if err != nil || d == nil {
			return nil, err
		}
		f = failureOf(d, q)
		f.Timeline = src
		f.Run = append(run, Played{Calls: q.said, Rows: d.GotRows})
		return f, nil
	})
	return f, err
}

// withQueue runs fn on a fresh program over a fresh database.
func (g *grader) withQueue(ctx context.Context, fn func(ctx context.Context, q *labQueue) (*Failure, error)) (*Failure, error) {
	p, err := g.start(ctx)
	if err != nil {
		return nil, err
	}
	defer p.close()
	q, err := newLabQueue(ctx, p, g.dbPath())
	if err != nil {
		return nil, err
	}
	q.courier = g.o.LabName == Courier
	defer q.Close()
	return fn(ctx, q)
}

// failureOf is a leasetest Difference in the lab's terms: the call, both
// answers and both tables, and what more only the grader can say (an
// answer not of its function's form, a table that cannot be read, answers
// that agree beside tables that do not, a broken invariant), never the
// engine's operations or the fields the lab's table has no column for.
func failureOf(d *leasetest.Difference, q *labQueue) *Failure {
	f := &Failure{Where: d.Where, Call: q.last.Call, Want: q.last.Want, Got: q.last.Got,
		WantRows: d.WantRows, GotRows: d.GotRows, Broken: q.p.broken, fn: q.last.fn}
	switch {
	case f.Broken != nil: // what broke is the answer
	case q.last.why.Format() != "":
		f.explain(q.last.why)
	case strings.HasPrefix(d.Got, tableError):
		f.explain(lang.P("%s", strings.TrimPrefix(d.Got, tableError)))
	case d.Invariant != "":
		f.explain(lang.P("your answers so far break the contract's invariant %s", d.Invariant))
	case agree(f.Want, f.Got) && !slices.Equal(f.WantRows, f.GotRows):
		f.explain(lang.P("the answers agree, the tables differ"))
	}
	return f
}

// tableError begins a Difference's answer when the student's table could
// not be read; what follows is why, in the lab's terms.
const tableError = "Jobs: error: "
