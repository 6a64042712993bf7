//go:build mutants

package engine_test

import (
	"os"
	"testing"

	"github.com/leaselab/leaselab/engine"
)

// MutantEnv names the mutant every test store runs as in a mutants build;
// make mutants sets it once per mutant.
const MutantEnv = "LEASELAB_MUTANT"

func testOptions(testing.TB) []engine.Option {
	return []engine.Option{engine.WithMutant(os.Getenv(MutantEnv))}
}
