//go:build !mutants

package model

import (
	"fmt"

	"github.com/leaselab/leaselab/engine"
)

// Mutant returns the contract's model, receiver and storage for ""; this
// build has no mutants (build with -tags mutants).
func Mutant(name string) (*Model, *Receiver, *Storage, error) {
	if name != "" {
		return nil, nil, nil, fmt.Errorf("%w: mutant %q: this build has no mutants (build tag \"mutants\")", engine.ErrInvalid, name)
	}
	return New(), NewReceiver(), NewStorage(), nil
}

// Mutate refuses every name but "": this build has no mutants.
func Mutate(name string, _ *Model, _ *Receiver, _ *Storage) error {
	if name != "" {
		return fmt.Errorf("%w: mutant %q: this build has no mutants (build tag \"mutants\")", engine.ErrInvalid, name)
	}
	return nil
}
