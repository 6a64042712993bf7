package leasetest_test

import (
	"context"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/check"
	"github.com/leaselab/leaselab/engine/internal/testkit/nativeonly"
	"github.com/leaselab/leaselab/engine/leasetest"
	"github.com/leaselab/leaselab/engine/leasetest/enginetest"
	"github.com/leaselab/leaselab/engine/sqlitedb"
	"github.com/leaselab/leaselab/engine/timeline"
	"github.com/leaselab/leaselab/engine/timeline/memrun"
)

func TestRun_LeaselabsEnginePasses(t *testing.T) {
	leasetest.Run(t, enginetest.Engine)
}

// The engine keeps the contract on a WAL file database as on memory.
func TestRun_LeaselabsEngineOnAWALFilePasses(t *testing.T) {
	nativeonly.Test(t, "a file database")
	leasetest.Run(t, func(t *testing.T) leasetest.Queue {
		db, err := sqlitedb.OpenWith(filepath.Join(t.TempDir(), "jobs.db"), sqlitedb.Options{WAL: true, MaxOpenConns: 4})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		s, err := engine.New(t.Context(), db)
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}

func TestRun_ModelPasses(t *testing.T) {
	leasetest.Run(t, func(*testing.T) leasetest.Queue { return leasetest.Model() })
}

// lateRenew accepts a renew at lease_until: it revives an ended lease.
type lateRenew struct{ leasetest.Queue }

func (q lateRenew) Renew(ctx context.Context, l engine.Lease, now, ttl int64) (engine.Lease, error) {
	if j, err := q.Get(ctx, l.JobID); err == nil && j != nil && j.LeaseUntil == now && j.Token == l.Token {
		l.LeaseUntil = now + ttl
		return l, nil // and writes nothing: the rows differ too
	}
	return q.Queue.Renew(ctx, l, now, ttl)
}

// staleComplete completes by job id alone: any token is taken.
type staleComplete struct{ leasetest.Queue }

func (q staleComplete) Complete(ctx context.Context, l engine.Lease, now int64, result string) error {
	if j, err := q.Get(ctx, l.JobID); err == nil && j != nil && j.Status == engine.StatusLeased {
		l.Owner, l.Token = j.Owner, j.Token
	}
	return q.Queue.Complete(ctx, l, now, result)
}

func libraryTimeline(t *testing.T, name string) *timeline.Timeline {
	t.Helper()
	tl, err := timeline.LoadLibrary(name)
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

func TestTimeline_NamesTheLineCallAndAnswersOfAStaleComplete(t *testing.T) {
	d, err := leasetest.Timeline(t.Context(), libraryTimeline(t, "01-late-courier.tl"), staleComplete{enginetest.Engine(t)})
	if err != nil {
		t.Fatal(err)
	}
	if d == nil {
		t.Fatal("a queue that takes a stale complete passed the late courier")
	}
	msg := d.Error()
	for _, want := range []string{
		"01-late-courier.tl:",
		`Complete(order-7 A#1, now=1001, "A")`,
		"want refused superseded, got ok",
		"rows want:\n  order-7 leased",
		"rows got: \n  order-7 done",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("the difference does not say %q:\n%s", want, msg)
		}
	}
	if d.Want != "refused superseded" || d.Got != "ok" {
		t.Errorf("want/got = %q/%q", d.Want, d.Got)
	}
}

func TestSequences_ShrinksALateRenewToItsFewestCalls(t *testing.T) {
	newQueue := func() (leasetest.Queue, error) { return lateRenew{leasetest.Model()}, nil }
	d, err := leasetest.Sequences(t.Context(), newQueue, leasetest.SequenceOptions{Seed: 1, Sequences: 500})
	if err != nil {
		t.Fatal(err)
	}
	if d == nil {
		t.Fatal("500 random sequences missed a renew accepted at lease_until")
	}
	// The fewest calls that show it: enqueue, claim, renew at lease_until.
	if len(d.Sequence) != 3 {
		t.Errorf("shrunk to %d calls, want 3:\n%v", len(d.Sequence), d)
	}
	last := d.Sequence[len(d.Sequence)-1]
	if last.Op != engine.OpRenew || last != d.Call || d.Got == d.Want || !strings.HasPrefix(d.Want, "refused expired") {
		t.Errorf("the difference is not the late renew's:\n%v", d)
	}
	if !strings.Contains(d.Error(), "shortest failing sequence (3 calls):") || d.Where != "call 3" {
		t.Errorf("the message does not give the sequence:\n%v", d)
	}
}

// nextOnly claims only the next job: it has no claim by id, renew or
// release.
type nextOnly struct{ leasetest.Queue }

var errNextOnly = errors.New("this queue claims only the next job")

func (nextOnly) Claim(context.Context, string, string, int64, int64) (engine.Lease, error) {
	return engine.Lease{}, errNextOnly
}

func (nextOnly) Renew(context.Context, engine.Lease, int64, int64) (engine.Lease, error) {
	return engine.Lease{}, errNextOnly
}

func (nextOnly) Release(context.Context, engine.Lease) error { return errNextOnly }

// With Ops a queue that has only some operations is searched on those
// alone: a correct one passes, a broken one is still found; without Ops
// the operations it lacks are made.
func TestSequences_MakesOnlyTheOperationsGiven(t *testing.T) {
	ops := []engine.Op{engine.OpEnqueue, engine.OpState, engine.OpClaimNext, engine.OpClaimNext, engine.OpComplete}
	correct := func() (leasetest.Queue, error) { return nextOnly{leasetest.Model()}, nil }
	d, err := leasetest.Sequences(t.Context(), correct, leasetest.SequenceOptions{Seed: 1, Sequences: 300, Ops: ops})
	if err != nil || d != nil {
		t.Fatalf("a correct next-only queue differs within its operations (%v):\n%v", err, d)
	}
	d, err = leasetest.Sequences(t.Context(), correct, leasetest.SequenceOptions{Seed: 1, Sequences: 300})
	if err != nil || d == nil || (d.Call.Op != engine.OpClaim && d.Call.Op != engine.OpRenew && d.Call.Op != engine.OpRelease) {
		t.Fatalf("without Ops the search made no claim by id, renew or release (%v):\n%v", err, d)
	}
	broken := func() (leasetest.Queue, error) { return nextOnly{staleComplete{leasetest.Model()}}, nil }
	d, err = leasetest.Sequences(t.Context(), broken, leasetest.SequenceOptions{Seed: 1, Sequences: 300, Ops: ops})
	if err != nil || d == nil {
		t.Fatalf("300 sequences of %v missed a complete by id alone (%v)", ops, err)
	}
	for _, c := range d.Sequence {
		if !slices.Contains(ops, c.Op) {
			t.Errorf("the sequence makes %s, not one of %v:\n%v", c.Op, ops, d)
		}
	}
	if d.Call.Op != engine.OpComplete || d.Want == d.Got {
		t.Errorf("the difference is not the stale complete's:\n%v", d)
	}
}

func TestTimeline_FailsARenewAtLeaseUntilAtItsLine(t *testing.T) {
	d, err := leasetest.Timeline(t.Context(), libraryTimeline(t, "03-lease-boundary.tl"), lateRenew{enginetest.Engine(t)})
	if err != nil {
		t.Fatal(err)
	}
	if d == nil {
		t.Fatal("the lease-boundary timeline passed a renew at lease_until")
	}
	// Line 15: 2999ms B renew parcel-2 -> refused expired.
	if d.Where != "03-lease-boundary.tl:15" || d.Call.Op != engine.OpRenew || d.Call.Now != 2999 ||
		d.Want != "refused expired" || !strings.HasPrefix(d.Got, "ok B#2") {
		t.Errorf("the difference is not line 15's renew:\n%v", d)
	}
}

func TestRunTimelines_RunsAFoldersTimelinesOnTheEngine(t *testing.T) {
	enginetest.RunTimelines(t, "testdata/timelines", enginetest.Engine)
}

func TestSource_FailsAtTheLineOfAWrongExpectation(t *testing.T) {
	src := "lease 1000ms\njob a\n0ms A claim a -> ok token=1\n1000ms B claim a -> refused held\n"
	errs := enginetest.Source(t.Context(), "mine.tl", src, nil)
	if len(errs) != 1 || !strings.HasPrefix(errs[0].Error(), "mine.tl:4: expected refused held, got ok") {
		t.Fatalf("errors %q, want one at mine.tl:4", errs)
	}
}

func TestSource_FailsAtTheColumnOfAMistake(t *testing.T) {
	errs := enginetest.Source(t.Context(), "mine.tl", "0ms A compleat a\n", nil)
	if len(errs) != 1 || !strings.HasPrefix(errs[0].Error(), "mine.tl:1:") {
		t.Fatalf("errors %q, want one at mine.tl:1:COL", errs)
	}
}

func TestSource_ComparesTheQueueAfterTheExpectations(t *testing.T) {
	src := "lease 1000ms\njob a\n0ms A claim a -> ok token=1\n1000ms B claim a -> ok token=2\n1001ms A complete a -> refused superseded\n"
	if errs := enginetest.Source(t.Context(), "mine.tl", src, enginetest.Engine(t)); errs != nil {
		t.Fatalf("the engine failed: %q", errs)
	}
	errs := enginetest.Source(t.Context(), "mine.tl", src, staleComplete{enginetest.Engine(t)})
	if len(errs) != 1 || !strings.HasPrefix(errs[0].Error(), "mine.tl:5: Complete(a A#1, now=1001, \"A\"): want refused superseded, got ok") {
		t.Fatalf("errors %q, want the stale complete at mine.tl:5", errs)
	}
}

func TestGoTest_WritesATestOfTheCallersQueue(t *testing.T) {
	src, err := timeline.LibrarySource("01-late-courier.tl")
	if err != nil {
		t.Fatal(err)
	}
	out, err := leasetest.GoTest("01-late-courier.tl", src, "worker_test", "TestLateCourier", "newQueue")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"package worker_test\n",
		`enginetest.RunTimeline(t, "01-late-courier.tl", testLateCourierSource, newQueue)`,
		"const testLateCourierSource = `# ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the test lacks %q:\n%s", want, out)
		}
	}
	for _, bad := range []struct{ pkg, fn, queue string }{
		{"worker", "TestX", ""}, {"worker", "TestX", "new("}, {"my-worker", "TestX", "q"}, {"worker", "testX", "q"},
	} {
		if _, err := leasetest.GoTest("01-late-courier.tl", src, bad.pkg, bad.fn, bad.queue); err == nil {
			t.Errorf("GoTest(%+v) took it", bad)
		}
	}
}

// Workers racing on leaselab's engine, each call stamped with the instants
// it was invoked and answered on one shared counter, make a history
// check.History finds nothing wrong in.
func TestHistory_RacingWorkersOnTheEngineBreakNoInvariant(t *testing.T) {
	q := enginetest.Engine(t)
	ctx := t.Context()
	for _, id := range []string{"a", "b", "c"} {
		if _, err := q.Enqueue(ctx, engine.NewJob{ID: id}); err != nil {
			t.Fatal(err)
		}
	}
	var (
		tick    atomic.Int64
		mu      sync.Mutex
		history []check.Call
		wg      sync.WaitGroup
	)
	record := func(op check.Op, start int64) {
		mu.Lock()
		history = append(history, check.Call{Op: op, Start: start, End: tick.Add(1)})
		mu.Unlock()
	}
	for w := range 4 {
		owner := string(rune('A' + w))
		wg.Go(func() {
			var old engine.Lease
			for i := range 25 {
				start := tick.Add(1)
				l, err := q.ClaimNext(ctx, owner, start, 6)
				record(check.Op{Kind: engine.OpClaimNext, JobID: l.JobID, Owner: owner, Now: start, Accepted: err == nil, Lease: l}, start)
				if err != nil {
					continue
				}
				present := l
				if i%3 == 0 && old.JobID != "" {
					present = old // a stale lease now and then
				}
				start = tick.Add(1)
				op := check.Op{JobID: present.JobID, Owner: owner, Token: present.Token, Now: start}
				switch i % 4 {
				case 0, 1:
					op.Kind = engine.OpRenew
					op.Lease, err = q.Renew(ctx, present, start, 6)
				case 2:
					op.Kind, op.Now = engine.OpRelease, 0
					err = q.Release(ctx, present)
				default:
					op.Kind = engine.OpComplete
					err = q.Complete(ctx, present, start, "r")
				}
				op.Accepted = err == nil
				record(op, start)
				old = l
			}
		})
	}
	wg.Wait()
	accepted := 0
	for _, c := range history {
		if c.Accepted {
			accepted++
		}
	}
	if vs := check.History(history); len(vs) > 0 || accepted < 10 {
		t.Fatalf("%d calls, %d accepted; violations: %v", len(history), accepted, vs)
	}
}

// A service clock that jumps and drifts, and slow sends that others act
// inside: the reference model, played at the nows and in the order
// Timeline gives each call, ends with the rows the timeline runner's engine
// ends with (so both judge every lease on the service's clock as it moved,
// and hear a slow send back at its end), the engine answers every call as
// the model does, and the runner's checker finds no violation.
func TestTimeline_ModelAgreesWithTheRunnerOnMovingClocksAndSlowSends(t *testing.T) {
	for _, src := range []string{
		"service clock +0ms\nclock A +100ms\nlease 1000ms\njob j\n0ms A claim j\n500ms service jump +500ms\n500ms B claim j\n900ms A renew j\n",
		"service clock +0ms\nlease 1000ms\njob j\njob k\n0ms service drift +100ms/s\n0ms A claim j\n909ms B claim j\n910ms B claim j\n950ms service jump -300ms\n960ms C claim k\n1200ms D send took=300ms\n",
		"service clock +200ms\nlease 1000ms\njob j\n0ms A claim j\n100ms service drift -500ms/s\n1500ms A renew j\n1600ms service jump -100ms\n2500ms B claim j\n",
		"lease 1000ms\njob j\n0ms A send took=1500ms\n999ms B claim j\n",
		"lease 1000ms\njob j\n0ms A send took=1500ms\n1000ms B claim j\n",
		"lease 1000ms\njob j\njob k\n0ms A send took=1500ms\n200ms B send took=500ms\n1500ms C claim j\n",
		"lease 1000ms\njob j\n0ms A send fail=true took=300ms\n100ms B claim j\n300ms C claim j\n",
		"service clock +0ms\nlease 1000ms\njob j\n0ms A send took=1500ms\n500ms service jump +600ms\n600ms B claim j\n",
	} {
		tl, err := timeline.Parse("t.tl", src)
		if err != nil {
			t.Fatal(err)
		}
		if errs := enginetest.Source(t.Context(), "t.tl", src, enginetest.Engine(t)); len(errs) > 0 {
			t.Errorf("%q: %v", src, errs)
		}
		model := leasetest.Model()
		if d, err := leasetest.Timeline(t.Context(), tl, model); d != nil || err != nil {
			t.Fatalf("%v %v", d, err)
		}
		jobs, _ := model.Jobs(t.Context())
		tr, err := memrun.Run(t.Context(), tl, timeline.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(jobs) != len(tr.Final) {
			t.Fatalf("%d rows, the runner %d", len(jobs), len(tr.Final))
		}
		for i, j := range jobs {
			r := tr.Final[i]
			if j.ID != r.ID || j.Owner != r.Owner || j.Token != r.Token || j.LeaseUntil != r.LeaseUntil || string(j.Status) != r.Status {
				t.Errorf("%q: the model's %+v, the runner's %+v", src, j, r)
			}
		}
	}
}

// lateComplete accepts a complete at lease_until.
type lateComplete struct{ leasetest.Queue }

func (q lateComplete) Complete(ctx context.Context, l engine.Lease, now int64, result string) error {
	if j, err := q.Get(ctx, l.JobID); err == nil && j != nil && j.LeaseUntil == now && j.Token == l.Token && j.Deadline != now {
		return nil // and writes nothing: the rows differ too
	}
	return q.Queue.Complete(ctx, l, now, result)
}

// heldAtLeaseUntil refuses a claim at lease_until as held: the lease is
// taken to end one ms later than it does.
type heldAtLeaseUntil struct{ leasetest.Queue }

func (q heldAtLeaseUntil) Claim(ctx context.Context, id, owner string, now, ttl int64) (engine.Lease, error) {
	if j, err := q.Get(ctx, id); err == nil && j != nil && j.Status == engine.StatusLeased && j.LeaseUntil == now {
		return engine.Lease{}, &engine.Rejection{Op: string(engine.OpClaim), Reason: engine.ErrHeld, Current: *j, Now: now}
	}
	return q.Queue.Claim(ctx, id, owner, now, ttl)
}

// The random sequences alone, as Run makes them and from any starting seed,
// find a queue that is off by one ms at lease_until: time is moved onto
// the boundaries, not left to land there by chance.
func TestSequences_FindsEveryLeaseUntilOffByOneWhateverTheSeed(t *testing.T) {
	for name, wrap := range map[string]func(leasetest.Queue) leasetest.Queue{
		"renew at lease_until accepted":    func(q leasetest.Queue) leasetest.Queue { return lateRenew{q} },
		"complete at lease_until accepted": func(q leasetest.Queue) leasetest.Queue { return lateComplete{q} },
		"claim at lease_until held":        func(q leasetest.Queue) leasetest.Queue { return heldAtLeaseUntil{q} },
	} {
		newQueue := func() (leasetest.Queue, error) { return wrap(leasetest.Model()), nil }
		for seed := range uint64(20) {
			d, err := leasetest.Sequences(t.Context(), newQueue, leasetest.SequenceOptions{Seed: leasetest.Seed + seed})
			if err != nil {
				t.Fatal(err)
			}
			if d == nil {
				t.Errorf("%s: seed %d's sequences missed it", name, leasetest.Seed+seed)
			}
		}
	}
}

// Every invalid argument the suite presents is one engine.ErrInvalid's
// documentation lists, so a Queue written from that list passes: the
// engine refuses it as invalid, and the list names it.
func TestQueue_EveryInvalidLeaseTheSuitePresentsIsDocumented(t *testing.T) {
	nativeonly.Test(t, "the engine's source")
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join("..", "errors.go"), nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var doc string
	ast.Inspect(f, func(n ast.Node) bool {
		if v, ok := n.(*ast.ValueSpec); ok && len(v.Names) == 1 && v.Names[0].Name == "ErrInvalid" {
			doc = v.Doc.Text()
		}
		return doc == ""
	})
	q := enginetest.Engine(t)
	if _, err := q.Enqueue(t.Context(), engine.NewJob{ID: "a"}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		lease  engine.Lease
		listed string
	}{
		{engine.Lease{JobID: "a", Owner: "A", Token: -1}, "negative token"},
		{engine.Lease{JobID: "a", Owner: "", Token: 0}, "empty id or owner"},
		{engine.Lease{JobID: "", Owner: "A", Token: 0}, "empty id or owner"},
	} {
		if err := q.Complete(t.Context(), tc.lease, 0, "r"); !errors.Is(err, engine.ErrInvalid) {
			t.Errorf("Complete(%+v) = %v, want ErrInvalid", tc.lease, err)
		}
		if !strings.Contains(strings.Join(strings.Fields(doc), " "), tc.listed) {
			t.Errorf("ErrInvalid's doc does not list %q (for %+v):\n%s", tc.listed, tc.lease, doc)
		}
	}
}
