//go:build mutants

package timeline_test

import (
	"context"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/mutant"
	"github.com/leaselab/leaselab/engine/timeline"
	"github.com/leaselab/leaselab/engine/timeline/memrun"
)

// Every mutant a timeline can express fails some library timeline: the
// library is a worksheet whose answers tell a broken engine from the
// correct one.
func TestLibrary_CatchesEveryMutant(t *testing.T) {
	inexpressible := map[string]string{}
	for _, m := range mutant.All() {
		caughtBy := ""
		for _, name := range timeline.LibraryNames() {
			tl, err := timeline.LoadLibrary(name)
			if err != nil {
				t.Fatal(err)
			}
			tr, err := memrun.Run(context.Background(), tl, timeline.Options{Mutant: m.Name})
			if err != nil {
				t.Fatalf("%s on %s: %v", name, m.Name, err)
			}
			if tr.Mutant != m.Name {
				t.Errorf("trace names mutant %q, want %q", tr.Mutant, m.Name)
			}
			if !tr.Summary.Passed {
				caughtBy = name
				break
			}
		}
		if why, ok := inexpressible[m.Name]; ok {
			t.Logf("%s: not expected to be caught (%s); caught by %q", m.Name, why, caughtBy)
			continue
		}
		if caughtBy == "" {
			t.Errorf("mutant %s (breaks: %s) passes every library timeline", m.Name, m.Breaks)
			continue
		}
		t.Logf("%s: caught by %s", m.Name, caughtBy)
	}
}

// A broken engine that holds a job at its lease_until is explained as
// holding it, not as a lock-delay the timeline never declared.
func TestExplain_AHeldRefusalAtLeaseUntilNamesNoLockDelayUnlessDeclared(t *testing.T) {
	const story = "lease 1000ms\njob j\n0ms A claim j\n1000ms B claim j\n"
	for _, c := range []struct {
		head, want, not string
	}{
		{"", "A holds it with token 1 until 1000 ms", "lock-delay"},
		{"service lock-delay 500ms\n", "lock-delay until 1500 ms", ""},
	} {
		tr, err := memrun.RunSource(context.Background(), "t.tl", c.head+story, timeline.Options{Mutant: mutant.ClaimBoundary})
		if err != nil {
			t.Fatal(err)
		}
		got := tr.Steps[1].Explain
		if !strings.Contains(got, c.want) || (c.not != "" && strings.Contains(got, c.not)) {
			t.Errorf("%q: B's refusal is explained %q; want %q and no %q", c.head, got, c.want, c.not)
		}
	}
}
