package coursesite_test

import (
	"reflect"
	"testing"

	"github.com/leaselab/leaselab/engine/coursesite"
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
