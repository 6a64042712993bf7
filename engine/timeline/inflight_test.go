package timeline_test

import (
	"strconv"
	"strings"
	"testing"
)

// A message in flight takes effect when it arrives: the steps written
// after it at earlier instants run first, it runs at its arrives= instant
// (its sender may be paused by then) with the lease it left with, and its
// sentence and trace say when it was sent.
func TestRun_MessageInFlightTakesEffectWhenItArrives(t *testing.T) {
	tr := run(t, `lease 1000ms
job j
0ms     A claim j
100ms   A write j value=a arrives=2500ms -> refused fenced token=1
200ms   A pause 3s
1000ms  B claim j
2000ms  C claim j
2400ms  C write j value=c
`)
	var order []string
	for _, st := range tr.Steps {
		order = append(order, st.Actors[0]+"@"+strconv.FormatInt(st.Time, 10))
	}
	if got := strings.Join(order, " "); got != "A@0 A@200 B@1000 C@2000 C@2400 A@2500" {
		t.Fatalf("order %s", got)
	}
	arrived := tr.Steps[5]
	if arrived.Sent == nil || *arrived.Sent != 100 || arrived.Line != 4 || arrived.Presented.Token != 1 {
		t.Fatalf("the arrival: sent %v, line %d, presented %+v", arrived.Sent, arrived.Line, arrived.Presented)
	}
	if arrived.Outcome.Kind != "refused" || arrived.Outcome.Reason != "fenced" || !arrived.Expect.OK {
		t.Fatalf("the arrival: %+v, expect %+v", arrived.Outcome, arrived.Expect)
	}
	if !strings.Contains(arrived.Explain, "(the message was sent at 100 ms and arrives 2400 ms later).") {
		t.Errorf("%q", arrived.Explain)
	}
	for i, st := range tr.Steps[:5] {
		if st.Sent != nil {
			t.Errorf("step %d has sent %d", i, *st.Sent)
		}
	}
}

// arrives= is after the send, absolute or +D after it, on the verbs that
// carry a lease.
func TestParse_Arrives(t *testing.T) {
	const head = "lease 1s\njob j\n0 A claim j\n"
	for _, tc := range []struct{ src, want string }{
		{head + "100 A write j arrives=100ms\n", "t.tl:4:23: arrives=100ms is not after the send at 100 ms: a message in flight arrives later"},
		{head + "100 A write j arrives=50ms\n", "t.tl:4:23: arrives=50ms is not after the send at 100 ms"},
		{head + "100 A write j arrives=+0ms\n", "t.tl:4:23: arrives=+0ms is not after the send"},
		{head + "100 A write j arrives=soon\n", `t.tl:4:23: malformed arrives "soon": an instant like 17000ms, or +8000ms after the send`},
		{head + "100 A claim j arrives=200ms\n", "t.tl:4:15: claim takes no arrives= (it takes ttl=)"},
	} {
		if got := parseErr(t, tc.src); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%q:\n got %s\nwant %s…", tc.src, got, tc.want)
		}
	}
	tl := mustParse(t, head+"100 A write j arrives=+1ms\n200 A complete j arrives=5000\n")
	if tl.Steps[1].Arrives != 101 || tl.Steps[2].Arrives != 5000 {
		t.Fatalf("arrives %d, %d", tl.Steps[1].Arrives, tl.Steps[2].Arrives)
	}
}
