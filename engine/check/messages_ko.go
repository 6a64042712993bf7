package check

import "github.com/leaselab/leaselab/engine/internal/lang"

// The violations' details in Korean, keyed by their English formats
// (package engine/internal/lang); a test holds every format of the package to it.
var _ = lang.Add("ko", func() (formats, words map[string]string) {
	return map[string]string{
		" (%s's clock is %s, %s's %s; fencing must stop the stale holder)": " (%[1]s의 시계는 %[2]s, %[3]s의 시계는 %[4]s. 낡은 보유자는 펜싱이 막아야 합니다)",
		" on %s's clock (true time %d)":                                    " (%[1]s의 시계, 실제 시각 %[2]d)",
		"%d ms ahead":                                                      "%d ms 빠름",
		"%d ms behind":                                                     "%d ms 느림",
		"right":                                                            "정확함",
		"enqueue of existing job %s accepted":                              "이미 있는 일 %s의 접수가 받아들여짐",
		"job %s appears more than once":                                    "일 %s(이)가 두 번 이상 나타남",
		"job %s is missing":                                                "일 %s(이)가 사라짐",
		"job %s was %s; changed: %s":                                       "일 %[1]s(은)는 %[2]s였는데 바뀜: %[3]s",
		"job %s: %s by %s accepted after the lease was %s":                 "일 %[1]s: 임대가 %[4]s 뒤에 %[3]s의 %[2]s(이)가 받아들여짐",
		"job %s: %s by %s accepted at %d, but the lease ended at %d":       "일 %[1]s: %[3]s의 %[2]s(이)가 %[4]d에 받아들여졌지만 임대는 %[5]d에 끝남",
		"job %s: %s by %s accepted, but no lease was granted":              "일 %[1]s: %[3]s의 %[2]s(이)가 받아들여졌지만 준 임대가 없음",
		"job %s: %s by %s accepted, latest grant %s":                       "일 %[1]s: %[3]s의 %[2]s(이)가 받아들여짐, 최근 임대는 %[4]s",
		"lock %s: %s acquired a majority of the nodes at %d while %s, which acquired one at %d, believes it holds the lock until %d": "잠금 %[1]s: %[4]s(이)가 %[5]d에 노드 과반을 얻어 %[6]d까지 잠금을 가졌다고 믿는데 %[2]s(이)가 %[3]d에 노드 과반을 얻음",
		"job %s: %s granted at %d, %d ms after %s ran out, within the lock-delay of %d ms":                                           "일 %[1]s: %[5]s의 임대가 끝나고 %[4]d ms 뒤인 %[3]d에 %[2]s(이)가 주어짐(잠금 지연 %[6]d ms 안)",
		"job %s: %s granted at %d%s while %s is valid until %d%s%s":                                                                  "일 %[1]s: %[5]s(이)가 %[6]d%[7]s까지 유효한데 %[2]s(이)가 %[3]d%[4]s에 주어짐%[8]s",
		"job %s: attempts %d > max_attempts %d":                                                                                      "일 %s: attempts %d > max_attempts %d",
		"job %s: lease %s until %d, past deadline %d":                                                                                "일 %[1]s: 임대 %[2]s(이)가 %[3]d까지로 마감 %[4]d(을)를 넘음",
		"job %s: lease_until %d > deadline %d":                                                                                       "일 %s: lease_until %d > deadline %d",
		"job %s: row holds %s while %s is valid until %d (now %d)":                                                                   "일 %[1]s: %[3]s(이)가 %[4]d까지 유효한데 행은 %[2]s(을)를 가짐(지금 %[5]d)",
		"job %s: token %d granted at %d, not above %d":                                                                               "일 %[1]s: %[3]d에 준 token %[2]d(이)가 %[4]d보다 크지 않음",
		"job %s: the receiver applied it again for %s, after %s":                                                                     "일 %[1]s: 수신 측이 %[3]s에 이어 %[2]s에도 다시 적용함",
		"job %s: token went from %d to %d":                                                                                           "일 %s: token이 %d에서 %d(으)로 바뀜",
		"storage %s: write by %s accepted after %s was granted the lease of %s":                                                      "저장소 %[1]s: %[3]s(이)가 %[4]s의 임대를 받은 뒤 %[2]s의 쓰기가 받아들여짐",
		"storage %s: write by %s accepted after a write with token %d was accepted":                                                  "저장소 %[1]s: token %[3]d의 쓰기를 받아들인 뒤 %[2]s의 쓰기가 받아들여짐",
	}, map[string]string{"completed": "완료된", "released": "반납된", "quarantined": "격리된"}
})
