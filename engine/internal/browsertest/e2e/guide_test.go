//go:build e2e

package e2e_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The author's guide, served as make serve serves it (/guide.html, under
// the server's Content-Security-Policy): its fences become players that
// run, with no CSP violation and no uncaught error; the simulator page
// links it.
func TestGuide_PlaysUnderTheServersPolicy(t *testing.T) {
	ctx := tab(t)
	must(t, chromedp.Do(ctx, chromedp.Navigate(baseURL+"/guide.html")))
	waitFor(t, ctx, `(() => { const all = [...document.querySelectorAll('lease-timeline[data-fence]')];
		all.forEach((e) => e.dataset.state !== 'ready' && e.scrollIntoView());
		return all.length === 2 && all.every((e) => e.dataset.state === 'ready'); })()`, time.Minute)
	if got := eval[string](t, ctx, `document.querySelector('lease-timeline').dataset.cursor`); got != "3" {
		t.Errorf("the guide's first player starts at step %s, want 3 (its directive)", got)
	}
	noProblems(t, ctx)
	open(t, ctx, "")
	if href := eval[string](t, ctx, `document.querySelector('footer a[href="guide.html"]')?.textContent || ''`); href == "" {
		t.Error("the simulator page has no link to the guide with words")
	}
}
