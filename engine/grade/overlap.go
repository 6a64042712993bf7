package grade

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/history"
	"github.com/leaselab/leaselab/engine/internal/lang"
	"github.com/leaselab/leaselab/engine/model"
)

// An overlap is the race a lease exists for: the holder's late call at
// the end of its lease, in one process, at the instant another process
// claims the job. Each round, on a job of its own in the race's database
// file (the jobs of the rounds before it are done): A enqueues it and
// claims it at 0 for 1000 ms; then, at once, A makes its late call at
// 999 (release: at any time) and B claims at 1000; then B finishes what
// it got at 1500. Every call is recorded with the instants it was sent
// and answered, and the round's history is checked for linearizability
// against the contract (package engine/history): some order of the calls,
// each taking effect between its sending and its answer, must give every
// answer the student's code gave. A check made in one statement and a
// write made in another (no one BEGIN IMMEDIATE around both) lets the
// late call and the claim both succeed, which no order allows.
type overlap struct {
	fn string // the late call: complete, renew, release (the fencing lab's) or finish (the courier's)
}

// overlapTTL is the lease A and B claim for.
const overlapTTL = 1000

// overlapTests are the lab's overlaps, one test each.
func (g *grader) overlapTests() []testCase {
	fns := []string{"complete", "renew", "release"}
	if g.o.LabName == Courier {
		fns = []string{"finish"}
	}
	var ts []testCase
	for _, fn := range fns {
		claim := "claim"
		if g.o.LabName == Courier {
			claim = "claim_next"
		}
		tc := testCase{name: lang.P("race: an old holder's %s at its lease's end against a new %s, two processes", fn, claim),
			run: func(ctx context.Context) (*Failure, error) { return g.overlap(ctx, overlap{fn: fn}) }}
		tc.skip = g.oneAtATime()
		ts = append(ts, tc)
	}
	return ts
}

// oneAtATime says why two calls at once cannot run here ("" when they
// can): the page's JavaScript has one thread, and a Speaker shares the
// grader's.
func (g *grader) oneAtATime() lang.Phrase {
	switch {
	case g.o.Speaker != nil:
		return lang.P("two programs at once cannot run here: the program shares the grader's one thread (leaselab grade runs it)")
	case oneThread:
		return lang.P("two calls at once cannot run here: the page's JavaScript has one thread (leaselab grade runs it)")
	}
	return lang.Phrase{}
}

// speakerSkip is oneAtATime for a Speaker only: a Go or JavaScript lab
// in one thread still races its two processes' calls in turn.
func (g *grader) speakerSkip() lang.Phrase {
	if g.o.Speaker == nil {
		return lang.Phrase{}
	}
	return g.oneAtATime()
}

// overlap plays o's rounds on two programs.
func (g *grader) overlap(ctx context.Context, o overlap) (*Failure, error) {
	var ps [2]*process
	for i := range ps {
		p, err := g.start(ctx)
		if err != nil {
			return nil, err
		}
		defer p.close()
		ps[i] = p
	}
	path := g.dbPath()
	for _, p := range ps {
		if _, err := p.call(ctx, "init_db", path); err != nil {
			return nil, err
		}
	}
	for r := range overlapRounds(g.o.Rounds) {
		rd := &overlapRound{g: g, o: o, path: path, rec: history.NewRecorder(), ps: ps, round: r + 1, markers: map[string]map[string]any{}}
		if f, err := rd.play(ctx); f != nil || err != nil {
			return f, err
		}
	}
	return nil, nil
}

// overlapRounds is how many rounds an overlap plays when each race plays
// rounds: ten, each behind the grader's lock (a check-then-act escapes one
// such round half the time: all ten, one grading in a thousand), or
// rounds when that is fewer.
func overlapRounds(rounds int) int { return min(rounds, 10) }

// overlapRound is one round of an overlap: its file, its programs (A's
// and B's) and the calls recorded.
type overlapRound struct {
	g     *grader
	o     overlap
	path  string
	rec   *history.Recorder
	ps    [2]*process
	round int
	// calls are the round's calls as the student's language writes them,
	// with their answers, in the order they were sent.
	mu    sync.Mutex
	calls []string
	// markers are the courier's markers as claim_next gave them, by owner.
	markers map[string]map[string]any
}

// labCallOf is one call of a round: the process (0 A, 1 B), the lab's
// function and its arguments after the path, and the history's terms.
type labCallOf struct {
	who  int
	fn   string
	args []any
	op   engine.Op
	h    history.Args
}

// play plays the round and checks it: nil when its history fits the
// contract.
func (rd *overlapRound) play(ctx context.Context) (*Failure, error) {
	courier := rd.g.o.LabName == Courier
	job := fmt.Sprintf("o%d", rd.round)
	enq := labCallOf{0, "enqueue", []any{job}, engine.OpEnqueue, history.Args{Job: job}}
	claimA := labCallOf{0, "claim", []any{job, "A", int64(0), int64(overlapTTL)}, engine.OpClaim, history.Args{Job: job, Owner: "A", Now: 0, TTL: overlapTTL}}
	if courier {
		enq = labCallOf{0, "enqueue", []any{job, int64(1), nil, int64(0)}, engine.OpEnqueue, history.Args{Job: job, Qty: 1}}
		claimA = labCallOf{0, "claim_next", []any{"A", int64(0), int64(overlapTTL)}, engine.OpClaimNext, history.Args{Owner: "A", Now: 0, TTL: overlapTTL}}
	}
	if _, f, err := rd.do(ctx, enq); f != nil || err != nil {
		return f, err
	}
	a, f, err := rd.do(ctx, claimA)
	if f != nil || err != nil || a.Outcome != engine.OutcomeOK {
		return f, err
	}
	late, claimB := rd.late(a), rd.claimAt(1, "B", 1000)
	var answers [2]history.Answer
	var fs [2]*Failure
	var errs [2]error
	var wg sync.WaitGroup
	release, err := rd.hold(ctx)
	if err != nil {
		return nil, err
	}
	lag := rd.lag()
	var sent sync.WaitGroup
	sent.Add(2)
	for i, c := range []labCallOf{late, claimB} {
		wg.Go(func() {
			if (i == 1) == (lag > 0) {
				spin(max(lag, -lag))
			}
			sent.Done()
			answers[i], fs[i], errs[i] = rd.do(ctx, c)
		})
	}
	sent.Wait()
	release()
	wg.Wait()
	for i := range errs {
		if fs[i] != nil || errs[i] != nil {
			return fs[i], errs[i]
		}
	}
	if b := answers[1]; b.Outcome == engine.OutcomeOK {
		if _, f, err := rd.do(ctx, rd.finishB(b, job)); f != nil || err != nil {
			return f, err
		}
	}
	return rd.check(ctx, late, claimB, answers)
}

// lagStep and lagSteps sweep how much later one call of a round's pair is
// sent than the other: from B lagSteps*lagStep behind A to A as far behind
// B, a step a round, so that each comes first to the grader's lock in
// some rounds.
const (
	lagStep  = 100 * time.Microsecond
	lagSteps = 10
)

// holdFor is how long the grader holds the file's write lock, in the
// rounds that hold it, after both calls were sent: long enough for both
// to reach the lock.
const holdFor = 15 * time.Millisecond

// hold begins a write transaction of the grader's
// own on the round's file (the student's calls then block on its lock, as
// they would behind a third worker's), and returns what ends it holdFor
// after it is called (once both calls are sent). A call that checks in
// one statement and writes in another makes its check while the lock is
// held and waits to write; the claim waits to begin; whichever goes first
// when the lock is let go, the check-then-act wins half the time by a
// stale check, however fast the machine.
func (rd *overlapRound) hold(ctx context.Context) (release func(), err error) {
	db, err := openTable(rd.path)
	if err != nil {
		return nil, err
	}
	c, err := db.Conn(ctx)
	if err == nil {
		_, err = c.ExecContext(ctx, "BEGIN IMMEDIATE")
	}
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("holding the student's file: %w", err)
	}
	return func() {
		time.Sleep(holdFor)
		c.ExecContext(ctx, "ROLLBACK")
		c.Close()
		db.Close()
	}, nil
}

// lag is how much later B's call is sent than A's this round (negative:
// A's later than B's).
func (rd *overlapRound) lag() time.Duration {
	return time.Duration(rd.round%(2*lagSteps+1)-lagSteps) * lagStep
}

// spin waits d, busy: a sleep of tens of µs is as long as the scheduler's
// tick.
func spin(d time.Duration) {
	for start := time.Now(); time.Since(start) < d; {
	}
}

// late is A's late call on the lease a gave it.
func (rd *overlapRound) late(a history.Answer) labCallOf {
	job := a.Job
	h := history.Args{Job: job, Owner: "A", Token: a.Token}
	switch rd.o.fn {
	case "complete":
		h.Now, h.Result = 999, "A-late"
		return labCallOf{0, "complete", []any{job, "A", a.Token, h.Now, h.Result}, engine.OpComplete, h}
	case "renew":
		h.Now, h.TTL = 999, overlapTTL
		return labCallOf{0, "renew", []any{job, "A", a.Token, h.Now, h.TTL}, engine.OpRenew, h}
	case "finish":
		h.Now, h.Result = 999, "A-late"
		return labCallOf{0, "finish", []any{rd.marker("A"), h.Now, h.Result}, history.OpFinish, h}
	}
	return labCallOf{0, "release", []any{job, "A", a.Token}, engine.OpRelease, h}
}

// claimAt is process who's claim (claim_next in the courier lab) as owner
// at now.
func (rd *overlapRound) claimAt(who int, owner string, now int64) labCallOf {
	if rd.g.o.LabName == Courier {
		return labCallOf{who, "claim_next", []any{owner, now, int64(overlapTTL)}, engine.OpClaimNext, history.Args{Owner: owner, Now: now, TTL: overlapTTL}}
	}
	job := fmt.Sprintf("o%d", rd.round)
	return labCallOf{who, "claim", []any{job, owner, now, int64(overlapTTL)}, engine.OpClaim, history.Args{Job: job, Owner: owner, Now: now, TTL: overlapTTL}}
}

// finishB is B finishing at 1500 the lease b gave it.
func (rd *overlapRound) finishB(b history.Answer, job string) labCallOf {
	h := history.Args{Job: b.Job, Owner: "B", Token: b.Token, Now: 1500, Result: "B"}
	if rd.g.o.LabName == Courier {
		return labCallOf{1, "finish", []any{rd.marker("B"), h.Now, h.Result}, history.OpFinish, h}
	}
	h.Job = job
	return labCallOf{1, "complete", []any{job, "B", b.Token, h.Now, h.Result}, engine.OpComplete, h}
}

// marker is the courier's marker claim_next gave owner.
func (rd *overlapRound) marker(owner string) map[string]any {
	rd.mu.Lock()
	defer rd.mu.Unlock()
	return rd.markers[owner]
}

// do makes c on its process, recorded: the answer in the history's terms,
// or the failure of an answer that is none of the function's.
func (rd *overlapRound) do(ctx context.Context, c labCallOf) (history.Answer, *Failure, error) {
	args := append([]any{rd.path}, c.args...)
	text := rd.g.o.Terms.call(c.fn, args)
	h := rd.rec.Invoke([]string{"A", "B"}[c.who], c.op, c.h)
	raw, err := rd.ps[c.who].call(ctx, c.fn, args...)
	if err != nil {
		return history.Answer{}, nil, err
	}
	a, bad := labAnswer(c, raw)
	rd.rec.Return(h, a)
	rd.mu.Lock()
	rd.calls = append(rd.calls, text+" → "+rd.answerText(raw))
	if c.fn == "claim_next" && a.Outcome == engine.OutcomeOK {
		var m map[string]any
		if json.Unmarshal(raw.Return, &m) == nil {
			rd.markers[c.h.Owner] = m
		}
	}
	rd.mu.Unlock()
	if bad != "" {
		f := (&Failure{Call: text, Got: rd.answerText(raw), fn: c.fn}).at(lang.P("round %d", rd.round)).wants(lang.P("%s", bad))
		return a, f, nil
	}
	return a, nil, nil
}

// answerText is an answer as the report shows it, in the student's terms.
func (rd *overlapRound) answerText(a answer) string {
	if a.Error != "" {
		return rd.g.o.Terms.raised(a)
	}
	return rd.g.o.Terms.json(a.Return)
}

// labAnswer is the student's answer to c in the history's terms, or why
// it is no answer c's function may give.
func labAnswer(c labCallOf, a answer) (history.Answer, string) {
	if a.Error == "ValueError" {
		return history.Answer{Outcome: engine.OutcomeInvalid}, ""
	}
	if a.Error != "" {
		return history.Answer{}, "an answer, not an exception"
	}
	if string(a.Return) == "null" {
		switch c.fn {
		case "claim":
			return history.Answer{Outcome: engine.OutcomeRefused}, ""
		case "claim_next":
			return history.Answer{Outcome: engine.OutcomeEmpty}, ""
		}
	}
	switch c.fn {
	case "claim":
		var fence int64
		if json.Unmarshal(a.Return, &fence) != nil {
			return history.Answer{}, "a fence (a whole number) or None"
		}
		return history.Answer{Outcome: engine.OutcomeOK, Job: c.h.Job, Token: fence, LeaseUntil: c.h.Now + c.h.TTL}, ""
	case "claim_next":
		var m struct {
			ID         string `json:"id"`
			Token      int64  `json:"token"`
			LeaseUntil int64  `json:"lease_until"`
		}
		if json.Unmarshal(a.Return, &m) != nil || m.ID == "" {
			return history.Answer{}, "a marker {id, qty, owner, token, attempt, lease_until} or None"
		}
		return history.Answer{Outcome: engine.OutcomeOK, Job: m.ID, Token: m.Token, LeaseUntil: m.LeaseUntil}, ""
	}
	var ok bool
	if json.Unmarshal(a.Return, &ok) != nil {
		return history.Answer{}, "True or False"
	}
	switch {
	case !ok:
		return history.Answer{Outcome: engine.OutcomeRefused}, ""
	case c.fn == "enqueue":
		return history.Answer{Outcome: engine.OutcomeOK, Created: true}, ""
	case c.fn == "renew":
		return history.Answer{Outcome: engine.OutcomeOK, Job: c.h.Job, Token: c.h.Token, LeaseUntil: c.h.Now + c.h.TTL}, ""
	}
	return history.Answer{Outcome: engine.OutcomeOK}, ""
}

// check checks the round's history: nil when some order of its calls
// gives every answer; otherwise the failure, naming the two calls made
// at once with their answers, every call of the round, and both tables.
func (rd *overlapRound) check(ctx context.Context, late, claimB labCallOf, answers [2]history.Answer) (*Failure, error) {
	res, err := history.Check(rd.rec.History())
	if err != nil {
		return nil, err
	}
	if res.Verdict != history.NotLinearizable {
		return nil, nil
	}
	t := rd.g.o.Terms
	texts := [2]string{t.call(late.fn, append([]any{"path"}, late.args...)), t.call(claimB.fn, append([]any{"path"}, claimB.args...))}
	f := (&Failure{fn: late.fn}).gets(lang.P("%s and %s", rd.answerOf(texts[0]), rd.answerOf(texts[1]))).
		calls(lang.P("%s in A and %s in B at once", texts[0], texts[1])).
		at(lang.P("round %d", rd.round)).
		wants(lang.P("the answers of the calls taking effect one at a time, in some order")).
		explain(lang.P("no order of the round's calls gives these answers: the check and the write of %s (and of %s) must be one transaction (BEGIN IMMEDIATE), or the late call and the new claim both succeed\nthe round's calls, in the order they were sent:\n%s",
			rd.o.fn, claimB.fn, "  "+strings.Join(rd.calls, "\n  ")))
	if res.Failure != nil {
		f.WantRows = res.Failure.Rows
	}
	var text strings.Builder
	if history.Write(&text, res.History) == nil {
		f.History = text.String()
	}
	f.GotRows, _ = rd.rows(ctx)
	return f, nil
}

// answerOf is the answer the round's call text got.
func (rd *overlapRound) answerOf(text string) string {
	for _, c := range rd.calls {
		if rest, ok := strings.CutPrefix(c, text+" → "); ok {
			return rest
		}
	}
	return "?"
}

// rows are the student's table after the round.
func (rd *overlapRound) rows(ctx context.Context) ([]engine.Job, error) {
	q := &labQueue{p: rd.ps[0], path: rd.path, courier: rd.g.o.LabName == Courier, shadow: model.New()}
	defer q.Close()
	return q.readJobs(ctx)
}
