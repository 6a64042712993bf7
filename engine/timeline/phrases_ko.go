package timeline

import (
	"strings"

	"github.com/leaselab/leaselab/engine"
)

var korean = phrasebook{
	list:   func(names []string) string { return strings.Join(names, ", ") },
	finish: josa,
	ops: map[string]string{"claim": "선점", "renew": "연장", "complete": "완료", "release": "반납", "send": "전송",
		"deliver": "전달", "enqueue": "접수", "state": "조회", "claim_next": "선점", "claim_many": "선점",
		"write": "쓰기", "read": "읽기", "reopen": "다시 열기"},
	reasons: map[string]string{engine.ReasonAttempts: "시도 소진", engine.ReasonDeadline: "마감 지남"},

	claimed:        "%[1]s(이)가 %[2]s(을)를 선점하고 token %[3]d(을)를 받습니다. 임대는 %[4]d ms까지입니다%[5]s.",
	claimedNext:    "%[1]s(이)가 선점할 수 있는 가장 오래된 일 %[2]s(을)를 선점하고 token %[3]d(을)를 받습니다. 임대는 %[4]d ms까지입니다%[5]s.",
	reclaimed:      "%[6]s의 임대(token %[7]d)가 %[8]d ms에 끝난 %[2]s(을)를 %[1]s(이)가 선점하고 token %[3]d(을)를 받습니다. 임대는 %[4]d ms까지입니다%[5]s.",
	reclaimedSelf:  "%[1]s(이)가 %[2]s(을)를 다시 선점하고 token %[3]d(을)를 받습니다. 자신의 이전 token %[7]d(은)는 이제 낡은 토큰이고, 임대는 %[4]d ms까지입니다%[5]s.",
	reclaimedClock: "%[6]s의 임대(token %[7]d)가 %[6]s의 시계로 %[8]d ms(실제 시각 %[9]d ms)에 끝난 %[2]s(을)를 %[1]s(이)가 선점하고 token %[3]d(을)를 받습니다. 임대는 %[4]d ms까지입니다%[5]s.",
	reclaimedEarly: "%[1]s(이)가 %[2]s(을)를 선점하고 token %[3]d(을)를 받습니다. %[6]s의 임대(token %[7]d)는 %[6]s의 시계로 %[8]d ms(실제 시각 %[9]d ms)까지라 아직 끝나지 않았지만 %[1]s의 시계로는 끝났습니다. 임대는 %[4]d ms까지입니다%[5]s.",
	capNote:        "(업무 마감에 맞춰 줄어듦)",
	noJob:          "%[1]s(이)가 선점할 수 있는 일을 찾지 못합니다.",
	claimRefused:   "%[1]s의 %[2]s 선점은 거절됩니다: %[3]s.",
	quarantinedBy:  "%[1]s의 %[2]s 선점은 거절되고, 이 선점이 일을 격리합니다: %[3]s.",
	writeRefused:   "%[1]s의 token %[3]d %[2]s 요청은 거절됩니다: %[4]s.",
	renewed:        "%[1]s(이)가 token %[3]d(으)로 %[2]s의 임대를 연장합니다. 이제 %[4]d ms까지입니다%[5]s.",
	completed:      "%[1]s(이)가 token %[3]d(으)로 %[2]s(을)를 완료합니다. 결과는 %[4]q입니다.",
	released:       "%[1]s(이)가 %[2]s(을)를 반납합니다. token은 %[3]d(으)로 남으므로 다음 선점은 token %[4]d(을)를 받습니다.",
	sent:           "%[1]s(이)가 token %[3]d(으)로 %[2]s(을)를 전송합니다. 수신 측이 수량 %[4]d(을)를 기록하고, %[5]d ms의 완료로 끝납니다.",
	sentAgain:      "%[1]s(이)가 token %[3]d(으)로 %[2]s(을)를 전송합니다. 수신 측은 이미 받았으므로 아무것도 더하지 않고, %[5]d ms의 완료로 끝납니다.",
	sentLate:       "%[1]s의 %[2]s 전송은 수신 측에 도착했지만 %[3]d ms의 완료는 거절됩니다: %[4]s.",
	sentNothing:    "%[1]s(이)가 보낼 일을 찾지 못합니다.",
	sendFailed:     "%[1]s의 %[2]s 전송이 %[4]d ms에 실패합니다. 임대는 반납되고 token은 %[3]d(으)로 남습니다.",
	delivered:      "수신 측이 %[1]s(이)가 token %[4]d(으)로 보낸 %[2]s(을)를 기록합니다(수량 %[3]d). 합계는 %[5]d입니다.",
	redelivered:    "수신 측은 이미 %[2]s(을)를 받았습니다. %[1]s의 전달(token %[4]d)은 아무것도 더하지 않고, 합계는 %[5]d 그대로입니다.",
	enqueued:       "%[1]s(이)가 %[2]s(을)를 접수합니다(수량 %[3]d).",
	enqueueExists:  "%[2]s(은)는 이미 있습니다. %[1]s의 접수는 아무것도 바꾸지 않습니다.",
	stateRead:      "%[1]s(이)가 %[2]s(을)를 조회합니다: %[3]s.",
	stateMissing:   "%[1]s(이)가 %[2]s(을)를 조회합니다: 그런 일은 없습니다.",
	manyWon:        "%[1]s(이)가 같은 순간 %[2]s(을)를 선점합니다. %[3]s만 받고(token %[4]d, %[5]d ms까지) 나머지는 거절됩니다.",
	manyNone:       "%[1]s(이)가 같은 순간 %[2]s(을)를 선점하지만 모두 거절됩니다: %[3]s.",
	manyOdd:        "%[1]s(이)가 같은 순간 %[2]s(을)를 선점하고, %[3]s(이)가 받습니다.",
	invalid:        "%[1]s의 %[2]s 요청은 잘못된 인자라서(%[3]s) 아무것도 바뀌지 않습니다.",
	failed:         "%[1]s의 %[2]s 요청이 실패했습니다: %[3]s.",

	notFound:            "%[1]s(이)라는 일이 없습니다",
	isDone:              "%[1]s(은)는 이미 완료되었습니다",
	quarantinedAttempts: "%[1]s(은)는 시도 %[2]d번을 모두 써서 격리되었습니다",
	quarantinedDeadline: "%[1]s(은)는 마감 %[2]d ms가 지나 격리되었습니다",
	nowAttempts:         "시도 %[1]d번을 모두 썼습니다",
	nowDeadline:         "마감 %[1]d ms가 지났습니다",
	held:                "%[1]s(이)가 token %[2]d(으)로 %[3]d ms까지 갖고 있습니다",
	superseded:          "%[1]s(이)가 %[3]d ms부터 token %[2]d(을)를 갖고 있습니다",
	supersededSelf:      "%[1]s(이)가 %[3]d ms에 다시 선점해 token %[2]d(을)를 갖고 있습니다",
	supersededFree:      "임대가 반납되어 지금은 아무도 갖고 있지 않습니다(token %[1]d)",
	neverHeld:           "%[1]s(은)는 이 일의 임대를 가진 적이 없습니다",
	expired:             "임대가 %[1]d ms에 끝났습니다",
	deadlinePassed:      "업무 마감 %[1]d ms가 지났습니다",

	rowPending:     "대기 중, token %[1]d",
	rowLeased:      "%[1]s(이)가 token %[2]d(으)로 %[3]d ms까지 임대 중",
	rowLeaseEnded:  "%[1]s의 임대(token %[2]d)는 %[3]d ms에 끝났음",
	rowDone:        "%[1]s(이)가 token %[2]d(으)로 완료, 결과 %[3]q",
	rowQuarantined: "격리됨(%[1]s), token %[2]d",

	supersededDone: "%[1]s(이)가 %[3]d ms부터 token %[2]d(을)를 갖고 있고 이미 결과를 썼습니다",
	ownClock:       "(%[1]s의 시계로는 %[2]d ms: %[3]s)",
	ahead:          "%d ms 빠름",
	behind:         "%d ms 느림",
	paused:         "%[1]s(이)가 %[2]d ms부터 %[3]d ms까지 멈춥니다(GC 일시 정지, 네트워크 지연). 아무것도 하지 않는 동안에도 임대 시간은 흘러갑니다.",
	crashed:        "%[1]s(이)가 죽으면서 갖고 있던 임대(%[2]s)를 잊습니다. 행에는 임대가 끝날 때까지 그 이름이 남고, 다음 단계는 같은 이름의 새 프로세스입니다.",
	crashedEmpty:   "%[1]s(이)가 죽습니다. 갖고 있던 임대는 없었고, 다음 단계는 같은 이름의 새 프로세스입니다.",
	waited:         "%[1]d ms까지 시간이 흐릅니다.",
	reopened:       "%[1]s(이)가 저장소를 다시 엽니다(init_db를 다시 실행). 모든 행과 token이 그대로입니다.",
	reopenedLost:   "%[1]s(이)가 저장소를 다시 여는데 init_db가 초기화합니다: %[2]s(이)가 사라지고 token도 함께 사라집니다.",
	wrote:          "%[1]s(이)가 token %[3]d(으)로 %[2]s에 씁니다. 더 높은 token이 쓴 적이 없으므로 저장소가 받아들이고 %[4]q(을)를 보관합니다.",
	wroteStale:     "%[1]s(이)가 token %[3]d(으)로 %[2]s에 쓰고 저장소가 받아들여 %[4]q(을)를 보관합니다. 더 높은 token이 쓴 적이 없으므로 저장소는 그 뒤 %[5]s(이)가 token %[6]d(을)를 받았다는 것을 알 수 없습니다. 이 쓰기는 낡은 것입니다.",
	wroteEnded:     "%[1]s(이)가 token %[3]d(으)로 %[2]s에 쓰고 저장소가 받아들여 %[4]q(을)를 보관합니다. %[1]s의 임대는 %[5]d ms에 끝났지만 저장소는 자신이 본 token으로만 막습니다.",
	alsoChanged:    "이 단계는 %[1]s도 바꿉니다: %[2]s.",
	wroteFenced:    "%[1]s의 token %[3]d %[2]s 쓰기는 거절됩니다. 저장소는 이미 %[4]s의 token %[5]d(을)를 받아들였고, 더 낮은 token은 낡은 것입니다.",
	readValue:      "%[1]s(이)가 저장소에서 %[2]s(을)를 읽습니다: %[3]q, %[4]s(이)가 token %[5]d(으)로 씀.",
	readMissing:    "%[1]s(이)가 저장소에서 %[2]s(을)를 읽습니다: 아무것도 없습니다.",
}

// josa picks each Korean particle written as a pair — "(이)가", "(은)는",
// "(을)를", "(과)와", "(으)로", "(이)라" — by the sound that ends the word
// before it: the first form after a final consonant, the second after a
// vowel ("(으)로": 로 after ㄹ too).
func josa(s string) string {
	pairs := []struct{ marker, after, vowel string }{
		{"(이)가", "이", "가"}, {"(은)는", "은", "는"}, {"(을)를", "을", "를"},
		{"(과)와", "과", "와"}, {"(으)로", "으로", "로"}, {"(이)라", "이라", "라"},
	}
	for _, p := range pairs {
		var b strings.Builder
		rest := s
		for {
			i := strings.Index(rest, p.marker)
			if i < 0 {
				b.WriteString(rest)
				break
			}
			before := rest[:i]
			b.WriteString(before)
			last := []rune(before)
			var r rune
			if len(last) > 0 {
				r = last[len(last)-1]
			}
			final, rieul := finalConsonant(r)
			if final && !(p.marker == "(으)로" && rieul) {
				b.WriteString(p.after)
			} else {
				b.WriteString(p.vowel)
			}
			rest = rest[i+len(p.marker):]
		}
		s = b.String()
	}
	return s
}

// finalConsonant reports whether r, read aloud in Korean, ends in a
// consonant, and whether that consonant is ㄹ.
func finalConsonant(r rune) (final, rieul bool) {
	switch {
	case r >= 0xAC00 && r <= 0xD7A3:
		f := (r - 0xAC00) % 28
		return f != 0, f == 8
	case r >= '0' && r <= '9':
		// 영 일 이 삼 사 오 육 칠 팔 구
		return strings.ContainsRune("013678", r), strings.ContainsRune("178", r)
	}
	switch r {
	case 'L', 'l', 'R', 'r': // 엘, 알
		return true, true
	case 'M', 'm', 'N', 'n': // 엠, 엔
		return true, false
	}
	return false, false
}
