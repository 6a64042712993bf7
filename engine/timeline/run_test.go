package timeline_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/sqlitedb"
	"github.com/leaselab/leaselab/engine/timeline"
	"github.com/leaselab/leaselab/engine/timeline/memrun"
)

func run(t *testing.T, src string) *timeline.Trace {
	t.Helper()
	tr, err := memrun.RunSource(context.Background(), "t.tl", src, timeline.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

var dbSeq atomic.Int64

func memDB(t *testing.T) *engine.Store {
	t.Helper()
	db, err := sqlitedb.Memory("timeline-test-" + strconv.FormatInt(dbSeq.Add(1), 10))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	s, err := engine.New(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A failed expectation names the line and puts what was expected beside
// what happened; the run goes on and the summary fails.
func TestRun_FailedExpectationShowsExpectedBesideGot(t *testing.T) {
	tr := run(t, `lease 1000ms
job order-7 qty=2
0ms     A claim order-7       -> ok token=2 lease_until=1000
1000ms  B claim order-7       -> refused held
1001ms  A complete order-7    -> ok
1200ms  B complete order-7    -> ok status=done result=B
1300ms  C claim               -> ok
1400ms  C state order-7       -> owner=none
`)
	want := []string{
		"t.tl:3: expected token=2, got token=1",
		"t.tl:4: expected refused held, got ok",
		"t.tl:5: expected ok, got refused superseded",
		"t.tl:7: expected ok, got empty",
		"t.tl:8: expected owner=none, got owner=B",
	}
	if got := strings.Join(tr.Summary.Failures, "\n"); got != strings.Join(want, "\n") {
		t.Errorf("failures:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
	if tr.Summary.Passed || tr.Summary.Failed != 5 || tr.Summary.Expectations != 6 || tr.Summary.Steps != 6 {
		t.Errorf("summary %+v", tr.Summary)
	}
	e := tr.Steps[2].Expect
	if e.OK || e.Expected != "ok" || e.Got != "refused superseded" || e.Text != "ok" {
		t.Errorf("expect %+v", e)
	}
	if ok := tr.Steps[3].Expect; !ok.OK || ok.Message != "" || ok.Expected != "" {
		t.Errorf("a held expectation: %+v", ok)
	}
}

func TestRun_FieldWithoutAJobReportsWhatIsMissing(t *testing.T) {
	tr := run(t, "lease 1s\njob j\n0ms A claim j\n1ms B claim -> token=1 status=leased\n2ms C send -> delivered=true\n")
	want := []string{"t.tl:4: expected token=1 status=leased, got no job", "t.tl:5: expected delivered=true, got no receipt"}
	if got := strings.Join(tr.Summary.Failures, "\n"); got != strings.Join(want, "\n") {
		t.Errorf("failures:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
}

// Expiry is an event at the instant the clock reaches lease_until: not
// before it, reported with the first step at or after it, once.
func TestRun_ExpiryIsAnEventAtLeaseUntil(t *testing.T) {
	cases := []struct {
		name    string
		steps   string
		stepIdx int   // the step that reports it; -1: none does
		at      int64 // its instant
	}{
		{"before lease_until", "999ms B state j\n", -1, 0},
		{"at lease_until", "1000ms B state j\n", 1, 1000},
		{"after lease_until", "1500ms B state j\n", 1, 1000},
		{"reported once", "1000ms B state j\n2000ms B state j\n", 1, 1000},
		{"during a slow send", "500ms B send took=600ms\n", 1, 1000},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := run(t, "lease 1000ms\njob j\njob k\n0ms A claim j\n"+c.steps)
			for i, st := range tr.Steps {
				want := 0
				if i == c.stepIdx {
					want = 1
				}
				if len(st.Expired) != want {
					t.Fatalf("step %d reports %d expiries %+v, want %d", i, len(st.Expired), st.Expired, want)
				}
			}
			if c.stepIdx < 0 {
				if len(tr.Later) != 1 || tr.Later[0] != (timeline.Expiry{At: 1000, Job: "j", Owner: "A", Token: 1}) {
					t.Errorf("later %+v, want A#1 ending at 1000", tr.Later)
				}
				return
			}
			if e := tr.Steps[c.stepIdx].Expired[0]; e != (timeline.Expiry{At: c.at, Job: "j", Owner: "A", Token: 1}) {
				t.Errorf("expiry %+v", e)
			}
		})
	}
}

// A lease that was completed, released or renewed past the instant did not
// expire then.
func TestRun_NoExpiryForALeaseThatEndedOtherwise(t *testing.T) {
	tr := run(t, `lease 1000ms
job a
job b
job c
0ms    A claim a
0ms    A claim b
0ms    A claim c
10ms   A complete a
20ms   A release b
999ms  A renew c
5000ms A state a
`)
	for i, st := range tr.Steps[:len(tr.Steps)-1] {
		if len(st.Expired) != 0 {
			t.Errorf("step %d: expiries %+v", i, st.Expired)
		}
	}
	last := tr.Steps[len(tr.Steps)-1].Expired
	if len(last) != 1 || last[0] != (timeline.Expiry{At: 1999, Job: "c", Owner: "A", Token: 1}) {
		t.Errorf("last step's expiries %+v, want only c's renewed lease ending at 1999", last)
	}
}

func TestRun_StepShowsItsSQLWithTransactionControl(t *testing.T) {
	tr := run(t, "lease 1000ms\njob j\n0ms A claim j\n")
	st := tr.Steps[0]
	var kinds []string
	for _, s := range st.SQL {
		kinds = append(kinds, strings.Fields(s.SQL)[0])
	}
	if got := strings.Join(kinds, " "); got != "BEGIN SELECT UPDATE COMMIT" {
		t.Errorf("statements %s, want BEGIN SELECT UPDATE COMMIT", got)
	}
	upd := st.SQL[2].Args
	if len(upd) < 2 || upd[0] != "A" || upd[1] != int64(1000) {
		t.Errorf("UPDATE args %v, want owner A and lease_until 1000 first", upd)
	}
}

func TestRun_ChangedCellsAreTheOnesThatDiffer(t *testing.T) {
	tr := run(t, "lease 1000ms\njob j\njob k\n0ms A claim j\n10ms A complete j\n20ms A enqueue m\n30ms A claim k ttl=0\n")
	cells := func(i int) string {
		var s []string
		for _, c := range tr.Steps[i].Changed {
			s = append(s, c.Job+"."+c.Column)
		}
		return strings.Join(s, " ")
	}
	want := []string{
		"j.owner j.lease_until j.token j.attempts j.status",
		"j.status j.result",
		"m.id m.qty m.owner m.lease_until m.token m.attempts m.max_attempts m.deadline m.status m.reason m.result",
		"",
	}
	for i, w := range want {
		if got := cells(i); got != w {
			t.Errorf("step %d changed %q, want %q", i, got, w)
		}
	}
}

// A claim with ttl=0 is invalid and changes nothing; a timeline can expect
// exactly that.
func TestRun_InvalidArgumentChangesNothing(t *testing.T) {
	tr := run(t, "lease 1000ms\njob j\n0ms A claim j ttl=0 -> invalid token=0 status=pending\n")
	st := tr.Steps[0]
	if st.Outcome.Kind != "invalid" || !strings.Contains(st.Outcome.Error, "ttl 0 <= 0") || !tr.Summary.Passed {
		t.Errorf("outcome %+v, summary %+v", st.Outcome, tr.Summary)
	}
	if st.Explain != "A's claim is invalid (invalid argument: ttl 0 <= 0); nothing changes." {
		t.Errorf("explain %q", st.Explain)
	}
}

// The worker presents its own latest lease; token= overrides the token; a
// worker that holds no lease of the job presents token 0.
func TestRun_PresentedToken(t *testing.T) {
	tr := run(t, `lease 1000ms
job j
0ms     A claim j
1000ms  A claim j
1001ms  A complete j token=1  -> refused superseded
1002ms  A renew j             -> ok token=2 lease_until=2002
1003ms  B claim
1004ms  B complete j          -> refused superseded
`)
	for _, f := range tr.Summary.Failures {
		t.Error(f)
	}
	want := map[int]struct {
		token int64
		from  string
	}{2: {1, "token="}, 3: {2, "claim"}, 5: {0, "none"}}
	for i, w := range want {
		st := tr.Steps[i]
		if st.Presented == nil || st.Presented.Token != w.token || st.Args.TokenFrom != w.from {
			t.Errorf("line %d: presented %+v from %q, want token %d from %q", st.Line, st.Presented, st.Args.TokenFrom, w.token, w.from)
		}
	}
	if got := tr.Steps[5].Explain; got != "B's complete with token 0 is refused: B holds no lease of it." {
		t.Errorf("explain %q", got)
	}
}

// Contenders of a concurrent claim are admitted in the order written: the
// first one that can win wins, on every run.
func TestRun_ConcurrentClaimHasOneWinnerInWrittenOrder(t *testing.T) {
	for i := 0; i < 20; i++ {
		tr := run(t, "lease 1000ms\njob j\n0ms C,A,B,D claim j -> ok winner=C token=1 owner=C attempts=1\n")
		st := tr.Steps[0]
		if !tr.Summary.Passed {
			t.Fatalf("run %d: %v", i, tr.Summary.Failures)
		}
		var outcomes []string
		for _, c := range st.Contenders {
			outcomes = append(outcomes, c.Actor+":"+c.Outcome.Kind)
		}
		if got := strings.Join(outcomes, " "); got != "C:ok A:refused B:refused D:refused" {
			t.Fatalf("run %d: contenders %s", i, got)
		}
		begins := 0
		for _, s := range st.SQL {
			if s.SQL == "BEGIN IMMEDIATE" {
				begins++
			}
		}
		if begins != 4 {
			t.Fatalf("run %d: %d transactions, want one per contender", i, begins)
		}
	}
}

func TestRun_SendThatFailsReleasesTheLeaseAndKeepsTheToken(t *testing.T) {
	tr := run(t, `lease 1000ms
job j qty=3
0ms    A send fail=true took=200ms   -> failed job=j token=1 owner=none status=pending
200ms  B send                        -> ok job=j token=2 delivered=true total=3 status=done
`)
	for _, f := range tr.Summary.Failures {
		t.Error(f)
	}
	if st := tr.Steps[0]; st.Receipt != nil || st.End != 200 {
		t.Errorf("failed send: receipt %+v end %d", st.Receipt, st.End)
	}
	if got := tr.Steps[0].Explain; got != "A's send of j fails at 200 ms; the lease is released and the token stays 1." {
		t.Errorf("explain %q", got)
	}
}

// The complete inside a send happens when the courier hears back: at the
// step's time plus took.
func TestRun_SendCompletesAfterItTook(t *testing.T) {
	cases := []struct {
		took    string
		outcome string
	}{{"999ms", "ok"}, {"1000ms", "refused"}, {"1001ms", "refused"}}
	for _, c := range cases {
		tr := run(t, "lease 1000ms\njob j\n0ms A send took="+c.took+"\n")
		st := tr.Steps[0]
		if st.Outcome.Kind != c.outcome || st.Receipt == nil || !st.Receipt.Delivered {
			t.Errorf("took=%s: outcome %+v receipt %+v, want %s with the delivery made", c.took, st.Outcome, st.Receipt, c.outcome)
		}
	}
}

func TestRun_KoreanExplanations(t *testing.T) {
	src, err := timeline.LibrarySource("10-korean-courier.tl")
	if err != nil {
		t.Fatal(err)
	}
	tr, err := memrun.RunSource(context.Background(), "k.tl", src, timeline.Options{Lang: "ko"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]string{
		5: "민수가 주문-7을 선점하고 token 1을 받습니다. 임대는 1000 ms까지입니다.",
		8: "민수의 token 1 완료 요청은 거절됩니다: 지영이 1000 ms부터 token 2를 갖고 있습니다.",
	}
	for _, st := range tr.Steps {
		if w, ok := want[st.Line]; ok && st.Explain != w {
			t.Errorf("line %d:\n got %s\nwant %s", st.Line, st.Explain, w)
		}
	}
	if tr.Lang != "ko" {
		t.Errorf("lang %q", tr.Lang)
	}
}

func TestRun_UnknownLanguageIsRefused(t *testing.T) {
	tl, _ := timeline.LoadLibrary("01-late-courier.tl")
	_, err := memrun.Run(context.Background(), tl, timeline.Options{Lang: "fr"})
	if !errors.Is(err, timeline.ErrLang) {
		t.Errorf("err %v, want ErrLang", err)
	}
}

func TestRun_NeedsAFreshDatabase(t *testing.T) {
	store := memDB(t)
	if _, err := store.Enqueue(context.Background(), engine.NewJob{ID: "left-over"}); err != nil {
		t.Fatal(err)
	}
	tl, _ := timeline.LoadLibrary("01-late-courier.tl")
	_, err := timeline.Run(context.Background(), store.DB(), tl, timeline.Options{})
	if !errors.Is(err, timeline.ErrNotFresh) {
		t.Errorf("err %v, want ErrNotFresh", err)
	}
	j, _ := store.Get(context.Background(), "order-7")
	if j != nil {
		t.Errorf("the refused run enqueued %+v", j)
	}
}

func TestRun_OnACallersDatabase(t *testing.T) {
	store := memDB(t)
	tl, _ := timeline.LoadLibrary("01-late-courier.tl")
	tr, err := timeline.Run(context.Background(), store.DB(), tl, timeline.Options{})
	if err != nil || !tr.Summary.Passed {
		t.Fatalf("err %v summary %+v", err, tr.Summary)
	}
	j, err := store.Get(context.Background(), "order-7")
	if err != nil || j == nil || j.Status != engine.StatusDone || j.Owner != "B" || j.Token != 2 {
		t.Errorf("row after the run %+v, %v", j, err)
	}
}

func TestRun_EnqueueMidTimeline(t *testing.T) {
	tr := run(t, `lease 1s
job a
0ms   A claim b                        -> refused not-found
10ms  shop enqueue b qty=4 max_attempts=1  -> ok enqueued=true qty=4
20ms  shop enqueue b qty=9             -> ok enqueued=false qty=4
30ms  A claim                          -> ok job=a
40ms  B claim                          -> ok job=b
1040ms C claim                         -> ok job=a token=2
1050ms D claim                         -> empty
1060ms D state b                       -> status=quarantined reason=attempts
`)
	for _, f := range tr.Summary.Failures {
		t.Error(f)
	}
	if got := tr.Steps[0].Explain; got != "A's claim of b is refused: there is no job b." {
		t.Errorf("explain %q", got)
	}
}

// A Timeline built by hand is checked before it runs, not run into a panic.
func TestRun_RefusesATimelineParseCouldNotReturn(t *testing.T) {
	cases := []struct {
		name  string
		steps []timeline.StepLine
	}{
		{"no actor", []timeline.StepLine{{Line: 1, Verb: timeline.VerbState, Job: "j"}}},
		{"unknown verb", []timeline.StepLine{{Line: 1, Actors: []string{"A"}, Verb: "grab", Job: "j"}}},
		{"time going back", []timeline.StepLine{
			{Line: 1, Time: 10, Actors: []string{"A"}, Verb: timeline.VerbState, Job: "j"},
			{Line: 2, Time: 9, Actors: []string{"A"}, Verb: timeline.VerbState, Job: "j"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := memrun.Run(context.Background(), &timeline.Timeline{Name: "hand.tl", Steps: c.steps}, timeline.Options{})
			if !errors.Is(err, timeline.ErrBadInput) {
				t.Errorf("err %v, want ErrBadInput", err)
			}
		})
	}
}
