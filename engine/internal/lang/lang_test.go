package lang_test

import (
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/lang"
)

var _ = lang.Add("xx", func() (formats, words map[string]string) {
	return map[string]string{
		"job %s is declared twice%s": "%[2]s: twice, job %[1]s",
		" (did you mean %s?)":        " (maybe %s)",
	}, map[string]string{"worker": "WORKER"}
})

// A phrase reads in the language asked for, its Phrase and Word arguments
// too; a language or a format without a catalog entry reads in English.
func TestPhrase_InTheLanguageAskedFor(t *testing.T) {
	p := lang.P("job %s is declared twice%s", "j", lang.P(" (did you mean %s?)", "k"))
	for _, tc := range []struct{ l, want string }{
		{"xx", " (maybe k): twice, job j"},
		{"en", "job j is declared twice (did you mean k?)"},
		{"zz", "job j is declared twice (did you mean k?)"},
	} {
		if got := p.In(tc.l); got != tc.want {
			t.Errorf("In(%q) = %q, want %q", tc.l, got, tc.want)
		}
	}
	if got := lang.P("missing %s name", lang.Word("worker")).In("xx"); got != "missing WORKER name" {
		t.Errorf("a Word argument: %q", got)
	}
	if lang.P("").In("xx") != "" || lang.P("").String() != "" {
		t.Error("the empty phrase is not empty")
	}
	if !lang.Has("xx", "worker", true) || lang.Has("xx", "worker", false) || lang.Has("en", "worker", true) {
		t.Error("Has")
	}
}

// shout is a Text of its own: another package's wording, in capitals in
// language xx.
type shout string

func (s shout) In(l string) string {
	if l == "xx" {
		return strings.ToUpper(string(s))
	}
	return string(s)
}

// An argument with an In method of its own reads in the phrase's language.
func TestPhrase_PutsATextArgumentInItsLanguage(t *testing.T) {
	p := lang.P("missing %s name", shout("rule"))
	if got := p.In("xx"); got != "missing RULE name" {
		t.Errorf(`In("xx") = %q`, got)
	}
	if got := p.In("en"); got != "missing rule name" {
		t.Errorf(`In("en") = %q`, got)
	}
}

var _ = lang.Finish("yy", strings.ToUpper)

// A language's last pass runs on each phrase once its arguments are in.
func TestFinish_RunsOnThePhrase(t *testing.T) {
	if got := lang.P("job %s", lang.P("(%s)", "k")).In("yy"); got != "JOB (K)" {
		t.Fatalf("%q", got)
	}
	if got := lang.P("job %s", "k").In("xx"); got != "job k" {
		t.Fatalf("another language took it: %q", got)
	}
}

// Add's tables are built at the language's first lookup, once, and every
// table added to a language is in its catalog, the later one winning a key
// both give.
func TestAdd_BuildsTheTablesAtTheFirstLookupOnce(t *testing.T) {
	var built []string
	table := func(name string, formats map[string]string) func() (map[string]string, map[string]string) {
		return func() (map[string]string, map[string]string) {
			built = append(built, name)
			return formats, nil
		}
	}
	lang.Add("ww", table("first", map[string]string{"a %s": "A %s", "b %s": "B1 %s"}))
	lang.Add("ww", table("second", map[string]string{"b %s": "B2 %s"}))
	if len(built) != 0 {
		t.Fatalf("Add built %v before any lookup", built)
	}
	if got := lang.P("a %s", "x").In("en"); got != "a x" || len(built) != 0 {
		t.Fatalf("a lookup in another language: %q, built %v", got, built)
	}
	for _, c := range []struct{ format, want string }{{"a %s", "A x"}, {"b %s", "B2 x"}, {"c %s", "c x"}} {
		if got := lang.P(c.format, "x").In("ww"); got != c.want {
			t.Errorf("In(ww) of %q = %q, want %q", c.format, got, c.want)
		}
	}
	if strings.Join(built, ",") != "first,second" {
		t.Errorf("tables built %v, want each once, in order", built)
	}
}
