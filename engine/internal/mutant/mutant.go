// Package mutant names the engine's mutants: deliberately broken variants
// of the engine, one rule each, for teaching (the simulator's worksheet
// plays a correct and a broken engine side by side) and for proving the
// tests (make mutants runs the suite once per mutant and requires every
// one to fail). Their code exists only in builds with the "mutants" tag:
// there engine.WithMutant and model.Mutant make a store or a model one of
// them; in a normal build All is empty and no public package offers a way
// to select one.
//
// The first eight break the fencing lab's operations (init_db, enqueue,
// state, claim, renew, complete, release, claim_many), one changed fragment
// each, as the worksheet plays them; the rest break the courier queue's
// rules.
package mutant

// The mutants' names.
const (
	SchemaReset           = "schema-reset"            // init_db drops the table: reopening resets every token
	EnqueueReplace        = "enqueue-replace"         // INSERT OR REPLACE: re-enqueue resets a lease in progress
	StateEmptyRow         = "state-empty-row"         // state answers an empty row for a missing job
	ClaimBoundary         = "claim-boundary"          // claim treats now == lease_until as still held (row[0] >= now)
	RenewBoundary         = "renew-boundary"          // renew accepts now == lease_until (until >= now): revives an ended lease
	CompleteDone          = "complete-done"           // complete skips the done check (done >= 0): overwrites a result
	ReleaseResetsToken    = "release-resets-token"    // release sets token = 0: token numbers are reused
	ClaimManyFirstOnly    = "claim-many-first"        // claim_many claims for owners[0] only
	NoDeadlineCap         = "no-deadline-cap"         // lease_until = now + ttl, past the deadline
	AttemptsOffByOne      = "attempts-off-by-one"     // quarantine only when attempts > max_attempts
	OwnerNotCompared      = "owner-not-compared"      // renew/complete/release compare the token only
	ValidityInclusive     = "validity-inclusive"      // complete accepts now == lease_until (now <= lease_until)
	ReceiverNotIdempotent = "receiver-not-idempotent" // the receiver adds a resend's quantity again
	IDOnly                = "id-only"                 // renew, complete and release check the job id alone, as queues that complete by id do: no owner, no token
	StorageUnfenced       = "storage-unfenced"        // the storage stores every write without comparing tokens
)

// Info describes one mutant: its name and the rule it breaks, in English.
type Info struct {
	Name, Breaks string
}

// Known reports whether this build has the mutant name.
func Known(name string) bool {
	for _, m := range All() {
		if m.Name == name {
			return true
		}
	}
	return false
}

// Rule is the rule the named mutant breaks, worded in lang (a language of
// package engine/internal/lang's), or "" when this build has no mutant by that name.
// English is Info.Breaks; a language without a wording of its own for a
// rule gives the English one.
func Rule(lang, name string) string {
	for _, m := range All() {
		if m.Name != name {
			continue
		}
		if r, ok := rules[lang][name]; ok {
			return r
		}
		return m.Breaks
	}
	return ""
}

// rules words the rules the mutants break, by language and mutant,
// in the terms of the language's phrasebook.
var rules = map[string]map[string]string{
	"ko": {
		SchemaReset:           "init_db는 멱등입니다: 다시 열어도 행이나 token이 처음으로 돌아가지 않습니다",
		EnqueueReplace:        "이미 있는 id를 다시 접수해도 아무것도 바뀌지 않습니다",
		StateEmptyRow:         "없는 일을 조회하면 nil입니다",
		ClaimBoundary:         "now == lease_until인 순간 일을 다시 선점할 수 있습니다",
		RenewBoundary:         "now == lease_until이면 연장은 거절됩니다",
		CompleteDone:          "완료는 최종입니다: 두 번째 완료는 거절됩니다",
		ReleaseResetsToken:    "반납해도 token은 그대로입니다",
		ClaimManyFirstOnly:    "claim_many는 모든 소유자를 위해 선점을 시도하고, 받는 token은 하나입니다",
		NoDeadlineCap:         "lease_until은 min(now+ttl, deadline)입니다: 업무 마감을 넘지 않습니다",
		AttemptsOffByOne:      "attempts >= max_attempts가 되면 일은 격리됩니다",
		OwnerNotCompared:      "연장과 완료는 소유자와 token을 모두 비교합니다",
		ValidityInclusive:     "now == lease_until이면 완료는 거절됩니다",
		ReceiverNotIdempotent: "수신 측은 같은 업무 id를 한 번만 반영합니다",
		IDOnly:                "연장, 완료, 반납은 현재 임대의 소유자와 token을 제시해야 합니다",
		StorageUnfenced:       "저장소는 이미 받아들인 token보다 낮은 token의 쓰기를 거절합니다",
	},
}
