package timeline_test

import (
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/timeline"
)

func TestParse_ServiceLockDelayHeader(t *testing.T) {
	const steps = "lease 1000ms\njob j\n0ms A claim j\n"
	cases := []struct {
		head string
		want int64  // the delay parsed
		err  string // a substring of the error; "" when it parses
		warn string // a substring of a warning
	}{
		{"service lock-delay 0ms\n", 0, "", ""},
		{"service lock-delay 500ms\n", 500, "", ""},
		{"service lock-delay 2s\n", 2000, "", ""},
		{"service lock-delay 500\n", 500, "", "service lock-delay 500 has no unit"},
		{"service lock-delay -1s\n", 0, "lock-delay", ""},
		{"service lock-delay\n", 0, "`service lock-delay DURATION`", ""},
		{"service lock-delay 1s\nservice lock-delay 2s\n", 0, "a second service lock-delay line (the first is line 1)", ""},
	}
	for _, c := range cases {
		t.Run(strings.TrimSpace(c.head), func(t *testing.T) {
			if c.err != "" {
				if got := parseErr(t, c.head+steps); !strings.Contains(got, c.err) {
					t.Fatalf("error %q; want it to contain %q", got, c.err)
				}
				return
			}
			tl := mustParse(t, c.head+steps)
			if tl.LockDelay != c.want {
				t.Fatalf("LockDelay %d; want %d", tl.LockDelay, c.want)
			}
			if c.warn != "" && !strings.Contains(strings.Join(warnings(tl), "\n"), c.warn) {
				t.Fatalf("warnings %q; want one containing %q", warnings(tl), c.warn)
			}
		})
	}
}

// With `service lock-delay 500ms`, a lease that ran out at 1000 ms keeps
// its job until 1500 ms; the refusal says so, and a release frees the job
// at once.
func TestRun_LockDelayHoldsTheJobUntilLeaseUntilPlusTheDelay(t *testing.T) {
	const head = "service lock-delay 500ms\nlease 1000ms\njob j\n0ms A claim j\n"
	cases := []struct {
		at   string
		want string // B's claim's outcome
	}{
		{"999ms", "refused held"},
		{"1000ms", "refused held"},
		{"1499ms", "refused held"},
		{"1500ms", "ok"},
	}
	for _, c := range cases {
		t.Run(c.at, func(t *testing.T) {
			tr := run(t, head+c.at+" B claim j\n")
			st := tr.Steps[1]
			if got := strings.TrimSpace(st.Outcome.Kind + " " + st.Outcome.Reason); got != c.want {
				t.Fatalf("B's claim at %s: %s; want %s", c.at, got, c.want)
			}
			if c.at != "999ms" && c.want != "ok" && !strings.Contains(st.Explain, "lock-delay until 1500 ms") {
				t.Fatalf("explanation %q; want it to name the lock-delay's end", st.Explain)
			}
			if tr.LockDelay != 500 {
				t.Fatalf("trace lock_delay %d; want 500", tr.LockDelay)
			}
		})
	}
	t.Run("released", func(t *testing.T) {
		tr := run(t, head+"100ms A release j\n200ms B claim j\n")
		if got := tr.Steps[2].Outcome.Kind; got != "ok" {
			t.Fatalf("B's claim after A's release: %s; want ok", got)
		}
	})
}

func TestGoTest_CarriesTheLockDelay(t *testing.T) {
	tl := mustParse(t, "service lock-delay 500ms\nlease 1000ms\njob j\n0ms A claim j\n1000ms B claim j -> refused held\n")
	src, err := timeline.GoTest(tl, "TestLockDelay")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(src, "engine.New(ctx, db, engine.WithLockDelay(500))") {
		t.Fatalf("the exported test opens its store without the lock-delay:\n%s", src)
	}
}

// warnings are tl's warnings as text.
func warnings(tl *timeline.Timeline) []string {
	var out []string
	for _, w := range tl.Warnings {
		out = append(out, w.Error())
	}
	return out
}
