package grade

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/internal/lang"
	"github.com/leaselab/leaselab/engine/leasetest"
	"github.com/leaselab/leaselab/engine/limits"
)

// stepExtras are the checks of a step that a timeline cannot write: a
// negative ttl, and claim_many's threads, many rounds of eight owners (a
// claim whose read and write are not one transaction lets two win in a
// few).
var stepExtras = map[string]func(g *grader) func(ctx context.Context, q *labQueue) (*Failure, error){
	"claim": func(*grader) func(context.Context, *labQueue) (*Failure, error) {
		return func(ctx context.Context, q *labQueue) (*Failure, error) {
			return lockstep(ctx, q, lang.P("negative ttl"),
				func() { q.Enqueue(ctx, engine.NewJob{ID: "j1"}) },
				func() { q.Claim(ctx, "j1", "A", 0, -5) },
				func() { q.Claim(ctx, "j1", "A", 0, 1000) },
			)
		}
	},
	"renew": func(*grader) func(context.Context, *labQueue) (*Failure, error) {
		return func(ctx context.Context, q *labQueue) (*Failure, error) {
			l := engine.Lease{JobID: "j1", Owner: "A", Token: 1, Qty: 1}
			return lockstep(ctx, q, lang.P("negative ttl"),
				func() { q.Enqueue(ctx, engine.NewJob{ID: "j1"}) },
				func() { q.Claim(ctx, "j1", "A", 0, 1000) },
				func() { q.Renew(ctx, l, 10, -1) },
				func() { q.Renew(ctx, l, 10, 1000) },
			)
		}
	},
	"claim_many": func(g *grader) func(context.Context, *labQueue) (*Failure, error) {
		return func(ctx context.Context, q *labQueue) (*Failure, error) {
			return claimManyRounds(ctx, q, g.o.Rounds, len(owners))
		}
	},
}

// lockstep makes each call on the student's code (and so on the contract)
// and compares the answer and the table after it.
func lockstep(ctx context.Context, q *labQueue, where lang.Phrase, calls ...func()) (*Failure, error) {
	for i, c := range calls {
		c()
		if f, err := q.compare(ctx, lang.P("%s, call %d", where, i+1)); f != nil || err != nil {
			return f, err
		}
	}
	return nil, nil
}

// compare holds the last call's answer and the table to the contract's.
func (q *labQueue) compare(ctx context.Context, where lang.Phrase) (*Failure, error) {
	want := q.shadow.Jobs()
	got, err := q.Jobs(ctx)
	f := (&Failure{Call: q.last.Call, Want: q.last.Want, Got: q.last.Got, WantRows: want, GotRows: got, Broken: q.p.broken, fn: q.last.fn}).at(where)
	switch {
	case q.p.broken != nil:
		return f, nil
	case err != nil:
		f.Detail = err.Error()
		return f, nil
	case !agree(q.last.Want, q.last.Got):
		return f, nil
	case !slices.Equal(want, got):
		f.explain(lang.P("the answers agree, the tables differ"))
		return f, nil
	}
	return nil, nil
}

// owners are the contenders of a claim_many.
var owners = []string{"A", "B", "C", "D", "E", "F", "G", "H"}

// claimManyRounds calls claim_many with n contenders on a fresh job, rounds
// times: the answer must list a fence for exactly one of them, None for
// the rest, in input order; the table must show that one as the owner.
// Then it calls it again while that lease stands: every answer is None.
func claimManyRounds(ctx context.Context, q *labQueue, rounds, n int) (*Failure, error) {
	who := owners[:n]
	for r := range rounds {
		job := fmt.Sprintf("m%d", r+1)
		where := lang.P("round %d", r+1)
		if _, err := q.Enqueue(ctx, engine.NewJob{ID: job}); err != nil && q.p.broken != nil {
			return nil, err
		}
		for i, now := range []int64{0, 500} {
			wantP := manyWant(q.t(), who, i == 0)
			a, err := q.raw(ctx, wantP.String(), "claim_many", q.path, job, who, now, 1000)
			if err != nil {
				f, err := q.brokenAt(err, where)
				if f != nil {
					f.wants(wantP)
				}
				return f, err
			}
			var got []*int64
			f := (&Failure{Call: q.last.Call, Got: q.last.Got}).at(where).wants(wantP)
			if a.Error != "" || json.Unmarshal(a.Return, &got) != nil || len(got) != n {
				f.explain(lang.P("%s must answer a list of %d, one per owner in input order", q.t().fn("claim_many"), n))
				return f, nil
			}
			winner := ""
			for k, v := range got {
				if v != nil {
					if winner != "" || *v != 1 || i == 1 {
						f.explain(lang.P("exactly one owner may win a new job, with fence 1, and none while its lease stands"))
						return f, nil
					}
					winner = who[k]
				}
			}
			if i == 0 {
				if winner == "" {
					f.explain(lang.P("one owner must win a new job"))
					return f, nil
				}
				q.shadow.Claim(job, winner, now, 1000)
			}
			q.last.Want = q.last.Got // the answer is as it must be; now the table
			if f, err := q.compare(ctx, where); f != nil || err != nil {
				if f != nil {
					f.Call, f.Got = q.last.Call, q.last.Got
					f.wants(wantP)
				}
				return f, err
			}
		}
	}
	return nil, nil
}

// manyWant is what claim_many answers, with the winner left open.
func manyWant(t Terms, who []string, first bool) lang.Phrase {
	if !first {
		return lang.P("%s", t.value(make([]any, len(who))))
	}
	return lang.P("a list of %d: 1 for exactly one owner, %s for the others", len(who), t.none())
}

// race is what two processes call at once: fn with args, for a job and
// an owner; want says the answer wanted (exactly one wins).
type race struct {
	fn   string
	want lang.Phrase
	args func(path, job, owner string) []any
}

// raceProcesses runs the program twice over one database file; each round
// both call r.fn for one fresh job at the same instant, and exactly one
// may win.
func (g *grader) raceProcesses(ctx context.Context, rc race) (*Failure, error) {
	return g.withQueue(ctx, func(ctx context.Context, q *labQueue) (*Failure, error) {
		other, err := g.start(ctx)
		if err != nil {
			return nil, err
		}
		defer other.close()
		ps := []*process{q.p, other}
		for r := range g.o.Rounds {
			job := fmt.Sprintf("p%d", r+1)
			if _, err := asQueue(q).Enqueue(ctx, engine.NewJob{ID: job}); err != nil && q.p.broken != nil {
				return nil, err
			}
			var (
				wg      sync.WaitGroup
				answers [2]answer
				errs    [2]error
				calls   [2]string
			)
			for i, p := range ps {
				args := rc.args(q.path, job, owners[i])
				calls[i] = q.t().call(rc.fn, args)
				wg.Add(1)
				go func() {
					defer wg.Done()
					answers[i], errs[i] = p.call(ctx, rc.fn, args...)
				}()
			}
			wg.Wait()
			f := (&Failure{}).calls(lang.P("%s and %s in two processes at once", calls[0], calls[1])).at(lang.P("round %d", r+1)).wants(rc.want)
			for _, err := range errs {
				if err != nil {
					return nil, err
				}
			}
			wins := 0
			for _, a := range answers {
				if a.Error != "" {
					f.Got = q.t().raised(a)
					return f, nil
				}
				if string(a.Return) != "null" {
					wins++
				}
			}
			f.gets(lang.P("%s and %s", q.t().json(answers[0].Return), q.t().json(answers[1].Return)))
			if wins != 1 {
				f.explain(lang.P("the read and the write of a claim must be one transaction (BEGIN IMMEDIATE), or both processes win"))
				f.GotRows, _ = q.Jobs(ctx)
				return f, nil
			}
		}
		return nil, nil
	})
}

// courierOps are the operations the courier's search makes: its
// functions (enqueue with a quantity, a deadline and an attempts budget,
// state, claim_next, finish), claim_next twice as often as the others.
var courierOps = []engine.Op{engine.OpEnqueue, engine.OpState, engine.OpClaimNext, engine.OpClaimNext, engine.OpComplete}

// search runs random sequences beside the contract (leasetest.Sequences)
// on one program, a fresh database each, and reports the shortest that
// differs: of the fencing lab's functions, or of the courier's.
func (g *grader) search(ctx context.Context) (*Failure, error) {
	p, err := g.start(ctx)
	if err != nil {
		return nil, err
	}
	defer p.close()
	fresh := func() (*labQueue, error) {
		q, err := newLabQueue(ctx, p, g.dbPath())
		if q != nil {
			q.courier = g.o.LabName == Courier
		}
		return q, err
	}
	o := leasetest.SequenceOptions{Seed: g.o.Seed, Sequences: g.o.Sequences, Calls: limits.DefaultGrading.SequenceCalls, Plain: true}
	if g.o.LabName == Courier {
		o.Plain, o.Unsigned, o.Ops = false, true, courierOps
	}
	d, err := leasetest.Sequences(ctx, func() (leasetest.Queue, error) {
		q, err := fresh()
		if err != nil {
			return nil, err
		}
		return asQueue(q), nil
	}, o)
	if err != nil || d == nil {
		if p.broken != nil {
			return nil, p.broken
		}
		return nil, err
	}
	// Play the shortest sequence once more, to say its last call in the
	// lab's terms.
	q, err := fresh()
	if err != nil {
		return nil, err
	}
	defer q.Close()
	for _, c := range d.Sequence {
		apply(ctx, asQueue(q), c)
	}
	f := failureOf(d, q)
	f.Timeline = sequenceTimeline(d.Sequence, f)
	return f, nil
}

// apply makes c on q.
func apply(ctx context.Context, q leasetest.Queue, c leasetest.Call) {
	switch c.Op {
	case engine.OpEnqueue:
		q.Enqueue(ctx, c.New)
	case engine.OpState:
		q.Get(ctx, c.Job)
	case engine.OpClaim:
		q.Claim(ctx, c.Job, c.Owner, c.Now, c.TTL)
	case engine.OpClaimNext:
		q.ClaimNext(ctx, c.Owner, c.Now, c.TTL)
	case engine.OpRenew:
		q.Renew(ctx, c.Lease, c.Now, c.TTL)
	case engine.OpComplete:
		q.Complete(ctx, c.Lease, c.Now, c.Result)
	case engine.OpRelease:
		q.Release(ctx, c.Lease)
	}
}

// sequenceTimeline writes calls as a timeline the engine replays: each
// call a step at its instant, presenting its token; a job never enqueued
// is enqueued at the end, so that the timeline may name it.
func sequenceTimeline(calls []leasetest.Call, f *Failure) string {
	var b strings.Builder
	b.WriteString("# The shortest sequence of calls on which your code and the contract differ\n")
	known, named := map[string]bool{}, []string{}
	name := func(j string) string {
		if !known[j] && !slices.Contains(named, j) {
			named = append(named, j)
		}
		return j
	}
	var now int64
	for i, c := range calls {
		if c.Op != engine.OpRelease {
			now = max(now, c.Now)
		}
		if i == len(calls)-1 && f.Got == f.Want {
			b.WriteString("# Here your code answered as the contract does, and its table differs.\n")
		} else if i == len(calls)-1 {
			fmt.Fprintf(&b, "# Here your code answered %s where the contract answers %s.\n", f.Got, f.Want)
		}
		switch c.Op {
		case engine.OpEnqueue:
			known[c.New.ID] = true
			fmt.Fprintf(&b, "%dms admin enqueue %s%s\n", now, c.New.ID, jobFields(c.New))
		case engine.OpState:
			fmt.Fprintf(&b, "%dms admin state %s\n", now, name(c.Job))
		case engine.OpClaim:
			fmt.Fprintf(&b, "%dms %s claim %s ttl=%d\n", now, c.Owner, name(c.Job), c.TTL)
		case engine.OpClaimNext:
			fmt.Fprintf(&b, "%dms %s claim ttl=%d\n", now, c.Owner, c.TTL)
		case engine.OpRenew:
			fmt.Fprintf(&b, "%dms %s renew %s ttl=%d token=%d\n", now, c.Lease.Owner, name(c.Lease.JobID), c.TTL, c.Lease.Token)
		case engine.OpComplete:
			fmt.Fprintf(&b, "%dms %s complete %s token=%d result=%s\n", now, c.Lease.Owner, name(c.Lease.JobID), c.Lease.Token, c.Result)
		case engine.OpRelease:
			fmt.Fprintf(&b, "%dms %s release %s token=%d\n", now, c.Lease.Owner, name(c.Lease.JobID), c.Lease.Token)
		}
	}
	for _, j := range named {
		if !known[j] {
			fmt.Fprintf(&b, "%dms admin enqueue %s  # only so that the timeline may name it\n", now, j)
		}
	}
	return b.String()
}

// jobFields are an enqueue's quantity, deadline and attempts budget as a
// timeline writes them, those not set left out.
func jobFields(j engine.NewJob) string {
	var b strings.Builder
	if j.Qty > 1 {
		fmt.Fprintf(&b, " qty=%d", j.Qty)
	}
	if j.Deadline > 0 {
		fmt.Fprintf(&b, " deadline=%dms", j.Deadline)
	}
	if j.MaxAttempts > 0 {
		fmt.Fprintf(&b, " max_attempts=%d", j.MaxAttempts)
	}
	return b.String()
}
