package model

// The model can break one rule the way an engine mutant does (see
// engine.Mutants), so that the explorer (package engine/explore) searches
// for the shortest history that tells a mutant from the contract on plain
// values, and confirms it on the real engine after. Like the engine's,
// this code exists only in builds with the "mutants" tag
// (mutants_on.go); a normal build's models all keep the contract.

func (m *Model) mut(name string) bool { return m.mutant != "" && m.mutant == name }
