//go:build mutants

package engine

import (
	"fmt"

	"github.com/leaselab/leaselab/engine/internal/mutant"
)

// WithMutant makes this store (or receiver, or storage) the named mutant, a
// deliberately broken engine that breaks one rule; "" is the correct
// engine. It exists only in builds with the "mutants" tag, for the
// simulator's comparisons and for proving that the tests kill every mutant.
func WithMutant(name string) Option {
	return func(c *config) error {
		if name != "" && !mutant.Known(name) {
			return fmt.Errorf("%w: unknown mutant %q", ErrInvalid, name)
		}
		c.mutant = name
		return nil
	}
}

func (c *config) mut(name string) bool { return c.mutant == name }

// mutated reports whether the store runs as a mutant.
func (c *config) mutated() bool { return c.mutant != "" }
