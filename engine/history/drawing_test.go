package history_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/history"
)

var update = flag.Bool("update", false, "rewrite testdata/*.drawing.json, the drawings the page's engine is held to")

// The grader's recorded race: a lane a client, the late complete and the
// new claim marked, and the model's order up to the call it cannot place,
// with its rows after each call. The JSON is the golden file the page's
// engine (engine/simrun, in WebAssembly too) is held to.
func TestDrawing_ARecordedRaceMarksTheConflictingPairAndTheModelsOrder(t *testing.T) {
	h, err := history.Read(bytes.NewReader(recordedRace(t)))
	if err != nil {
		t.Fatal(err)
	}
	d := check(t, h).Drawing()
	if d.Verdict != history.NotLinearizable || !slices.Equal(d.Clients, []string{"A", "B"}) || len(d.Calls) != len(h) {
		t.Fatalf("%s, clients %v, %d calls; want not linearizable, A and B, %d calls", d.Verdict, d.Clients, len(d.Calls), len(h))
	}
	// Call 3 is B's claim, call 4 A's late complete.
	if !slices.Equal(d.Failing, []int{3, 4}) || !d.Calls[3].Stuck || d.Calls[2].Stuck || !d.Calls[2].Overlaps {
		t.Errorf("failing %v, call 3 %+v, call 4 %+v; want 3 and 4, 4 the one no order places", d.Failing, d.Calls[2], d.Calls[3])
	}
	if d.Calls[0].Invoke != 0 || d.Calls[3].Invoke != h[3].Invoke-h[0].Invoke || d.Calls[3].Call != `complete o1 A#1 now=999 result="A-late"` {
		t.Errorf("call 1 %+v, call 4 %+v; want the times since the first invocation and the report's words", d.Calls[0], d.Calls[3])
	}
	var ns []int
	for _, s := range d.Order {
		ns = append(ns, s.N)
	}
	if !slices.Equal(ns, []int{1, 2, 3}) || len(d.Order[2].Rows) != 1 || !strings.Contains(d.Order[2].Rows[0], `owner="B"`) ||
		!strings.Contains(d.Order[0].Rows[0], "pending") {
		t.Errorf("order %+v; want calls 1, 2, 3, the job pending after 1 and B's after 3", d.Order)
	}
	got, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	const golden = "testdata/overlap-complete.drawing.json"
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the drawing's JSON differs from %s (go test -update rewrites it):\n%s", golden, got)
	}
}

// A linearizable history's order holds every call, each job's calls as
// the model takes them and a call that returned before another was
// invoked before it, across jobs too.
func TestDrawing_ALinearizableHistorysOrderKeepsRealTimeAcrossJobs(t *testing.T) {
	h := history.History{
		enqueue("setup", "a", 0, 1),
		enqueue("setup", "b", 2, 3),
		claim("B", "a", 0, 10, 30, refused(engine.RefusedHeld)),
		claim("A", "a", 0, 12, 20, granted(1, 1000)),
		claim("C", "b", 0, 21, 22, granted(1, 1000)),
		complete("A", "a", 1, 999, 40, 50, ok),
		complete("C", "b", 1, 5, 23, 24, ok),
	}
	d := check(t, h).Drawing()
	var ns []int
	for _, s := range d.Order {
		ns = append(ns, s.N)
	}
	if want := []int{1, 2, 4, 3, 5, 7, 6}; !slices.Equal(ns, want) {
		t.Errorf("order %v; want %v", ns, want)
	}
	if len(d.Failing) != 0 || len(d.Order) != len(h) || len(d.Order[6].Rows) != 2 || !strings.Contains(d.Order[6].Rows[0], "done") {
		t.Errorf("failing %v, order %+v; want none failing and both jobs done at the end", d.Failing, d.Order)
	}
}
