package timeline_test

import (
	"context"
	"fmt"

	"github.com/leaselab/leaselab/engine/sqlitedb"
	"github.com/leaselab/leaselab/engine/timeline"
)

// A timeline is parsed, then run on a fresh database; the trace holds each
// step's outcome and explanation, and the summary whether every
// expectation held.
func Example() {
	src := `# A stale complete is refused
lease 1000ms
job order-7

0ms     A claim order-7      -> ok token=1
1000ms  B claim order-7      -> ok token=2
1001ms  A complete order-7   -> refused superseded
`
	tl, err := timeline.Parse("stale.tl", src)
	if err != nil {
		fmt.Println(err) // every mistake, as NAME:LINE:COL: message
		return
	}
	db, _ := sqlitedb.Memory("timeline-example")
	defer db.Close()
	tr, err := timeline.Run(context.Background(), db, tl, timeline.Options{})
	if err != nil {
		panic(err)
	}
	for _, s := range tr.Steps {
		fmt.Printf("%d %s: %s\n", s.Time, s.Outcome.Kind, s.Explain)
	}
	fmt.Println(tr.Title, tr.Summary.Passed)
	// Output:
	// 0 ok: A claims order-7 and gets token 1; the lease runs until 1000 ms.
	// 1000 ok: B claims order-7, whose lease by A with token 1 ended at 1000 ms, and gets token 2; the lease runs until 2000 ms.
	// 1001 refused: A's complete with token 1 is refused: B has held token 2 since 1000 ms.
	// A stale complete is refused true
}

// Parse reports every mistake at its line and column, saying what to
// write instead, before anything runs.
func ExampleParse() {
	_, err := timeline.Parse("typo.tl", "lease 1000ms\njob a\n0ms A claim b\n")
	fmt.Println(err)
	// Output:
	// typo.tl:3:13: unknown job b: declare it with a `job b` line or enqueue it (did you mean a?)
}
