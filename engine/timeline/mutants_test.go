//go:build mutants

package timeline_test

import (
	"context"
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
