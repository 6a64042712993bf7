//go:build mutants

package model

import (
	"fmt"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/internal/mutant"
)

// Mutant returns an empty model, receiver and storage that break the rule
// the named engine mutant breaks (engine.WithMutant); "" is the contract.
// Only in builds with the "mutants" tag.
func Mutant(name string) (*Model, *Receiver, *Storage, error) {
	if name != "" && !mutant.Known(name) {
		return nil, nil, nil, fmt.Errorf("%w: unknown mutant %q", engine.ErrInvalid, name)
	}
	m, r, s := New(), NewReceiver(), NewStorage()
	m.mutant, r.mutant, s.mutant = name, name, name
	return m, r, s, nil
}

// Mutate makes m, r and s (typically clones of the contract's) break the
// named mutant's rule from now on; "" restores the contract. Only in
// builds with the "mutants" tag.
func Mutate(name string, m *Model, r *Receiver, s *Storage) error {
	if name != "" && !mutant.Known(name) {
		return fmt.Errorf("%w: unknown mutant %q", engine.ErrInvalid, name)
	}
	m.mutant, r.mutant, s.mutant = name, name, name
	return nil
}
