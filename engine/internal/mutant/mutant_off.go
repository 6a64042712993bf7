//go:build !mutants

package mutant

// All lists the mutants compiled into this build: none.
func All() []Info { return nil }

// Missing is why a build without the mutants tag refuses a mutant's name.
const Missing = "this build has no mutants (build tag \"mutants\")"
