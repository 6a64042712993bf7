package lang_test

import (
	"testing"

	"github.com/leaselab/leaselab/engine/internal/lang"
)

// Each particle pair takes its first form after a final consonant and its
// second after a vowel; (으)로 takes 로 after ㄹ too.
func TestJosa_PicksTheParticleByTheFinalSound(t *testing.T) {
	cases := []struct{ in, want string }{
		{"민수(이)가", "민수가"},            // vowel
		{"지영(이)가", "지영이"},            // final ㅇ
		{"서울(으)로", "서울로"},            // final ㄹ
		{"부산(으)로", "부산으로"},           // final ㄴ
		{"바다(으)로", "바다로"},            // vowel
		{"token 1(을)를", "token 1을"},  // 일
		{"token 2(을)를", "token 2를"},  // 이
		{"token 3(으)로", "token 3으로"}, // 삼
		{"token 7(으)로", "token 7로"},  // 칠: ㄹ
		{"A(은)는", "A는"},              // 에이
		{"admin(이)가", "admin이"},      // 엔
		{"order-7(과)와", "order-7과"},  // 칠
		{"B(이)라", "B라"},
		{"(이)가", "가"}, // nothing before it
		{"민수(이)가 지영(을)를", "민수가 지영을"},
		{"`claim`(은)는", "`claim`은"}, // 엠: through the backquote
		{"\"지영\"(이)가", "\"지영\"이"},   // through the quote
	}
	for _, c := range cases {
		if got := lang.Josa(c.in); got != c.want {
			t.Errorf("Josa(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
