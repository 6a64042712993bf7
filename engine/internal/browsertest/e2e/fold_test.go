//go:build e2e

package e2e_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// foldText is a timeline of exactly lines lines (lines >= 3): a job, notes
// and one claim; last, when set, replaces the claim's line.
func foldText(lines int, last string) string {
	var b strings.Builder
	b.WriteString("lease 1000ms\njob j\n")
	for i := range lines - 3 {
		fmt.Fprintf(&b, "# note %d\n", i)
	}
	if last == "" {
		last = "0ms A claim j -> ok token=1"
	}
	b.WriteString(last + "\n")
	return b.String()
}

// openLink opens text as a shared link in the page already open, and
// waits until its run is done, or refused.
func openLink(t *testing.T, ctx context.Context, text string) {
	t.Helper()
	src := base64.RawURLEncoding.EncodeToString([]byte(text))
	eval[bool](t, ctx, fmt.Sprintf(`(location.hash = 'name=fold.tl&src=%s', true)`, src))
	waitFor(t, ctx, fmt.Sprintf(`document.getElementById('editor').value.length === %d && document.body.dataset.engineView === 'ready'`, len(text)), 30*time.Second)
}

// A link's text of more than a thousand lines arrives folded (app.js
// FOLD_LINES): the editor holds it but is not laid out, so opening it does
// not stall the page, until the reader asks to see it. Before, at and
// after the boundary.
func TestEditor_ALinkOfMoreThanAThousandLinesArrivesFoldedUntilAsked(t *testing.T) {
	ctx := tab(t)
	open(t, ctx, "")
	waitEngine(t, ctx)
	const state = `({folded: !document.getElementById('editor-fold').hidden,
		shown: document.getElementById('editor').checkVisibility(),
		note: document.getElementById('editor-fold').textContent,
		steps: document.getElementById('player').dataset.steps})`
	for _, c := range []struct {
		lines  int
		folded bool
	}{{999, false}, {1000, false}, {1001, true}} {
		openLink(t, ctx, foldText(c.lines, ""))
		got := eval[map[string]any](t, ctx, state)
		if got["folded"] != c.folded || got["shown"] != !c.folded || got["steps"] != "1" {
			t.Fatalf("%d lines: %v, want folded %v, the editor shown %v, the run on screen (1 step)", c.lines, got, c.folded, !c.folded)
		}
		if !c.folded {
			continue
		}
		if want := fmt.Sprintf("%d lines", c.lines); !strings.Contains(got["note"].(string), want) {
			t.Errorf("the note says %q, want it to say %q", got["note"], want)
		}
		must(t, chromedp.Do(ctx, chromedp.Click(`#editor-fold button`)))
		waitFor(t, ctx, `document.getElementById('editor').checkVisibility() && document.activeElement === document.getElementById('editor') && document.getElementById('editor-fold').hidden`, 5*time.Second)
		// A link to the same text in another language leaves the text as
		// the reader left it: shown.
		eval[bool](t, ctx, `(location.hash += '&lang=ko', true)`)
		waitFor(t, ctx, `document.documentElement.lang === 'ko' && document.body.dataset.engineView === 'ready'`, 30*time.Second)
		if got := eval[map[string]any](t, ctx, state); got["folded"] != false || got["shown"] != true {
			t.Errorf("the same text in Korean: %v, want it shown as the reader left it", got)
		}
	}
	noProblems(t, ctx)
}

// A mistake in a folded text: going to its place unfolds the editor and
// puts the caret there.
func TestEditor_GoingToAMistakeInAFoldedTextUnfoldsIt(t *testing.T) {
	ctx := tab(t)
	open(t, ctx, "")
	waitEngine(t, ctx)
	text := foldText(1001, "0ms A frobnicate j")
	openLink(t, ctx, text)
	waitFor(t, ctx, `!document.getElementById('editor-error').hidden && !document.getElementById('editor-fold').hidden`, 10*time.Second)
	place := eval[[]string](t, ctx, `Object.values(document.querySelector('#editor-error button.linecol').dataset)`)
	if strings.Join(place, ":") != "1001:7" {
		t.Fatalf("the mistake is at %v, want 1001:7 (the verb)", place)
	}
	must(t, chromedp.Do(ctx, chromedp.Click(`#editor-error button.linecol`)))
	want := strings.LastIndex(strings.TrimSuffix(text, "\n"), "\n") + 1 + len("0ms A ")
	waitFor(t, ctx, fmt.Sprintf(`document.getElementById('editor').checkVisibility() && document.activeElement === document.getElementById('editor') && document.getElementById('editor').selectionStart === %d`, want), 5*time.Second)
}

// A link opened while the page is about to write a long link of its own
// (a step taken, written 100 ms later) is the one the page opens: the
// late write must not put back the hash the new link replaced, even when
// the page is too busy to read the hashchange before that write is due.
// The test holds the late write and runs it between the new link and
// its hashchange.
func TestEditor_ALinkOpenedWhileALongLinkIsBeingWrittenWins(t *testing.T) {
	ctx := tab(t)
	open(t, ctx, "")
	waitEngine(t, ctx)
	first, second := foldText(999, ""), foldText(998, "")
	openLink(t, ctx, first)
	src := base64.RawURLEncoding.EncodeToString([]byte(second))
	held := eval[bool](t, ctx, fmt.Sprintf(`(() => {
		const setTimeout = window.setTimeout;
		let late = null;
		window.setTimeout = (fn, ms, ...args) => (ms === 100 && !late ? ((late = fn), 0) : setTimeout(fn, ms, ...args));
		try {
			document.querySelector('#player .forward').click(); // the page's long hash, to be written 100 ms later
		} finally {
			window.setTimeout = setTimeout;
		}
		location.hash = 'name=fold.tl&src=%s';
		if (late) late(); // due before the hashchange is read
		return late !== null;
	})()`, src))
	if !held {
		t.Fatal("a step taken on a long link's timeline wrote no hash 100 ms later")
	}
	waitFor(t, ctx, fmt.Sprintf(`document.getElementById('editor').value.length === %d && document.body.dataset.engineView === 'ready'`, len(second)), 30*time.Second)
}
