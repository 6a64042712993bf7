package memrun_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/leaselab/leaselab/engine/timeline"
	"github.com/leaselab/leaselab/engine/timeline/memrun"
)

func TestRunSource_BadInputRunsNothing(t *testing.T) {
	tr, err := memrun.RunSource(context.Background(), "b.tl", "lease 1s\njob j\n0ms A grab j\n", timeline.Options{})
	if tr != nil || !errors.Is(err, timeline.ErrBadInput) {
		t.Errorf("trace %v, err %v; want no trace and ErrBadInput", tr, err)
	}
}

// Every run gets a database of its own: runs at the same time do not see
// each other's jobs.
func TestRun_ConcurrentRunsEachStartFresh(t *testing.T) {
	tl, err := timeline.LoadLibrary("01-late-courier.tl")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, 8)
	passed := make([]bool, 8)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tr, err := memrun.Run(context.Background(), tl, timeline.Options{})
			errs[i] = err
			passed[i] = err == nil && tr.Summary.Passed
		}()
	}
	wg.Wait()
	for i := range errs {
		if errs[i] != nil || !passed[i] {
			t.Errorf("run %d: err %v, passed %v", i, errs[i], passed[i])
		}
	}
}
