package engine

// Mutants are deliberately broken variants of the engine, one rule each, for
// teaching (the simulator's worksheet plays a correct and a broken engine
// side by side) and for proving the tests (make mutants runs the suite once
// per mutant and requires every one to fail). Their code exists only in
// builds with the "mutants" tag; in a normal build WithMutant refuses every
// name and Mutants returns nothing.
//
// The first eight break the fencing lab's operations (init_db, enqueue,
// state, claim, renew, complete, release, claim_many), one changed fragment
// each, as the worksheet plays them; the rest break the courier queue's
// rules.
const (
	MutantSchemaReset           = "schema-reset"            // init_db drops the table: reopening resets every token
	MutantEnqueueReplace        = "enqueue-replace"         // INSERT OR REPLACE: re-enqueue resets a lease in progress
	MutantStateEmptyRow         = "state-empty-row"         // state answers an empty row for a missing job
	MutantClaimBoundary         = "claim-boundary"          // claim treats now == lease_until as still held (row[0] >= now)
	MutantRenewBoundary         = "renew-boundary"          // renew accepts now == lease_until (until >= now): revives an ended lease
	MutantCompleteDone          = "complete-done"           // complete skips the done check (done >= 0): overwrites a result
	MutantReleaseResetsToken    = "release-resets-token"    // release sets token = 0: token numbers are reused
	MutantClaimManyFirstOnly    = "claim-many-first"        // claim_many claims for owners[0] only
	MutantNoDeadlineCap         = "no-deadline-cap"         // lease_until = now + ttl, past the deadline
	MutantAttemptsOffByOne      = "attempts-off-by-one"     // quarantine only when attempts > max_attempts
	MutantOwnerNotCompared      = "owner-not-compared"      // renew/complete/release compare the token only
	MutantValidityInclusive     = "validity-inclusive"      // complete accepts now == lease_until (now <= lease_until)
	MutantReceiverNotIdempotent = "receiver-not-idempotent" // the receiver adds a resend's quantity again
	MutantIDOnly                = "id-only"                 // renew, complete and release check the job id alone, as queues that complete by id do: no owner, no token
	MutantStorageUnfenced       = "storage-unfenced"        // the storage stores every write without comparing tokens
)

// MutantInfo describes one mutant: its name and the rule it breaks.
type MutantInfo struct {
	Name, Breaks string
}
