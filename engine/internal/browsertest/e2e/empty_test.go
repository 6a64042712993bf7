//go:build e2e

package e2e_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// emptyPage records console warnings in window.__warnings, then puts at
// the top of the course page, where the engine loads at once, elements
// that end up with no timeline text: none at all, only whitespace, an
// empty <pre> (what a generator that moves the <pre> out leaves), one in
// Korean, and one a script fills later.
const emptyPage = `(() => {
	window.__warnings = [];
	window.__errorEvents = {};
	const warn = console.warn;
	console.warn = (...args) => { __warnings.push(args.map(String).join(' ')); warn.apply(console, args); };
	const add = (id, attrs, html) => {
		const e = document.createElement('lease-timeline');
		e.id = id;
		for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
		e.addEventListener('error', (ev) => (__errorEvents[id] = [...(__errorEvents[id] || []), ev.detail.message]));
		e.innerHTML = html;
		document.body.prepend(e);
	};
	add('t-none', {}, '');
	add('t-blank', {}, '\n   \n\t\n');
	add('t-empty-pre', {}, '<pre>  \n</pre>');
	add('t-empty-ko', {lang: 'ko'}, '');
	add('t-later', {}, '');
	return true;
})()`

func TestEmbed_EmptyElementSaysItHoldsNoTimelineUntilGivenOne(t *testing.T) {
	ctx := tab(t)
	must(t, chromedp.Do(ctx, chromedp.Navigate(baseURL+"/example-course.html")))
	courseWait(t, ctx, `customElements.get('lease-timeline') !== undefined`, 30*time.Second)
	courseEval[bool](t, ctx, emptyPage)
	ids := []string{"t-none", "t-blank", "t-empty-pre", "t-empty-ko", "t-later"}
	all := `['` + strings.Join(ids, `','`) + `'].every((id) => el(id).dataset.state === 'error')`
	courseWait(t, ctx, all, 60*time.Second)

	message := func(id string) string {
		return courseEval[string](t, ctx, fmt.Sprintf(`sr(%q, '.lt-error').hidden ? '' : sr(%q, '.lt-error').textContent`, id, id))
	}
	for _, id := range ids {
		if got := courseEval[string](t, ctx, fmt.Sprintf(`el(%q).dataset.steps || ''`, id)); got != "" {
			t.Errorf("%s, holding no timeline, ran one of %s steps", id, got)
		}
		want := "holds no timeline"
		if id == "t-empty-ko" {
			want = "타임라인이 없습니다"
		}
		if msg := message(id); !strings.Contains(msg, want) || !strings.Contains(msg, "<lease-timeline>") || !strings.Contains(msg, "src=") {
			t.Errorf("%s, holding no timeline, shows %q; want it to say it %s, and how to give one (a <pre>, src=)", id, msg, want)
		}
	}
	events := courseEval[map[string][]string](t, ctx, `__errorEvents`)
	for _, id := range ids {
		if got := events[id]; len(got) != 1 || got[0] != message(id) {
			t.Errorf("%s: error events %q, want one whose message is the one shown, %q", id, got, message(id))
		}
	}
	warnings := courseEval[[]string](t, ctx, `__warnings.filter((w) => w.startsWith('lease-timeline:'))`)
	for _, id := range ids {
		n := 0
		for _, w := range warnings {
			if strings.Contains(w, "#"+id+" ") {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s: %d console warnings name it, want 1; the warnings: %q", id, n, warnings)
		}
	}

	t.Run("TextPutInLaterPlays", func(t *testing.T) {
		courseEval[bool](t, ctx, `(el('t-later').innerHTML = '<pre># late\nlease 1000ms\njob j\n0ms A claim j -> ok token=1\n1000ms B claim j -> ok token=2\n</pre>', true)`)
		courseWait(t, ctx, `el('t-later').dataset.state === 'ready'`, 60*time.Second)
		if got := courseEval[string](t, ctx, `el('t-later').dataset.steps`); got != "2" {
			t.Errorf("an empty element given a timeline of 2 steps ran %s steps", got)
		}
		if msg := message("t-later"); msg != "" {
			t.Errorf("an element that was given its timeline still shows %q", msg)
		}
	})
}
