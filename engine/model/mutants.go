package model

// The model can break one rule the way an engine mutant does, so that the
// explorer searches for the shortest history that tells a mutant from the
// contract on plain values, and confirms it on the real engine after. Like
// the engine's, the way to select one (Mutant, Mutate) exists only in
// builds with the "mutants" tag; a normal build's models all keep the
// contract.

func (m *Model) mut(name string) bool { return m.mutant != "" && m.mutant == name }
