//go:build e2e

package e2e_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Under an <h1> and under an <h3> of the page, each element continues the
// outline: a player's title is a heading one level below (2, 4), its
// panels one below that (h3, h5) at the same size; an exercise's results
// are headed at 2 and 4 (their subheadings 3 and 5) by role=heading, with
// no h1–h6 of their own in the page; a lab's story title is h2 and h4.
func TestHost_ElementsHeadingsContinueThePagesOutline(t *testing.T) {
	ctx := authorTab(t, 4*time.Minute)
	part := func(at string) string {
		return `<lease-timeline name="` + at + `.tl">` + hostTimeline + `</lease-timeline>
			<lease-exercise data-at="` + at + `"></lease-exercise><lease-lab name="` + at + `.lab">` + twoByTwoLab + `</lease-lab>`
	}
	eval[bool](t, ctx, authorPage(`<h1>Course</h1>`+part("h1")+`<h3>Deeper</h3>`+part("h3")))
	waitFor(t, ctx, `document.querySelectorAll('lease-exercise').length === 2 && [...document.querySelectorAll('lease-exercise')].every((e) => e.dataset.state === 'idle') &&
		[...document.querySelectorAll('lease-timeline')].every((e) => { e.scrollIntoView(); return e.dataset.state === 'ready'; })`, 60*time.Second)
	code := strings.Replace(labSource(t, "correct.js"), "row.until > now", "row.until >= now", 1)
	for _, at := range []string{"h1", "h3"} {
		ex := fmt.Sprintf(`lease-exercise[data-at=%s]`, at)
		must(t, chromedp.Do(ctx, chromedp.SetValue(chromedp.CSS(ex+` textarea`), code)))
		must(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(ex+` .ll-check`))))
		waitFor(t, ctx, fmt.Sprintf(`document.querySelector(%q).dataset.state === 'failed'`, ex), 80*time.Second)
	}
	type outline struct {
		Title                  string
		Panels, Sizes, Results []string
		Tags                   int
		Story                  string
	}
	for _, c := range []struct {
		at   string
		want outline
	}{
		{"h1", outline{Title: "2", Panels: []string{"H3"}, Sizes: []string{"12px"}, Results: []string{"2", "3"}, Story: "H2"}},
		{"h3", outline{Title: "4", Panels: []string{"H5"}, Sizes: []string{"12px"}, Results: []string{"4", "5"}, Story: "H4"}},
	} {
		got := eval[outline](t, ctx, fmt.Sprintf(`(() => {
			const tl = document.querySelector('lease-timeline[name="%[1]s.tl"]').shadowRoot;
			const heads = [...tl.querySelectorAll('.panels :is(h1, h2, h3, h4, h5, h6)')];
			const ex = document.querySelector('lease-exercise[data-at=%[1]s]');
			const uniq = (a) => [...new Set(a)].sort();
			return {
				title: tl.querySelector('[role=heading]').getAttribute('aria-level'),
				panels: uniq(heads.map((h) => h.tagName)),
				sizes: uniq(heads.map((h) => getComputedStyle(h).fontSize)),
				results: uniq([...ex.querySelectorAll('[role=heading]')].map((h) => h.getAttribute('aria-level'))),
				tags: ex.querySelectorAll('h1, h2, h3, h4, h5, h6').length,
				story: document.querySelector('lease-lab[name="%[1]s.lab"]').shadowRoot.querySelector('.story > :first-child').tagName,
			};
		})()`, c.at))
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("under an <%s>: the outline is %+v; want %+v", c.at, got, c.want)
		}
	}
	noProblems(t, ctx)
}
