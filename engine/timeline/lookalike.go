package timeline

import (
	"cmp"
	"github.com/leaselab/leaselab/engine/internal/lang"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Names that read alike but differ are different workers, or different
// jobs, to the engine, and the same one to a reader: a Cyrillic "А" and a
// Latin "A", a fullwidth "Ａ" and "A". Such a pair parses — a name is any
// letters — but it is a warning naming both, since a story where they act
// is not the story it looks like.

// skeleton is the form a name takes to the eye: its compatibility form
// (NFKC: fullwidth letters, ligatures, superscripts become plain), then
// each Cyrillic or Greek letter that is drawn as a Latin one, as that
// Latin letter.
func skeleton(name string) string {
	return strings.Map(func(r rune) rune {
		if l, ok := latinLookAlike[r]; ok {
			return l
		}
		return r
	}, norm.NFKC.String(name))
}

// latinLookAlike maps the Cyrillic and Greek letters that fonts draw as a
// Latin letter to that letter.
var latinLookAlike = func() map[rune]rune {
	m := map[rune]rune{}
	for _, pair := range []struct{ from, to string }{
		{"АВЕКМНОРСТУХІЈЅԁӏԚԜ", "ABEKMHOPCTYXIJSdlQW"},
		{"аеорсухіјѕԛԝ", "aeopcyxijsqw"},
		{"ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ", "ABEZHIKMNOPTYX"},
		{"οριν", "opiv"},
	} {
		from, to := []rune(pair.from), []rune(pair.to)
		for i := range from {
			m[from[i]] = to[i]
		}
	}
	return m
}()

// lookAlikes warns of each pair of names, among the workers and among the
// jobs, that differ but read alike: at the later name's first line,
// naming both and the characters that tell them apart.
func lookAlikes(tl *Timeline, jobLines map[string]int) []*Error {
	actorLines := map[string]int{}
	for _, s := range tl.Steps {
		for _, a := range s.Actors {
			if _, ok := actorLines[a]; !ok {
				actorLines[a] = s.Line
			}
		}
	}
	jobs := make([]string, 0, len(jobLines))
	for id := range jobLines {
		jobs = append(jobs, id)
	}
	var out []*Error
	out = append(out, alike(tl.Name, "worker", tl.Actors, actorLines)...)
	out = append(out, alike(tl.Name, "job", jobs, jobLines)...)
	return out
}

// alike warns of the names that share a skeleton with an earlier one.
func alike(source, what string, names []string, lines map[string]int) []*Error {
	first := map[string]string{} // skeleton -> the first name with it
	var out []*Error
	for _, n := range sortedByLine(names, lines) {
		sk := skeleton(n)
		prev, ok := first[sk]
		if !ok {
			first[sk] = n
			continue
		}
		out = append(out, newError(source, lines[n], 1, lang.P(
			"%s %s looks like %s %s (line %d) but is another %s: %s", lang.Word(what), n, lang.Word(what), prev, lines[prev], lang.Word(what), tellApart(n, prev))))
	}
	return out
}

// sortedByLine is names in the order of their lines, then by name.
func sortedByLine(names []string, lines map[string]int) []string {
	out := append([]string{}, names...)
	slices.SortFunc(out, func(a, b string) int {
		return cmp.Or(cmp.Compare(lines[a], lines[b]), strings.Compare(a, b))
	})
	return out
}

// tellApart names the characters of a that b does not have at the same
// place, by code point and script.
func tellApart(a, b string) lang.Phrase {
	ra, rb := []rune(a), []rune(b)
	var formats []string
	var args []any
	for i, r := range ra {
		if i < len(rb) && rb[i] == r {
			continue
		}
		formats = append(formats, "%s")
		args = append(args, lang.P("%q is U+%04X (%s)", string(r), r, lang.Word(script(r))))
	}
	return lang.P(strings.Join(formats, ", "), args...)
}

// script names r's script among those a look-alike comes from.
func script(r rune) string {
	for _, s := range []struct {
		name  string
		table *unicode.RangeTable
	}{{"Latin", unicode.Latin}, {"Cyrillic", unicode.Cyrillic}, {"Greek", unicode.Greek}} {
		if unicode.Is(s.table, r) {
			if r >= 0xFF00 && r <= 0xFFEF {
				return "fullwidth " + s.name
			}
			return s.name
		}
	}
	return "another script"
}
