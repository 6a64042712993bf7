//go:build !mutants

package engine

func (c *config) mut(string) bool { return false }

// mutated reports whether the store runs as a mutant.
func (c *config) mutated() bool { return false }
