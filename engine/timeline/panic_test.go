package timeline_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/internal/testkit/faultdb"
	"github.com/leaselab/leaselab/engine/internal/testkit/nativeonly"
	"github.com/leaselab/leaselab/engine/timeline"
)

// A panic in a goroutine of a concurrent claim (here in the driver, as
// the race opens connections) stops the run with an error wrapping
// engine.ErrPanicked, naming the step: the server failed, and the trace
// would not say what the timeline does.
func TestRun_PanicInAConcurrentClaimStopsTheRun(t *testing.T) {
	nativeonly.Test(t, "a driver that panics on demand")
	tl, err := timeline.Parse("race", "lease 1000ms\njob j\n0ms A,B,C,D,E claim j\n")
	if err != nil {
		t.Fatal(err)
	}
	db, conn, err := faultdb.Memory("timeline-" + strings.ReplaceAll(t.Name(), "/", "_"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn.PanicOnConnect(3) // the setup holds at most two at once; four contenders race
	tr, err := timeline.Run(t.Context(), db, tl, timeline.Options{})
	if !errors.Is(err, engine.ErrPanicked) || !strings.Contains(err.Error(), "race:3:") || tr != nil {
		t.Fatalf("Run answered a trace: %v, error %v; want no trace and ErrPanicked at race:3", tr != nil, err)
	}
}
