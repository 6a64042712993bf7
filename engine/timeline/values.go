package timeline

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/leaselab/leaselab/engine/internal/lang"
	"golang.org/x/text/unicode/norm"
)

// The values a line holds: names, instants and durations, counts, booleans
// and quoted text. Each reader reports its own mistake at the value's
// column and says what to write instead.

// name checks a name (an actor, a job, a key): Unicode letters and digits,
// "-" and "_", combining marks after the first character, at most the limit
// name_bytes. It returns the name in Unicode NFC, so a name typed
// decomposed (as macOS pastes "café") is the name declared composed.
func (p *parser) ident(t token, what string) (string, bool) {
	if t.text == "" {
		p.errorf(t.col, "missing %s name", lang.Word(what))
		return "", false
	}
	col := t.col
	for i, r := range []rune(t.text) {
		ok := unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_' || (i > 0 && unicode.IsMark(r))
		if !ok {
			p.errorf(col, "%s name %q: %q is not allowed (letters, digits, - and _)", lang.Word(what), t.text, r)
			return "", false
		}
		col++
	}
	name := norm.NFC.String(t.text)
	if len(name) > p.lim.NameBytes {
		p.limitf(t.col, p.lim.Row("name_bytes"), "%s name of %d bytes", lang.Word(what), len(name))
		return "", false
	}
	return name, true
}

// millis reads an instant or a duration in ms ("1000ms", "1.5s", "1000"),
// at most the limit max_time.
func (p *parser) millis(t token, key string) (int64, bool) {
	n, ok := parseMillis(t.text)
	if !ok {
		p.errorf(t.col, "%s", malformedTime(key, t.text, lang.P("a duration like 1000ms, 1.5s or 1000")))
		return 0, false
	}
	return n, p.withinTime(t.col, n, key)
}

// withinTime refuses an instant or a duration over the limit max_time.
func (p *parser) withinTime(col int, n int64, what string) bool {
	if n > p.lim.MaxTime {
		p.limitf(col, p.lim.Row("max_time"), "%s %d ms", lang.Word(what), n)
		return false
	}
	return true
}

// withinInstant refuses an instant more than the limit max_time after the
// epoch (0 without an epoch line), or before it.
func (p *parser) withinInstant(col int, n int64, what string) bool {
	if n < p.tl.Epoch {
		p.errorf(col, "%s %d ms is before the epoch, %d ms", lang.Word(what), n, p.tl.Epoch)
		return false
	}
	if n-p.tl.Epoch <= p.lim.MaxTime {
		return true
	}
	switch {
	case p.tl.Epoch != 0:
		p.limitf(col, p.lim.Row("max_time"), "%s %d ms (%d ms after the epoch)", lang.Word(what), n, n-p.tl.Epoch)
	case n >= unixMillis2001:
		p.limitf(col, p.lim.Row("max_time"), "%s %d ms (a real instant? an `epoch T` line before the jobs makes times count from T)", lang.Word(what), n)
	default:
		p.limitf(col, p.lim.Row("max_time"), "%s %d ms", lang.Word(what), n)
	}
	return false
}

// unixMillis2001 is 2001-09-09 in Unix ms: an instant past it is likely a
// real one.
const unixMillis2001 = 1_000_000_000_000

func (p *parser) count(t token, key string) (int64, bool) {
	n, ok := parseCount(t.text)
	if !ok {
		p.errorf(t.col, "malformed %s %q: a whole number", lang.Word(key), t.text)
	}
	return n, ok
}

func (p *parser) boolean(t token, key string) (bool, bool) {
	switch t.text {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	p.errorf(t.col, "%s is true or false, not %q", lang.Word(key), t.text)
	return false, false
}

func (p *parser) unquote(t token) (string, bool) {
	if !strings.HasPrefix(t.text, `"`) {
		if strings.Contains(t.text, `"`) {
			p.errorf(t.col, "a quoted value is the whole value: key=\"...\"")
			return "", false
		}
		return t.text, true
	}
	s, err := strconv.Unquote(t.text)
	if err != nil {
		p.errorf(t.col, "malformed quoted value %s", t.text)
		return "", false
	}
	return s, true
}

// parseCount parses a whole number of 0 or more that fits an int64.
func parseCount(s string) (int64, bool) {
	if s == "" || !allDigits(s) {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

// parseMillis parses a duration or instant in ms: "1000ms", "1.5s", "2s",
// "1000". Seconds take up to three decimals; the result is whole ms.
func parseMillis(s string) (int64, bool) {
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "ms"):
		s = s[:len(s)-2]
	case strings.HasSuffix(s, "s"):
		s, mult = s[:len(s)-1], 1000
	}
	whole, frac, hasFrac := strings.Cut(s, ".")
	if whole == "" || !allDigits(whole) || (hasFrac && (frac == "" || !allDigits(frac))) {
		return 0, false
	}
	if hasFrac && (mult == 1 || len(frac) > 3) {
		return 0, false
	}
	w, err := strconv.ParseInt(whole, 10, 64)
	if err != nil {
		return 0, false
	}
	var f int64
	if hasFrac {
		f, _ = strconv.ParseInt((frac + "00")[:3], 10, 64)
	}
	if w > (math.MaxInt64-f)/mult {
		return 0, false
	}
	return w*mult + f, true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// isUnit reports whether a word is a time unit standing alone, as in
// "2 s", where the author meant "2s".
func isUnit(s string) bool { return s == "s" || s == "ms" }

// suggest returns the candidate closest to word (at most two edits away,
// or differing only in case), or "".
func suggest(word string, candidates []string) string {
	best, bestD := "", 3
	for _, c := range candidates {
		d := editDistance(strings.ToLower(word), strings.ToLower(c))
		if d < bestD || (d == bestD && c < best) {
			best, bestD = c, d
		}
	}
	return best
}

// editDistance is the Damerau–Levenshtein distance (with adjacent
// transpositions, the commonest typo: tll for ttl) between a and b.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range rb {
		d[0][j+1] = j + 1
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}

// didYouMean is " (did you mean X?)" for the closest candidate, or "".
func didYouMean(word string, candidates []string) lang.Phrase {
	if s := suggest(word, candidates); s != "" {
		return lang.P(" (did you mean %s?)", s)
	}
	return lang.P("")
}

// sortedKeys returns a set's keys in order.
func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
