//go:build !mutants

package explore

import (
	"fmt"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/internal/mutant"
	"github.com/leaselab/leaselab/engine/model"
)

// mutantModel is the contract's model, receiver and storage for ""; this
// build has no mutant.
func mutantModel(name string) (*model.Model, *model.Receiver, *model.Storage, error) {
	if err := noMutant(name); err != nil {
		return nil, nil, nil, err
	}
	return model.New(), model.NewReceiver(), model.NewStorage(), nil
}

// mutate refuses every name but "": this build has no mutant.
func mutate(name string, _ *model.Model, _ *model.Receiver, _ *model.Storage) error {
	return noMutant(name)
}

func noMutant(name string) error {
	if name == "" {
		return nil
	}
	return fmt.Errorf("%w: mutant %q: %s", engine.ErrInvalid, name, mutant.Missing)
}
