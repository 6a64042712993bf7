package timeline_test

import (
	"errors"
	"testing"

	"github.com/leaselab/leaselab/engine/timeline"
)

// A header line written among the steps with a time before it (`500ms
// clock A +5s`) reads as a step whose actor is the header word: the error
// says that header lines come before the first step, with no time, at the
// header word's column, rather than that its second word is no verb. A
// worker named like a header word, with a verb, is still a step, and a
// verb close to a real one is still offered as a misspelling.
func TestParse_TimedHeaderLineSaysHeadersComeFirst(t *testing.T) {
	const head = "lease 1000ms\njob j\n0ms A claim j\n"
	for _, tc := range []struct {
		name, src, en, ko string
	}{
		{"a clock line after the steps", head + "500ms clock A +5s\n",
			`t.tl:4:7: "clock" lines come before the first step, with no time: write ` + "`clock A +5s`" + ` above the steps`,
			`t.tl:4:7: "clock" 줄은 시각 없이 첫 단계 앞에 옵니다: ` + "`clock A +5s`" + `를 단계들 위에 쓰세요`},
		{"a lease line after the steps", head + "+100ms lease 1s\n",
			`t.tl:4:8: "lease" lines come before the first step, with no time: write ` + "`lease 1s`" + ` above the steps`, ""},
		{"a job line after the steps", head + "500ms job x\n",
			`t.tl:4:7: "job" lines come before the first step, with no time: write ` + "`job x`" + ` above the steps (enqueue adds a job mid-timeline)`,
			`t.tl:4:7: "job" 줄은 시각 없이 첫 단계 앞에 옵니다: ` + "`job x`" + `를 단계들 위에 쓰세요(중간에 일을 더하려면 enqueue)`},
		{"a storage line after the steps", head + "500ms storage unfenced\n",
			`t.tl:4:7: "storage" lines come before the first step, with no time: write ` + "`storage unfenced`" + ` above the steps`, ""},
		{"a service clock line after the steps", head + "500ms service clock +5ms\n",
			`t.tl:4:7: "service" lines come before the first step, with no time: write ` + "`service clock +5ms`" + ` above the steps`, ""},
		{"a timed header as the first step", "job j\n0ms lease 1s\n1ms A claim j ttl=1s\n",
			`t.tl:2:5: "lease" lines come before the first step, with no time: write ` + "`lease 1s`" + ` above the steps`, ""},
		{"a worker named clock with a misspelled verb", head + "500ms clock clam j\n",
			`t.tl:4:13: unknown verb "clam" (verbs: claim, renew, complete, release, send, deliver, enqueue, state, write, read, pause, crash, wait, reopen) (did you mean claim?)`, ""},
		{"an untimed header after the steps", head + "clock A +5s\n",
			`t.tl:4:1: "clock" lines come before the first step`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := timeline.Parse("t.tl", tc.src)
			var list timeline.ErrorList
			if !errors.As(err, &list) || len(list) != 1 {
				t.Fatalf("err %v, want one error", err)
			}
			if got := list[0].In("en"); got != tc.en {
				t.Errorf("\n got %s\nwant %s", got, tc.en)
			}
			if got := list[0].In("ko"); tc.ko != "" && got != tc.ko {
				t.Errorf("\n got %s\nwant %s", got, tc.ko)
			}
		})
	}
}

// A worker named like a header word is a worker when a verb follows it,
// and `TIME service jump|drift` is a step.
func TestParse_HeaderWordAsActorWithAVerbIsAStep(t *testing.T) {
	src := "service clock +0ms\nlease 1000ms\njob j\n0ms clock claim j\n500ms service jump +300ms\n"
	tl, err := timeline.Parse("t.tl", src)
	if err != nil {
		t.Fatal(err)
	}
	if len(tl.Steps) != 2 || tl.Steps[0].Actors[0] != "clock" {
		t.Fatalf("steps %+v, want clock's claim and the service's jump", tl.Steps)
	}
}
