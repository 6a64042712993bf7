package sqliteapi_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/leaselab/leaselab/engine/httpapi/sqliteapi"
)

// RunTimeline is what POST /api/timeline answers: the trace's JSON, from a
// database of the run's own.
func ExampleRunTimeline() {
	trace, err := sqliteapi.RunTimeline(context.Background(), "lease 1s\njob a\n0ms A claim a -> ok token=1\n")
	if err != nil {
		panic(err)
	}
	var t struct {
		Name    string
		Summary struct{ Passed bool }
	}
	json.Unmarshal(trace, &t)
	fmt.Println(t.Name, t.Summary.Passed)
	// Output:
	// timeline true
}
