package timeline

import (
	"reflect"
	"testing"
)

// A line splits into its words, each with its column, wherever a word's
// run ends: at a space (any Unicode space, the ideographic one of Korean
// text too), a quote or "->"; a '#' inside a word is the word's, a '#'
// where a word would start begins the comment; a quoted part joins the
// word it touches.
func TestLex_WordsEndAtSpacesQuotesAndArrows(t *testing.T) {
	for _, tc := range []struct {
		line          string
		words, expect []token
		comment       string
	}{
		{"0ms A claim j", []token{{"0ms", 1}, {"A", 5}, {"claim", 7}, {"j", 13}}, nil, ""},
		{"a#b # note", []token{{"a#b", 1}}, nil, "note"},
		{"x->y", []token{{"x", 1}}, []token{{"y", 4}}, ""},
		{"k=\"a b\"c d", []token{{"k=\"a b\"c", 1}, {"d", 10}}, nil, ""},
		{"\tA\u3000claim  job-7 -> ok", []token{{"A", 2}, {"claim", 4}, {"job-7", 11}}, []token{{"ok", 20}}, ""},
		{"늦게 claim -> refused", []token{{"늦게", 1}, {"claim", 4}}, []token{{"refused", 13}}, ""},
		{"a-b ->c", []token{{"a-b", 1}}, []token{{"c", 7}}, ""},
	} {
		p := &parser{}
		got, ok := p.lex(tc.line)
		if !ok {
			t.Fatalf("lex(%q) failed", tc.line)
		}
		if !reflect.DeepEqual(got.words, tc.words) || !reflect.DeepEqual(got.expect, tc.expect) || got.comment != tc.comment {
			t.Errorf("lex(%q) = words %v, expect %v, comment %q; want %v, %v, %q",
				tc.line, got.words, got.expect, got.comment, tc.words, tc.expect, tc.comment)
		}
	}
}
