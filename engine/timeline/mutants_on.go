//go:build mutants

package timeline

import "github.com/leaselab/leaselab/engine"

// withMutant is the option that makes a run's engine the named mutant.
func withMutant(name string) (engine.Option, error) { return engine.WithMutant(name), nil }
