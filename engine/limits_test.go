package engine_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/limits"
)

// Every operation that takes a job id or an owner refuses one longer than
// limits.Default.NameBytes, counted in bytes, as ErrInvalid, and changes
// nothing; one at the limit is taken.
func TestNames_RefusedOverNameBytes(t *testing.T) {
	max := limits.Default.NameBytes
	ops := map[string]func(s *engine.Store, name string) error{
		"enqueue id": func(s *engine.Store, name string) error {
			_, err := s.Enqueue(t.Context(), engine.NewJob{ID: name})
			return err
		},
		"get id": func(s *engine.Store, name string) error {
			_, err := s.Get(t.Context(), name)
			return err
		},
		"claim id": func(s *engine.Store, name string) error {
			_, err := s.Claim(t.Context(), name, "A", 0, 10)
			return err
		},
		"claim owner": func(s *engine.Store, name string) error {
			_, err := s.Claim(t.Context(), "j", name, 0, 10)
			return err
		},
		"claim-next owner": func(s *engine.Store, name string) error {
			_, err := s.ClaimNext(t.Context(), name, 0, 10)
			return err
		},
		"claim-many owner": func(s *engine.Store, name string) error {
			_, err := s.ClaimMany(t.Context(), "j", []string{"A", name}, 0, 10)
			return err
		},
		"renew id": func(s *engine.Store, name string) error {
			_, err := s.Renew(t.Context(), engine.Lease{JobID: name, Owner: "A", Token: 1}, 0, 10)
			return err
		},
		"renew owner": func(s *engine.Store, name string) error {
			_, err := s.Renew(t.Context(), engine.Lease{JobID: "j", Owner: name, Token: 1}, 0, 10)
			return err
		},
		"complete owner": func(s *engine.Store, name string) error {
			return s.Complete(t.Context(), engine.Lease{JobID: "j", Owner: name, Token: 1}, 0, "r")
		},
		"release id": func(s *engine.Store, name string) error {
			return s.Release(t.Context(), engine.Lease{JobID: name, Owner: "A", Token: 1})
		},
	}
	for _, tc := range []struct {
		name    string
		bytes   string
		invalid bool
	}{
		{"before", strings.Repeat("x", max-1), false},
		{"at", strings.Repeat("x", max), false},
		{"at, in two-byte runes", strings.Repeat("é", max/2), false},
		{"after", strings.Repeat("x", max+1), true},
		{"after, fewer runes than bytes", strings.Repeat("é", max/2) + "x", true},
	} {
		for op, run := range ops {
			t.Run(tc.name+"/"+op, func(t *testing.T) {
				s := memStore(t)
				enqueueOK(t, s, engine.NewJob{ID: "j"})
				before := rowsOf(t, s)
				err := run(s, tc.bytes)
				if got := errors.Is(err, engine.ErrInvalid); got != tc.invalid {
					t.Fatalf("%s with a name of %d bytes: err %v; want invalid %v", op, len(tc.bytes), err, tc.invalid)
				}
				if tc.invalid {
					if !strings.Contains(err.Error(), "name_bytes") {
						t.Errorf("error %q does not name the limit", err)
					}
					if after := rowsOf(t, s); len(after) != len(before) || after[0] != before[0] {
						t.Errorf("a refused %s changed the jobs: %+v, was %+v", op, after, before)
					}
				}
			})
		}
	}
}

// Complete refuses a result longer than limits.Default.ResultBytes as
// ErrInvalid and leaves the lease standing; a result at the limit is
// stored whole.
func TestComplete_RefusesResultOverResultBytes(t *testing.T) {
	max := limits.Default.ResultBytes
	for _, tc := range []struct {
		name    string
		n       int
		invalid bool
	}{
		{"before", max - 1, false},
		{"at", max, false},
		{"after", max + 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := memStore(t)
			enqueueOK(t, s, engine.NewJob{ID: "j"})
			l := claimOK(t, s, "j", "A", 0, 10)
			result := strings.Repeat("r", tc.n)
			err := s.Complete(t.Context(), l, 1, result)
			if got := errors.Is(err, engine.ErrInvalid); got != tc.invalid {
				t.Fatalf("Complete with a result of %d bytes: %v; want invalid %v", tc.n, err, tc.invalid)
			}
			row := rowOf(t, s, "j")
			switch {
			case tc.invalid && (row.Status != engine.StatusLeased || row.Result != ""):
				t.Errorf("a refused complete changed the row: %+v", row)
			case !tc.invalid && (row.Status != engine.StatusDone || row.Result != result):
				t.Errorf("row after complete: status %s, result of %d bytes; want done, %d", row.Status, len(row.Result), tc.n)
			}
		})
	}
}
