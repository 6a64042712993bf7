package timeline_test

import (
	"testing"

	"github.com/leaselab/leaselab/engine/timeline"
)

// A character a terminal or an editor reads as something other than text
// (a carriage return that ends no line, an escape, a NUL, a byte that is not
// UTF-8, a Unicode line separator) is an error at its line and column, not
// copied raw into a title, a comment or a step's source in the answers; a
// line may end with LF or CRLF, and a leading byte order mark is not part
// of the text.
func TestParse_RefusesControlCharactersAtTheirColumn(t *testing.T) {
	const body = "lease 1000ms\njob a\n0ms A claim a -> ok\n"
	for _, tc := range []struct{ name, src, want string }{
		{"LF", "# T\n" + body, ""},
		{"CRLF", "# T\r\nlease 1000ms\r\njob a\r\n0ms A claim a -> ok\r\n", ""},
		{"a tab", "# T\there\n" + body, ""},
		{"a leading byte order mark", "\ufeff# T\n" + body, ""},
		{"lone CR ends no line", "# T\rlease 1000ms\rjob a\r0ms A claim a -> ok\r",
			"t.tl:1:4: a carriage return (\\r) that ends no line: a line ends with LF or CRLF"},
		{"CR before the last LF only", "# T\n" + body + "\r",
			"t.tl:5:1: a carriage return (\\r) that ends no line: a line ends with LF or CRLF"},
		{"an escape in the title", "# T \x1b[2J\n" + body,
			`t.tl:1:5: control character '\x1b': only printable characters and tabs (inside quotes, write an escape like \x1b)`},
		{"a NUL in a comment", "# T\n" + body + "# x\x00\n",
			`t.tl:5:4: control character '\x00': only printable characters and tabs (inside quotes, write an escape like \x1b)`},
		{"DEL in quotes", "# T\n" + body + "1ms A complete a result=\"x\x7f\"\n",
			`t.tl:5:27: control character '\x7f': only printable characters and tabs (inside quotes, write an escape like \x1b)`},
		{"a C1 control", "# T \u0085\n" + body,
			`t.tl:1:5: control character '\u0085': only printable characters and tabs (inside quotes, write an escape like \x1b)`},
		{"a line separator", "# T\u2028x\n" + body,
			`t.tl:1:4: control character '\u2028': only printable characters and tabs (inside quotes, write an escape like \x1b)`},
		{"a byte that is not UTF-8", "# T \xff\n" + body,
			`t.tl:1:5: the byte '\xff' is not UTF-8: save the text as UTF-8`},
		{"a byte order mark past the start", "# T\n\ufeff" + body,
			`t.tl:2:1: control character '\ufeff': only printable characters and tabs (inside quotes, write an escape like \x1b)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tl, err := timeline.Parse("t.tl", tc.src)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("Parse: %v", err)
				}
				if tl.Title != "T" && tl.Title != "T\there" || len(tl.Steps) != 1 {
					t.Fatalf("title %q, %d steps; want T and 1", tl.Title, len(tl.Steps))
				}
				return
			}
			if err == nil {
				t.Fatalf("Parse accepted it: title %q, %d steps", tl.Title, len(tl.Steps))
			}
			if err.Error() != tc.want {
				t.Fatalf("error\n got %s\nwant %s", err, tc.want)
			}
		})
	}
}

// Title reads a text with a byte order mark as Parse does.
func TestTitle_SkipsALeadingByteOrderMark(t *testing.T) {
	if got := timeline.Title("\ufeff# T\nlease 1s\n"); got != "T" {
		t.Fatalf("Title = %q, want T", got)
	}
}
