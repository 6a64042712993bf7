//go:build e2e

package e2e_test

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/leaselab/leaselab/engine/internal/mutant"
)

// uiTexts collects every word the page shows or says that is not a name:
// its title and description, every text node (the dialogs' too, shown or
// not; the lanes' tooltips) and every aria-label, title, placeholder and
// aria-valuetext, leaving out what is marked translate="no" (the timeline,
// its names, code, SQL, column names), scripts and the no-JavaScript text.
const uiTexts = `(() => {
	const skip = (el) => !el || el.closest('[translate="no"], script, style, noscript');
	const out = [document.title, document.querySelector('meta[name=description]').content];
	const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
	for (let n = walk.nextNode(); n; n = walk.nextNode()) {
		if (!skip(n.parentElement) && n.textContent.trim()) out.push(n.textContent.trim());
	}
	for (const el of document.body.querySelectorAll('*')) {
		if (skip(el)) continue;
		for (const a of ['aria-label', 'title', 'placeholder', 'aria-valuetext', 'alt']) {
			if (el.hasAttribute(a) && el.getAttribute(a).trim()) out.push(el.getAttribute(a).trim());
		}
	}
	return out;
})()`

// latinWord is a word in Latin letters, two or more of them (a lone A or
// B is a worker's name).
var latinWord = regexp.MustCompile(`[A-Za-z][A-Za-z_]+`)

// namesNotWords are the Latin words the Korean page may show: product and
// format names, the unit, the tables' names and column names, now (the
// contract's clock, as the rules write it), and the timeline language's
// own words (verbs, outcomes, refusal reasons), which are names, not
// English.
var namesNotWords = strings.Fields(`leaselab SQL SQLite JSON SVG Go WebAssembly JavaScript ms now
	jobs id owner token lease_until status attempts max_attempts deadline reason result qty key value
	claim claim_next claim_many renew complete release send deliver enqueue state write read reopen pause crash wait
	ok refused empty invalid failed error not_found superseded done quarantined held expired fenced
	pending leased reclaim`)

// englishWords returns the texts among texts with a Latin word that is
// neither a name above, nor a mutant's name, nor a word of the timeline's
// own text (its names: workers, jobs, keys, values, its title).
func englishWords(texts []string, timeline string) []string {
	allowed := map[string]bool{}
	for _, w := range namesNotWords {
		allowed[w] = true
	}
	for _, m := range mutant.All() {
		for _, w := range latinWord.FindAllString(m.Name, -1) {
			allowed[w] = true
		}
	}
	for _, w := range latinWord.FindAllString(timeline, -1) {
		allowed[w] = true
	}
	var out []string
	for _, s := range texts {
		for _, w := range latinWord.FindAllString(s, -1) {
			if !allowed[w] {
				out = append(out, s)
				break
			}
		}
	}
	return out
}

// Every word of the simulator page comes from the catalogue of its
// language: in Korean it shows no English word — its header, pickers,
// status line, player, lanes and their tooltips, tables, verdicts, summary,
// footer and both dialogs — only names.
func TestPage_InKoreanShowsNoEnglishWordOutsideNames(t *testing.T) {
	tr := defaultTrace(t)
	k := staleComplete(t, tr)
	text := courseText(t, tr.Name, "")
	ctx := tab(t)
	open(t, ctx, "#t="+tr.Name+"&lang=ko&mutant=claim-boundary")
	waitEngine(t, ctx)
	waitFor(t, ctx, `document.getElementById('player').dataset.lang === 'ko' && !document.getElementById('mutant-note').hidden`, 30*time.Second)
	keys(t, ctx, "?") // the keys dialog, open
	for range k {
		eval[bool](t, ctx, `(document.querySelector('#player button.forward').click(), true)`)
	}
	if got := eval[string](t, ctx, `document.documentElement.lang`); got != "ko" {
		t.Errorf("the Korean page says lang=%q", got)
	}
	texts := eval[[]string](t, ctx, uiTexts)
	if len(texts) < 60 {
		t.Fatalf("only %d texts read from the page: %q", len(texts), texts)
	}
	for _, s := range englishWords(texts, text) {
		t.Errorf("the Korean page shows English: %q", s)
	}
	screenshot(t, ctx, "korean-page.png")
	noProblems(t, ctx)

	// The same check finds English on the English page: it reads what it
	// should.
	english := tab(t)
	open(t, english, "#t="+tr.Name)
	if n := len(englishWords(eval[[]string](t, english, uiTexts), text)); n < 40 {
		t.Errorf("the check finds only %d English texts on the English page: it does not read the page", n)
	}
	closeTab(english)
}

// The lanes of a Korean page draw every verb and outcome in Korean; the
// one word left as written, a refusal's reason (a word of the timeline
// language), is a tspan marked lang="en". The English page draws the verbs
// as the timeline writes them.
func TestLanes_InKoreanDrawVerbsInKoreanAndMarkTheReasonEnglish(t *testing.T) {
	tr := defaultTrace(t)
	k := staleComplete(t, tr)
	verbs := regexp.MustCompile(`\b(claim|claim_next|claim_many|renew|complete|release|send|deliver|enqueue|state|write|read|reopen|pause|crash|wait|reclaim|empty|invalid|failed|error)\b`)
	labels := `[...document.querySelectorAll('#player svg.lanes .mark-label')].map((l) => {
		const c = l.cloneNode(true);
		const codes = [...c.querySelectorAll('tspan')].map((s) => (s.remove(), s.getAttribute('lang') + ':' + s.textContent));
		return {text: l.textContent, outside: c.textContent, codes};
	})`
	type label struct {
		Text, Outside string
		Codes         []string
	}
	for _, lang := range []string{"ko", "en"} {
		ctx := tab(t)
		open(t, ctx, "#t="+tr.Name+"&lang="+lang+"&step="+strconv.Itoa(len(tr.Steps)))
		waitFor(t, ctx, `document.getElementById('player').dataset.lang === '`+lang+`' && document.querySelectorAll('#player svg.lanes .mark-label').length > 0`, 30*time.Second)
		got := eval[[]label](t, ctx, labels)
		if len(got) != len(tr.Steps) {
			t.Fatalf("%s: %d labels for %d steps: %+v", lang, len(got), len(tr.Steps), got)
		}
		english := 0
		for _, l := range got {
			if verbs.MatchString(l.Outside) {
				english++
				if lang == "ko" {
					t.Errorf("the Korean lanes draw an English word: %q", l.Text)
				}
			}
		}
		refused := got[k-1]
		switch {
		case lang == "ko" && (len(refused.Codes) != 1 || refused.Codes[0] != "en:superseded"):
			t.Errorf("the Korean stale complete's label %q marks %q, want en:superseded", refused.Text, refused.Codes)
		case lang == "en" && (len(refused.Codes) != 0 || english != len(got)):
			t.Errorf("the English lanes: %d of %d labels draw the verb, codes %q", english, len(got), refused.Codes)
		}
		noProblems(t, ctx)
		closeTab(ctx)
	}
}

// breaking is what decides where a line of el's text may break: its
// computed word-break and overflow-wrap.
const breakingJS = `((el) => { const s = getComputedStyle(el); return s.wordBreak + ' ' + s.overflowWrap; })`

// keepsKoreanWords fails the test unless got (a breakingJS answer) keeps
// Korean words whole (word-break: keep-all) and still wraps a token longer
// than the line (overflow-wrap: break-word or anywhere).
func keepsKoreanWords(t *testing.T, where, got string) {
	t.Helper()
	if got != "keep-all break-word" && got != "keep-all anywhere" {
		t.Errorf("%s breaks lines by %q; want word-break keep-all with overflow-wrap break-word or anywhere", where, got)
	}
}

// Korean text breaks between words, never inside one, on the simulator
// page in Korean, in a Korean <lease-timeline>, <lease-lab> and
// <lease-exercise>; English text keeps the browser's breaking.
func TestPage_KoreanTextBreaksBetweenWordsNotInsideThem(t *testing.T) {
	for _, c := range []struct{ fragment, want string }{{"#lang=ko", "ko"}, {"", "en"}} {
		ctx := tab(t)
		open(t, ctx, c.fragment)
		got := eval[string](t, ctx, breakingJS+`(document.querySelector('#intro p'))`)
		if c.want == "ko" {
			keepsKoreanWords(t, "the Korean simulator page", got)
		} else if !strings.HasPrefix(got, "normal ") {
			t.Errorf("the English simulator page breaks lines by %q; want word-break normal", got)
		}
		closeTab(ctx)
	}

	ctx := openCourse(t)
	courseReady(t, ctx, "korean-demo", "late-courier")
	keepsKoreanWords(t, "the Korean <lease-timeline>", courseEval[string](t, ctx, breakingJS+`(sr('korean-demo', '.lt'))`))
	if got := courseEval[string](t, ctx, breakingJS+`(sr('late-courier', '.lt'))`); !strings.HasPrefix(got, "normal ") {
		t.Errorf("the English <lease-timeline> breaks lines by %q; want word-break normal", got)
	}
	closeTab(ctx)

	ctx = blankTab(t, engineSite(t))
	eval[bool](t, ctx, `(import('/lease-lab.js').then(() => {
		const link = document.createElement('link');
		link.rel = 'stylesheet';
		link.href = '/leaselab.css';
		document.head.append(link);
		const ex = document.createElement('lease-exercise');
		ex.setAttribute('lang', 'ko');
		const lab = document.createElement('lease-lab');
		lab.setAttribute('lang', 'ko');
		lab.textContent = `+jsString(elementLab)+`;
		document.body.append(ex, lab);
	}), true)`)
	waitFor(t, ctx, `document.querySelector('lease-lab')?.dataset.state === 'ready' && document.styleSheets.length > 0 && [...document.styleSheets].some((s) => s.href?.endsWith('/leaselab.css') && s.cssRules.length > 0)`, 60*time.Second)
	keepsKoreanWords(t, "the Korean <lease-lab>", eval[string](t, ctx, breakingJS+`(document.querySelector('lease-lab').shadowRoot.querySelector('.title'))`))
	keepsKoreanWords(t, "the Korean <lease-exercise>", eval[string](t, ctx, breakingJS+`(document.querySelector('lease-exercise'))`))
	noProblems(t, ctx)
}

// koreanBrowserTab is a tab whose browser prefers Korean
// (navigator.languages and Accept-Language: ko-KR, ko, en).
func koreanBrowserTab(t *testing.T) context.Context {
	t.Helper()
	ctx := tab(t)
	ua := eval[string](t, ctx, `navigator.userAgent`)
	_, err := chromedp.Call(ctx, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: ua, AcceptLanguage: "ko-KR,ko,en"})
	must(t, err)
	return ctx
}

// A browser that prefers Korean opens the simulator in Korean when the
// link names no language and the reader chose none; a link's lang= and
// the reader's choice in the language select (remembered) still win.
func TestPage_OpensInTheBrowsersLanguageUnlessALinkOrTheReaderChose(t *testing.T) {
	tr := defaultTrace(t)
	ctx := koreanBrowserTab(t)
	if got := eval[[]string](t, ctx, `[...navigator.languages]`); len(got) == 0 || got[0] != "ko-KR" {
		t.Fatalf("the tab's browser prefers %q, want ko-KR first", got)
	}
	open(t, ctx, "#t="+tr.Name)
	if got := eval[string](t, ctx, `document.documentElement.lang + ' ' + document.getElementById('lang').value`); got != "ko ko" {
		t.Errorf("with no lang= in the link, a Korean browser's page is in %q, want ko", got)
	}
	closeTab(ctx)

	ctx = koreanBrowserTab(t)
	open(t, ctx, "#t="+tr.Name+"&lang=en")
	if got := eval[string](t, ctx, `document.documentElement.lang`); got != "en" {
		t.Errorf("a link with lang=en opened in %q in a Korean browser, want en", got)
	}
	// The reader picks English: the choice outlasts a link that names none.
	eval[bool](t, ctx, `(() => { const s = document.getElementById('lang'); s.value = 'en'; s.dispatchEvent(new Event('change')); return true; })()`)
	closeTab(ctx)
	ctx = koreanBrowserTab(t)
	open(t, ctx, "#t="+tr.Name)
	if got := eval[string](t, ctx, `document.documentElement.lang`); got != "en" {
		t.Errorf("after the reader chose English, a link naming no language opened in %q, want en", got)
	}
	eval[bool](t, ctx, `(localStorage.clear(), true)`)
	noProblems(t, ctx)
}
