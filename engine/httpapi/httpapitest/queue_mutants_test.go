//go:build mutants

package httpapitest

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/httpapi"
	"github.com/leaselab/leaselab/engine/internal/mutant"
	"github.com/leaselab/leaselab/engine/leasetest"
	"github.com/leaselab/leaselab/engine/sqlitedb"
	"github.com/leaselab/leaselab/engine/timeline"
)

// server serves the API over a fresh in-memory engine, the named mutant's
// ("" the correct one), on loopback.
func server(t *testing.T, name string) *suite {
	t.Helper()
	db, err := sqlitedb.Memory("httpapitest-" + strings.ReplaceAll(t.Name(), "/", "-"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	store, err := engine.New(t.Context(), db, engine.WithMutant(name))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(httpapi.New(store))
	t.Cleanup(srv.Close)
	return &suite{c: &client{base: srv.URL, hc: &http.Client{}}, prefix: "m-"}
}

// The lease part catches an API whose engine breaks a rule: over HTTP, the
// late courier's reclaim at exactly lease_until is refused by the
// claim-boundary mutant, and the difference names the timeline's line and
// both answers; on the correct engine the same timeline agrees.
func TestLease_CatchesAnAPIThatBreaksTheClaimBoundary(t *testing.T) {
	tl, err := timeline.LoadLibrary("01-late-courier.tl")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		mutant  string
		differs bool
	}{{"", false}, {mutant.ClaimBoundary, true}} {
		t.Run("mutant="+tc.mutant, func(t *testing.T) {
			s := server(t, tc.mutant)
			d, err := leasetest.Timeline(t.Context(), tl, s.queue(t))
			if err != nil {
				t.Fatal(err)
			}
			if (d != nil) != tc.differs {
				t.Fatalf("difference %v, want one: %t", d, tc.differs)
			}
			if d != nil && (!strings.Contains(d.Where, "01-late-courier.tl:") || !strings.Contains(d.Got, "refused held") || !strings.HasPrefix(d.Want, "ok")) {
				t.Errorf("difference at %q: want %q, got %q; want the timeline's line, ok and refused held", d.Where, d.Want, d.Got)
			}
		})
	}
}
