//go:build e2e

package e2e_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/leaselab/leaselab/engine/grade"
)

// historyLink is the link to the page under test that draws a round of
// the grader's race on a check-then-act complete, as the grader recorded
// it (engine/history's test data), in language l.
func historyLink(t *testing.T, l string) string {
	t.Helper()
	text, err := os.ReadFile(filepath.Join("..", "..", "..", "history", "testdata", "overlap-complete.jsonl"))
	must(t, err)
	link, err := grade.HistoryLink(baseURL+"/", text, l)
	must(t, err)
	return link
}

// drawn is what the history view shows.
type drawn struct {
	Title, Verdict, NoOrder string
	Lanes                   []string
	Marked                  []string // each marked bar: its call's number, its mark and its class
	Order                   int
	TableRows, TableMarked  int
}

const readHistoryView = `(() => {
	const v = document.getElementById('history-view');
	return {
		title: v.querySelector('h2').textContent,
		verdict: v.querySelector('.history-verdict').textContent,
		noOrder: v.querySelector('.history-no-order')?.textContent ?? '',
		lanes: [...v.querySelectorAll('.history-lane[data-client]')].map((l) => l.dataset.client),
		marked: [...v.querySelectorAll('.history-call.stuck, .history-call.overlaps')].map((b) =>
			b.dataset.n + ' ' + b.textContent.trim()[0] + ' ' + (b.classList.contains('stuck') ? 'stuck' : 'overlaps')).sort(),
		order: v.querySelectorAll('.history-order ol > li').length,
		tableRows: v.querySelectorAll('.history-table tbody tr').length,
		tableMarked: v.querySelectorAll('.history-table tbody tr.history-marked').length,
	};
})()`

// placed is where the drawing's bars (in the calls' order) and ticks
// start, in px from the left of their track, and the track's width.
type placed struct {
	Bars, Ticks []int
	Width       int
}

const readPlaced = `(() => {
	const v = document.getElementById('history-view');
	const track = v.querySelector('.history-lane[data-client] .history-track').getBoundingClientRect();
	const from = (e) => Math.round(e.getBoundingClientRect().left - track.left);
	return {
		bars: [...v.querySelectorAll('.history-call')].sort((a, b) => a.dataset.n - b.dataset.n).map(from),
		ticks: [...v.querySelectorAll('.history-tick')].map(from),
		width: Math.round(track.width),
	};
})()`

// toScale says how the drawing p fails to place its bars and ticks to
// scale on the round's axis, whose calls were invoked one after another,
// the last near the axis' end; "" when it does.
func (p placed) toScale() string {
	for i := 1; i < len(p.Bars); i++ {
		if p.Bars[i] <= p.Bars[i-1] {
			return fmt.Sprintf("bars start at %v px: call %d does not start right of call %d", p.Bars, i+1, i)
		}
	}
	for i := 1; i < len(p.Ticks); i++ {
		if p.Ticks[i] <= p.Ticks[i-1] {
			return fmt.Sprintf("ticks at %v px: not left to right", p.Ticks)
		}
	}
	if len(p.Bars) == 0 || p.Bars[len(p.Bars)-1] < p.Width*9/10 {
		return fmt.Sprintf("bars start at %v px on a %d px track: the last call, invoked at the axis' end, starts before its last tenth", p.Bars, p.Width)
	}
	return ""
}

// A race's link draws its round: a lane a client, the late complete and
// the new claim marked by colour and by a mark, each bar and tick to
// scale on the time axis under the page's Content-Security-Policy, the
// model's order with
// the sentence that no order places the complete, the table of the calls
// as the drawing's text; in Korean too, with no serious or critical axe
// finding, at 390 px the drawing scrolling in its own region. A damaged
// link says so in the view and the player still plays.
func TestPage_HistoryLinkDrawsTheRaceWithTheConflictingPairMarked(t *testing.T) {
	ctx := tab(t)
	defer closeTab(ctx)
	ready := `document.querySelector('#history-view .history-drawing') !== null`
	for _, tc := range []struct{ lang, title, noOrder string }{
		{"en", "A concurrent history, checked against the contract", "No order places call 4 after these"},
		{"ko", "계약에 비춰 검사한 동시 실행 기록", "호출 4를 놓을 수 없습니다"},
	} {
		must(t, chromedp.Do(ctx, chromedp.Navigate(historyLink(t, tc.lang))))
		must(t, chromedp.Do(ctx, chromedp.Reload()))
		waitFor(t, ctx, ready, 60*time.Second)
		d := eval[drawn](t, ctx, readHistoryView)
		if d.Title != tc.title || !strings.Contains(d.NoOrder, tc.noOrder) {
			t.Errorf("%s: title %q, no order %q; want %q and %q", tc.lang, d.Title, d.NoOrder, tc.title, tc.noOrder)
		}
		if strings.Join(d.Lanes, ",") != "A,B" {
			t.Errorf("%s: lanes %q; want one a client: A, B", tc.lang, d.Lanes)
		}
		if strings.Join(d.Marked, "|") != "3 * overlaps|4 ! stuck" {
			t.Errorf("%s: marked bars %q; want B's claim (3) overlapping and A's late complete (4) that no order places", tc.lang, d.Marked)
		}
		if d.Order != 3 || d.TableRows != 5 || d.TableMarked != 2 {
			t.Errorf("%s: %d calls in the model's order, table %d rows (%d marked); want 3, and 5 with 2 marked", tc.lang, d.Order, d.TableRows, d.TableMarked)
		}
		if why := eval[placed](t, ctx, readPlaced).toScale(); why != "" {
			t.Errorf("%s: the drawing is not to scale: %s", tc.lang, why)
		}
		audit(t, ctx, "a history link ("+tc.lang+")")
	}
	if eval[string](t, ctx, `document.querySelector('.history-drawing').getAttribute('role')`) != "img" ||
		eval[string](t, ctx, `document.querySelector('.history-scroll').getAttribute('tabindex')`) != "0" {
		t.Error("the drawing is not an image in a region the keyboard reaches")
	}

	scheme(t, ctx, "dark", 390)
	waitFor(t, ctx, `(() => { const s = document.querySelector('.history-scroll'); return s.scrollWidth > s.clientWidth; })()`, 5*time.Second)
	if w := eval[bool](t, ctx, `document.documentElement.scrollWidth > document.documentElement.clientWidth`); w {
		t.Error("at 390 px the page scrolls sideways; want only the drawing's region to")
	}
	audit(t, ctx, "a history link at 390 px, dark")
	screenshot(t, ctx, "history-link-390-dark.png")
	scheme(t, ctx, "light", 1280)

	must(t, chromedp.Do(ctx, chromedp.Navigate(baseURL+"/#history=bm90LWRlZmxhdGU")))
	must(t, chromedp.Do(ctx, chromedp.Reload()))
	waitFor(t, ctx, `document.querySelector('#history-view .history-error') !== null && Number(document.getElementById('player').dataset.steps) > 0`, 60*time.Second)
	if s := text(t, ctx, "#history-view .history-verdict"); !strings.Contains(s, "cannot be read") {
		t.Errorf("a damaged history= says %q; want that it cannot be read", s)
	}
	audit(t, ctx, "a damaged history link")
	noProblems(t, ctx)
}
