package command_test

import (
	"github.com/leaselab/leaselab/engine/internal/command"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/coursesite"
	"github.com/leaselab/leaselab/engine/limits"
)

// named is a page whose one fence runs passing under the name name.
func named(name string) (page string, key string) {
	return fencePage("en", "#! name="+name+"\n"+passing), coursesite.Key(coursesite.Run{Text: passing, Name: name, Lang: "en"})
}

// padded is page with a comment after it, n bytes in all.
func padded(page string, n int) string {
	return page + "<!--" + strings.Repeat("x", n-len(page)-len("<!---->")) + "-->"
}

// A page of page_bytes is read; one byte more is skipped with a warning
// naming it (the exit is still a pass); a page nested deeper than the HTML
// parser takes is refused, named, as bad input: the pages beside them are
// prerendered all the same.
func TestPrerender_SkipsAnOversizedPageAndRefusesADeepOneAlone(t *testing.T) {
	good, goodKey := named("good.tl")
	at, atKey := named("at.tl")
	over, overKey := named("over.tl")
	deep, deepKey := named("deep.tl")
	deep = strings.Replace(deep, "<body>", "<body>"+strings.Repeat("<div>", 600), 1)
	for _, c := range []struct {
		about string
		pages map[string]string
		code  int
		say   []string
		in    []string
		out   []string
	}{
		{"a page at page_bytes", map[string]string{"a.html": good, "at.html": padded(at, limits.PageBytes)},
			command.ExitPass, nil, []string{goodKey, atKey}, nil},
		{"a page over page_bytes", map[string]string{"a.html": good, "over.html": padded(over, limits.PageBytes+1)},
			command.ExitPass, []string{"over.html: 8388609 bytes: over the limit page_bytes (8388608 ", "skipped 1 pages over the limit page_bytes"},
			[]string{goodKey}, []string{overKey}},
		{"a page nested too deep", map[string]string{"a.html": good, "deep.html": deep, "z.html": fencePage("ko", passing)},
			command.ExitBadInput, []string{"deep.html: the HTML does not parse (html: open stack of elements exceeds 512 nodes)", "BAD INPUT: 1 pages refused"},
			[]string{goodKey, coursesite.Key(coursesite.Run{Text: passing, Name: "timeline.tl", Lang: "ko"})}, []string{deepKey}},
	} {
		t.Run(c.about, func(t *testing.T) {
			dir := site(t, c.pages)
			code, out, errOut := runCmd(command.Prerender, "", dir)
			if code != c.code {
				t.Errorf("exit %d, want %d; stdout %q, stderr %q", code, c.code, out, errOut)
			}
			for _, s := range c.say {
				if !strings.Contains(out+errOut, s) {
					t.Errorf("%q is not told; stdout %q, stderr %q", s, out, errOut)
				}
			}
			idx := readIndex(t, dir)
			for _, k := range c.in {
				if idx.Traces[k] == "" {
					t.Errorf("the trace %s is not prerendered", k)
				}
			}
			for _, k := range c.out {
				if idx.Traces[k] != "" {
					t.Errorf("the trace %s is prerendered", k)
				}
			}
		})
	}
}
