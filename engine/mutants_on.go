//go:build mutants

package engine

import "fmt"

// WithMutant makes this store (or receiver) the named mutant; "" is the
// correct engine. Only in builds with the "mutants" tag.
func WithMutant(name string) Option {
	return func(c *config) error {
		if name == "" {
			return nil
		}
		for _, m := range mutantCatalog {
			if m.Name == name {
				c.mutant = name
				return nil
			}
		}
		return fmt.Errorf("%w: unknown mutant %q", ErrInvalid, name)
	}
}

// Mutants lists the mutants compiled into this build.
func Mutants() []MutantInfo { return append([]MutantInfo(nil), mutantCatalog...) }

func (c *config) mut(name string) bool { return c.mutant == name }

var mutantCatalog = []MutantInfo{
	{MutantSchemaReset, "init_db is idempotent: reopening never resets a row or a token"},
	{MutantEnqueueReplace, "enqueueing an existing id changes nothing"},
	{MutantStateEmptyRow, "state of a missing job is nil"},
	{MutantClaimBoundary, "a job can be reclaimed at now == lease_until"},
	{MutantRenewBoundary, "renew is refused at now == lease_until"},
	{MutantCompleteDone, "done is final: a second complete is refused"},
	{MutantReleaseResetsToken, "release keeps the token"},
	{MutantClaimManyFirstOnly, "claim_many claims for every owner, one token each"},
	{MutantNoDeadlineCap, "lease_until = min(now+ttl, deadline)"},
	{MutantAttemptsOffByOne, "a job is quarantined once attempts >= max_attempts"},
	{MutantOwnerNotCompared, "renew and complete compare owner and token"},
	{MutantValidityInclusive, "complete is refused at now == lease_until"},
	{MutantReceiverNotIdempotent, "the receiver applies a business id once"},
	{MutantIDOnly, "renew, complete and release present the owner and the token of the current lease"},
	{MutantStorageUnfenced, "the storage refuses a write whose token is below one it already accepted"},
}

// mutated reports whether the store runs as a mutant.
func (c *config) mutated() bool { return c.mutant != "" }
