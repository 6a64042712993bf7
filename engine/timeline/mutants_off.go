//go:build !mutants

package timeline

import (
	"fmt"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/internal/mutant"
)

// withMutant refuses every mutant: this build has none.
func withMutant(name string) (engine.Option, error) {
	return nil, fmt.Errorf("%w: mutant %q: %s", engine.ErrInvalid, name, mutant.Missing)
}
