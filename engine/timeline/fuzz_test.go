package timeline_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/timeline"
	"github.com/leaselab/leaselab/engine/timeline/memrun"
)

func addLibrary(f *testing.F) {
	for _, name := range timeline.LibraryNames() {
		src, err := timeline.LibrarySource(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
}

// Parse never panics, and what it returns is coherent: either a timeline
// whose steps never go back in time, or only errors, each at a line and a
// column inside the text.
func FuzzParse(f *testing.F) {
	addLibrary(f)
	f.Fuzz(func(t *testing.T, src string) {
		tl, err := timeline.Parse("f.tl", src)
		lines := strings.Split(src, "\n")
		if err != nil {
			if tl != nil {
				t.Fatalf("a timeline and an error: %v", err)
			}
			if !errors.Is(err, timeline.ErrBadInput) {
				t.Fatalf("error %v is not ErrBadInput", err)
			}
			var list timeline.ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error %T is not a non-empty ErrorList", err)
			}
			for _, e := range list {
				if e.Line < 1 || e.Line > len(lines) {
					t.Fatalf("%v: line outside 1..%d", e, len(lines))
				}
				width := len([]rune(strings.TrimSuffix(lines[e.Line-1], "\r")))
				if e.Col < 1 || e.Col > width+1 {
					t.Fatalf("%v: column outside 1..%d", e, width+1)
				}
			}
			return
		}
		var begun int64
		for _, s := range tl.Steps {
			if s.Time < begun {
				t.Fatalf("line %d starts at %d, before the previous step began at %d", s.Line, s.Time, begun)
			}
			begun = s.Time
			if (len(s.Actors) == 0) != s.Verb.Actorless() || s.Line < 1 || s.Line > len(lines) {
				t.Fatalf("step %+v", s)
			}
		}
	})
}

// Whatever parses runs to the end without a run error or a panic, its
// summary counts what its steps say, and its trace's JSON is encoding/json's.
func FuzzRun(f *testing.F) {
	addLibrary(f)
	f.Fuzz(func(t *testing.T, src string) {
		tl, err := timeline.Parse("f.tl", src)
		if err != nil || len(tl.Steps) > 50 {
			return
		}
		for _, s := range tl.Steps {
			if len(s.Actors) > 8 {
				return // keep each run short: a contender is a goroutine and a connection
			}
		}
		tr, err := memrun.Run(context.Background(), tl, timeline.Options{})
		if err != nil {
			t.Fatalf("run: %v", err)
		}
		failed := 0
		heard := 0 // a slow send split in two has a second step, when it hears back
		for _, st := range tr.Steps {
			if st.Expect != nil && !st.Expect.OK {
				failed++
			}
			if st.Explain == "" {
				t.Fatalf("line %d has no explanation", st.Line)
			}
			if st.Heard != nil {
				heard++
			}
		}
		if len(tr.Steps) != len(tl.Steps)+heard || failed != tr.Summary.Failed {
			t.Fatalf("%d steps of %d, %d failed expectations, summary %+v", len(tr.Steps), len(tl.Steps), failed, tr.Summary)
		}
		checkEncoding(t, tr)
	})
}
