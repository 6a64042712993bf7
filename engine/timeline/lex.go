package timeline

import (
	"strings"
	"unicode"
)

// token is one whitespace-separated word of a line. A double-quoted part
// ("...", with Go escapes) may hold spaces, "#" and "->".
type token struct {
	text string // as written, quotes kept
	col  int    // 1-based column of its first character
}

// lexed is one line split into words.
type lexed struct {
	words      []token // before "->"
	arrow      int     // the column of "->"; 0 if none
	expect     []token // after "->"
	expectText string  // the text after "->", trimmed, comment removed
	comment    string  // the text after "#", trimmed
	hasCode    bool    // words or an arrow precede the comment
}

// lex splits a line. It reports an error (and false) for an unterminated
// quote or a second "->".
func (p *parser) lex(line string) (lexed, bool) {
	var (
		ll       lexed
		cur      []rune
		curCol   int
		runes    = []rune(line)
		afterArr bool
		exStart  = -1 // rune index where the expectation text starts
		exEnd    = len(runes)
	)
	flush := func() {
		if cur == nil {
			return
		}
		t := token{text: string(cur), col: curCol}
		if afterArr {
			ll.expect = append(ll.expect, t)
		} else {
			ll.words = append(ll.words, t)
		}
		cur = nil
	}
	for i := 0; i < len(runes); i++ {
		r := runes[i]
		col := i + 1
		switch {
		case unicode.IsSpace(r):
			flush()
		case r == '#' && cur == nil:
			ll.comment = strings.TrimSpace(string(runes[i+1:]))
			exEnd = i
			i = len(runes)
		case r == '"':
			if cur == nil {
				curCol = col
				cur = []rune{}
			}
			j := i + 1
			for ; j < len(runes); j++ {
				if runes[j] == '\\' {
					j++
					continue
				}
				if runes[j] == '"' {
					break
				}
			}
			if j >= len(runes) {
				p.errorf(col, "unterminated quote")
				return ll, false
			}
			cur = append(cur, runes[i:j+1]...)
			i = j
		case r == '-' && i+1 < len(runes) && runes[i+1] == '>':
			flush()
			if afterArr {
				p.errorf(col, "a second -> on one line")
				return ll, false
			}
			afterArr, ll.arrow = true, col
			exStart = i + 2
			i++
		default:
			if cur == nil {
				curCol = col
				cur = []rune{}
			}
			j := wordEnd(runes, i)
			cur = append(cur, runes[i:j]...)
			i = j - 1
		}
	}
	flush()
	if exStart >= 0 && exStart <= exEnd {
		ll.expectText = strings.TrimSpace(string(runes[exStart:exEnd]))
	}
	ll.hasCode = len(ll.words) > 0 || ll.arrow != 0
	return ll, true
}

// wordEnd is where the run of a word's runes that starts at i ends: at a
// space, a quote or "->", whichever comes first, or at the line's end. A
// '#' inside a word is the word's (a comment starts only where a word
// would). lex takes a word's run at once, not a rune at a time: in
// WebAssembly the loop V8 optimizes first is then this small one, not lex,
// during the browser's cold first run.
func wordEnd(runes []rune, i int) int {
	for ; i < len(runes); i++ {
		switch r := runes[i]; {
		case r == '"', unicode.IsSpace(r), r == '-' && i+1 < len(runes) && runes[i+1] == '>':
			return i
		}
	}
	return len(runes)
}
