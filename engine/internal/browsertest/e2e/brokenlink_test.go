//go:build e2e

package e2e_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// A link the page cannot open (a library name it lacks, a src= that is not
// base64url) says why in place of the run, and still says so once the
// engine is up and has answered; another link then opens as usual.
func TestPage_BrokenLinkSaysWhyAfterTheEngineIsUp(t *testing.T) {
	for _, tc := range []struct{ name, fragment, says string }{
		{"unknown library name", "#t=no-such-story.tl", `"no-such-story.tl"`},
		{"src= not base64url", "#name=x.tl&src=@@@!!!", "src="},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := tab(t)
			defer closeTab(ctx)
			must(t, chromedp.Do(ctx, chromedp.Navigate(baseURL+"/"+tc.fragment)))
			waitFor(t, ctx, `document.body.dataset.engineView === 'ready'`, 60*time.Second)
			if s := text(t, ctx, "#editor-error"); !strings.Contains(s, tc.says) {
				t.Errorf("with the engine up, the page says %q; want why the link cannot be opened (%s)", s, tc.says)
			}
			if eval[string](t, ctx, `document.getElementById('player').dataset.timeline ?? ''`) == index.Default {
				t.Errorf("the broken link opened the default timeline")
			}
			eval[bool](t, ctx, `(location.hash = '#t=`+index.Default+`', true)`)
			waitFor(t, ctx, `document.getElementById('player').dataset.timeline === '`+index.Default+`' && document.getElementById('editor-error').hidden`, 30*time.Second)
			noProblems(t, ctx)
		})
	}
}

// The frame says, in words, that a src= which is not base64url cannot be
// read, not the browser's decoder error.
func TestEmbed_SrcNotBase64SaysSo(t *testing.T) {
	ctx := tab(t)
	defer closeTab(ctx)
	must(t, chromedp.Do(ctx, chromedp.Navigate(baseURL+"/embed.html#src=@@@!!!")))
	waitFor(t, ctx, `document.querySelector('#embed .leaselab-noscript') !== null`, 30*time.Second)
	if s := text(t, ctx, "#embed"); s != "leaselab: the timeline in the link (src=) cannot be read: it is not base64url" {
		t.Errorf("the frame says %q; want that src= cannot be read", s)
	}
	noProblems(t, ctx)
}
