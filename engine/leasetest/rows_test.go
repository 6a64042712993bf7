package leasetest_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/leasetest"
	"github.com/leaselab/leaselab/engine/leasetest/enginetest"
)

// When the answers agree and the rows do not, the difference names each
// job that differs and, field by field, the reference's value beside the
// Queue's.
func TestDifference_RowsDifferNamesTheFields(t *testing.T) {
	a := engine.Job{ID: "a", Status: engine.StatusLeased, Owner: "A", Token: 1, Qty: 1, LeaseUntil: 1000, Attempts: 1}
	b := engine.Job{ID: "b", Status: engine.StatusPending, Qty: 1}
	moved := a
	moved.Owner, moved.Token = "B", 2
	done := a
	done.Status, done.Result = engine.StatusDone, "r"
	for _, tc := range []struct {
		name      string
		want, got []engine.Job
		says      string
	}{
		{"owner and token", []engine.Job{a}, []engine.Job{moved}, `job a: owner "A" vs "B", token 1 vs 2`},
		{"status and result", []engine.Job{a, b}, []engine.Job{done, b}, `job a: status leased vs done, result "" vs "r"`},
		{"a job missing", []engine.Job{a, b}, []engine.Job{a}, `job b: only in the reference's rows`},
		{"a job too many", []engine.Job{a}, []engine.Job{a, b}, `job b: only in the Queue's rows`},
		{"another order", []engine.Job{a, b}, []engine.Job{b, a}, `the order of the jobs: a, b vs b, a`},
	} {
		d := &leasetest.Difference{Where: "call 2", Call: leasetest.Call{Op: engine.OpState, Job: "a"}, WantRows: tc.want, GotRows: tc.got}
		if s := d.Summary(); !strings.Contains(s, "the rows differ (want vs got): "+tc.says) {
			t.Errorf("%s: %q does not say %q", tc.name, s, tc.says)
		}
	}
}

// A difference's tables name a row's attempts and their bound as the jobs
// table's columns do, so an unlimited job (max_attempts 0) does not read
// as a fraction, "1/0".
func TestDifference_ErrorNamesAttemptsAndMaxAttempts(t *testing.T) {
	for _, maxAttempts := range []int64{0, 1, 3} {
		a := engine.Job{ID: "a", Status: engine.StatusLeased, Owner: "A", Token: 1, Qty: 1, LeaseUntil: 1000, Attempts: 1, MaxAttempts: maxAttempts}
		d := &leasetest.Difference{Where: "call 2", Call: leasetest.Call{Op: engine.OpState, Job: "a"}, WantRows: []engine.Job{a}, GotRows: []engine.Job{a}}
		if want := fmt.Sprintf(" attempts=1 max_attempts=%d ", maxAttempts); strings.Count(d.Error(), want) != 2 {
			t.Errorf("max_attempts %d: the tables lack %q:\n%s", maxAttempts, want, d.Error())
		}
	}
}

// resultCase completes with its result in upper case: every answer is
// the contract's, the rows are not.
type resultCase struct{ leasetest.Queue }

func (q resultCase) Complete(ctx context.Context, l engine.Lease, now int64, result string) error {
	return q.Queue.Complete(ctx, l, now, strings.ToUpper(result))
}

func TestTimeline_RowsDifferNamesTheFieldOfTheStep(t *testing.T) {
	src := "lease 1000ms\njob a\n0ms A claim a\n10ms A complete a result=ok\n"
	errs := enginetest.Source(t.Context(), "r.tl", src, resultCase{leasetest.Model()})
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), `r.tl:4: Complete(a A#1, now=10, "ok"): the rows differ (want vs got): job a: result "ok" vs "OK"`) {
		t.Fatalf("errors %q, want the rows' result named at r.tl:4", errs)
	}
}
