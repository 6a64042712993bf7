package limits_test

import (
	"errors"
	"fmt"

	"github.com/leaselab/leaselab/engine/limits"
	"github.com/leaselab/leaselab/engine/timeline"
)

// A Buffer stops an answer at its limit: the write that would pass it
// writes nothing and fails with an *ExceededError naming the limit.
func ExampleBuffer() {
	row := limits.Row{Name: "report_bytes", Value: 8, Unit: "bytes of a report"}
	b := limits.NewBuffer(row, "the report")
	b.WriteString("12345")
	_, err := b.WriteString("6789")
	var ex *limits.ExceededError
	fmt.Println(errors.As(err, &ex), ex.Limit.Name, errors.Is(err, limits.ErrExceeded))
	fmt.Println(b.Bytes() == nil)
	// Output:
	// true report_bytes true
	// true
}

// The timeline parser holds a text to a Limits of the caller's: an excess
// is an error at the line where the text goes over, naming the limit.
func ExampleLimits() {
	lim := limits.Default
	lim.Steps = 1
	_, err := timeline.ParseLimits("two-steps.tl", "lease 1s\njob a\n0 A claim a\n1 B claim a\n", lim)
	fmt.Println(err)
	// Output:
	// two-steps.tl:4:1: step 2: over the limit steps (1 step lines)
}
