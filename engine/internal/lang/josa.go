package lang

import (
	"strings"
	"unicode/utf8"
)

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
			final, rieul := finalSound(strings.TrimRight(before, "`\"')"))
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

// finalSound reports whether the text s ends, read aloud in Korean, in a
// consonant, and whether that consonant is ㄹ: a Hangul syllable by its
// batchim, a digit by its Sino-Korean name, Latin letters by latinFinal.
func finalSound(s string) (final, rieul bool) {
	i := len(s)
	for i > 0 && isLatin(s[i-1]) {
		i--
	}
	if i < len(s) {
		return latinFinal(s[i:])
	}
	r, _ := utf8.DecodeLastRuneInString(s)
	switch {
	case r >= 0xAC00 && r <= 0xD7A3:
		f := (r - 0xAC00) % 28
		return f != 0, f == 8
	case r >= '0' && r <= '9':
		// 영 일 이 삼 사 오 육 칠 팔 구
		return strings.ContainsRune("013678", r), strings.ContainsRune("178", r)
	}
	return false, false
}

func isLatin(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// latinFinal is the final sound of a run of Latin letters. A run of one or
// two letters, or of capitals, is spelled out, so its last letter's name
// decides: 엘 and 알 end in ㄹ, 엠 and 엔 in a consonant, the rest in a
// vowel. A longer run is a word, its last word in camel case, read as
// Korean writes loanwords: -er/-or/-ar/-ure and any final r, a vowel letter,
// -s/-x/-z/-ch/-sh/-th, -d and -g (드, 그, but -ng: ㅇ) end in a vowel;
// -l in ㄹ; -m, -n in a batchim; -le (블), -me, -ne as l, m, n; other
// silent-e endings in a vowel; p, t, k, c and b in a batchim after one
// vowel letter (락, 스텝, 스냅샷, 토픽, 잡) and -out and -ook likewise, after
// a consonant or two vowels in 으 (클라이언트, 태스크, 루프). Spellings that
// break the pattern (세트, 허브) are read by it.
func latinFinal(w string) (final, rieul bool) {
	if len(w) <= 2 || strings.ToUpper(w) == w {
		switch w[len(w)-1] {
		case 'L', 'l', 'R', 'r': // 엘, 알
			return true, true
		case 'M', 'm', 'N', 'n': // 엠, 엔
			return true, false
		}
		return false, false
	}
	for i := len(w) - 1; i > 0; i-- { // camel case: from the last capital
		if w[i] >= 'A' && w[i] <= 'Z' {
			w = w[i:]
			break
		}
	}
	w = strings.ToLower(w)
	n := len(w)
	last, prev := w[n-1], byte(0)
	if n > 1 {
		prev = w[n-2]
	}
	switch last {
	case 'e':
		return prev == 'l' || prev == 'm' || prev == 'n', prev == 'l'
	case 'l':
		return true, true
	case 'm', 'n':
		return true, false
	case 'g':
		return prev == 'n', false
	case 'p', 't', 'k', 'c', 'b':
		stem := w[:n-1]
		if last == 'k' && prev == 'c' {
			stem = w[:n-2]
		}
		return shortVowelEnd(stem) || strings.HasSuffix(w, "out") || strings.HasSuffix(w, "ook"), false
	}
	return false, false
}

// shortVowelEnd reports whether stem ends in exactly one vowel letter.
func shortVowelEnd(stem string) bool {
	vowel := func(i int) bool { return i >= 0 && strings.IndexByte("aeiou", stem[i]) >= 0 }
	n := len(stem)
	return vowel(n-1) && !vowel(n-2)
}
