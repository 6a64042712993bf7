//go:build e2e

package e2e_test

import (
	"context"
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// predictTimeline is the guide's prediction example (its snippet
// predict.md), the fence's lines without the fence and its directive.
func predictTimeline(t *testing.T) string {
	t.Helper()
	lines := strings.Split(guideSnippet(t, "predict.md"), "\n")
	if len(lines) < 4 || lines[1] != "#! predict" {
		t.Fatalf("the guide's predict.md snippet is not a fence with #! predict: %q", lines)
	}
	return strings.Join(lines[2:len(lines)-1], "\n") + "\n"
}

// predictState is what the simulator shows in its prediction mode.
const predictState = `(() => { const p = document.getElementById('player'); const q = p.querySelector('.predict');
	return {cursor: p.dataset.cursor, shown: !q.hidden, asking: !q.querySelector('.predict-choices').hidden,
		question: q.querySelector('.predict-question').textContent,
		choices: [...q.querySelectorAll('.predict-choices button')].map((b) => b.dataset.choice),
		verdict: q.querySelector('.predict-verdict').textContent,
		future: [...p.querySelectorAll('.lanes .future')].filter((e) => getComputedStyle(e).visibility === 'visible').length,
		forward: p.querySelector('button.forward').disabled, focus: document.activeElement?.className || document.activeElement?.tagName};
	})()`

type predictView struct {
	Cursor   string   `json:"cursor"`
	Shown    bool     `json:"shown"`
	Asking   bool     `json:"asking"`
	Question string   `json:"question"`
	Choices  []string `json:"choices"`
	Verdict  string   `json:"verdict"`
	Future   int      `json:"future"`
	Forward  bool     `json:"forward"`
	Focus    string   `json:"focus"`
}

// In prediction mode (a link's predict=1), the simulator stops before each
// step the timeline marks `-> ?` and asks what happens, with the lanes
// drawing nothing after the cursor; the keyboard answers (Enter on the
// choice the focus was taken to) and a click does; each answer shows the
// step, right or wrong with the engine's sentence, and the end the score.
func TestPredict_ASimulatorLinkAsksBeforeEachMarkedStepAndScores(t *testing.T) {
	ctx := tab(t)
	src := base64.RawURLEncoding.EncodeToString([]byte(predictTimeline(t)))
	open(t, ctx, "#name=predict.tl&predict=1&src="+src)
	waitEngine(t, ctx)
	waitFor(t, ctx, `document.getElementById('player').dataset.steps === '3'`, 30*time.Second)
	if !eval[bool](t, ctx, `document.getElementById('predict').checked`) {
		t.Errorf("the switch is off under a link with predict=1")
	}
	v := eval[predictView](t, ctx, predictState)
	if v.Cursor != "0" || v.Future != 0 || v.Asking {
		t.Errorf("at the start: %+v; want the cursor at 0, nothing after it drawn, no question yet", v)
	}
	const decodeShown = `document.querySelector('#player .decode').checkVisibility()`
	if eval[bool](t, ctx, decodeShown) {
		t.Errorf("at the start the shorthand's key (%q) names the refusal to come", text(t, ctx, "#player .decode"))
	}
	// The first step is no question; the second is: forward stops before it.
	must(t, chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(`#player button.forward`))))
	keys(t, ctx, kb.Enter)
	waitFor(t, ctx, `!document.querySelector('#player .predict-choices').hidden`, 10*time.Second)
	v = eval[predictView](t, ctx, predictState)
	if v.Cursor != "1" || !v.Forward || v.Future != 0 || !strings.HasPrefix(v.Question, "Step 2 of 3, at 1000 ms: B claim order-7. What happens?") ||
		strings.Join(v.Choices, ",") != "ok,refused done,refused held" {
		t.Errorf("before the marked claim: %+v; want the cursor held at 1 with its question and the claim's choices", v)
	}
	focusOK(t, ctx, "forward onto a question")
	if got := eval[string](t, ctx, `document.activeElement.dataset.choice ?? ''`); got != "ok" {
		t.Errorf("forward onto a question leaves the focus on %q, want its first choice", got)
	}
	keys(t, ctx, kb.Enter)
	waitFor(t, ctx, `document.getElementById('player').dataset.cursor === '2'`, 10*time.Second)
	v = eval[predictView](t, ctx, predictState)
	if !strings.HasPrefix(v.Verdict, "Right — ok: it goes through.") || len(v.Verdict) < 40 || v.Focus != "predict-verdict right" {
		t.Errorf("after the right answer: %+v; want it said right with the step's sentence, the focus on it", v)
	}
	// Play stops at the next question; a click answers it, wrongly.
	must(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#player button.play`))))
	waitFor(t, ctx, `!document.querySelector('#player .predict-choices').hidden`, 10*time.Second)
	must(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#player .predict-choices button[data-choice="ok"]`))))
	waitFor(t, ctx, `document.getElementById('player').dataset.cursor === '3'`, 10*time.Second)
	v = eval[predictView](t, ctx, predictState)
	if !strings.Contains(v.Verdict, "Not this time: you chose ok: it goes through; it was refused, superseded: a newer token holds the job.") ||
		!strings.Contains(v.Verdict, "You predicted 1 of 2 right.") {
		t.Errorf("at the end: %+v; want the wrong answer named with the right one, and the score", v)
	}
	if !eval[bool](t, ctx, decodeShown) {
		t.Errorf("at the end the shorthand's key is still hidden")
	}
	if !strings.Contains(eval[string](t, ctx, `location.hash`), "predict=1") {
		t.Errorf("the link lost predict=1")
	}
	audit(t, ctx, "the simulator in prediction mode")
	noProblems(t, ctx)
}

// A course page's <lease-timeline predict> asks in the page's language,
// by touch (a tap on a choice), with its lanes drawing no future.
func TestPredict_AnElementAsksInKoreanByTouch(t *testing.T) {
	ctx := authorTab(t, 2*time.Minute)
	eval[bool](t, ctx, authorPage(`<lease-timeline predict lang="ko" name="p.tl">`+strings.ReplaceAll(predictTimeline(t), ">", "&gt;")+`</lease-timeline>`))
	const q = `document.querySelector('lease-timeline')?.shadowRoot`
	waitFor(t, ctx, q+`?.querySelector('.transport')?.hidden === false`, time.Minute)
	eval[bool](t, ctx, q+`.querySelector('button.forward').click() || true`)
	eval[bool](t, ctx, q+`.querySelector('button.forward').click() || true`)
	waitFor(t, ctx, q+`.querySelector('.predict-choices')?.hidden === false`, 10*time.Second)
	got := eval[string](t, ctx, q+`.querySelector('.predict-question').textContent`)
	if got != "3단계 중 2단계, 1000 ms: B claim order-7. 어떻게 될까요?" {
		t.Errorf("the question in Korean is %q", got)
	}
	if n := eval[int](t, ctx, `[...`+q+`.querySelectorAll('.lanes .future')].filter((e) => getComputedStyle(e).visibility === 'visible').length`); n != 0 {
		t.Errorf("%d future marks are drawn in prediction mode", n)
	}
	tap(t, ctx, q+`.querySelector('.predict-choices button[data-choice="refused held"]')`)
	waitFor(t, ctx, q+`.querySelector('.predict-verdict').textContent.startsWith('이번엔 아닙니다')`, 10*time.Second)
	audit(t, ctx, "a Korean element in prediction mode")
}

// tap touches the element js evaluates to at its centre, as a finger
// does: a touch start and end, which the browser turns into a tap.
func tap(t *testing.T, ctx context.Context, js string) {
	t.Helper()
	_, err := chromedp.Call(ctx, emulation.SetTouchEmulationEnabled, emulation.SetTouchEmulationEnabledParams{Enabled: true})
	must(t, err)
	at := eval[struct{ X, Y float64 }](t, ctx, `(() => { const e = `+js+`; e.scrollIntoView({block: 'center'});
		const b = e.getBoundingClientRect(); return {X: b.x + b.width / 2, Y: b.y + b.height / 2}; })()`)
	_, err = chromedp.Call(ctx, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: input.DispatchTouchEventTypeTouchStart, TouchPoints: []*input.TouchPoint{{X: at.X, Y: at.Y}}})
	must(t, err)
	_, err = chromedp.Call(ctx, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: input.DispatchTouchEventTypeTouchEnd, TouchPoints: []*input.TouchPoint{}})
	must(t, err)
}
