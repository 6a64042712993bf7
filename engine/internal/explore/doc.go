// Package explore is the explorer: it finds, by itself, the timeline that
// tells a broken engine from the correct one, or that breaks an invariant
// — the shortest one within a scope. A course's worksheet is a puzzle whose
// answer only its author knew; the explorer answers it.
//
// The search is breadth first over every schedule within the scope
// (Scope: the workers, the jobs, the number of steps, the lease), so the
// first history found is a shortest one. Its steps land on the instants
// that matter — now, and one before, at and one after every lease's end
// and every deadline — which are the boundaries the contract is exact
// about. It runs on the pure model (engine/model), never on the database,
// and visits each state once: two states are one when they differ only by
// the names of the workers (worker symmetry), and a worker that holds
// nothing and is named nowhere acts for all such workers. A search is
// deterministic: the same scope and goal give the same history, found in
// the same order, and it stops at its bound of states, saying so, rather
// than run away.
//
// Explore then confirms the find on the real engine over in-memory SQLite
// (package memrun) and writes it as a timeline whose expectations are the
// correct engine's: leaselab check passes on it, and check -mutant fails.
// A find the engine does not confirm is ErrNotConfirmed: the model and the
// engine disagree, and that is a bug to fix, not a result.
package explore
