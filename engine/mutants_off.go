//go:build !mutants

package engine

import "fmt"

// WithMutant refuses every name but "": this build has no mutant code (build
// with -tags mutants for the worksheet and for make mutants).
func WithMutant(name string) Option {
	return func(c *config) error {
		if name == "" {
			return nil
		}
		return fmt.Errorf("%w: mutant %q: this build has no mutants (build tag \"mutants\")", ErrInvalid, name)
	}
}

// Mutants lists the mutants compiled into this build: none.
func Mutants() []MutantInfo { return nil }

func (c *config) mut(string) bool { return false }

// mutated reports whether the store runs as a mutant.
func (c *config) mutated() bool { return false }
