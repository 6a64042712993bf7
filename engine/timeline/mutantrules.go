package timeline

import "github.com/leaselab/leaselab/engine"

// MutantRule is the rule the named mutant breaks, worded in lang (one of
// Langs), or "" when this build has no mutant by that name (builds without
// the mutants tag have none). English is the engine's own wording
// (engine.Mutants); a language without a wording of its own for a rule
// gives the English one.
func MutantRule(lang, mutant string) string {
	for _, m := range engine.Mutants() {
		if m.Name != mutant {
			continue
		}
		if r, ok := mutantRules[lang][mutant]; ok {
			return r
		}
		return m.Breaks
	}
	return ""
}

// mutantRules words the rules the mutants break, by language and mutant,
// in the terms of the language's phrasebook.
var mutantRules = map[string]map[string]string{
	"ko": {
		engine.MutantSchemaReset:           "init_db는 멱등입니다: 다시 열어도 행이나 token이 처음으로 돌아가지 않습니다",
		engine.MutantEnqueueReplace:        "이미 있는 id를 다시 접수해도 아무것도 바뀌지 않습니다",
		engine.MutantStateEmptyRow:         "없는 일을 조회하면 nil입니다",
		engine.MutantClaimBoundary:         "now == lease_until인 순간 일을 다시 선점할 수 있습니다",
		engine.MutantRenewBoundary:         "now == lease_until이면 연장은 거절됩니다",
		engine.MutantCompleteDone:          "완료는 최종입니다: 두 번째 완료는 거절됩니다",
		engine.MutantReleaseResetsToken:    "반납해도 token은 그대로입니다",
		engine.MutantClaimManyFirstOnly:    "claim_many는 모든 소유자를 위해 선점을 시도하고, 받는 token은 하나입니다",
		engine.MutantNoDeadlineCap:         "lease_until은 min(now+ttl, deadline)입니다: 업무 마감을 넘지 않습니다",
		engine.MutantAttemptsOffByOne:      "attempts >= max_attempts가 되면 일은 격리됩니다",
		engine.MutantOwnerNotCompared:      "연장과 완료는 소유자와 token을 모두 비교합니다",
		engine.MutantValidityInclusive:     "now == lease_until이면 완료는 거절됩니다",
		engine.MutantReceiverNotIdempotent: "수신 측은 같은 업무 id를 한 번만 반영합니다",
		engine.MutantIDOnly:                "연장, 완료, 반납은 현재 임대의 소유자와 token을 제시해야 합니다",
		engine.MutantStorageUnfenced:       "저장소는 이미 받아들인 token보다 낮은 token의 쓰기를 거절합니다",
	},
}
