//go:build mutants

package explore

import "github.com/leaselab/leaselab/engine/model"

// mutantModel is the contract's model, receiver and storage for "", and the
// named mutant's otherwise.
func mutantModel(name string) (*model.Model, *model.Receiver, *model.Storage, error) {
	return model.Mutant(name)
}

// mutate makes m, r and s break the named mutant's rule ("" the contract).
func mutate(name string, m *model.Model, r *model.Receiver, s *model.Storage) error {
	return model.Mutate(name, m, r, s)
}
