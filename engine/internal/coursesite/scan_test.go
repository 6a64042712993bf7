package coursesite_test

import (
	"html"
	"reflect"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/coursesite"
)

// A page as the generators write it: MkDocs (a plain fence and attr_list's
// attributes on a superfences custom fence), Hugo (data-lang), Material's
// highlighter (the language dropped, the marker kept), VitePress and
// Docusaurus, a Korean section, and <lease-timeline> elements.
const page = `<!doctype html><html lang="en"><head><title>t</title></head><body>
<pre><code class="language-lease-timeline">#! step=2 show=&quot;lanes table&quot;
lease 1000ms
job a &lt;b&gt;
</code></pre>
<pre class="lease-timeline" step="3" mutant="claim-boundary" id="sheet"><code>lease 1s</code></pre>
<pre tabindex="0"><code class="language-lease-timeline" data-lang="lease-timeline">lease 2s
</code></pre>
<div class="highlight"><pre><span></span><code>#! lease-timeline name=m.tl
lease 3s
</code></pre></div>
<div class="highlight"><pre><span></span><code>#! not a timeline
lease 3s
</code></pre></div>
<section lang="ko-KR"><div class="language-lease-timeline vp-adaptive-theme"><button>copy</button><pre class="shiki"><code><span class="line">lease 4s</span>
</code></pre></div></section>
<pre class="prism-code language-lease-timeline" data-step="5"><code>lease 5s</code></pre>
<lease-timeline step="1" lang="ko">
    lease 6s
    job x
</lease-timeline>
<lease-timeline src="t/x.tl?v=1" mutant="m"></lease-timeline>
<lease-timeline lang="">lease 7s</lease-timeline>
<lease-timeline><pre><code class="language-lease-timeline">lease 8s</code></pre></lease-timeline>
</body></html>`

func TestFind_EveryFenceAndElementWithItsRun(t *testing.T) {
	found, err := coursesite.Find([]byte(page))
	if err != nil {
		t.Fatal(err)
	}
	type short struct {
		Fence            bool
		Text, Name, Lang string
		Mutant, Src, Opt string
	}
	var got []short
	for _, f := range found {
		got = append(got, short{f.Fence, f.Run.Text, f.Run.Name, f.Run.Lang, f.Run.Mutant, f.Src, f.Options["step"] + "|" + f.Options["show"] + "|" + f.Options["id"]})
	}
	want := []short{
		{true, "lease 1000ms\njob a <b>\n", "timeline.tl", "en", "", "", "2|lanes table|"},
		{true, "lease 1s\n", "timeline.tl", "en", "claim-boundary", "", "3||sheet"},
		{true, "lease 2s\n", "timeline.tl", "en", "", "", "||"},
		{true, "lease 3s\n", "m.tl", "en", "", "", "||"},
		{true, "lease 4s\n", "timeline.tl", "ko", "", "", "||"},
		{true, "lease 5s\n", "timeline.tl", "en", "", "", "5||"},
		{false, "lease 6s\njob x\n", "timeline.tl", "ko", "", "", "1||"},
		{false, "", "x.tl", "en", "m", "t/x.tl?v=1", "||"},
		{false, "lease 7s\n", "timeline.tl", "en", "", "", "||"},
		{false, "lease 8s\n", "timeline.tl", "en", "", "", "||"},
	}
	if !reflect.DeepEqual(got, want) {
		for i := range max(len(got), len(want)) {
			var g, w short
			if i < len(got) {
				g = got[i]
			}
			if i < len(want) {
				w = want[i]
			}
			if g != w {
				t.Errorf("timeline %d:\n got %+v\nwant %+v", i+1, g, w)
			}
		}
	}
}

// Docusaurus' Prism writes each line as its own element ending in <br>,
// with no newline character; Hugo and VitePress keep newlines; a div per
// line without a <br> is a line too. Each reads as the same timeline.
func TestFind_ReadsLinesWhateverTheHighlightersMarkup(t *testing.T) {
	const want = "# Late courier\nlease 1000ms\n\njob a\n"
	for _, c := range []struct{ about, code string }{
		{"newlines", "#! lease-timeline\n# Late courier\nlease 1000ms\n\njob a\n"},
		{"Docusaurus token-line spans", `<span class="token-line"><span class="token plain">#! lease-timeline</span><br></span>` +
			`<span class="token-line"><span class="token plain"># Late courier</span><br></span>` +
			`<span class="token-line"><span class="token plain">lease 1000ms</span><br></span>` +
			`<span class="token-line"><span class="token plain" style="display:inline-block"></span><br></span>` +
			`<span class="token-line"><span class="token plain">job a</span><br></span>`},
		{"token-line divs without br", `<div class="token-line">#! lease-timeline</div><div class="token-line"># Late courier</div>` +
			`<div class="token-line">lease 1000ms</div><div class="token-line"><br></div><div class="token-line">job a</div>`},
		{"shiki line spans with newlines", "<span class=\"line\">#! lease-timeline</span>\n<span class=\"line\"># Late courier</span>\n" +
			"<span class=\"line\">lease 1000ms</span>\n<span class=\"line\"></span>\n<span class=\"line\">job a</span>\n"},
	} {
		t.Run(c.about, func(t *testing.T) {
			found, err := coursesite.Find([]byte(`<html><body><pre class="prism-code"><code>` + c.code + `</code></pre></body></html>`))
			if err != nil {
				t.Fatal(err)
			}
			if len(found) != 1 || found[0].Run.Text != want || found[0].Unreadable != "" {
				t.Fatalf("found %+v, want one fence reading %q", found, want)
			}
		})
	}
}

// A fence whose directive has a key that is no option, or whose text has
// nothing but blanks and comments, cannot be read; Find says why and on
// which line of the page its pre starts. A fence with one step can.
func TestFind_TellsAnUnreadableFenceAndItsLine(t *testing.T) {
	page := "<html><body>\n<p>x</p>\n" +
		"<pre><code class=\"language-lease-timeline\">lease 1s\njob a\n0ms A claim a -> ok token=1\n</code></pre>\n" +
		"<pre><code class=\"language-lease-timeline\">#! step=2 Kleppmann's lease 1s\njob a\n</code></pre>\n\n" +
		"<pre><code class=\"language-lease-timeline\"># only a comment\n\n# and another\n</code></pre>\n" +
		"<pre><code class=\"language-lease-timeline\">#! step=1\n</code></pre>\n</body></html>"
	found, err := coursesite.Find([]byte(page))
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		line int
		why  string
	}{
		{3, ""},
		{7, "the directive's keys Kleppmann's, lease, 1s are no option"},
		{11, "the fence holds no step"},
		{15, "the fence holds no step"},
	}
	if len(found) != len(want) {
		t.Fatalf("found %d fences, want %d", len(found), len(want))
	}
	for i, w := range want {
		f := found[i]
		if f.Line != w.line || (w.why == "") != (f.Unreadable == "") || !strings.HasPrefix(f.Unreadable, w.why) {
			t.Errorf("fence %d: line %d, unreadable %q; want line %d, %q", i+1, f.Line, f.Unreadable, w.line, w.why)
		}
	}
}

// A lab's fences (marked by class, data-lang or the lease-lab directive)
// and <lease-lab> elements are found as labs, in the page's order among
// the timelines, each with its name, language and options; a timeline
// inside a <lease-lab> is its text, no fence of its own.
func TestFind_LabFencesAndElementsAreLabs(t *testing.T) {
	const labPage = `<!doctype html><html lang="en"><body>
<pre><code class="language-lease-lab">jobs 4
</code></pre>
<pre><code class="language-lease-timeline">lease 1s</code></pre>
<div class="highlight"><pre><code>#! lease-lab name=b.lab lang=ko
jobs 5
</code></pre></div>
<pre><code data-lang="lease-lab">#! lease-lab step=2
jobs 6</code></pre>
<section lang="ko"><lease-lab name="c.lab">
  jobs 7
  <pre><code class="language-lease-timeline">lease 2s</code></pre>
</lease-lab></section>
</body></html>`
	found, err := coursesite.Find([]byte(labPage))
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		lab, fence       bool
		name, lang, text string
		unreadable       bool
	}
	var got []row
	for _, f := range found {
		got = append(got, row{f.Lab, f.Fence, f.Run.Name, f.Run.Lang, f.Run.Text, f.Unreadable != ""})
		if f.Lab != (f.Run.Kind == coursesite.KindLab) {
			t.Errorf("%s: Lab %v, Kind %q", f.Run.Name, f.Lab, f.Run.Kind)
		}
	}
	want := []row{
		{true, true, "lab.lab", "en", "jobs 4\n", false},
		{false, true, "timeline.tl", "en", "lease 1s\n", false},
		{true, true, "b.lab", "ko", "jobs 5\n", false},
		{true, true, "lab.lab", "en", "jobs 6\n", true}, // step is no lab option
		{true, false, "c.lab", "ko", "jobs 7\nlease 2s\n", false},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("found\n%v\nwant\n%v", got, want)
	}
}

// Sphinx's Pygments writes a fence's text straight into a pre (an empty
// span first, no code) in a highlight-LANG wrapper, or highlighted in
// spans under highlight-default with the marker; nbconvert writes an
// unknown fence's language as its code's first line. Each is found with
// its exact text, kind and line; a pre that holds a code is read through
// its code only, and a language line needs the word alone and no language
// class (fences.js reads the same).
func TestFind_SphinxAndNbconvertFencesKeepTheirExactText(t *testing.T) {
	const story = "lease 1000ms\njob a\n0ms  A claim a  -> ok token=1\n"
	page := "<html><body>\n" +
		"<div class=\"highlight-lease-timeline notranslate\"><div class=\"highlight\"><pre><span></span>#! step=2 id=c\n" + story + "</pre></div></div>\n" +
		"<div class=\"highlight-lease-lab notranslate\"><div class=\"highlight\"><pre><span></span>jobs 4\n</pre></div></div>\n" +
		"<div class=\"highlight-default notranslate\"><div class=\"highlight\"><pre><span></span><span class=\"ch\">#! lease-timeline name=m.tl</span>\n" +
		"<span class=\"n\">lease</span> <span class=\"mi\">2</span><span class=\"n\">s</span>\n</pre></div></div>\n" +
		"<pre><code>lease-timeline\n" + story + "</code></pre>\n" +
		"<pre><code>lease-lab\n#! name=n.lab\njobs 5</code></pre>\n" +
		"<pre><code>lease-timelines\n" + story + "</code></pre>\n" +
		"<pre><code>lease-timeline step=2\n" + story + "</code></pre>\n" +
		"<pre><code class=\"language-text\">lease-timeline\n" + story + "</code></pre>\n" +
		"<pre>" + story + "</pre>\n" +
		"</body></html>"
	found, err := coursesite.Find([]byte(page))
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		lab        bool
		line       int
		name, text string
		opts       string
	}
	var got []row
	for _, f := range found {
		got = append(got, row{f.Lab, f.Line, f.Run.Name, f.Run.Text, f.Options["step"] + "|" + f.Options["id"]})
	}
	want := []row{
		{false, 2, "timeline.tl", story, "2|c"},
		{true, 7, "lab.lab", "jobs 4\n", "|"},
		{false, 9, "m.tl", "lease 2s\n", "|"},
		{false, 12, "timeline.tl", story, "|"},
		{true, 17, "n.lab", "jobs 5\n", "|"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("found\n%v\nwant\n%v", got, want)
	}
}

// expressiveCode is a fence as Expressive Code (Astro Starlight) writes
// it: its language in the pre's data-language, each line a div of its own
// (a blank line's holding a newline, an indentation a span of its own),
// in a figure with the copy button, whose data-code holds the text too.
func expressiveCode(lang string, lines ...string) string {
	var b strings.Builder
	b.WriteString(`<div class="expressive-code"><figure class="frame not-content"><figcaption class="header"></figcaption><pre data-language="` + lang + `"><code>`)
	for _, l := range lines {
		b.WriteString(`<div class="ec-line"><div class="code">`)
		body := strings.TrimLeft(l, " ")
		switch {
		case body == "":
			b.WriteString("\n")
		case len(body) < len(l):
			b.WriteString(`<span class="indent"><span style="--0:#d6deeb">` + l[:len(l)-len(body)] + `</span></span>`)
			fallthrough
		default:
			b.WriteString(`<span style="--0:#d6deeb;--1:#403f53">` + html.EscapeString(body) + `</span>`)
		}
		b.WriteString(`</div></div>`)
	}
	b.WriteString(`</code></pre><div class="copy"><div aria-live="polite"></div><button title="Copy to clipboard" data-copied="Copied!" data-code="` +
		html.EscapeString(strings.Join(lines, "\x7f")) + `"><div></div></button></div></figure></div>` + "\n")
	return b.String()
}

// Expressive Code's fences are found by the pre's data-language when it
// names a kind — not another language, a near name, or a pre without a
// code — each with its text as the author wrote it (no line added or
// lost, indentation kept, nothing of the copy button) and its pre's line.
func TestFind_ExpressiveCodeFencesByTheirDataLanguage(t *testing.T) {
	page := "<html><body>\n" +
		expressiveCode("lease-timeline", `#! step=2 id=courier`, "# Late courier", "lease 1000ms", "", "0ms  A claim a  -> ok token=1") +
		expressiveCode("js", "lease 2s", "0ms  A claim a  -> ok token=1") +
		expressiveCode("lease-timelines", "lease 3s", "0ms  A claim a  -> ok token=1") +
		`<section lang="ko">` + expressiveCode("lease-lab", "#! name=b.lab", "jobs 2", "", "  seed 1") + "</section>\n" +
		expressiveCode("lease-exercise", "#! language=javascript", "function write() {}") +
		`<pre data-language="lease-timeline">lease 4s` + "\n</pre>\n" +
		"</body></html>"
	found, err := coursesite.Find([]byte(page))
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		lab        bool
		line       int
		name, lang string
		text, opts string
	}
	var got []row
	for _, f := range found {
		got = append(got, row{f.Lab, f.Line, f.Run.Name, f.Run.Lang, f.Run.Text, f.Options["step"] + "|" + f.Options["id"]})
		if f.Unreadable != "" {
			t.Errorf("%s: unreadable: %s", f.Run.Name, f.Unreadable)
		}
	}
	want := []row{
		{false, 2, "timeline.tl", "en", "# Late courier\nlease 1000ms\n\n0ms  A claim a  -> ok token=1\n", "2|courier"},
		{true, 6, "b.lab", "ko", "jobs 2\n\n  seed 1\n", "|"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("found\n%v\nwant\n%v", got, want)
	}
}
