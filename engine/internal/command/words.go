package command

import (
	"fmt"
	"strings"
)

// words are the commands' own words in one language: headings, verdicts
// and counts around the engine's sentences (which the run explains in the
// same language).
type words struct {
	columns                        []string // check's table: line, time, actor, op, job, outcome, token, lease_until, expect
	held, failed, announced        string
	pass, fail, badInput           string
	plural                         func(n int, one, many string) string
	steps, expectations, timelines [2]string // one, many
	errors                         [2]string
	badFile                        string // a file's line: bad input (N errors)
	violations                     [2]string
	invariantBroken                string // name:line, invariant, detail
	summary                        string // verdict, steps, held, expectations, violations
	badRun                         string // timelines, of, passed, failed
	failRun                        string // failed, of, passed
	passRun                        string // timelines, steps, expectations
	line, expected, got, note      string
	expired, later, start          string
	more                           string // more errors, all errors
	warning, couldNotRun           string
	ownerReads, serviceReads       string // the clock that judged a lease's end, and its reading (true time comes first)
}

var catalog = map[string]*words{
	"en": {
		columns: []string{"LINE", "TIME", "ACTOR", "OP", "JOB", "OUTCOME", "TOKEN", "LEASE_UNTIL", "EXPECT"},
		held:    "held", failed: "FAILED", announced: "announced",
		pass: "PASS", fail: "FAIL", badInput: "BAD INPUT",
		plural: func(n int, one, many string) string {
			if n == 1 {
				return "1 " + one
			}
			return fmt.Sprintf("%d %s", n, many)
		},
		steps: [2]string{"step", "steps"}, expectations: [2]string{"expectation", "expectations"},
		timelines: [2]string{"timeline", "timelines"}, violations: [2]string{"invariant violation", "invariant violations"},
		errors: [2]string{"error", "errors"}, badFile: "bad input",
		invariantBroken: "%s: invariant %s broken: %s",
		summary:         "%s %s, %d of %s held, %s",
		badRun:          "BAD INPUT: %s of %d; %d passed, %d failed",
		failRun:         "FAIL: %d of %s failed; %d passed",
		passRun:         "PASS: %s, %s, %s held",
		line:            "line", expected: "expected", got: "got", note: "note",
		expired: "lease ended", later: "still valid after the last step, until", start: "before the first step",
		more: "... and %d more (%d errors in all)", warning: "warning:", couldNotRun: "could not run",
		ownerReads: " true time (%s's clock reads %d ms)", serviceReads: " true time (the service's clock reads %d ms)",
	},
	"ko": {
		columns: []string{"줄", "시각", "작업자", "연산", "일", "결과", "token", "임대 끝", "기대"},
		held:    "맞음", failed: "틀림", announced: "예고됨",
		pass: "통과", fail: "실패", badInput: "잘못된 입력",
		// A count is the noun first, then the number with its counter
		// ("기대 4개"), or the number joined to the noun ("4단계").
		plural: func(n int, one, _ string) string {
			if strings.Contains(one, "%d") {
				return fmt.Sprintf(one, n)
			}
			return fmt.Sprintf("%d%s", n, one)
		},
		steps: [2]string{"단계", "단계"}, expectations: [2]string{"기대 %d개", "기대 %d개"},
		timelines: [2]string{"타임라인 %d개", "타임라인 %d개"}, violations: [2]string{"불변식 위반 %d건", "불변식 위반 %d건"},
		errors: [2]string{"오류 %d개", "오류 %d개"}, badFile: "잘못된 입력",
		invariantBroken: "%s: 불변식 %s 위반: %s",
		summary:         "%[1]s %[2]s, %[4]s 중 %[3]d개 맞음, %[5]s",
		badRun:          "잘못된 입력: 전체 %[2]d개 중 %[1]s; 통과 %[3]d개, 실패 %[4]d개",
		failRun:         "실패: %[2]s 중 %[1]d개 실패; 통과 %[3]d개",
		passRun:         "통과: %s, %s, %s 맞음",
		line:            "줄", expected: "기대", got: "실제", note: "메모",
		expired: "임대 끝남", later: "마지막 단계 뒤에도 유효, 끝나는 시각", start: "첫 단계 전",
		more: "... 그리고 %d개 더(모두 %d개 오류)", warning: "경고:", couldNotRun: "실행할 수 없음",
		ownerReads: " 실제 시각(%s의 시계로는 %d ms)", serviceReads: " 실제 시각(서비스의 시계로는 %d ms)",
	},
}

// wordsFor is the catalogue of lang, English for a language without one.
func wordsFor(lang string) *words {
	if w, ok := catalog[lang]; ok {
		return w
	}
	return catalog["en"]
}

func (w *words) count(n int, what [2]string) string { return w.plural(n, what[0], what[1]) }
