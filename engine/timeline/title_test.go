package timeline_test

import (
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/timeline"
)

// Title gives what Parse puts in Timeline.Title, at each boundary of "the
// first comment line before the first step": before, at and after a step,
// around headers, blank lines, a bare "#" and lines lex refuses.
func TestTitle_IsParsesTitle(t *testing.T) {
	const step = "0ms A claim j -> ok\n"
	tests := []struct {
		name, src, want string
	}{
		{"first line", "# Late courier\nlease 1000ms\njob j\n" + step, "Late courier"},
		{"after headers", "lease 1000ms\njob j\n# After the headers\n" + step, "After the headers"},
		{"after blank lines and a bare #", "\n#\n   \n#   Spaced out  \njob j\n" + step, "Spaced out"},
		{"the first of two", "# One\n# Two\njob j\n" + step, "One"},
		{"a step first", "job j\n" + step + "# Too late\n", ""},
		{"no comment", "job j\n" + step, ""},
		{"a comment after the step on its line", "job j\n0ms A claim j -> ok # not a title\n", ""},
		{"a refused step first", "job j\n0ms A claim \"j -> ok\n# Too late\n" + step, ""},
		{"a refused header first", "job \"j\n# Still first\njob k\n0ms A claim k -> ok\n", "Still first"},
		{"an expectation without a step", "job j\n-> ok\n# After it\n" + step, "After it"},
		{"CRLF", "# Windows\r\njob j\r\n" + strings.ReplaceAll(step, "\n", "\r\n"), "Windows"},
		{"Korean", "# 늦게 돌아온 전달자\njob 주문-7\n0ms 민수 claim 주문-7 -> ok\n", "늦게 돌아온 전달자"},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := timeline.Title(tt.src); got != tt.want {
				t.Errorf("Title = %q, want %q", got, tt.want)
			}
			if tl, err := timeline.Parse("t.tl", tt.src); err == nil && tl.Title != tt.want {
				t.Errorf("Parse's title is %q, not %q: the table is wrong", tl.Title, tt.want)
			}
		})
	}
}

// Every library timeline's title is the one Parse gives it.
func TestTitle_LibraryAgreesWithParse(t *testing.T) {
	for _, name := range timeline.LibraryNames() {
		tl, err := timeline.LoadLibrary(name)
		if err != nil {
			t.Fatal(err)
		}
		src, _ := timeline.LibrarySource(name)
		if got := timeline.Title(src); got != tl.Title || got == "" {
			t.Errorf("%s: Title = %q, Parse's title %q", name, got, tl.Title)
		}
	}
}

// For any text Parse accepts, Title gives the same title.
func FuzzTitle(f *testing.F) {
	addLibrary(f)
	f.Add("lease 1000ms\n# after a header\njob j\n0ms A claim j -> ok\n")
	f.Fuzz(func(t *testing.T, src string) {
		got := timeline.Title(src)
		if tl, err := timeline.Parse("f.tl", src); err == nil && got != tl.Title {
			t.Fatalf("Title = %q, Parse's title %q", got, tl.Title)
		}
	})
}
