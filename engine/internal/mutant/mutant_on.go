//go:build mutants

package mutant

// All lists the mutants compiled into this build.
func All() []Info { return append([]Info(nil), catalog...) }

var catalog = []Info{
	{SchemaReset, "init_db is idempotent: reopening never resets a row or a token"},
	{EnqueueReplace, "enqueueing an existing id changes nothing"},
	{StateEmptyRow, "state of a missing job is nil"},
	{ClaimBoundary, "a job can be reclaimed at now == lease_until"},
	{RenewBoundary, "renew is refused at now == lease_until"},
	{CompleteDone, "done is final: a second complete is refused"},
	{ReleaseResetsToken, "release keeps the token"},
	{ClaimManyFirstOnly, "claim_many claims for every owner, one token each"},
	{NoDeadlineCap, "lease_until = min(now+ttl, deadline)"},
	{AttemptsOffByOne, "a job is quarantined once attempts >= max_attempts"},
	{OwnerNotCompared, "renew and complete compare owner and token"},
	{ValidityInclusive, "complete is refused at now == lease_until"},
	{ReceiverNotIdempotent, "the receiver applies a business id once"},
	{IDOnly, "renew, complete and release present the owner and the token of the current lease"},
	{StorageUnfenced, "the storage refuses a write whose token is below one it already accepted"},
}
