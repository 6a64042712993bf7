package lang_test

import (
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/lang"
)

var _ = lang.Add("xx", map[string]string{
	"job %s is declared twice%s": "%[2]s: twice, job %[1]s",
	" (did you mean %s?)":        " (maybe %s)",
}, map[string]string{"worker": "WORKER"})

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
