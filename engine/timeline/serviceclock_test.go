package timeline_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/timeline"
	"github.com/leaselab/leaselab/engine/timeline/memrun"
)

// A service jump moves the service's clock at its step: a lease the jump
// carries past its lease_until ends at the jump, in true time, and a claim
// written after the jump at the same instant is judged on the moved clock.
// Before, at and after the jump that reaches A's lease_until.
func TestRun_ServiceJumpEndsALeaseWhenItsClockPassesLeaseUntil(t *testing.T) {
	for _, tc := range []struct {
		jump   string
		claim  string // B's claim written after the jump, at 500 ms
		expiry int64  // A's lease's end, true time (0: not at the jump)
	}{
		{"+499ms", "refused", 0},
		{"+500ms", "ok", 500},
		{"+501ms", "ok", 500},
	} {
		t.Run(tc.jump, func(t *testing.T) {
			tr := run(t, "service clock +0ms\nlease 1000ms\njob j\n0ms A claim j\n500ms service jump "+tc.jump+"\n500ms B claim j\n")
			jump := tr.Steps[1]
			if jump.Op != "jump" || jump.Now != 500+atoi(t, tc.jump) {
				t.Errorf("the jump step: op %s, now %d", jump.Op, jump.Now)
			}
			ended := len(jump.Expired) == 1 && jump.Expired[0].Owner == "A"
			if ended != (tc.expiry != 0) || (ended && jump.Expired[0].At != tc.expiry) {
				t.Errorf("the jump's expiries %+v, want A's at %d", jump.Expired, tc.expiry)
			}
			if got := tr.Steps[2].Outcome.Kind; got != tc.claim {
				t.Errorf("B's claim %s, want %s", got, tc.claim)
			}
			if !tr.Summary.Passed || tr.Summary.Violations != 0 {
				t.Errorf("summary %+v", tr.Summary)
			}
		})
	}
}

func atoi(t *testing.T, jump string) int64 {
	t.Helper()
	var n int64
	for _, c := range strings.TrimSuffix(strings.TrimPrefix(jump, "+"), "ms") {
		n = n*10 + int64(c-'0')
	}
	return n
}

// A drifting service clock gains its rate every second of true time: a
// lease of 1000 ms on a clock gaining 100 ms a second ends when the clock
// reads 1000 ms, at 910 ms true time (909 + 90 reads 999). Before, at and
// after that instant; the expiry is told at its true instant.
func TestRun_ServiceDriftEndsALeaseEarlyInTrueTime(t *testing.T) {
	for _, tc := range []struct {
		at    string
		claim string
	}{
		{"909ms", "refused"},
		{"910ms", "ok"},
		{"911ms", "ok"},
	} {
		t.Run(tc.at, func(t *testing.T) {
			tr := run(t, "service clock +0ms\nlease 1000ms\njob j\n0ms service drift +100ms/s\n0ms A claim j\n"+tc.at+" B claim j\n")
			claim := tr.Steps[2]
			if claim.Outcome.Kind != tc.claim {
				t.Errorf("B's claim at %s: %s, want %s (now %d)", tc.at, claim.Outcome.Kind, tc.claim, claim.Now)
			}
			if tc.claim == "ok" && (len(claim.Expired) != 1 || claim.Expired[0].At != 910) {
				t.Errorf("expiries %+v, want A's at 910", claim.Expired)
			}
			if tr.Summary.Violations != 0 {
				t.Errorf("violations: %+v", tr.Summary)
			}
		})
	}
}

// A jump back keeps a lease valid longer in true time, and the checker,
// judging on the service's clock as the engine does, finds nothing wrong
// with B's claim once the service's clock passes A's lease_until.
func TestRun_ServiceJumpBackKeepsTheLeaseLonger(t *testing.T) {
	tr := run(t, "service clock +0ms\nlease 1000ms\njob j\n0ms A claim j\n500ms service jump -300ms\n1200ms B claim j\n1300ms C claim j\n")
	if got := tr.Steps[2].Outcome.Kind; got != "refused" {
		t.Errorf("B's claim at 1200 ms (the service reads 900 ms): %s", got)
	}
	if got := tr.Steps[3]; got.Outcome.Kind != "ok" || len(got.Expired) != 1 || got.Expired[0].At != 1300 {
		t.Errorf("C's claim at 1300 ms: %s, expiries %+v", got.Outcome.Kind, got.Expired)
	}
	if tr.Summary.Violations != 0 {
		t.Errorf("violations: %+v", tr.Summary)
	}
}

// Every instant the jump's sentence names says whose clock it is on, in
// English and in Korean.
func TestRun_ServiceJumpSentenceSaysWhoseClock(t *testing.T) {
	const src = "service clock +0ms\nclock A +100ms\nlease 1000ms\njob j\njob k\n0ms A claim j\n0ms B claim k ttl=2000ms\n500ms service jump +600ms\n"
	tr := run(t, src)
	got := tr.Steps[2].Explain
	for _, want := range []string{
		"At 500 ms true time the service's clock jumps 600 ms forward: it read 500 ms and now reads 1100 ms (600 ms ahead).",
		"A's lease of j (token 1) runs until 1000 ms on the service's clock, so it ends now, though A's own clock reads 600 ms.",
		"B's lease of k (token 1) runs until 2000 ms on the service's clock: now at 1400 ms true time.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("%q\nlacks %q", got, want)
		}
	}
	ko, err := memrun.RunSource(t.Context(), "t.tl", src, timeline.Options{Lang: "ko"})
	if err != nil {
		t.Fatal(err)
	}
	if got := ko.Steps[2].Explain; !strings.Contains(got, "실제 시각 500 ms에 서비스의 시계가 600 ms 앞으로 건너뜁니다") || untranslated(got) != "" {
		t.Errorf("Korean: %q", got)
	}
	drift := run(t, "service clock +0ms\n0ms service drift -20ms/s\n1000ms service drift +0ms/s\n")
	for i, want := range []string{
		"From 0 ms true time the service's clock loses 20 ms every second: it reads 0 ms (0 ms ahead).",
		"From 1000 ms true time the service's clock keeps true time's pace: it reads 980 ms (20 ms behind).",
	} {
		if got := drift.Steps[i].Explain; got != want {
			t.Errorf("drift step %d: %q\nwant %q", i, got, want)
		}
	}
}

// The service steps' mistakes, each one error at its column, in English
// and Korean; a jump that takes the service's clock below 0 is refused at
// the boundary (a clock reading 0 ms is fine).
func TestParse_ServiceJumpAndDriftMistakes(t *testing.T) {
	const head = "service clock +0ms\nlease 1s\njob j\n"
	for _, tc := range []struct{ src, want string }{
		{"lease 1s\n0 service jump +5ms\n", "t.tl:2:3: a service jump moves the lock service's clock: declare it first"},
		{head + "0 service jump 5ms\n", "t.tl:4:16: jump 5ms has no sign: write +5ms"},
		{head + "0 service jump +0ms\n", "t.tl:4:17: a jump of 0 ms moves nothing"},
		{head + "0 service jump\n", "t.tl:4:11: a jump is `TIME service jump ±D`"},
		{head + "0 service drift +5ms\n", `t.tl:4:18: malformed drift "+5ms"`},
		{head + "0 service drift +1.5ms/s\n", `t.tl:4:18: malformed drift "+1.5ms/s"`},
		{head + "0 service drift -1000ms/s\n", "t.tl:4:18: a drift of -1000ms/s would stop or reverse the service's clock"},
		{head + "0 service drift +1000ms/s\n", "t.tl:4:18: a drift of +1000ms/s is too fast: a rate is under 1000 ms/s, ahead or behind"},
		{head + "0 service drift\n", "t.tl:4:11: a drift is `TIME service drift ±Rms/s`"},
		{head + "0 service jump +5ms -> ok\n", "t.tl:4:21: a service jump has no outcome to expect"},
		{head + "0 service jmup +5ms\n", `t.tl:4:11: unknown verb "jmup"`},
		{head + "100ms service jump -101ms\n", "t.tl:4:20: after this jump the service's clock would read -1 ms at 100 ms"},
		{head + "100ms service jump -100ms\n0ms A claim j\n", "t.tl:5:1: time goes backwards"},
	} {
		got := parseErr(t, tc.src)
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("%q:\n got %s\nwant %s…", tc.src, got, tc.want)
		}
		var list timeline.ErrorList
		if errors.As(err2(tc.src), &list) {
			if u := untranslated(list[0].In("ko")); u != "" {
				t.Errorf("%q in Korean: %q is English (%q)", tc.src, list[0].In("ko"), u)
			}
		}
	}
	if got := parseErr(t, head+"0 service jmup +5ms\n"); !strings.Contains(got, "(did you mean jump?)") {
		t.Errorf("no suggestion: %s", got)
	}
	for _, ok := range []string{"100ms service jump -100ms\n100ms A claim j\n", "0 service drift +999ms/s\n0 service drift -999ms/s\n"} {
		mustParse(t, head+ok)
	}
}

func err2(src string) error { _, err := timeline.Parse("t.tl", src); return err }

// With a service clock, every lease the trace grants says until when its
// owner believes it valid on its own clock: its own clock at the grant plus
// the lease's length, whatever the service's clock reads. Without one, no
// lease says it (the owner's clock is the one that judges).
func TestRun_GrantedLeaseSaysUntilWhenItsOwnerBelievesIt(t *testing.T) {
	for _, tc := range []struct {
		head    string
		believe int64 // A's, on A's clock; 0: none
	}{
		{"service clock +0ms\nclock A +300ms\n", 1300},
		{"service clock +200ms\nclock A -100ms\n", 900},
		{"service clock +0ms\n", 1000},
		{"clock A +300ms\n", 0},
	} {
		tr := run(t, tc.head+"lease 1000ms\njob j\njob k\n0ms A claim j\n0ms A,B claim k\n")
		for _, l := range []*timeline.Lease{tr.Steps[0].Lease, tr.Steps[1].Contenders[0].Lease} {
			if l == nil {
				t.Fatalf("%q: no lease", tc.head)
			}
			switch {
			case tc.believe == 0 && l.Believes != nil:
				t.Errorf("%q: believes %d, want none", tc.head, *l.Believes)
			case tc.believe != 0 && (l.Believes == nil || *l.Believes != tc.believe):
				t.Errorf("%q: believes %v, want %d", tc.head, l.Believes, tc.believe)
			}
		}
	}
}
