//go:build e2e

package e2e_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/leaselab/leaselab/engine/internal/browsertest/axe"
	"github.com/leaselab/leaselab/engine/internal/testkit/nativeonly"
)

// contrastOnJS defines window.__contrast(el, how): the WCAG contrast ratio
// of el's text (its fill in SVG, its color elsewhere; how "outline": its
// outline) against what it is drawn on: the first background that is not
// transparent from el up, across shadow roots, over the page's. how
// "halo" measures an SVG text's fill against its own stroke instead.
const contrastOnJS = `window.__contrast = (el, how = 'text') => {
	const rgba = (c) => {
		const m = c.match(/^rgba?\(([^)]*)\)$/);
		if (!m) throw new Error('unreadable colour ' + c);
		const [r, g, b, a = 1] = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
		return [r, g, b, a];
	};
	const over = ([r, g, b, a], [R, G, B]) => [r * a + R * (1 - a), g * a + G * (1 - a), b * a + B * (1 - a)];
	const lum = (rgb) => rgb.map((c) => { const s = c / 255; return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; })
		.reduce((s, c, i) => s + c * [0.2126, 0.7152, 0.0722][i], 0);
	const up = (n) => n.parentElement || n.getRootNode().host || null;
	let bg = [255, 255, 255];
	const layers = [];
	for (let n = el; n; n = up(n)) {
		const c = rgba(getComputedStyle(n).backgroundColor);
		if (c[3] > 0) layers.push(c);
		if (c[3] === 1) break;
	}
	for (const c of layers.reverse()) bg = over(c, bg);
	const s = getComputedStyle(el);
	const pick = (v) => (v === 'currentcolor' || v === 'currentColor' ? s.color : v);
	let fg;
	if (how === 'outline') fg = rgba(s.outlineColor);
	else if (el instanceof SVGElement) fg = rgba(pick(s.fill));
	else fg = rgba(s.color);
	if (how === 'halo') bg = over(rgba(pick(s.stroke)), bg);
	const [a, b] = [lum(over(fg, bg)), lum(bg)];
	return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
};`

// A site whose dark-mode switch is Docusaurus' data-theme on <html>,
// painting its own background and text per scheme, and saying no
// color-scheme; or (scheme "") one whose colours follow
// prefers-color-scheme.
const siteColours = `
html { background: #ffffff; color: #1c1e21; font: 16px/1.5 system-ui, sans-serif; }
html[data-theme="dark"] { background: #1b1b1d; color: #e3e3e3; }
html.follows { color-scheme: light dark; }
@media (prefers-color-scheme: dark) { html.follows { background: #121212; color: #e8e8e8; } }`

const twoByTwoLab = "# Two by two\njobs 4\nworkers 2\nhorizon 10s\nlease 2s\nsweep heartbeat 200ms 1s\nsweep margin off 300ms\nruns 2\n"

// A coding exercise's failing verdict and the lab's plot (its axes, its
// heat map's numbers on their halo) and data table read at 4.5:1 or more
// on the site's background in its light and its dark scheme, as the site
// switches it and on a site that follows the reader's preference; the
// mark on the failing call stands at 3:1. Each element says the scheme it
// follows (data-scheme); disconnected, it no longer hears the switch, and
// connected again it does. axe-core finds no serious violation in either
// scheme.
func TestScheme_ExerciseAndLabReadAtAAInTheSitesLightAndDarkScheme(t *testing.T) {
	ctx := blankTab(t, engineSite(t))
	eval[bool](t, ctx, `(() => {
		const sheet = new CSSStyleSheet();
		sheet.replaceSync(`+jsString(siteColours)+`);
		document.adoptedStyleSheets = [sheet];
		document.documentElement.setAttribute('data-theme', 'light');
		document.head.append(Object.assign(document.createElement('link'), { rel: 'stylesheet', href: '/leaselab.css' }));
		document.querySelector('#poke').remove();
		const main = document.createElement('main');
		document.body.append(main);
		return true;
	})()`)
	eval[bool](t, ctx, contrastOnJS+`; true`)
	eval[bool](t, ctx, `(Promise.all([import('/lease-exercise.js'), import('/lease-lab.js')]).then(() => {
		const ex = document.createElement('lease-exercise');
		const lab = document.createElement('lease-lab');
		lab.setAttribute('name', 'two-by-two.lab');
		lab.textContent = `+jsString(twoByTwoLab)+`;
		document.querySelector('main').append(ex, lab);
	}), true)`)
	waitFor(t, ctx, `document.querySelector('lease-exercise')?.dataset.state === 'idle' && getComputedStyle(document.querySelector('lease-exercise')).display === 'block'`, 30*time.Second)
	must(t, chromedp.Do(ctx, chromedp.SetValue(chromedp.CSS(`lease-exercise textarea`), strings.Replace(labSource(t, "correct.js"), "row.until > now", "row.until >= now", 1))))
	must(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`lease-exercise .ll-check`))))
	waitFor(t, ctx, `document.querySelector('lease-exercise').dataset.state !== 'checking' && document.querySelector('lease-lab').dataset.state === 'ready'`, 80*time.Second)
	if got := eval[string](t, ctx, `document.querySelector('lease-exercise').dataset.state`); got != "failed" {
		t.Fatalf("the exercise's state is %s, want failed: %s", got, text(t, ctx, "lease-exercise"))
	}

	type reading struct {
		Exercise, Lab           string
		Fail, Mark              float64
		Plot, Halo, Table       float64
		PlotTexts, Halos, Cells int
	}
	read := func() reading {
		t.Helper()
		return eval[reading](t, ctx, `(() => {
			const ex = document.querySelector('lease-exercise'), lab = document.querySelector('lease-lab');
			const min = (els, how) => Math.min(...els.map((e) => __contrast(e, how)));
			const root = lab.shadowRoot;
			const texts = [...root.querySelectorAll('svg text')];
			const halos = texts.filter((e) => e.getAttribute('stroke'));
			const cells = [...root.querySelectorAll('table caption, table th, table td')];
			return { exercise: ex.dataset.scheme, lab: lab.dataset.scheme,
				fail: min([...ex.querySelectorAll('[data-status=fail] .ll-verdict')]),
				mark: __contrast(ex.querySelector('.ll-calls li[data-first=yes]'), 'outline'),
				plot: min(texts), halo: min(halos, 'halo'), table: min(cells),
				plotTexts: texts.length, halos: halos.length, cells: cells.length };
		})()`)
	}
	check := func(label, want string) {
		t.Helper()
		r := read()
		if r.Exercise != want || r.Lab != want {
			t.Errorf("%s: the exercise follows %q and the lab %q; want %s", label, r.Exercise, r.Lab, want)
		}
		if r.PlotTexts < 6 || r.Halos != 4 || r.Cells < 10 {
			t.Fatalf("%s: measured %d texts of the plot, %d of its cells, %d of its table: not the lab drawn", label, r.PlotTexts, r.Halos, r.Cells)
		}
		for _, c := range []struct {
			what     string
			got, min float64
		}{
			{"the exercise's failing verdict", r.Fail, 4.5},
			{"the mark on the failing call", r.Mark, 3},
			{"the lab's plot text", r.Plot, 4.5},
			{"the heat map's numbers on their halo", r.Halo, 4.5},
			{"the lab's table text", r.Table, 4.5},
		} {
			t.Logf("%s: %s %.2f:1", label, c.what, c.got)
			if c.got < c.min {
				t.Errorf("%s: %s reads at %.2f:1; want %.1f:1 or more", label, c.what, c.got, c.min)
			}
		}
	}
	setTheme := func(v string) {
		t.Helper()
		eval[bool](t, ctx, fmt.Sprintf(`(document.documentElement.setAttribute('data-theme', %q), true)`, v))
		waitFor(t, ctx, fmt.Sprintf(`document.querySelector('lease-lab').dataset.scheme === %q && document.querySelector('lease-exercise').dataset.scheme === %[1]q`, v), 5*time.Second)
	}

	auditHere := func(where string) {
		t.Helper()
		noProblems(t, ctx)
		audit(t, ctx, "the exercise and the lab, "+where)
		eval[any](t, ctx, `window.__problems = []`) // axe's own styles are inline
	}
	check("site light", "light")
	auditHere("site light")
	setTheme("dark")
	check("site dark", "dark")
	auditHere("site dark")

	// Disconnected, an element hears no switch; connected again, it follows.
	eval[bool](t, ctx, `(window.__els = [...document.querySelector('main').children], __els.forEach((e) => e.remove()),
		document.documentElement.setAttribute('data-theme', 'light'), true)`)
	// An observer's callback runs at the end of the task that changed the page: before the next evaluation.
	if got := eval[string](t, ctx, `__els.map((e) => e.localName + ' ' + e.dataset.scheme).join(', ')`); got != "lease-exercise dark, lease-lab dark" {
		t.Errorf("disconnected, the elements follow %q: an observer was left behind", got)
	}
	eval[bool](t, ctx, `(document.querySelector('main').append(...__els), true)`)
	setTheme("light")
	check("site light again", "light")

	// A site with no switch of its own, whose colours follow the reader's preference.
	eval[bool](t, ctx, `(document.documentElement.removeAttribute('data-theme'), document.documentElement.classList.add('follows'), true)`)
	scheme(t, ctx, "dark", 1280)
	waitFor(t, ctx, `document.querySelector('lease-lab').dataset.scheme === 'dark' && document.querySelector('lease-exercise').dataset.scheme === 'dark'`, 5*time.Second)
	check("reader prefers dark", "dark")
	auditHere("the reader preferring dark")
	// A site that stays light whatever the reader prefers: so do the elements.
	eval[bool](t, ctx, `(document.documentElement.classList.remove('follows'), true)`)
	waitFor(t, ctx, `document.querySelector('lease-lab').dataset.scheme === 'light'`, 5*time.Second)
	check("light site, reader prefers dark", "light")
	noProblems(t, ctx)
}

// A grading link's student view, on the simulator's page in the reader's
// dark scheme, reads at 4.5:1: its status at the step that differs, its
// calls and its table; axe-core agrees.
func TestScheme_GradeLinksStudentViewReadsAtAAInTheDark(t *testing.T) {
	nativeonly.Python(t)
	link := gradeLink(t, "row[2] or row[0] > now", "row[2]")
	for _, sch := range []string{"light", "dark"} {
		ctx := tab(t)
		scheme(t, ctx, sch, 1280)
		must(t, chromedp.Do(ctx, chromedp.Navigate(link)))
		waitFor(t, ctx, `document.querySelector('#player .view.student.at-diff')?.dataset.step === '4'`, 60*time.Second)
		eval[bool](t, ctx, contrastOnJS+`; true`)
		got := eval[map[string]float64](t, ctx, `(() => {
			const v = document.querySelector('#player .view.student');
			const min = (css) => Math.min(...[...v.querySelectorAll(css)].map((e) => __contrast(e)));
			return { status: min('.student-status'), title: min('.view-title'), calls: min('.student-calls code'),
				table: min('.student-table th, .student-table td') };
		})()`)
		for what, r := range got {
			t.Logf("%s: the student's %s %.2f:1", sch, what, r)
			if r < 4.5 {
				t.Errorf("%s: the student's %s reads at %.2f:1; want 4.5:1 or more", sch, what, r)
			}
		}
		if len(got) != 4 {
			t.Errorf("%s: measured %v", sch, got)
		}
		noProblems(t, ctx)
		audit(t, ctx, "a grading link's student view, "+sch)
		closeTab(ctx)
	}
}

// The lease's note in a jobs-table cell the step just changed ("valid",
// on the changed cell's highlight) reads at 4.5:1 or more in the light and
// the dark scheme, and axe-core finds no contrast fault in that cell.
func TestScheme_ChangedCellsLeaseNoteReadsAtAA(t *testing.T) {
	tr := defaultTrace(t)
	claim := 0
	for _, st := range tr.Steps {
		if st.Op == "claim" && st.Outcome.Kind == "ok" {
			claim = st.Index + 1
			break
		}
	}
	if claim == 0 {
		t.Fatalf("%s has no granted claim", tr.Name)
	}
	for _, sch := range []string{"light", "dark"} {
		ctx := tab(t)
		scheme(t, ctx, sch, 1280)
		open(t, ctx, fmt.Sprintf("#t=%s&step=%d", tr.Name, claim))
		note := `#player .jobs-table td.changed .lease-note.valid`
		waitFor(t, ctx, fmt.Sprintf(`(() => { const n = document.querySelector(%q);
			return n !== null && n.closest('td').getAnimations().length === 0; })()`, note), 10*time.Second)
		eval[bool](t, ctx, contrastOnJS+`; true`)
		r := eval[float64](t, ctx, fmt.Sprintf(`__contrast(document.querySelector(%q))`, note))
		t.Logf("%s: the changed cell's valid note %.2f:1", sch, r)
		if r < 4.5 {
			t.Errorf("%s: the changed cell's valid note reads at %.2f:1; want 4.5:1 or more", sch, r)
		}
		axeOnce.Do(func() { axeSource, axeErr = axe.Script(webDir) })
		must(t, axeErr)
		found, err := axe.Serious(ctx, axeSource, nil, "#player .jobs-table td.changed")
		must(t, err)
		for _, v := range found {
			t.Errorf("%s: the changed cell: %s", sch, v)
		}
		noProblems(t, ctx)
		closeTab(ctx)
	}
}
