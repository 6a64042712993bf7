package timeline

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// sentenceArgs are arguments as the explanations pass them: words, and
// integers of both kinds.
var sentenceArgs = [][]any{
	{"A", "order-7", int64(2), int64(1000), " (cut to the deadline)", "B", int64(1), int64(900)},
	{"김", "주문-7", int64(-3), 42, "", "\"q\"", int64(1 << 40), "x"},
	{int64(1), "only one"},
	{},
}

// Every sentence of every phrasebook formats as fmt formats it, whatever
// the arguments (fmt's own mistakes, such as %!d(string=A), included).
func TestSentence_EveryPhrasebookSentenceIsFmts(t *testing.T) {
	n := 0
	for lang, book := range phrasebooks {
		v := reflect.ValueOf(book).Elem()
		for i := range v.NumField() {
			f := v.Field(i)
			if f.Kind() != reflect.String {
				continue
			}
			format := f.String()
			n++
			for _, args := range sentenceArgs {
				if got, want := sentence(format, args...), fmt.Sprintf(format, args...); got != want {
					t.Errorf("%s.%s with %v:\n got %q\nwant %q", lang, v.Type().Field(i).Name, args, got, want)
				}
			}
		}
	}
	if n < 40 {
		t.Fatalf("only %d sentences found in the phrasebooks", n)
	}
}

// Any format gives fmt's bytes: the verbs sentence writes itself, and
// everything it leaves to fmt.
func FuzzSentence_IsFmt(f *testing.F) {
	for _, s := range []string{"", "plain", "%s", "%[2]s then %[1]d", "100%%", "%q", "%d%d%d", "%[9]s", "%[x]s", "%[1]", "%", "%5d", "%v", "%[2]d %s"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, format string) {
		for _, args := range sentenceArgs {
			if got, want := sentence(format, args...), fmt.Sprintf(format, args...); got != want {
				t.Fatalf("sentence(%q, %v) = %q, fmt: %q", format, args, got, want)
			}
		}
	})
}

// The Korean phrasebook names the token as the timeline text writes it,
// token, in every sentence that names it: never 토큰 besides it, so a
// learner meets one word in the lanes, the tables and the explanations.
func TestSentence_KoreanNamesTheTokenAsTheTimelineDoes(t *testing.T) {
	v := reflect.ValueOf(korean)
	tokens := 0
	for i := range v.NumField() {
		f := v.Field(i)
		if f.Kind() != reflect.String {
			continue
		}
		if strings.Contains(f.String(), "토큰") {
			t.Errorf("korean.%s writes 토큰 where the learner's word is token: %q", v.Type().Field(i).Name, f.String())
		}
		if strings.Contains(f.String(), "token") {
			tokens++
		}
	}
	if tokens == 0 {
		t.Fatal("no Korean sentence names the token")
	}
}
