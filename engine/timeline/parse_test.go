package timeline_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/timeline"
)

// parse1 parses a timeline of one lease header, the given header lines and
// steps, and fails the test on an error.
func mustParse(t *testing.T, src string) *timeline.Timeline {
	t.Helper()
	tl, err := timeline.Parse("t.tl", src)
	if err != nil {
		t.Fatalf("Parse:\n%v\nsource:\n%s", err, src)
	}
	return tl
}

func parseErr(t *testing.T, src string) string {
	t.Helper()
	tl, err := timeline.Parse("t.tl", src)
	if err == nil {
		t.Fatalf("Parse succeeded (%d steps), want an error; source:\n%s", len(tl.Steps), src)
	}
	if !errors.Is(err, timeline.ErrBadInput) {
		t.Errorf("error %v does not match ErrBadInput", err)
	}
	return err.Error()
}

func TestParse_StepTimes(t *testing.T) {
	cases := []struct {
		time string
		want int64
	}{
		{"0ms", 0}, {"0", 0}, {"1000ms", 1000}, {"1000", 1000}, {"1s", 1000}, {"1.5s", 1500},
		{"1.25s", 1250}, {"0.001s", 1}, {"1.234s", 1234}, {"1000000000ms", 1000000000},
		{"999999.999s", 999999999},
	}
	for _, c := range cases {
		tl := mustParse(t, "lease 1000ms\njob j\n"+c.time+" A claim j\n")
		if got := tl.Steps[0].Time; got != c.want {
			t.Errorf("%s: time %d, want %d", c.time, got, c.want)
		}
	}
}

func TestParse_MalformedTimesAreErrors(t *testing.T) {
	for _, bad := range []string{"1.5ms", "1.2345s", "1.5", "-5ms", "5m", "ms", "1e3", "0x10", ".5s", "5.s",
		"9223372036854775808", "9223372036854775808ms", "9223372036854776s", "1,000ms", "+-5ms"} {
		msg := parseErr(t, "lease 1000ms\njob j\n"+bad+" A claim j\n")
		want := `t.tl:3:1: malformed time "` + bad + `"`
		if !strings.HasPrefix(msg, want) {
			t.Errorf("%s: %s\nwant prefix %s", bad, msg, want)
		}
	}
}

// A relative time counts from where the previous step left the clock: its
// time, plus took for a send.
func TestParse_RelativeTimeCountsFromThePreviousStepsEnd(t *testing.T) {
	tl := mustParse(t, `lease 1000ms
job j
+200ms A claim j
+1.5s  A renew j
+0     B send took=300ms
+50    A complete j
`)
	want := []int64{200, 1700, 1700, 2050}
	for i, s := range tl.Steps {
		if s.Time != want[i] {
			t.Errorf("step %d: time %d, want %d", i, s.Time, want[i])
		}
	}
	if end := tl.Steps[2].End(); end != 2000 {
		t.Errorf("send's end %d, want 2000", end)
	}
}

func TestParse_TimeGoingBackwards(t *testing.T) {
	cases := []struct {
		second string
		err    string // "" when it parses
	}{
		{"999ms", "t.tl:4:1: time goes backwards: 999 ms is before 1000 ms, where the previous step ended"},
		{"1000ms", ""},
		{"1001ms", ""},
	}
	for _, c := range cases {
		src := "lease 1000ms\njob j\n1000ms A claim j\n" + c.second + " B claim j\n"
		if c.err == "" {
			mustParse(t, src)
			continue
		}
		if got := parseErr(t, src); got != c.err {
			t.Errorf("%s:\n got %s\nwant %s", c.second, got, c.err)
		}
	}
	// A send that takes time keeps its courier waiting until it hears back,
	// not the others: the courier's own next step may not start before the
	// send ends, another worker's may, and no step comes before the send
	// began. +D counts from the send's end.
	cases = []struct {
		second string
		err    string
	}{
		{"1499ms A claim j", "t.tl:4:8: A is sending from 1000 ms to 1500 ms (line 3): it hears back from the receiver at 1500 ms; move this step to 1500 ms or later"},
		{"1500ms A claim j", ""},
		{"1501ms A claim j", ""},
		{"999ms B claim j", "t.tl:4:1: time goes backwards: 999 ms is before 1000 ms, where the previous step began"},
		{"1000ms B claim j", ""},
		{"1499ms B claim j", ""},
		{"+0ms A claim j", ""},
	}
	for _, c := range cases {
		src := "lease 1000ms\njob j\n1000ms A send took=500ms\n" + c.second + "\n"
		if c.err == "" {
			mustParse(t, src)
			continue
		}
		if got := parseErr(t, src); got != c.err {
			t.Errorf("after send, %s:\n got %s\nwant %s", c.second, got, c.err)
		}
	}
	if tl := mustParse(t, "lease 1000ms\njob j\n1000ms A send took=500ms\n+0ms A claim j\n"); tl.Steps[1].Time != 1500 {
		t.Errorf("+0ms after the send is %d ms, want its end, 1500 ms", tl.Steps[1].Time)
	}
}

// Each bad line is reported as NAME:LINE:COL: message; columns count
// characters, so a Korean name moves them by one per syllable.
func TestParse_ErrorsNameLineAndColumn(t *testing.T) {
	const head = "lease 1000ms\njob j\n"
	cases := []struct{ name, src, want string }{
		{"unknown verb", head + "0ms A grab j\n",
			`t.tl:3:7: unknown verb "grab" (verbs: claim, renew, complete, release, send, deliver, enqueue, state, write, read, pause, crash, wait, reopen)`},
		{"unknown field", head + "0ms A claim j speed=3\n", `t.tl:3:15: unknown field "speed": claim takes ttl=`},
		{"field of another verb", head + "0ms A claim j token=3\n", `t.tl:3:15: claim takes no token= (it takes ttl=)`},
		{"unknown job", head + "0ms A claim k\n",
			"t.tl:3:13: unknown job k: declare it with a `job k` line or enqueue it (did you mean j?)"},
		{"malformed number", head + "0ms A claim j ttl=10x\n",
			`t.tl:3:19: malformed ttl "10x": "x" is not a unit: the units are ms and s`},
		{"malformed count", head + "0ms A claim j\n1ms A complete j token=1.5\n",
			`t.tl:4:24: malformed token "1.5": a whole number`},
		{"token of a job never claimed", head + "0ms A complete j\n",
			"t.tl:3:5: A holds no token for j at this line (it never claimed it, or it crashed since): claim it first, or say token=N"},
		{"token of a job claimed later", head + "0ms B renew j\n5ms B claim j\n",
			"t.tl:3:5: B holds no token for j at this line (it never claimed it, or it crashed since): claim it first, or say token=N"},
		{"token of a job another actor claimed", head + "0ms A claim j\n1ms B release j\n",
			"t.tl:4:5: B holds no token for j at this line (it never claimed it, or it crashed since): claim it first, or say token=N"},
		{"Korean names move the column by characters", head + "0ms 민수 claim 주문-9\n",
			"t.tl:3:14: unknown job 주문-9: declare it with a `job 주문-9` line or enqueue it"},
		{"name with a forbidden character", head + "0ms A.B claim j\n",
			`t.tl:3:6: actor name "A.B": '.' is not allowed (letters, digits, - and _)`},
		{"unterminated quote", head + "0ms A claim j\n1ms A complete j result=\"oops\n", "t.tl:4:25: unterminated quote"},
		{"header after a step", head + "0ms A claim j\njob k\n",
			`t.tl:4:1: "job" lines come before the first step (enqueue adds a job mid-timeline)`},
		{"second lease line", "lease 1000ms\nlease 5s\n", "t.tl:2:1: a second lease line (the first is line 1)"},
		{"lease of zero", "lease 0ms\n", "t.tl:1:7: lease must be more than 0 ms"},
		{"job declared twice", "job j\njob j qty=2\n", "t.tl:2:5: job j is declared twice (first on line 1)"},
		{"claim with no lease duration", "job j\n0ms A claim j\n",
			"t.tl:2:7: claim needs a lease duration: add a `lease 1000ms` header line or ttl="},
		{"step without a verb", head + "0ms A\n", "t.tl:3:1: a step is `TIME ACTOR VERB [JOB] [key=value ...] [-> expectation]`, or `TIME wait`"},
		{"reopen without an actor", head + "0ms reopen\n", "t.tl:3:5: reopen needs an actor before it: `TIME ACTOR reopen`"},
		{"crash without an actor", head + "0ms crash -> ok\n", "t.tl:3:5: crash needs an actor before it: `TIME ACTOR crash`"},
		{"claim without an actor", head + "0ms claim j\n", "t.tl:3:5: claim needs an actor before it: `TIME ACTOR claim`"},
		{"renew without a job", head + "0ms A claim j\n1ms A renew\n", "t.tl:4:7: renew needs a job: `renew JOB`"},
		{"send with a job", head + "0ms A send j\n",
			"t.tl:3:12: send takes no job: it claims the oldest claimable one (expect it with -> job=j)"},
		{"several actors for a complete", head + "0ms A,B complete j token=1\n",
			"t.tl:3:5: only claim takes several actors (a concurrent claim)"},
		{"concurrent claim without a job", head + "0ms A,B claim\n", "t.tl:3:9: a concurrent claim names its job: `A,B claim JOB`"},
		{"actor listed twice", head + "0ms A,B,A claim j\n", "t.tl:3:9: actor A is listed twice"},
		{"unknown outcome", head + "0ms A claim j -> fine\n", `t.tl:3:18: unknown outcome "fine" (ok, refused REASON, invalid)`},
		{"unknown reason", head + "0ms A claim j -> refused busy\n",
			"t.tl:3:26: unknown refusal reason \"busy\" (`claim` hears not_found, done, quarantined, held)"},
		{"impossible outcome", head + "0ms A claim j -> failed\n", "t.tl:3:18: `claim` is never failed (it ends ok, refused REASON, invalid)"},
		{"claim-next is never refused", head + "0ms A claim -> refused\n", "t.tl:3:16: `claim_next` is never refused (it ends ok, empty, invalid)"},
		{"unknown expectation field", head + "0ms A claim j -> ok colour=red\n",
			`t.tl:3:21: unknown field "colour" (token, lease_until, attempts, attempt, qty, deadline, max_attempts, status, owner, result, reason, job, delivered, enqueued, loser.NAME, losers, receipt.owner, receipt.qty, receipt.token, storage.owner, storage.token, storage.value, total, violates, winner)`},
		{"malformed expected number", head + "0ms A claim j -> ok token=one\n", `t.tl:3:27: malformed token "one": a whole number`},
		{"winner who did not contend", head + "0ms A,B claim j -> winner=C\n", `t.tl:3:27: winner "C" is not one of the contenders A,B`},
		{"winner of a single claim", head + "0ms A claim j -> winner=A\n", "t.tl:3:18: winner= is a concurrent claim's (A,B claim JOB)"},
		{"total of a claim", head + "0ms A claim j -> total=2\n", "t.tl:3:18: total= is the receiver's: only send and deliver have it"},
		{"bad status", head + "0ms A claim j -> status=busy\n", `t.tl:3:25: status is pending, leased, done or quarantined, not "busy"`},
		{"two arrows", head + "0ms A claim j -> ok -> ok\n", "t.tl:3:21: a second -> on one line"},
		{"expectation without a step", head + "-> ok\n", "t.tl:3:1: an expectation needs a step before it"},
		{"empty expectation", head + "0ms A claim j ->\n",
			"t.tl:3:15: -> needs an expectation: an outcome (ok, refused REASON, invalid) or field=value"},
		{"argument given twice", head + "0ms A claim j ttl=5 ttl=6\n", "t.tl:3:21: ttl= is given twice"},
		{"bare word among arguments", head + "0ms A claim j fast\n", `t.tl:3:15: unexpected "fast": arguments are key=value (claim takes ttl=)`},
		{"bad boolean", head + "0ms A send fail=yes\n", `t.tl:3:17: fail is true or false, not "yes"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := parseErr(t, c.src); got != c.want {
				t.Errorf("\n got %s\nwant %s", got, c.want)
			}
		})
	}
}

// Every bad line is reported at once, in line order, and no timeline comes
// back: nothing can run half-way.
func TestParse_ReportsEveryErrorAndReturnsNoTimeline(t *testing.T) {
	src := `lease 1000ms
job j
0ms    A claim j
5ms    A grab j
3ms    B claim j
10ms   C claim nowhere
20ms   A complete j
`
	tl, err := timeline.Parse("many.tl", src)
	if tl != nil {
		t.Fatalf("Parse returned a timeline of %d steps along with %v", len(tl.Steps), err)
	}
	var list timeline.ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("error %T is not an ErrorList", err)
	}
	want := []string{
		`many.tl:4:10: unknown verb "grab" (verbs: claim, renew, complete, release, send, deliver, enqueue, state, write, read, pause, crash, wait, reopen)`,
		"many.tl:5:1: time goes backwards: 3 ms is before 5 ms, where the previous step ended",
		"many.tl:6:16: unknown job nowhere: declare it with a `job nowhere` line or enqueue it",
	}
	if len(list) != len(want) {
		t.Fatalf("%d errors, want %d:\n%v", len(list), len(want), err)
	}
	for i, e := range list {
		if e.Error() != want[i] {
			t.Errorf("error %d:\n got %s\nwant %s", i, e, want[i])
		}
	}
	var one *timeline.Error
	if !errors.As(err, &one) || one.Line != 4 || one.Col != 10 {
		t.Errorf("errors.As(*Error) = %+v, want the first error at 4:10", one)
	}
}

func TestParse_HeaderAndDefaults(t *testing.T) {
	tl := mustParse(t, `# Deadline story
# a second comment is not the title
lease 1.5s
job order-1 qty=2 deadline=3s max_attempts=4
job order-2

0ms A claim order-1                  # a trailing comment
1ms A renew order-1 ttl=200ms
2ms A complete order-1
3ms B enqueue order-3 qty=5 deadline=100 max_attempts=1
4ms B claim order-3 ttl=1s
5ms B complete order-3 result="two words"
`)
	if tl.Title != "Deadline story" {
		t.Errorf("title %q", tl.Title)
	}
	if tl.Lease != 1500 {
		t.Errorf("lease %d, want 1500", tl.Lease)
	}
	wantJobs := []timeline.JobDecl{
		{Line: 4, ID: "order-1", Qty: 2, Deadline: 3000, MaxAttempts: 4},
		{Line: 5, ID: "order-2", Qty: 1},
	}
	if len(tl.Jobs) != 2 || tl.Jobs[0] != wantJobs[0] || tl.Jobs[1] != wantJobs[1] {
		t.Errorf("jobs %+v, want %+v", tl.Jobs, wantJobs)
	}
	s := tl.Steps
	if s[0].TTL != 1500 || s[1].TTL != 200 || s[4].TTL != 1000 {
		t.Errorf("ttls %d %d %d, want 1500 (the lease header) 200 1000 (ttl=)", s[0].TTL, s[1].TTL, s[4].TTL)
	}
	if s[2].Result != "A" || s[5].Result != "two words" {
		t.Errorf("results %q %q, want the actor's name by default, else result=", s[2].Result, s[5].Result)
	}
	if s[3].Qty != 5 || s[3].Deadline != 100 || s[3].MaxAttempts != 1 {
		t.Errorf("enqueue %+v", s[3])
	}
	if s[0].Source != "0ms A claim order-1                  # a trailing comment" {
		t.Errorf("source %q", s[0].Source)
	}
	if got := strings.Join(tl.Actors, ","); got != "A,B" {
		t.Errorf("actors %s", got)
	}
}

func TestParse_NoTitleWhenTheFirstCommentFollowsAStep(t *testing.T) {
	tl := mustParse(t, "lease 1s\njob j\n0ms A claim j\n# later\n")
	if tl.Title != "" {
		t.Errorf("title %q, want none", tl.Title)
	}
}

func TestParse_Ops(t *testing.T) {
	tl := mustParse(t, `lease 1s
job j
0ms A claim j
0ms A claim
0ms B,C claim j
0ms D send
`)
	want := []engine.Op{"claim", "claim_next", "claim_many", "send"}
	for i, s := range tl.Steps {
		if s.Op() != want[i] {
			t.Errorf("step %d: op %s, want %s", i, s.Op(), want[i])
		}
	}
}

// An implicit token needs an earlier claim that could have given it: a
// claim of that job, a claim-next or a send. token= needs none.
func TestParse_ImplicitTokenNeedsAnEarlierClaim(t *testing.T) {
	for _, ok := range []string{
		"0ms A claim j\n1ms A complete j\n",
		"0ms A claim\n1ms A complete j\n",
		"0ms A send\n1ms A deliver j\n",
		"0ms A,B claim j\n1ms B release j\n",
		"0ms A complete j token=7\n",
	} {
		mustParse(t, "lease 1s\njob j\n"+ok)
	}
}

func TestParse_Expectations(t *testing.T) {
	tl := mustParse(t, `lease 1s
job j
0ms A claim j -> ok token=1, lease_until=1s
1ms A complete j -> refused not found
2ms A complete j -> refused not_found
3ms A complete j -> refused
4ms A state j -> status=done owner=none result="x y"
`)
	e := tl.Steps[0].Expect
	if e.Outcome != "ok" || len(e.Fields) != 2 || e.Fields[0] != (timeline.FieldCheck{Key: "token", Want: "1"}) ||
		e.Fields[1] != (timeline.FieldCheck{Key: "lease_until", Want: "1000"}) {
		t.Errorf("step 0: %+v", e)
	}
	if e.Text != "ok token=1, lease_until=1s" {
		t.Errorf("text %q", e.Text)
	}
	for _, i := range []int{1, 2} {
		if e := tl.Steps[i].Expect; e.Outcome != "refused" || e.Reason != "not_found" {
			t.Errorf("step %d: %+v, want refused not_found", i, e)
		}
	}
	if e := tl.Steps[3].Expect; e.Outcome != "refused" || e.Reason != "" {
		t.Errorf("step 3: %+v, want refused with any reason", e)
	}
	if e := tl.Steps[4].Expect; e.Outcome != "" || len(e.Fields) != 3 || e.Fields[2].Want != "x y" {
		t.Errorf("step 4: %+v", e)
	}
}

func TestParse_UnicodeNames(t *testing.T) {
	tl := mustParse(t, "lease 1s\njob 주문_7\n0ms 민수,지영,Ünal-2 claim 주문_7 -> winner=지영\n")
	s := tl.Steps[0]
	if got := strings.Join(s.Actors, "|"); got != "민수|지영|Ünal-2" || s.Job != "주문_7" {
		t.Errorf("actors %s job %s", got, s.Job)
	}
}

func TestParse_EmptyAndCommentOnlyTextHasNoSteps(t *testing.T) {
	for _, src := range []string{"", "\n\n", "# only a title\n", "\r\n# crlf\r\n"} {
		tl := mustParse(t, src)
		if len(tl.Steps) != 0 {
			t.Errorf("%q: %d steps", src, len(tl.Steps))
		}
	}
}

// Names that read alike but differ — a Cyrillic or Greek letter for a
// Latin one, a fullwidth letter — parse, as any letters do, with a
// warning at the later one's line naming both and the letter that tells
// them apart; names that differ to the eye raise none.
func TestParse_LookAlikeNamesAreWarnedOf(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      string // the one warning, or "" for none
	}{
		{"Cyrillic А beside Latin A", "lease 1000ms\njob a\n0 A claim a\n1000 \u0410 claim a\n",
			`t.tl:4:1: worker А looks like worker A (line 3) but is another worker: "А" is U+0410 (Cyrillic)`},
		{"Greek ο in a job id", "lease 1000ms\njob order-1\njob \u03BFrder-1\n0 A claim order-1\n",
			`t.tl:3:1: job οrder-1 looks like job order-1 (line 2) but is another job: "ο" is U+03BF (Greek)`},
		{"fullwidth Ａ", "lease 1000ms\njob a\n0 A claim a\n1000 \uFF21 claim a\n",
			`t.tl:4:1: worker Ａ looks like worker A (line 3) but is another worker: "Ａ" is U+FF21 (fullwidth Latin)`},
		{"A and B", "lease 1000ms\njob a\n0 A claim a\n1000 B claim a\n", ""},
		{"a and A differ to the eye", "lease 1000ms\njob a\njob A\n0 A claim a\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tl, err := timeline.Parse("t.tl", tc.src)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, w := range tl.Warnings {
				got = append(got, w.Error())
			}
			switch {
			case tc.want == "" && len(got) != 0:
				t.Fatalf("warnings %q; want none", got)
			case tc.want != "" && (len(got) != 1 || got[0] != tc.want):
				t.Fatalf("warnings %q;\nwant [%q]", got, tc.want)
			}
		})
	}
}

// A worker may bear a verb's name: only a verb with no actor before it is
// told to name one.
func TestParse_AnActorMayBearAVerbsName(t *testing.T) {
	mustParse(t, "lease 1s\njob j\n0ms crash crash\n1ms claim claim j -> ok\n")
}
