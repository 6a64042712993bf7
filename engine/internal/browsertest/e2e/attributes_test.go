//go:build e2e

package e2e_test

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// attributesPage puts one <lease-timeline> per attribute under test at the
// top of the course page, where the engine loads at once: autoplay, a
// height, each theme, and a src= that does not exist beside one that does.
const attributesPage = `(() => {
	const add = (id, attrs, text) => {
		const e = document.createElement('lease-timeline');
		e.id = id;
		for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
		e.textContent = text || '';
		document.body.prepend(e);
	};
	const late = '# late\nlease 1000ms\njob j\n0ms A claim j -> ok token=1\n1000ms B claim j -> ok token=2\n1001ms A complete j -> refused superseded\n';
	add('t-auto', {autoplay: ''}, late);
	add('t-height', {height: '220'}, late);
	add('t-dark', {theme: 'dark'}, late);
	add('t-light', {theme: 'light'}, late);
	add('t-src-ok', {src: 'timelines/renew-in-time.tl'}, 'fallback text');
	add('t-src-missing', {src: 'timelines/no-such-file.tl'}, 'fallback text');
	return true;
})()`

// luminance is the relative luminance (0 black .. 1 white) of a CSS
// rgb()/rgba() color, or NaN.
const luminance = `(c) => {
	const m = c.match(/rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)/);
	if (!m) return NaN;
	const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
	return 0.2126 * f(+m[1]) + 0.7152 * f(+m[2]) + 0.0722 * f(+m[3]);
}`

func TestEmbed_AutoplayHeightThemeAndSrcAttributesDoWhatTheySay(t *testing.T) {
	ctx := tab(t)
	_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{
		{Name: "prefers-color-scheme", Value: "dark"}}})
	must(t, err)
	must(t, chromedp.Do(ctx, chromedp.Navigate(baseURL+"/example-course.html")))
	courseWait(t, ctx, `customElements.get('lease-timeline') !== undefined`, 30*time.Second)
	courseEval[bool](t, ctx, attributesPage)

	t.Run("AutoplayPlaysToTheEndUntouched", func(t *testing.T) {
		courseWait(t, ctx, `el('t-auto').dataset.state === 'ready' && el('t-auto').dataset.steps === '3' && el('t-auto').dataset.cursor === '3'`, 60*time.Second)
		if got := courseEval[string](t, ctx, `el('t-height').dataset.cursor`); got != "0" {
			t.Errorf("an element without autoplay moved its cursor to %s by itself", got)
		}
	})

	t.Run("HeightSetsTheBoxAndScrollsInside", func(t *testing.T) {
		courseWait(t, ctx, `el('t-height').dataset.state === 'ready'`, 60*time.Second)
		got := courseEval[map[string]float64](t, ctx, `({h: el('t-height').getBoundingClientRect().height,
			scroll: el('t-height').scrollHeight, client: el('t-height').clientHeight})`)
		if math.Abs(got["h"]-220) > 0.5 {
			t.Errorf("height=220 gives a box %.1f px tall", got["h"])
		}
		if got["scroll"] <= got["client"] {
			t.Errorf("height=220: content %.0f px in a %.0f px box, want it to scroll inside", got["scroll"], got["client"])
		}
		if s := courseEval[string](t, ctx, `getComputedStyle(el('t-height')).overflowY`); s != "auto" {
			t.Errorf("height=220: overflow-y %q, want auto", s)
		}
	})

	t.Run("ThemeOverridesThePagesColorScheme", func(t *testing.T) {
		courseWait(t, ctx, `el('t-dark').dataset.state === 'ready' && el('t-light').dataset.state === 'ready'`, 60*time.Second)
		read := func(id string) (string, float64) {
			v := courseEval[map[string]string](t, ctx, fmt.Sprintf(`({scheme: getComputedStyle(el(%q)).colorScheme,
				bg: getComputedStyle(sr(%q, '.lt')).backgroundColor, fg: getComputedStyle(sr(%q, '.lt')).color})`, id, id, id))
			l := courseEval[float64](t, ctx, fmt.Sprintf(`(%s)(%q) - (%s)(%q)`, luminance, v["fg"], luminance, v["bg"]))
			return v["scheme"], l
		}
		// Whatever the page prefers, theme="dark" draws light text on dark
		// and theme="light" dark text on light.
		for _, prefers := range []string{"dark", "light"} {
			_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{
				{Name: "prefers-color-scheme", Value: prefers}}})
			must(t, err)
			if scheme, d := read("t-dark"); !strings.Contains(scheme, "dark") || !(d > 0.3) {
				t.Errorf(`page prefers %s, theme="dark": color-scheme %q, text minus background luminance %.2f; want dark, light text on dark`, prefers, scheme, d)
			}
			if scheme, d := read("t-light"); !strings.Contains(scheme, "light") || !(d < -0.3) {
				t.Errorf(`page prefers %s, theme="light": color-scheme %q, text minus background luminance %.2f; want light, dark text on light`, prefers, scheme, d)
			}
		}
	})

	t.Run("SrcIsReadOrItsFailureShownAndNothingRuns", func(t *testing.T) {
		courseWait(t, ctx, `el('t-src-ok').dataset.state === 'ready' && el('t-src-missing').dataset.state === 'error'`, 60*time.Second)
		if n, _ := strconv.Atoi(courseEval[string](t, ctx, `el('t-src-ok').dataset.steps`)); n == 0 {
			t.Errorf("src=timelines/renew-in-time.tl ran no steps")
		}
		msg := courseEval[string](t, ctx, `sr('t-src-missing', '.lt-error').hidden ? '' : sr('t-src-missing', '.lt-error').textContent`)
		if !strings.Contains(msg, "timelines/no-such-file.tl: HTTP 404") {
			t.Errorf("a src= that does not exist shows %q, want its URL and HTTP 404", msg)
		}
		if got := courseEval[string](t, ctx, `el('t-src-missing').dataset.steps || ''`); got != "" {
			t.Errorf("a src= that could not be read ran anyway: %s steps", got)
		}
	})
}
