//go:build e2e

package e2e_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/leaselab/leaselab/engine/internal/coursesite"
	"github.com/leaselab/leaselab/engine/timeline"
	"github.com/leaselab/leaselab/engine/timeline/memrun"
)

// tutorials are the learner's tutorial pages, with what each says when
// a prediction is right and at the end of a timeline.
var tutorials = []struct {
	lang, file, right string
	score             func(right, asked int) string
}{
	{"en", "tutorial.html", "Right — ", func(r, a int) string { return fmt.Sprintf("You predicted %d of %d right.", r, a) }},
	{"ko", "tutorial-ko.html", "맞습니다 — ", func(r, a int) string { return fmt.Sprintf("%d번 중 %d번 맞게 예측했습니다.", a, r) }},
}

// tutorialAnswers are the answers of each timeline's marked steps, in the
// page's order, as the native engine gives them.
func tutorialAnswers(t *testing.T, file string) [][]string {
	t.Helper()
	page, err := os.ReadFile(filepath.Join(webDir, file))
	must(t, err)
	found, err := coursesite.Find(page)
	must(t, err)
	var out [][]string
	for _, f := range found {
		tr, err := memrun.RunSource(context.Background(), f.Run.Name, f.Run.Text, timeline.Options{Lang: f.Run.Lang})
		must(t, err)
		var a []string
		for _, s := range tr.Steps {
			if s.Predict != nil {
				a = append(a, s.Predict.Answer)
			}
		}
		out = append(out, a)
	}
	return out
}

// screenJS is what screen i of a tutorial shows: its player's cursor and
// question, and where the keyboard's focus is (inside shadow roots too).
const screenJS = `((i) => {
	const s = document.querySelectorAll('section.screen')[i];
	let a = document.activeElement;
	while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
	const focus = !a || a === document.body ? 'body' : a.dataset.choice !== undefined ? 'choice' : a.classList.contains('forward') ? 'forward'
		: a.classList.contains('continue') ? 'continue' : (a.tagName.toLowerCase() + '.' + (typeof a.className === 'string' ? a.className : ''));
	const el = s.querySelector('lease-timeline');
	const q = el && el.shadowRoot && el.shadowRoot.querySelector('.predict');
	return {shown: !s.hidden && s.getClientRects().length > 0, screens: [...document.querySelectorAll('section.screen')].filter((x) => !x.hidden).length,
		player: !!el, cursor: el ? Number(el.dataset.cursor) : 0, steps: el ? Number(el.dataset.steps) : 0,
		asking: !!q && !q.querySelector('.predict-choices').hidden, choices: q ? [...q.querySelectorAll('.predict-choices button')].map((b) => b.dataset.choice) : [],
		verdict: q ? q.querySelector('.predict-verdict').textContent : '', focus, choice: a && a.dataset ? a.dataset.choice || '' : '',
		inScreen: s.contains(a) || (!!el && el.shadowRoot.contains(a)), heading: a === s.querySelector('h2'),
		glossary: document.getElementById('glossary').getClientRects().length > 0,
		breakIt: !!el && !!el.shadowRoot && [...el.shadowRoot.querySelectorAll('.break')].some((b) => b.getClientRects().length > 0),
		answers: s.querySelectorAll('.answer').length, answersShown: [...s.querySelectorAll('.answer')].filter((x) => x.getClientRects().length > 0 && x.textContent.trim()).length};
})`

type screenView struct {
	Shown, Player, Asking, InScreen, Heading bool
	Glossary, BreakIt                        bool
	Screens, Cursor, Steps                   int
	Answers, AnswersShown                    int
	Choices                                  []string
	Verdict, Focus, Choice                   string
}

func screenAt(t *testing.T, ctx context.Context, i int) screenView {
	t.Helper()
	return eval[screenView](t, ctx, fmt.Sprintf("%s(%d)", screenJS, i))
}

func shiftTab(t *testing.T, ctx context.Context) {
	t.Helper()
	must(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.Tab, chromedp.KeyModifiers(chromedp.ModifierShift))))
}

// tabTo presses Tab until screen i's focus is on one of where (forward,
// choice, continue), never letting it fall to the page on the way.
func tabTo(t *testing.T, ctx context.Context, i int, where ...string) {
	t.Helper()
	for range 60 {
		v := screenAt(t, ctx, i)
		if slices.Contains(where, v.Focus) && v.InScreen {
			return
		}
		if v.Focus == "body" {
			t.Fatalf("screen %d: the focus fell to the page on the way to %s", i+1, where)
		}
		keys(t, ctx, kb.Tab)
	}
	t.Fatalf("screen %d: 60 Tabs never reached its %s: %+v", i+1, where, screenAt(t, ctx, i))
}

// predictByKeyboard plays screen i's player to its end by the keyboard:
// Enter on Step forward (then the arrow key), and at each question Tab to
// the right answer and Enter. It checks each verdict says right, and the
// score at the end; and that the screen's explanation, which names the
// outcomes, is hidden until the last question is answered, then shown.
func predictByKeyboard(t *testing.T, ctx context.Context, i int, answers []string, right string, score func(int, int) string) {
	t.Helper()
	// A learner scrolls to the player, which runs once near the screen.
	waitFor(t, ctx, fmt.Sprintf(`(() => { const e = document.querySelectorAll('section.screen')[%d].querySelector('lease-timeline');
		if (e.dataset.state !== 'ready') e.scrollIntoView({block: 'nearest'}); return e.dataset.state === 'ready'; })()`, i), time.Minute)
	tabTo(t, ctx, i, "forward", "choice") // Step forward, or the first choice when the first step asks at once
	asked := 0
	for range 100 {
		v := screenAt(t, ctx, i)
		switch {
		case v.Cursor >= v.Steps && !v.Asking:
			if asked != len(answers) || !strings.Contains(v.Verdict, score(asked, asked)) {
				t.Errorf("screen %d at its end: asked %d of %d; the verdict %q, want the score %q", i+1, asked, len(answers), v.Verdict, score(asked, asked))
			}
			if v.AnswersShown != v.Answers {
				t.Errorf("screen %d, every question answered: %d of its %d explanations show, want all", i+1, v.AnswersShown, v.Answers)
			}
			return
		case v.Asking && v.Choice == answers[min(asked, len(answers)-1)]:
			if v.Glossary {
				t.Errorf("screen %d, question %d: the glossary shows, whose entries answer it", i+1, asked+1)
			}
			if v.BreakIt {
				t.Errorf("screen %d, question %d: the player offers to break the story being predicted", i+1, asked+1)
			}
			if v.Answers == 0 || v.AnswersShown != 0 {
				t.Errorf("screen %d, question %d of %d: %d of its %d explanations show before it is answered; want none of at least one", i+1, asked+1, len(answers), v.AnswersShown, v.Answers)
			}
			keys(t, ctx, kb.Enter)
			waitFor(t, ctx, fmt.Sprintf(`%s(%d).cursor > %d`, screenJS, i, v.Cursor), 10*time.Second)
			if w := screenAt(t, ctx, i); !strings.HasPrefix(w.Verdict, right) || !w.InScreen || w.Focus == "body" {
				t.Errorf("screen %d, question %d: the verdict %q (focus %s); want it right, and the focus on it", i+1, asked+1, w.Verdict, w.Focus)
			}
			asked++
		case v.Asking && v.Focus == "choice":
			at, want := indexOf(v.Choices, v.Choice), indexOf(v.Choices, answers[min(asked, len(answers)-1)])
			if want < 0 {
				t.Fatalf("screen %d: the question offers %q, not the engine's answer %q", i+1, v.Choices, answers[asked])
			}
			if want > at {
				keys(t, ctx, kb.Tab)
			} else {
				shiftTab(t, ctx)
			}
		case v.Asking:
			shiftTab(t, ctx) // from the verdict after them, onto the last choice
		case v.Focus == "forward":
			keys(t, ctx, kb.Enter)
			waitFor(t, ctx, fmt.Sprintf(`(() => { const v = %s(%d); return v.cursor > %d || v.asking; })()`, screenJS, i, v.Cursor), 10*time.Second)
		default:
			keys(t, ctx, kb.ArrowRight)
			waitFor(t, ctx, fmt.Sprintf(`(() => { const v = %s(%d); return v.cursor > %d || v.asking; })()`, screenJS, i, v.Cursor), 10*time.Second)
		}
	}
	t.Fatalf("screen %d: 100 keys never reached the end: %+v", i+1, screenAt(t, ctx, i))
}

func indexOf(s []string, v string) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}

// A learner walks the tutorial by the keyboard alone, in English and in
// Korean: one screen shows at a time; on each, Tab reaches the player,
// which stops before each marked step and asks; the right answer, chosen
// by Tab and Enter, is said right, and the end gives the score; Tab then
// reaches Continue, which shows the next screen alone and puts the focus
// on its heading, never on the page.
func TestTutorial_ALearnerWalksEveryScreenByKeyboardInBothLanguages(t *testing.T) {
	for _, tu := range tutorials {
		t.Run(tu.lang, func(t *testing.T) {
			answers := tutorialAnswers(t, tu.file)
			ctx := tabFor(t, 6*time.Minute)
			must(t, chromedp.Do(ctx, chromedp.Navigate(baseURL+"/"+tu.file)))
			waitFor(t, ctx, `document.getElementById('where')?.hidden === false`, 30*time.Second)
			n := eval[int](t, ctx, `document.querySelectorAll('section.screen').length`)
			if n != 8 || len(answers) != 7 {
				t.Fatalf("%s has %d screens and %d timelines, want 8 and 7", tu.file, n, len(answers))
			}
			// The learner starts at the first screen's heading, as its link in
			// the list of screens leaves them.
			eval[bool](t, ctx, `(document.querySelector('section.screen h2').focus(), true)`)
			players := 0
			for i := range n {
				v := screenAt(t, ctx, i)
				if !v.Shown || v.Screens != 1 {
					t.Fatalf("screen %d: shown %v, %d screens shown; want it alone", i+1, v.Shown, v.Screens)
				}
				if v.Player {
					predictByKeyboard(t, ctx, i, answers[players], tu.right, tu.score)
					players++
				}
				if i == n-1 {
					break
				}
				tabTo(t, ctx, i, "continue")
				keys(t, ctx, kb.Enter)
				waitFor(t, ctx, fmt.Sprintf(`%s(%d).shown`, screenJS, i+1), 5*time.Second)
				if w := screenAt(t, ctx, i+1); !w.Heading {
					t.Fatalf("Continue on screen %d put the focus on %s, want screen %d's heading", i+1, w.Focus, i+2)
				}
				focusOK(t, ctx, fmt.Sprintf("Continue on screen %d", i+1))
			}
			if players != 7 {
				t.Errorf("walked %d players, want 7", players)
			}
			// The last screen is the exercise, and links the simulator.
			if !eval[bool](t, ctx, `!!document.querySelector('#exercise lease-exercise') && !!document.querySelector('#exercise a[href^="index.html"]')`) {
				t.Error("the last screen holds no exercise or no link to the simulator")
			}
			// Back returns to the screen before, its heading focused.
			must(t, chromedp.Do(ctx, chromedp.NavigateBack()))
			waitFor(t, ctx, fmt.Sprintf(`%s(%d).shown && %[1]s(%[2]d).heading`, screenJS, n-2), 5*time.Second)
			noProblems(t, ctx)
		})
	}
}

// Each tutorial passes axe-core's audit with no serious or critical
// violation in both colour schemes, on a desktop and a phone (where it
// never scrolls sideways): its first screen asking its first question,
// then each other screen, reached by its link (the last, the exercise).
func TestTutorial_PassesAxeAtEveryWidthAndScheme(t *testing.T) {
	for _, tu := range tutorials {
		for _, look := range []struct {
			scheme string
			width  int64
		}{{"light", 1280}, {"dark", 1280}, {"light", 390}, {"dark", 390}} {
			at := fmt.Sprintf("%s %s %dpx", tu.file, look.scheme, look.width)
			t.Run(fmt.Sprintf("%s-%s%d", tu.lang, look.scheme, look.width), func(t *testing.T) {
				ctx := tabFor(t, 3*time.Minute)
				scheme(t, ctx, look.scheme, look.width)
				must(t, chromedp.Do(ctx, chromedp.Navigate(baseURL+"/"+tu.file)))
				waitFor(t, ctx, `(() => { const e = document.querySelector('section.screen lease-timeline'); if (!e) return false;
					if (e.dataset.state !== 'ready') e.scrollIntoView({block: 'nearest'});
					return e.dataset.state === 'ready' && !e.shadowRoot.querySelector('.predict-choices').hidden; })()`, time.Minute)
				// Each stage's problems are the page's, told before its audit:
				// axe-core adds a <style> of its own, which the server's policy
				// refuses, so what it leaves is cleared after it.
				auditPage := func(where string) {
					t.Helper()
					noProblems(t, ctx)
					audit(t, ctx, where)
					eval[bool](t, ctx, `(window.__problems.length = 0, true)`)
				}
				auditPage(at + " first screen")
				if w := eval[int](t, ctx, `document.documentElement.scrollWidth`); w > int(look.width) {
					t.Errorf("%s is %d px wide: it scrolls sideways", at, w)
				}
				screenshot(t, ctx, fmt.Sprintf("tutorial-%s-%s%d.png", tu.lang, look.scheme, look.width))
				for _, id := range eval[[]string](t, ctx, `[...document.querySelectorAll('section.screen')].slice(1).map((s) => s.id)`) {
					eval[bool](t, ctx, fmt.Sprintf(`(location.hash = %q, true)`, "#"+id))
					waitFor(t, ctx, fmt.Sprintf(`(() => { const s = document.getElementById(%q); if (s.hidden) return false;
						const all = [...s.querySelectorAll('lease-timeline, lease-exercise')]; all.forEach((e) => e.scrollIntoView({block: 'nearest'}));
						return all.length === 1 && all.every((e) => e.dataset.state === 'ready' || e.dataset.state === 'idle'); })()`, id), time.Minute)
					auditPage(at + " #" + id)
				}
			})
		}
	}
}

// The glossary, whose entries define the words later screens ask about,
// shows only when a link leads into it: a term's link in an explanation
// opens it with that entry in view and focused, and its link back to a
// screen shows that screen and hides the glossary again.
func TestTutorial_TheGlossaryShowsOnlyFromALinkIntoIt(t *testing.T) {
	ctx := tab(t)
	must(t, chromedp.Do(ctx, chromedp.Navigate(baseURL+"/tutorial.html")))
	waitFor(t, ctx, `document.getElementById('where')?.hidden === false`, 30*time.Second)
	type glossaryView struct {
		Glossary, InView, Focused, Screen1 bool
	}
	const viewJS = `(() => { const g = document.getElementById('glossary'), e = document.getElementById('g-held'), r = e.getBoundingClientRect();
		return {glossary: g.getClientRects().length > 0, inView: r.height > 0 && r.top > -1 && r.bottom < innerHeight + 1, focused: document.activeElement === e,
			screen1: !document.getElementById('lease').hidden}; })()`
	if v := eval[glossaryView](t, ctx, viewJS); v.Glossary || !v.Screen1 {
		t.Fatalf("on screen 1 before any link: %+v; want the glossary hidden", v)
	}
	// The term's link in screen 1's explanation (shown here as if answered).
	eval[bool](t, ctx, `(document.querySelector('#lease .answer').hidden = false, document.querySelector('#lease .answer a.term[href="#g-held"]').click(), true)`)
	waitFor(t, ctx, `location.hash === '#g-held'`, 5*time.Second)
	if v := eval[glossaryView](t, ctx, viewJS); !v.Glossary || !v.InView || !v.Focused || !v.Screen1 {
		t.Errorf("after the held term's link: %+v; want the glossary shown, its entry in view and focused, screen 1 kept", v)
	}
	eval[bool](t, ctx, `(document.querySelector('#g-held + dd a[href="#lease"]').click(), true)`)
	waitFor(t, ctx, `location.hash === '#lease'`, 5*time.Second)
	if v := eval[glossaryView](t, ctx, viewJS); v.Glossary || !v.Screen1 {
		t.Errorf("after the entry's link back to screen 1: %+v; want the glossary hidden, screen 1 shown", v)
	}
	noProblems(t, ctx)
}

// Without JavaScript the tutorial is a page of sections read in order:
// every screen shows, with its timeline as text and its explanation (as
// nothing asks first), and no Continue button that would do nothing.
func TestTutorial_WithoutJavaScriptEveryScreenReads(t *testing.T) {
	for _, tu := range tutorials {
		ctx := tab(t)
		_, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
		must(t, err)
		must(t, chromedp.Do(ctx, chromedp.Navigate(baseURL+"/"+tu.file)))
		got := eval[struct{ Shown, Timelines, Answers, Buttons int }](t, ctx, `({
			shown: [...document.querySelectorAll('section.screen')].filter((s) => s.getClientRects().length > 0).length,
			timelines: [...document.querySelectorAll('lease-timeline')].filter((e) => e.textContent.includes('-> ?') && e.getClientRects().length > 0).length,
			answers: [...document.querySelectorAll('section.screen .answer')].filter((a) => a.getClientRects().length > 0).length,
			buttons: [...document.querySelectorAll('button.continue')].filter((b) => b.getClientRects().length > 0).length})`)
		if got.Shown != 8 || got.Timelines != 7 || got.Answers != 7 || got.Buttons != 0 {
			t.Errorf("%s without JavaScript: %d screens shown, %d timelines read, %d explanations, %d Continue buttons; want 8, 7, 7, 0", tu.file, got.Shown, got.Timelines, got.Answers, got.Buttons)
		}
		closeTab(ctx)
	}
}

// The simulator's first-visit introduction links the tutorial in the
// page's language, and the author's guide links it.
func TestTutorial_TheIntroductionAndTheGuideLinkIt(t *testing.T) {
	for _, tu := range tutorials {
		ctx := tab(t)
		open(t, ctx, "#lang="+tu.lang)
		waitFor(t, ctx, `!document.getElementById('intro').hidden`, 5*time.Second)
		if got := eval[string](t, ctx, `(() => { const a = document.getElementById('intro-tutorial'); return a.getClientRects().length > 0 && a.textContent.trim() ? a.getAttribute('href') : ''; })()`); got != tu.file {
			t.Errorf("the %s introduction links %q, want %s with words", tu.lang, got, tu.file)
		}
		closeTab(ctx)
	}
	ctx := tab(t)
	must(t, chromedp.Do(ctx, chromedp.Navigate(baseURL+"/guide.html")))
	if !eval[bool](t, ctx, `!!document.querySelector('a[href="tutorial.html"]') && !!document.querySelector('a[href="tutorial-ko.html"]')`) {
		t.Error("the guide does not link both tutorials")
	}
}
