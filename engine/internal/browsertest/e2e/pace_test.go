//go:build e2e

package e2e_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// At the reading pace ("as read"), a step playing stays as long as what it
// says takes to read or to hear, 400 ms a word and never less than a step
// at 1x; each later step takes its own words' time. The control names the
// pace in the page's language.
func TestPlay_AtTheReadingPaceEachStepStaysAsLongAsItsWordsTakeToRead(t *testing.T) {
	ctx := tab(t)
	open(t, ctx, "#t=01-late-courier&lang=ko")
	waitEngine(t, ctx)
	if got := eval[string](t, ctx, `document.querySelector('#player .speed-select option[value="read"]')?.textContent ?? ''`); got != "읽는 속도로" {
		t.Errorf("the reading pace is offered as %q in Korean, want 읽는 속도로", got)
	}
	open(t, ctx, "#t=01-late-courier&lang=en&step=1")
	waitEngine(t, ctx)
	if got := eval[string](t, ctx, `document.querySelector('#player .speed-select option[value="read"]')?.textContent ?? ''`); got != "as read" {
		t.Errorf("the reading pace is offered as %q, want \"as read\"", got)
	}
	must(t, chromedp.Do(ctx, chromedp.SetValue(chromedp.CSS("#player .speed-select"), "read")))
	const said = `(() => { const p = document.getElementById('player'); const note = p.querySelector('.step-note');
		return {ms: Number(p.querySelector('.transport').dataset.stepMs || 0), cursor: p.dataset.cursor,
			text: p.querySelector('.explain').textContent + ' ' + (note.hidden ? '' : note.textContent)}; })()`
	type step struct {
		Ms     int    `json:"ms"`
		Cursor string `json:"cursor"`
		Text   string `json:"text"`
	}
	// Each step's time is set as it starts to play: play from a step, read
	// it, pause, go to another.
	for _, cursor := range []string{"1", "3", "0"} {
		eval[bool](t, ctx, `(document.querySelector('#player .transport').dataset.stepMs = '', true)`)
		eval[bool](t, ctx, `(location.hash = location.hash.replace(/&step=\d+/, '') + '&step=`+cursor+`', true)`)
		waitFor(t, ctx, `document.getElementById('player').dataset.cursor === '`+cursor+`'`, 10*time.Second)
		before := eval[step](t, ctx, said)
		must(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#player button.play"))))
		waitFor(t, ctx, `document.querySelector('#player .transport').dataset.stepMs !== ''`, 10*time.Second)
		got := eval[step](t, ctx, said)
		must(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#player button.play"))))
		words := len(strings.Fields(before.Text))
		if want := max(1400, 400*words); got.Ms != want {
			t.Errorf("step %s stays %d ms; its %d words (%q) want %d ms", cursor, got.Ms, words, before.Text, want)
		}
	}
	noProblems(t, ctx)
}
