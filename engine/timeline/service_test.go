package timeline_test

import (
	"strings"
	"testing"
)

// With a service clock, every lease is granted and judged on the lock
// service's clock: a worker's own clock moves only what it believes. The
// same story without it judges each worker's lease on its own clock.
func TestRun_ServiceClockJudgesEveryLease(t *testing.T) {
	const story = "clock A +300ms\nlease 1000ms\njob j\n0ms A claim j\n1000ms B claim j\n"
	for _, tc := range []struct {
		name, head string
		until      int64  // A's lease_until
		claim      string // B's claim at 1000 ms
		expiry     int64  // when A's lease ended, true time
	}{
		{"each worker's clock", "", 1300, "refused", 1300},
		{"the service's clock, right", "service clock +0ms\n", 1000, "ok", 1000},
		{"the service's clock, ahead", "service clock +200ms\n", 1200, "ok", 1000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := run(t, tc.head+story)
			if got := tr.Steps[0].Lease.LeaseUntil; got != tc.until {
				t.Errorf("A's lease_until %d, want %d", got, tc.until)
			}
			if got := tr.Steps[1].Outcome.Kind; got != tc.claim {
				t.Errorf("B's claim %s, want %s", got, tc.claim)
			}
			if tc.claim == "ok" && (len(tr.Steps[1].Expired) != 1 || tr.Steps[1].Expired[0].At != tc.expiry) {
				t.Errorf("expiries %+v, want A's at %d", tr.Steps[1].Expired, tc.expiry)
			}
			for _, v := range tr.Steps[1].Verdicts {
				if !v.OK {
					t.Errorf("%s broken: %s", v.Invariant, v.Detail)
				}
			}
		})
	}
}

// The sentence of a grant on the service's clock says what the worker,
// whose own clock differs, believes; the service's own offset is named.
func TestRun_ServiceClockSentenceSaysWhatTheWorkerBelieves(t *testing.T) {
	tr := run(t, "service clock +200ms\nclock A -100ms\nlease 1000ms\njob j\n100ms A claim j\n")
	got := tr.Steps[0].Explain
	for _, want := range []string{
		"the lease runs until 1300 ms (on the service's clock, which reads 300 ms: 200 ms ahead)",
		"A's own clock reads 0 ms, so A believes its lease runs until 1000 ms by it.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("%q\nlacks %q", got, want)
		}
	}
	if tr.Service == nil || tr.Service.Offset != 200 {
		t.Errorf("the trace's service %+v", tr.Service)
	}
}

// The service line's mistakes, each one error.
func TestParse_ServiceClockLine(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"service clock\n", "t.tl:1:1: a service line is `service clock OFFSET`"},
		{"service clock +1ms\nservice clock +2ms\n", "t.tl:2:1: a second service clock line (the first is line 1)"},
		{"service clock -200ms\nlease 1s\njob j\n100ms A claim j\n", "t.tl:4:7: the service's clock reads -100 ms at 100 ms (it is 200 ms behind)"},
		{"servce clock +1ms\n", `t.tl:1:1: unknown header word "servce" (did you mean service?)`},
	} {
		if got := parseErr(t, tc.src); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%q:\n got %s\nwant %s…", tc.src, got, tc.want)
		}
	}
	tl := mustParse(t, "service clock 200ms\nlease 1s\njob j\n0 A claim j\n")
	if len(tl.Warnings) != 1 || !strings.Contains(tl.Warnings[0].Msg, "has no sign and is read as ahead") {
		t.Errorf("warnings %v", tl.Warnings)
	}
}

// A sequencer storage asks the lock service before each write: the
// holder's write is accepted before its lease ends and refused at and
// after its end; a superseded token is refused before any newer write.
func TestRun_SequencerStorageRefusesWhatTheServiceWould(t *testing.T) {
	for _, tc := range []struct {
		at   string
		want string // outcome, reason
	}{
		{"999ms", "ok "},
		{"1000ms", "refused expired"},
		{"1001ms", "refused expired"},
	} {
		tr := run(t, "storage sequencer\nlease 1000ms\njob j\n0ms A claim j\n"+tc.at+" A write j value=v\n")
		o := tr.Steps[1].Outcome
		if got := o.Kind + " " + o.Reason; got != tc.want {
			t.Errorf("write at %s: %q, want %q", tc.at, got, tc.want)
		}
	}
	tr := run(t, "storage sequencer\nlease 1000ms\njob j\n0ms A claim j\n1000ms B claim j\n1100ms A write j value=v\n")
	if o := tr.Steps[2].Outcome; o.Reason != "superseded" || tr.Steps[2].Stored != nil {
		t.Errorf("a superseded write: %+v, stored %+v", o, tr.Steps[2].Stored)
	}
	if !strings.Contains(tr.Steps[2].Explain, "the storage asks the lock service, and B has held token 2 since 1000 ms") {
		t.Errorf("%q", tr.Steps[2].Explain)
	}
}

// A storage that does not fence takes a lower token's write, and the
// checker reports it; the default storage refuses it.
func TestRun_UnfencedStorageTakesAStaleWriteAndTheCheckerSaysSo(t *testing.T) {
	const story = "lease 1000ms\njob j\n0ms A claim j\n1000ms B claim j\n1100ms B write j value=b\n1200ms A write j value=a\n"
	for _, tc := range []struct {
		head, outcome string
		broken        bool
	}{
		{"", "refused", false},
		{"storage fenced\n", "refused", false},
		{"storage unfenced\n", "ok", true},
	} {
		tr := run(t, tc.head+story)
		st := tr.Steps[3]
		broken := false
		for _, v := range st.Verdicts {
			if !v.OK && v.Invariant == "storage-fenced" {
				broken = true
			}
		}
		if st.Outcome.Kind != tc.outcome || broken != tc.broken {
			t.Errorf("%q: %s, storage-fenced broken=%v; want %s, %v", tc.head, st.Outcome.Kind, broken, tc.outcome, tc.broken)
		}
	}
}

// The storage line's mistakes, and the refusals a sequencer's write hears.
func TestParse_StorageLine(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"storage\n", "t.tl:1:1: a storage line is `storage KIND`, KIND one of fenced, sequencer, unfenced"},
		{"storage sequencer\nstorage fenced\n", "t.tl:2:1: a second storage line"},
		{"storage sequencr\n", `t.tl:1:9: unknown storage "sequencr" (fenced, sequencer, unfenced) (did you mean sequencer?)`},
		{"lease 1s\njob j\n0 A claim j\n1 A write j -> refused expired\n", "t.tl:4:24: `write` is never refused expired (it hears fenced)"},
	} {
		if got := parseErr(t, tc.src); got != tc.want {
			t.Errorf("%q:\n got %s\nwant %s", tc.src, got, tc.want)
		}
	}
	mustParse(t, "storage sequencer\nlease 1s\njob j\n0 A claim j\n1 A write j -> refused expired\n")
}

// A lock service that forgets restarts with every job pending at token 0:
// the next claim gets token 1 again while the first holder's lease runs,
// and the checker reports both the overlap and the token. Without the
// line, a reopen keeps every row and token.
func TestRun_ServiceThatForgetsGrantsAHeldLockAgain(t *testing.T) {
	const story = "lease 10s\njob j\n0ms A claim j\n1000ms ops reopen\n1100ms B claim j\n"
	for _, tc := range []struct {
		head   string
		claim  string
		token  int64
		broken string
	}{
		{"", "refused", 0, ""},
		{"service forgets\n", "ok", 1, "single-lease tokens-increase"},
	} {
		tr := run(t, tc.head+story)
		st := tr.Steps[2]
		var broken []string
		for _, v := range st.Verdicts {
			if !v.OK {
				broken = append(broken, v.Invariant)
			}
		}
		tok := int64(0)
		if st.Lease != nil {
			tok = st.Lease.Token
		}
		if st.Outcome.Kind != tc.claim || tok != tc.token || strings.Join(broken, " ") != tc.broken {
			t.Errorf("%q: B's claim %s token %d, broken %v; want %s %d %q", tc.head, st.Outcome.Kind, tok, broken, tc.claim, tc.token, tc.broken)
		}
	}
	if got := parseErr(t, "service forgets\nservice forgets\n"); got != "t.tl:2:1: a second service forgets line" {
		t.Errorf("%s", got)
	}
}

// The receiver line's mistakes; a not-idempotent receiver's resend is
// applied again and breaks applied-once, the default receiver's is not.
func TestRun_ReceiverLine(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"receiver\n", "t.tl:1:1: a receiver line is `receiver KIND`, KIND one of idempotent, not-idempotent"},
		{"receiver idempotent\nreceiver idempotent\n", "t.tl:2:1: a second receiver line (the first is line 1)"},
		{"receiver not-idempotnt\n", `t.tl:1:10: unknown receiver "not-idempotnt" (idempotent, not-idempotent) (did you mean not-idempotent?)`},
	} {
		if got := parseErr(t, tc.src); got != tc.want {
			t.Errorf("%q:\n got %s\nwant %s", tc.src, got, tc.want)
		}
	}
	const story = "lease 1000ms\njob o qty=2\n0 A claim o\n10 A deliver o\n1000 B send\n"
	for _, tc := range []struct {
		head   string
		total  int64
		broken bool
	}{
		{"", 2, false},
		{"receiver idempotent\n", 2, false},
		{"receiver not-idempotent\n", 4, true},
	} {
		st := run(t, tc.head+story).Steps[2]
		broken := false
		for _, v := range st.Verdicts {
			broken = broken || (!v.OK && v.Invariant == "applied-once")
		}
		if st.Receipt == nil || st.Receipt.Total != tc.total || broken != tc.broken {
			t.Errorf("%q: receipt %+v, applied-once broken=%v; want total %d, %v", tc.head, st.Receipt, broken, tc.total, tc.broken)
		}
	}
}
