package timeline_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/timeline"
)

// What parses but likely is not what the author meant is a warning at its
// line and column: a duration with no unit, a clock offset with no sign, a
// clock for a worker that never acts. Its well-written twin warns of
// nothing.
func TestParse_LikelyMisreadingsAreWarnedOf(t *testing.T) {
	const head = "lease 1000ms\njob j\n"
	for _, tc := range []struct{ name, src, want string }{
		{"a pause with no unit", head + "0 A claim j\n10 A pause 2\n",
			"t.tl:4:12: pause 2 has no unit and is read as 2 ms: write 2ms, or 2s for seconds"},
		{"a pause in ms", head + "0 A claim j\n10 A pause 2ms\n", ""},
		{"a ttl with no unit", head + "0 A claim j ttl=5\n", "t.tl:3:17: ttl=5 has no unit and is read as 5 ms: write 5ms, or 5s for seconds"},
		{"a took of 0 needs no unit", head + "0 A send took=0\n", ""},
		{"a took with no unit", head + "0 A send took=3\n", "t.tl:3:15: took=3 has no unit and is read as 3 ms: write 3ms, or 3s for seconds"},
		{"a lease with no unit", "lease 1000\njob j\n0 A claim j\n",
			"t.tl:1:7: lease 1000 has no unit and is read as 1000 ms: write 1000ms, or 1000s for seconds"},
		{"a bare instant is ms by design", head + "0 A claim j\n100 A complete j\n", ""},
		{"a clock with no sign", "clock A 300ms\n" + head + "0 A claim j\n",
			"t.tl:1:9: clock offset 300ms has no sign and is read as ahead: write +300ms (A's clock ahead) or -300ms (behind)"},
		{"a clock with a sign", "clock A +300ms\n" + head + "0 A claim j\n", ""},
		{"a clock of 0 needs no sign", "clock A 0ms\n" + head + "0 A claim j\n", ""},
		{"a clock for a worker who never acts", "clock Bob +300ms\n" + head + "0 Bop claim j\n",
			"t.tl:1:1: Bob's clock is set, but Bob never acts: the clock changes nothing (did you mean Bop?)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tl := mustParse(t, tc.src)
			var got []string
			for _, w := range tl.Warnings {
				got = append(got, w.Error())
			}
			if strings.Join(got, "\n") != tc.want {
				t.Errorf("warnings %q, want %q", got, tc.want)
			}
		})
	}
}

// A misspelt header word, a unit the language lacks and a fraction of a
// millisecond are one error each, saying what to write, and nothing after
// them cascades: the line is read as it was meant.
func TestParse_MisspeltHeaderIsOneErrorAndNothingCascades(t *testing.T) {
	const rest = "job j\n0ms A claim j -> ok token=1\n1000ms B claim j -> ok\n1100ms A complete j -> refused superseded\n"
	for _, tc := range []struct{ name, src, want string }{
		{"a colon after lease", "lease: 1000ms\n" + rest, "t.tl:1:1: a header line is `lease VALUE` with no \":\": write `lease 1000ms`"},
		{"a colon after job", "lease 1000ms\njob: j\n0ms A claim j\n", "t.tl:2:1: a header line is `job VALUE` with no \":\": write `job j`"},
		{"lease misspelt", "lese 1000ms\n" + rest, `t.tl:1:1: unknown header word "lese" (did you mean lease?)`},
		{"a header the language lacks", "retries 3\nlease 1000ms\n" + rest,
			`t.tl:1:1: unknown header word "retries" (the header lines are lease, job, clock, epoch, service, storage, receiver, takeover; a step starts with a time)`},
		{"a step without its time", "lease 1000ms\n" + "job j\nA claim j\n", `t.tl:3:1: malformed time "A": a step starts with a time like 0ms, 1.5s, 1000 or +200ms`},
		{"clock misspelt", "clok B +100ms\nlease 1000ms\n" + rest, `t.tl:1:1: unknown header word "clok" (did you mean clock?)`},
		{"minutes", "lease 1m\n" + rest, `t.tl:1:7: malformed lease "1m": the units are ms and s: write 60s for 1 minute`},
		{"hours", "lease 2h\n" + rest, `t.tl:1:7: malformed lease "2h": the units are ms and s: write 7200s for 2 hours`},
		{"half a millisecond", "lease 1000ms\n" + "job j\n+0.5ms A claim j\n", `t.tl:3:1: malformed time "+0.5ms": times are whole milliseconds (0.5s is 500ms)`},
		{"a fraction of a bare ms", "lease 1000ms\n" + "job j\n0 A claim j ttl=1.5\n", `t.tl:3:17: malformed ttl "1.5": times are whole milliseconds (0.5s is 500ms)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := timeline.Parse("t.tl", tc.src)
			var list timeline.ErrorList
			if !errors.As(err, &list) || len(list) != 1 {
				t.Fatalf("errors %v, want exactly one", err)
			}
			if got := list[0].Error(); got != tc.want {
				t.Errorf("\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

// A worker's name that is merely close to a header word is still a step
// with no time, not a misspelt header.
func TestParse_AWorkerNameIsNoHeaderTypo(t *testing.T) {
	msg := parseErr(t, "lease 1000ms\njob j\nBob claim j\n")
	if !strings.Contains(msg, `malformed time "Bob"`) {
		t.Fatalf("error %q", msg)
	}
}
