//go:build e2e

package e2e_test

import (
	"testing"
	"time"
)

// On a page whose headings have the ids a site generator makes of an
// author's words (## Worksheet: id=worksheet; ## Lease exercise 1), a
// player, a worksheet, two exercises and a lab write no id a second time:
// every id of the page is one element's, each id the elements write into
// the page begins with leaselab-, and each exercise's label still names
// its own editor.
func TestHost_ElementsWriteNoIdAnAuthorsHeadingHas(t *testing.T) {
	ctx := authorTab(t, 2*time.Minute)
	body := `<h2 id="worksheet">Worksheet</h2><h2 id="lease-exercise-1">Lease exercise 1</h2>
		<h2 id="leaselab">leaselab</h2>
		<lease-timeline name="a.tl">` + hostTimeline + `</lease-timeline>
		<lease-timeline name="w.tl" mutant="claim-boundary">` + hostTimeline + `</lease-timeline>
		<lease-exercise></lease-exercise><lease-exercise></lease-exercise>
		<lease-lab name="l.lab">` + twoByTwoLab + `</lease-lab>`
	eval[bool](t, ctx, authorPage(body))
	waitFor(t, ctx, `document.querySelectorAll('lease-exercise').length === 2 && [...document.querySelectorAll('lease-exercise')].every((e) => e.dataset.state === 'idle') &&
		[...document.querySelectorAll('lease-timeline')].every((e) => e.dataset.state)`, 30*time.Second)
	type ids struct {
		Duplicates, Unprefixed, Unlabelled []string
		Written                            int
	}
	got := eval[ids](t, ctx, `(() => {
		const all = [...document.querySelectorAll('[id]')].map((e) => e.id);
		const written = [...document.querySelectorAll('lease-timeline [id], lease-exercise [id], lease-lab [id]')];
		return {
			duplicates: all.filter((id, i) => all.indexOf(id) !== i),
			unprefixed: written.map((e) => e.id).filter((id) => !/^leaselab-[a-z-]*\d+$/.test(id)),
			unlabelled: [...document.querySelectorAll('lease-exercise')].filter((x) =>
				document.getElementById(x.querySelector('label').htmlFor) !== x.querySelector('textarea')).map((x) => x.outerHTML.slice(0, 80)),
			written: written.length,
		};
	})()`)
	if len(got.Duplicates) > 0 {
		t.Errorf("ids on the page twice: %q", got.Duplicates)
	}
	if len(got.Unprefixed) > 0 {
		t.Errorf("ids the elements write that are no leaselab-NAME-N: %q", got.Unprefixed)
	}
	if got.Written < 2 {
		t.Errorf("the elements wrote %d ids; want at least the two exercises' editors'", got.Written)
	}
	if len(got.Unlabelled) > 0 {
		t.Errorf("exercises whose label names no editor of theirs: %q", got.Unlabelled)
	}
	noProblems(t, ctx)
}
