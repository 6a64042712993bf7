package memrun_test

import (
	"context"
	"fmt"

	"github.com/leaselab/leaselab/engine/timeline"
	"github.com/leaselab/leaselab/engine/timeline/memrun"
)

// RunSource parses a timeline and runs it on an in-memory database of its
// own; a failed expectation is in the summary, at its line.
func ExampleRunSource() {
	src := "lease 1000ms\njob a\n0ms A claim a -> ok\n999ms B claim a -> ok\n"
	tr, err := memrun.RunSource(context.Background(), "wrong.tl", src, timeline.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println(tr.Summary.Passed, tr.Summary.Failures)
	// Output:
	// false [wrong.tl:4: expected ok, got refused held]
}
