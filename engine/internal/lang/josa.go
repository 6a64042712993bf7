package lang

import "strings"

var _ = Finish("ko", Josa)

// Josa picks each Korean particle written as a pair — "(이)가", "(은)는",
// "(을)를", "(과)와", "(으)로", "(이)라" — by the sound that ends the word
// before it: the first form after a final consonant, the second after a
// vowel ("(으)로": 로 after ㄹ too), looking through a closing quote,
// backquote or parenthesis. It is Korean's last pass (Finish).
func Josa(s string) string {
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
			last := []rune(strings.TrimRight(before, "`\"')"))
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
