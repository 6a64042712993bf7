package engine_test

import (
	"errors"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/internal/testkit/faultdb"
	"github.com/leaselab/leaselab/engine/internal/testkit/nativeonly"
)

// A panic in one contender's goroutine of ClaimManyOutcomes, before the
// contenders start together (in the driver's connect) or inside the
// contender's transaction (a statement), is an error wrapping ErrPanicked
// from the call, not a dead process; the transaction is rolled back, and
// the next concurrent claim has exactly one winner.
func TestClaimManyOutcomes_PanicInOneContenderIsAnError(t *testing.T) {
	nativeonly.Test(t, "a driver that panics on demand")
	for _, tc := range []struct {
		name, want string
		inject     func(c *faultdb.Connector, statement *atomic.Bool)
	}{
		{"in the driver's connect", faultdb.Panic, func(c *faultdb.Connector, _ *atomic.Bool) { c.PanicOnConnect(1) }},
		{"in a statement of its transaction", "injected in a statement", func(_ *faultdb.Connector, s *atomic.Bool) { s.Store(true) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, conn, err := faultdb.Memory("panic-" + strconv.FormatInt(memSeq.Add(1), 10))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			var inStatement atomic.Bool
			s := newStore(t, db, engine.WithObserver(func(st engine.Statement) {
				if strings.HasPrefix(st.SQL, "SELECT") && inStatement.CompareAndSwap(true, false) {
					panic("injected in a statement")
				}
			}))
			enqueueOK(t, s, engine.NewJob{ID: "j"})
			owners := []string{"A", "B", "C", "D"}
			tc.inject(conn, &inStatement)
			out, err := s.ClaimManyOutcomes(t.Context(), "j", owners, 0, 100)
			if !errors.Is(err, engine.ErrPanicked) || !strings.Contains(err.Error(), tc.want) || out != nil {
				t.Fatalf("ClaimManyOutcomes with a panicking contender = %v, %v; want no outcomes and ErrPanicked with %q", out, err, tc.want)
			}
			out, err = s.ClaimManyOutcomes(t.Context(), "j", owners, 100, 100)
			if err != nil {
				t.Fatalf("the next concurrent claim: %v", err)
			}
			winners := 0
			for _, o := range out {
				if o.Refusal == nil {
					winners++
				}
			}
			if winners != 1 {
				t.Fatalf("the next concurrent claim: %d winners in %+v, want 1", winners, out)
			}
		})
	}
}
