package leasetest_test

import (
	"os"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/testkit/modtest"
	"github.com/leaselab/leaselab/engine/internal/testkit/nativeonly"
	"github.com/leaselab/leaselab/engine/leasetest"
	"github.com/leaselab/leaselab/engine/timeline"
)

// stampless completes by job id alone, in the reader's package.
const stampless = `package worker_test

import (
	"context"
	"testing"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/leasetest"
)

type stampless struct{ leasetest.Queue }

func (q stampless) Complete(ctx context.Context, l engine.Lease, now int64, result string) error {
	if j, err := q.Get(ctx, l.JobID); err == nil && j != nil && j.Owner != "" {
		l.Owner, l.Token = j.Owner, j.Token
	}
	return q.Queue.Complete(ctx, l, now, result)
}

func newStampless(*testing.T) leasetest.Queue { return stampless{leasetest.Model()} }
`

// The tests GoTest writes build and run in a module of their own, as a
// reader's would, whatever package the queue's expression names: a queue
// that keeps the contract passes, one that takes a stale complete fails.
func TestGoTest_WrittenTestsRunInTheCallersModule(t *testing.T) {
	nativeonly.Test(t, "the go command")
	root, err := modtest.Root(".")
	if err != nil {
		t.Fatal(err)
	}
	src, err := timeline.LibrarySource("01-late-courier.tl")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"queue_test.go": stampless}
	for fn, queue := range map[string]string{
		"TestWithTheModel":  "func(*testing.T) leasetest.Queue { return leasetest.Model() }",
		"TestWithTheEngine": "enginetest.Engine",
		"TestWithStampless": "newStampless",
	} {
		out, err := leasetest.GoTest("01-late-courier.tl", src, "worker_test", fn, queue)
		if err != nil {
			t.Fatal(err)
		}
		files[strings.ToLower(fn)+"_test.go"] = out
	}
	dir := t.TempDir()
	if err := modtest.Write(dir, root, files); err != nil {
		t.Fatal(err)
	}
	res, err := modtest.Test(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"TestWithTheModel": true, "TestWithTheEngine": true, "TestWithStampless": false}
	for fn, pass := range want {
		if got, ran := res.Passed[fn]; !ran || got != pass {
			t.Errorf("%s: ran %t, passed %t; want passed %t:\n%s", fn, ran, got, pass, res.Output)
		}
	}
	if !strings.Contains(res.Output, "01-late-courier.tl:12: Complete(order-7 A#1, now=1001, \"A\"): want refused superseded, got ok") {
		t.Errorf("the failing test does not name the stale complete's line:\n%s", res.Output)
	}
	_ = os.RemoveAll(dir)
}
