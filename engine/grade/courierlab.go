package grade

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/internal/lang"
	"github.com/leaselab/leaselab/engine/model"
	"github.com/leaselab/leaselab/engine/timeline"
)

// courierStep is one step of the courier lab: a timeline of calls (file,
// "" for none), then the checks a timeline cannot write (extra, nil for
// none).
type courierStep struct {
	name  string
	file  string
	extra func(ctx context.Context, q *labQueue) (*Failure, error)
}

// courierSteps are the courier lab's steps, in order.
var courierSteps = []courierStep{
	{name: "init_db", file: "1-init-db.tl"},
	{name: "enqueue", file: "2-enqueue.tl"},
	{name: "state", file: "3-state.tl"},
	{name: "claim_next", file: "4-claim-next.tl", extra: func(ctx context.Context, q *labQueue) (*Failure, error) {
		cq := &courierQueue{q}
		return lockstep(ctx, q, lang.P("negative lease_ms"),
			func() { cq.Enqueue(ctx, engine.NewJob{ID: "j1"}) },
			func() { cq.ClaimNext(ctx, "A", 0, -5) },
			func() { cq.ClaimNext(ctx, "A", 0, 1000) },
		)
	}},
	{name: "finish", file: "5-finish.tl"},
	{name: "quarantine", file: "6-quarantine.tl"},
	{name: "deadline", file: "7-deadline.tl"},
	{name: "send", extra: courierSend},
	{name: "receive", extra: courierReceive},
}

// courierTests are the courier lab's tests: its steps, two processes
// claiming the next job at once, the library's stories the courier's
// functions can tell, the mutants' distinguishing timelines (in a build
// with them), and random sequences of its calls beside the contract.
func (g *grader) courierTests() []testCase {
	var ts []testCase
	for i, st := range courierSteps {
		var src []byte
		if st.file != "" {
			var err error
			if src, err = stepFiles.ReadFile(path.Join("steps/courier", st.file)); err != nil {
				panic(err) // embedded: a missing step is a build's mistake
			}
		}
		tc := testCase{name: lang.P("step %d: %s", i+1, st.name)}
		if slices.Contains(labFunctions[Courier], st.name) {
			tc.fn = st.name
		}
		tc.run = func(ctx context.Context) (*Failure, error) {
			if src != nil {
				if f, err := g.timeline(ctx, st.file, string(src)); f != nil || err != nil {
					return f, err
				}
			}
			if st.extra != nil {
				return g.withQueue(ctx, st.extra)
			}
			return nil, nil
		}
		ts = append(ts, tc)
	}
	ts = append(ts, testCase{name: lang.P("step %d: two processes claim the next job at once", len(courierSteps)+1),
		skip: g.speakerSkip(),
		run: func(ctx context.Context) (*Failure, error) {
			return g.raceProcesses(ctx, race{fn: "claim_next", want: lang.P("a marker from one process, %s from the other", g.o.Terms.none()),
				args: func(path, _, owner string) []any { return []any{path, owner, int64(0), int64(1000)} }})
		}})
	ts = append(ts, g.overlapTests()...)
	var told []testCase
	for _, st := range g.storyTests() {
		if st.skip.Format() == "" {
			told = append(told, st)
		}
	}
	if len(told) == 0 {
		told = []testCase{{name: lang.P("stories"), skip: lang.P("every story of the library claims a job by its id, renews or releases, which the courier does not")}}
	}
	ts = append(ts, told...)
	ts = append(ts, g.mutantTests()...)
	return append(ts, testCase{name: lang.P("search: random calls beside the contract"), run: g.search})
}

// outsideCourier says why a story cannot be told with the courier's
// functions, "" when it can.
func outsideCourier(tl *timeline.Timeline) lang.Phrase {
	for _, s := range tl.Steps {
		switch s.Verb {
		case timeline.VerbClaim:
			if s.Job != "" {
				return lang.P("it claims a job by its id; the courier claims the next one")
			}
		case timeline.VerbRenew, timeline.VerbRelease, timeline.VerbDeliver, timeline.VerbWrite, timeline.VerbRead:
			return lang.P("its %s steps are not one of the courier's functions", string(s.Verb))
		case timeline.VerbSend:
			if s.Fail {
				return lang.P("a failed send releases its lease, and the courier has no release")
			}
		}
	}
	return lang.Phrase{}
}

// courierSend calls the student's send four times: a delivery that
// finishes, one that outlives its lease (finish refused), the job sent
// again, and nothing left to send. Inside deliver the grader checks that
// the claim is committed and its lock released (it begins a write
// transaction of its own on the file, waiting for no lock), and that
// deliver got the claim's whole marker; deliver answers the instant the
// delivery ended, at which send finishes.
func courierSend(ctx context.Context, q *labQueue) (*Failure, error) {
	cq := &courierQueue{q}
	if f, err := lockstep(ctx, q, lang.P("enqueue"),
		func() { cq.Enqueue(ctx, engine.NewJob{ID: "order-7", Qty: 2}) },
		func() { cq.Enqueue(ctx, engine.NewJob{ID: "order-8", Qty: 3}) },
	); f != nil || err != nil {
		return f, err
	}
	const leaseMs = 1000
	sends := []struct {
		owner     string
		now, took int64
	}{
		{"A", 0, 100},     // order-7 delivered at 100, finished
		{"B", 1000, 1500}, // order-8's lease ends at 2000, the delivery at 2500: finish refused
		{"C", 2500, 0},    // order-8 again, token 2
		{"D", 3000, 0},    // nothing left
	}
	for i, s := range sends {
		where := lang.P("send %d", i+1)
		sl, serr := q.shadow.ClaimNext(s.owner, s.now, leaseMs)
		want, marker := q.t().none(), ""
		if serr == nil {
			marker = q.t().value(markerOf(sl))
			want = q.t().boolWant(q.shadow.Complete(sl, s.now+s.took, engine.ResultSent) == nil, nil)
		}
		calls, problem := 0, lang.Phrase{}
		q.p.callback = func(fn string, args []json.RawMessage) (any, error) {
			calls++
			if problem.Format() == "" {
				problem = q.duringDeliver(ctx, fn, args, calls, marker, sl)
			}
			return s.now + s.took, nil
		}
		_, err := q.raw(ctx, want, "send", q.path, s.owner, s.now, int64(leaseMs), callbackArg{"deliver"})
		q.p.callback = nil
		if err != nil {
			f, err := q.brokenAt(err, where)
			if f != nil {
				f.Timeline = sendTimeline
			}
			return f, err
		}
		if problem.Format() == "" && marker != "" && calls == 0 {
			problem = lang.P("send must call deliver(marker) once, with the claim's marker %s", marker)
		}
		if problem.Format() != "" {
			f := (&Failure{Call: q.last.Call, Want: want, Got: q.last.Got, WantRows: q.shadow.Jobs()}).at(where).explain(problem)
			f.GotRows, _ = q.Jobs(ctx)
			f.Timeline = sendTimeline
			return f, nil
		}
		if f, err := q.compare(ctx, where); f != nil || err != nil {
			if f != nil {
				f.Timeline = sendTimeline
			}
			return f, err
		}
	}
	return nil, nil
}

// brokenAt is err as the failure of q's last call, at where, when the
// program broke the protocol answering it (the contract's answer beside
// what broke); any other error is returned as it is.
func (q *labQueue) brokenAt(err error, where lang.Phrase) (*Failure, error) {
	var b *Broken
	if !errors.As(err, &b) {
		return nil, err
	}
	return (&Failure{Broken: b, Call: b.Call, Want: q.last.Want}).at(where), nil
}

// sendTimeline is courierSend's sends as a timeline the engine plays
// (the step's file is not played on the student's code: a send step of a
// timeline is claim_next, then finish, not the student's send).
var sendTimeline = func() string {
	src, err := stepFiles.ReadFile("steps/courier/8-send.tl")
	if err != nil {
		panic(err) // embedded
	}
	return string(src)
}()

// duringDeliver checks the student's state while their deliver runs: ""
// when deliver was called once, with the claim's marker, after the claim
// was committed and its lock released; else what was wrong.
func (q *labQueue) duringDeliver(ctx context.Context, fn string, args []json.RawMessage, calls int, marker string, l engine.Lease) lang.Phrase {
	switch {
	case fn != "deliver" || len(args) != 1:
		return lang.P("send called back %s with %d arguments; it may only call deliver(marker)", fn, len(args))
	case marker == "":
		return lang.P("send called deliver, but there was no job to claim: it must return %s without sending", q.t().none())
	case calls > 1:
		return lang.P("send called deliver twice for one claim")
	case q.t().json(args[0]) != marker:
		return lang.P("deliver got %s; the claim's whole marker is %s", q.t().json(args[0]), marker)
	}
	free, err := q.writeLockFree(ctx)
	switch {
	case err != nil:
		return lang.P("while deliver ran, the grader could not read the database: %s", err.Error())
	case !free:
		return lang.P("while deliver ran, the database was still locked: commit the claim (and so release its lock) before sending; a send inside the transaction blocks every other worker's claim and every enqueue for as long as the network takes")
	}
	rows, err := q.Jobs(ctx)
	if err != nil {
		return lang.P("while deliver ran, the grader could not read the table: %s", err.Error())
	}
	for _, r := range rows {
		if r.ID == l.JobID && r.Owner == l.Owner && r.Token == l.Token && r.Status == engine.StatusLeased {
			return lang.Phrase{}
		}
	}
	return lang.P("while deliver ran, another connection did not see %s leased to %s with token %d: commit the claim before sending", l.JobID, l.Owner, l.Token)
}

// courierReceive calls the student's receive with first sends and
// resends, and after each holds the answer and the table received(
// business_id, qty) to the idempotent receiver's.
func courierReceive(ctx context.Context, q *labQueue) (*Failure, error) {
	r := model.NewReceiver()
	var want []string
	calls := []struct {
		id  string
		qty int64
	}{{"order-7", 2}, {"order-7", 2}, {"order-8", 3}, {"order-7", 5}, {"order-8", 3}}
	for i, c := range calls {
		ok, _ := r.Deliver(engine.Lease{JobID: c.id, Qty: c.qty})
		if ok {
			want = append(want, fmt.Sprintf("%s %d", c.id, c.qty))
		}
		if _, err := q.raw(ctx, q.t().boolWant(ok, nil), "receive", q.path, c.id, c.qty); err != nil {
			return q.brokenAt(err, lang.P("receive %d", i+1))
		}
		got, err := q.received(ctx)
		if err == nil && agree(q.last.Want, q.last.Got) && slices.Equal(got, want) {
			continue
		}
		f := (&Failure{Call: q.last.Call, Want: q.last.Want, Got: q.last.Got}).at(lang.P("receive %d", i+1))
		if err != nil {
			f.Detail = err.Error()
		} else {
			f.explain(lang.P("the table received(business_id, qty) after the call:\n  contract: %s\n  yours:    %s\na resend of a business id adds nothing: the receiver records the id and its quantity once",
				strings.Join(want, "; "), strings.Join(got, "; ")))
		}
		return f, nil
	}
	return nil, nil
}

// received reads the student's table received(business_id, qty), a row
// "ID QTY" each, in the order inserted.
func (q *labQueue) received(ctx context.Context) ([]string, error) {
	if _, err := q.Jobs(ctx); err != nil { // opens the reader
		return nil, err
	}
	rows, err := q.db.QueryContext(ctx, "SELECT business_id, qty FROM received ORDER BY rowid")
	if err != nil {
		return nil, fmt.Errorf("reading the table received(business_id, qty): %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		var qty int64
		if err := rows.Scan(&id, &qty); err != nil {
			return nil, fmt.Errorf("reading the table received: %w", err)
		}
		out = append(out, fmt.Sprintf("%s %d", id, qty))
	}
	return out, rows.Err()
}
