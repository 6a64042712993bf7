package engine_test

import "testing"

// maxFuzzOps bounds one fuzz input's sequence (one byte per choice, a few
// choices per operation).
const maxFuzzOps = 200

// FuzzEngineAgainstModel decodes the input into an operation sequence (one
// byte per choice: which jobs exist and their budgets, then operations,
// workers, leases presented, clock steps) and runs it against the engine and
// the reference model, as TestEngineMatchesModel_RandomSequencesAtEveryBoundary
// does: every result and every row equal, and every invariant held, after
// every operation. The seed corpus is in testdata/fuzz/FuzzEngineAgainstModel.
func FuzzEngineAgainstModel(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		h := newHarness(t, t, &byteSource{b: data})
		defer h.close()
		h.run(maxFuzzOps)
	})
}
