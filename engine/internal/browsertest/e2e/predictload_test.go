//go:build e2e

package e2e_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/leaselab/leaselab/engine/internal/coursesite"
)

// held pauses the tab's requests whose URL matches a pattern (the Fetch
// domain) until release lets those of one pattern go on.
type held struct {
	mu     sync.Mutex
	paused map[string][]fetch.RequestID // by the URL's last path segment
	free   []string                     // the prefixes released: their later requests go on at once
}

func holdRequests(t *testing.T, ctx context.Context, patterns ...string) *held {
	t.Helper()
	h := &held{paused: map[string][]fetch.RequestID{}}
	must(t, chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*fetch.EventRequestPaused); ok {
			file := e.Request.URL[strings.LastIndex(e.Request.URL, "/")+1:]
			h.mu.Lock()
			defer h.mu.Unlock()
			for _, p := range h.free {
				if strings.HasPrefix(file, p) {
					// A listener must not wait on the tab: the answer goes on its own.
					go chromedp.Call(ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: e.RequestID})
					return
				}
			}
			h.paused[file] = append(h.paused[file], e.RequestID)
		}
	}))
	var ps []*fetch.RequestPattern
	for _, p := range patterns {
		ps = append(ps, &fetch.RequestPattern{URLPattern: p, RequestStage: fetch.RequestStageRequest})
	}
	_, err := chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{Patterns: ps})
	must(t, err)
	return h
}

// holding tells the files whose requests wait.
func (h *held) holding() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var files []string
	for f, ids := range h.paused {
		if len(ids) > 0 {
			files = append(files, f)
		}
	}
	return files
}

// release lets the paused requests for files whose name has prefix go on.
func (h *held) release(t *testing.T, ctx context.Context, prefix string) {
	t.Helper()
	h.mu.Lock()
	h.free = append(h.free, prefix)
	var ids []fetch.RequestID
	for f, fids := range h.paused {
		if strings.HasPrefix(f, prefix) {
			ids = append(ids, fids...)
			h.paused[f] = nil
		}
	}
	h.mu.Unlock()
	for _, id := range ids {
		_, err := chromedp.Call(ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: id})
		must(t, err)
	}
}

// shownJS is what the page shows of a <lease-timeline>: its rendered text
// (the element's own before it is defined, its shadow root's after),
// and each visible text field's value.
const shownJS = `((el) => {
	const root = el.shadowRoot;
	const fields = root ? [...root.querySelectorAll('textarea')].filter((x) => x.checkVisibility()).map((x) => x.value) : [];
	return {defined: !!customElements.get('lease-timeline'), state: el.dataset.state || '',
		text: (root ? root.querySelector('.lt').innerText : el.innerText) + '\n' + fields.join('\n')};
})`

type shownView struct {
	Defined bool
	State   string
	Text    string
}

// markedLines are a timeline's lines marked `-> ?`, each cut into what a
// learner may read (up to the mark) and the answer after it.
func markedLines(text string) (asks, answers []string) {
	for _, line := range strings.Split(text, "\n") {
		if i := strings.Index(line, "-> ?"); i >= 0 && !strings.HasPrefix(strings.TrimSpace(line), "#") {
			asks = append(asks, strings.TrimSpace(line[:i+len("-> ?")]))
			answers = append(answers, strings.TrimSpace(line[i+len("-> ?"):]))
		}
	}
	return asks, answers
}

// tellsNoAnswer fails when shown holds one of answers, or not every line
// of asks (so that a page showing nothing passes nothing).
func tellsNoAnswer(t *testing.T, where string, v shownView, asks, answers []string) {
	t.Helper()
	squeeze := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	shown := squeeze(v.Text)
	for _, a := range answers {
		if a != "" && strings.Contains(shown, squeeze(a)) {
			t.Errorf("%s (state %q): the text shown tells the answer %q:\n%s", where, v.State, a, v.Text)
		}
	}
	for _, a := range asks {
		if !strings.Contains(shown, squeeze(a)) {
			t.Errorf("%s (state %q): the text shown lacks the step %q:\n%s", where, v.State, a, v.Text)
		}
	}
}

// A player in prediction mode never shows what follows a `-> ?` mark
// before its run is on screen: not while its script loads (the element's
// own text, styled by lease-timeline.css), not while the engine loads (its
// source view), and not in its editor; with no mark, not the expectations
// it will ask about. Once the engine answers, it asks as ever.
func TestPredict_TheTextShownWhileTheEngineLoadsTellsNoAnswer(t *testing.T) {
	html, err := os.ReadFile(filepath.Join(webDir, "tutorial.html"))
	must(t, err)
	found, err := coursesite.Find(html)
	must(t, err)
	asks, answers := markedLines(found[0].Run.Text)
	if len(answers) == 0 || answers[0] == "" {
		t.Fatalf("the tutorial's first timeline marks no step with an expectation: %q", found[0].Run.Text)
	}

	ctx := tabFor(t, 3*time.Minute)
	h := holdRequests(t, ctx, "*/lease-timeline.js*", "*/engine-worker*", "*/leaselab.wasm*")
	// Not chromedp.Navigate: the page's load event waits for the held files.
	_, err = chromedp.Call(ctx, page.Navigate, page.NavigateParams{URL: baseURL + "/tutorial.html"})
	must(t, err)
	first := fmt.Sprintf(`%s(document.querySelector('section.screen lease-timeline:not(#unmarked)'))`, shownJS)
	waitFor(t, ctx, `document.getElementById('where')?.hidden === false && document.styleSheets.length >= 3`, 30*time.Second)

	// The script that defines the element waits: the element is its own text.
	v := eval[shownView](t, ctx, first)
	if v.Defined {
		t.Fatalf("<lease-timeline> is defined while its script is held (held: %q)", h.holding())
	}
	if strings.TrimSpace(v.Text) != "" {
		tellsNoAnswer(t, "before the element's script", v, nil, answers)
	}

	// The script runs; the engine waits.
	h.release(t, ctx, "lease-timeline.js")
	waitFor(t, ctx, first+`.state === 'loading'`, 30*time.Second)
	v = eval[shownView](t, ctx, first)
	tellsNoAnswer(t, "while the engine loads", v, asks, answers)

	// An editor, and a timeline that marks no step: the player asks at each
	// step with an expectation.
	const unmarked = "# No mark\nlease 1000ms\njob a\n0ms A claim a -> ok token=1\n1000ms B claim a -> ok token=2\n1001ms A complete a -> refused superseded\n"
	eval[bool](t, ctx, fmt.Sprintf(`(() => { const e = document.createElement('lease-timeline');
		e.id = 'unmarked'; e.setAttribute('predict', ''); e.setAttribute('show', 'editor lanes explain');
		e.textContent = %q; document.querySelector('section.screen h2').after(e); return true; })()`, unmarked))
	second := fmt.Sprintf(`%s(document.getElementById('unmarked'))`, shownJS)
	waitFor(t, ctx, second+`.state === 'loading'`, 30*time.Second)
	tellsNoAnswer(t, "an editor while the engine loads", eval[shownView](t, ctx, second),
		[]string{"0ms A claim a ->", "1000ms B claim a ->", "1001ms A complete a ->"},
		[]string{"ok token=1", "ok token=2", "refused superseded"})
	if len(h.holding()) == 0 {
		t.Fatal("nothing of the engine was held: the check above did not run while it loaded")
	}

	// The engine answers: the run is on screen, and the first question asks.
	h.release(t, ctx, "")
	_, err = chromedp.Call(ctx, fetch.Disable, cdp.Empty{})
	must(t, err)
	waitFor(t, ctx, `(() => { const e = document.querySelector('section.screen lease-timeline:not(#unmarked)');
		return e.dataset.state === 'ready' && !e.shadowRoot.querySelector('.predict-choices').hidden; })()`, time.Minute)
	waitFor(t, ctx, `(() => { const e = document.getElementById('unmarked');
		return e.dataset.state === 'ready' && e.shadowRoot.querySelector('textarea').checkVisibility(); })()`, time.Minute)
	noProblems(t, ctx)
}
