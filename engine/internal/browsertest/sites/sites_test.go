//go:build sites

package sites_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/leaselab/leaselab/engine/internal/coursesite"
)

// A course page of a built site: where it is, how many fences it has, and
// the id of its worksheet ("" for none).
type coursePage struct {
	path   string
	fences int
	sheet  string
}

// A line of the late courier's story every site tells (the no-JS check
// looks for it).
const storyLine = "1001ms  A complete order-7         -> refused superseded"

// The worksheet's text once the reader has solved it: B claims at the very
// instant A's lease ends, which the broken boundary refuses.
const solvedSheet = `lease 1000ms
job job-1
0ms      A claim job-1      -> ok token=1 lease_until=1000
1000ms   B claim job-1      -> ok token=2
`

// buildMkDocs builds testdata/src with MkDocs and the guide's mkdocs.yml
// snippet called config, the bundle in docs/; it returns the built site.
func buildMkDocs(t *testing.T, src, config string) string {
	t.Helper()
	dir := t.TempDir()
	copyTree(t, filepath.Join("testdata", src), dir)
	must(t, os.WriteFile(filepath.Join(dir, "mkdocs.yml"), []byte(snippet(t, config)), 0o644))
	copyTree(t, bundle, filepath.Join(dir, "docs", coursesite.BundleDir()))
	if out, err := command(dir, "mkdocs", "build", "--quiet", "--site-dir", "site"); err != nil {
		t.Fatalf("mkdocs build: %v\n%s", err, out)
	}
	return filepath.Join(dir, "site")
}

// buildHugo builds testdata/hugo with Hugo, its head partial the guide's
// snippet, the bundle in static/; it returns the built site. With
// guessSyntax, the configuration adds the guide's guessSyntax snippet and
// every fence starts with the marker, as the guide says then.
func buildHugo(t *testing.T, guessSyntax bool) string {
	t.Helper()
	if guessSyntax {
		return buildHugoWith(t, true, snippet(t, "hugo.toml (guessSyntax)"), nil)
	}
	return buildHugoWith(t, false, "", nil)
}

// buildHugoWith is buildHugo with config added to hugo.toml and more
// pages: their paths under content/ and their text.
func buildHugoWith(t *testing.T, guessSyntax bool, config string, pages map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	copyTree(t, filepath.Join("testdata", "hugo"), dir)
	for path, text := range pages {
		must(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, "content", path)), 0o755))
		must(t, os.WriteFile(filepath.Join(dir, "content", path), []byte(text), 0o644))
	}
	if config != "" {
		file := filepath.Join(dir, "hugo.toml")
		b, err := os.ReadFile(file)
		must(t, err)
		must(t, os.WriteFile(file, append(b, "\n"+config...), 0o644))
	}
	if guessSyntax {
		must(t, filepath.WalkDir(filepath.Join(dir, "content"), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			md := strings.ReplaceAll(string(b), "```lease-timeline\n#! ", "```lease-timeline\n#! lease-timeline ")
			md = regexp.MustCompile("```lease-timeline\n([^#])").ReplaceAllString(md, "```lease-timeline\n#! lease-timeline\n$1")
			return os.WriteFile(p, []byte(md), 0o644)
		}))
	}
	partial := filepath.Join(dir, "layouts", "partials", "leaselab.html")
	must(t, os.MkdirAll(filepath.Dir(partial), 0o755))
	must(t, os.WriteFile(partial, []byte(snippet(t, "layouts/partials/leaselab.html")), 0o644))
	copyTree(t, bundle, filepath.Join(dir, "static", coursesite.BundleDir()))
	if out, err := command(dir, "hugo", "--quiet", "--destination", "public"); err != nil {
		t.Fatalf("hugo: %v\n%s", err, out)
	}
	return filepath.Join(dir, "public")
}

// MkDocs with its own theme, served by python3 -m http.server: the script
// is a classic deferred one (extra_javascript), on a page one folder deep
// too.
func TestSite_MkDocs(t *testing.T) {
	site := buildMkDocs(t, "mkdocs", "mkdocs.yml")
	url := servePython(t, site)
	playSite(t, site, url, []coursePage{{"/", 2, ""}, {"/lessons/worksheet/", 1, "sheet"}})
}

// Material for MkDocs with pymdownx (the guide's custom fences and
// attr_list), served under a sub-path; a lab's fence, with no directive,
// is a lab by its custom fence, and draws once prerendered.
func TestSite_MaterialForMkDocs(t *testing.T) {
	site := buildMkDocs(t, "material", "mkdocs.yml (Material)")
	url := serveUnder(t, site, "/docs/course/", false)
	playSite(t, site, url, []coursePage{{"/", 3, "sheet"}})
	ctx := tab(t)
	must(t, chromedp.Do(ctx, chromedp.Navigate(url+"/")))
	const b = `document.querySelector('lease-timeline[step="2"]')`
	waitFor(t, ctx, b+`?.dataset.state === 'ready' || (`+b+`?.scrollIntoView(), false)`, time.Minute)
	if got := eval[string](t, ctx, b+`.dataset.cursor`); got != "2" {
		t.Errorf("the attribute list's step=2 put the cursor at %s", got)
	}
	lab := tab(t)
	must(t, chromedp.Do(lab, chromedp.Navigate(url+"/lab/")))
	const l = `document.querySelector('lease-lab[data-fence]')`
	waitFor(t, lab, l+`?.dataset.state === 'ready' || (`+l+`?.scrollIntoView({block: 'center'}), false)`, time.Minute)
	if src := eval[string](t, lab, l+`.dataset.source`); src != "prerendered" {
		t.Errorf("the lab's source is %q, want prerendered (playSite prerendered the site)", src)
	}
	noProblems(t, lab)
}

// Hugo, under its baseURL's sub-path, from a host that sends .wasm as
// application/octet-stream (the engine is compiled from its bytes).
func TestSite_Hugo(t *testing.T) {
	site := buildHugo(t, false)
	url := serveUnder(t, site, "/course/", true)
	playSite(t, site, url, []coursePage{{"/", 2, ""}, {"/lessons/worksheet/", 1, "sheet"}})
}

// Hugo with guessSyntax, which renames the fences language-fallback: the
// guide's marker on each fence's first line keeps them timelines.
func TestSite_HugoGuessSyntaxKeepsMarkedFences(t *testing.T) {
	site := buildHugo(t, true)
	page, err := os.ReadFile(filepath.Join(site, "index.html"))
	must(t, err)
	if !strings.Contains(string(page), "language-fallback") || strings.Contains(string(page), "language-lease-timeline") {
		t.Fatalf("guessSyntax did not rename the fences language-fallback: the test tests nothing")
	}
	url := serveUnder(t, site, "/course/", false)
	playSite(t, site, url, []coursePage{{"/", 2, ""}, {"/lessons/worksheet/", 1, "sheet"}})
}

// A Hugo page, in a bundle whose folder's name has a space and Korean,
// holding a fence and a <lease-exercise>, built with the guide's
// configuration for elements and served under the guide's
// Content-Security-Policy: the exercise is in the built HTML (Hugo leaves
// raw HTML out unless told), the player plays and the exercise builds,
// with nothing on the console.
func TestSite_HugoPageWrittenWithAnExercisePlays(t *testing.T) {
	page := "---\ntitle: Elements\n---\n```lease-timeline\n#! step=1\nlease 1000ms\njob order-7\n0ms  A claim order-7  -> ok token=1\n```\n\n<lease-exercise id=\"ex\"></lease-exercise>\n"
	site := buildHugoWith(t, false, snippet(t, "hugo.toml (elements)"), map[string]string{"lessons/Lease 기초 (1)/index.md": page})
	built, err := os.ReadFile(filepath.Join(site, "lessons", "lease-기초-1", "index.html"))
	must(t, err)
	if !strings.Contains(string(built), `<lease-exercise id="ex">`) {
		t.Errorf("the built page lacks the exercise: Hugo left the raw HTML out")
	}
	url := serveUnder(t, site, "/course/", false, "Content-Security-Policy", strings.TrimSpace(snippet(t, "Content-Security-Policy")))
	ctx := tab(t)
	must(t, chromedp.Do(ctx, chromedp.Navigate(url+"/lessons/lease-%EA%B8%B0%EC%B4%88-1/")))
	waitFor(t, ctx, `(() => { const p = document.querySelector('lease-timeline'), ex = document.getElementById('ex');
		return p !== null && p.dataset.state === 'ready' && p.dataset.steps === '1' && ex !== null && ex.dataset.state === 'idle'; })()`, time.Minute)
	noProblems(t, ctx)
}

// playSite runs every check on a built site: its players play, its
// worksheet is solved, it reads without JavaScript, and once prerendered
// it draws without the engine.
func playSite(t *testing.T, dir, url string, pages []coursePage) {
	t.Helper()
	for _, p := range pages {
		t.Run("players"+p.path, func(t *testing.T) { playersPlay(t, url+p.path, p.fences) })
		if p.sheet != "" {
			t.Run("worksheet"+p.path, func(t *testing.T) { solveWorksheetAt(t, url+p.path, p.sheet) })
		}
	}
	t.Run("without JavaScript", func(t *testing.T) { withoutJavaScript(t, url+pages[0].path) })
	t.Run("prerendered", func(t *testing.T) {
		out, err := command(root, leaselab, "prerender", dir)
		if err != nil || !strings.Contains(out, "prerendered ") {
			t.Fatalf("leaselab prerender: %v\n%s", err, out)
		}
		for _, p := range pages {
			drawsPrerendered(t, url+p.path, p.fences)
			if p.sheet != "" {
				solveWorksheetAt(t, url+p.path, p.sheet)
			}
		}
	})
}

// players lists the page's fence players' ids, in order (js helper).
const players = `[...document.querySelectorAll('lease-timeline[data-fence]')]`

// openPlayers opens url and waits until its n fences are players, each
// of which has run once scrolled into view.
func openPlayers(t *testing.T, url string, n int) context.Context {
	t.Helper()
	ctx := tab(t)
	must(t, chromedp.Do(ctx, chromedp.Navigate(url)))
	waitFor(t, ctx, fmt.Sprintf(`%s.length === %d && %[1]s.every((e) => e.dataset.state)`, players, n), 30*time.Second)
	for i := range n {
		waitFor(t, ctx, fmt.Sprintf(`(() => { const e = %s[%d]; if (e.dataset.state !== 'ready') e.scrollIntoView({block: 'center'}); return e.dataset.state === 'ready'; })()`, players, i), time.Minute)
	}
	return ctx
}

// The fences became players (the fences hidden behind them) that draw
// their lanes, step and play through the element's methods, reflect
// their cursor and tell the page (ready, step).
func playersPlay(t *testing.T, url string, n int) {
	ctx := openPlayers(t, url, n)
	hidden := eval[bool](t, ctx, fmt.Sprintf(`(() => { const b = [...document.querySelectorAll('[data-leaselab-fence]')];
		return b.length === %d && b.every((e) => getComputedStyle(e).display === 'none'); })()`, n))
	if !hidden {
		t.Errorf("the fences are not all hidden behind their players")
	}
	marks := eval[[]int](t, ctx, players+`.map((e) => e.shadowRoot.querySelectorAll('svg [data-step]').length)`)
	for i, m := range marks {
		if m == 0 {
			t.Errorf("player %d draws no step in its lanes", i+1)
		}
	}
	if src := eval[[]string](t, ctx, players+`.map((e) => e.dataset.source)`); strings.Join(src, ",") != strings.TrimSuffix(strings.Repeat("engine,", n), ",") {
		t.Errorf("before prerendering the players' sources are %q, want engine", src)
	}
	eval[bool](t, ctx, players+`[0].seek(2) || true`)
	waitFor(t, ctx, players+`[0].dataset.cursor === '2' && __seen.events.some((e) => e.type === 'step' && e.detail.cursor === 2)`, 5*time.Second)
	eval[bool](t, ctx, players+`[0].seek(0) || `+players+`[0].play() || true`)
	waitFor(t, ctx, `Number(`+players+`[0].dataset.cursor) >= 1`, 10*time.Second)
	eval[bool](t, ctx, players+`[0].pause() || true`)
	if ready := eval[int](t, ctx, `__seen.events.filter((e) => e.type === 'ready').length`); ready < n {
		t.Errorf("%d ready events for %d players", ready, n)
	}
	noProblems(t, ctx)
}

// The worksheet tells the engines apart once the reader writes a claim at
// the instant the lease ends; the page hears solved. wasm is how many
// times the engine is fetched meanwhile (0 before prerendering: it was
// fetched for the first run; 1 after: the edit is what needs it).
func solveWorksheetAt(t *testing.T, url, id string) {
	ctx := tab(t)
	must(t, chromedp.Do(ctx, chromedp.Navigate(url)))
	solveWorksheet(t, ctx, id)
	if n := eval[int](t, ctx, wasmFetches); n != 1 {
		t.Errorf("the worksheet fetched the engine %d times, want once", n)
	}
	noProblems(t, ctx)
}

// solveWorksheet solves the worksheet id on the page of ctx.
func solveWorksheet(t *testing.T, ctx context.Context, id string) {
	t.Helper()
	waitFor(t, ctx, fmt.Sprintf(`(() => { const e = document.getElementById(%q); if (!e) return false; e.scrollIntoView({block: 'center'}); return e.dataset.state === 'ready'; })()`, id), time.Minute)
	if d := eval[string](t, ctx, fmt.Sprintf(`document.getElementById(%q).dataset.differs`, id)); d != "no" {
		t.Fatalf("the author's worksheet differs=%q, want no", d)
	}
	eval[bool](t, ctx, fmt.Sprintf(`(() => { const ta = document.getElementById(%q).shadowRoot.querySelector('textarea');
		ta.value = %q; ta.dispatchEvent(new Event('input', {bubbles: true})); return true; })()`, id, solvedSheet))
	waitFor(t, ctx, fmt.Sprintf(`document.getElementById(%q).dataset.differs === 'yes' && __seen.events.some((e) => e.type === 'solved' && e.id === %[1]q && e.detail.mutant === 'claim-boundary' && e.detail.step === 2)`, id), time.Minute)
}

// Without JavaScript a fence is the generator's text: the story's lines,
// each on its own line, and no engine.
func withoutJavaScript(t *testing.T, url string) {
	ctx := tab(t)
	_, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
	must(t, err)
	must(t, chromedp.Do(ctx, chromedp.Navigate(url)))
	got := eval[map[string]any](t, ctx, `(() => { const pre = [...document.querySelectorAll('pre')].find((p) => p.textContent.includes('order-7'));
		return {players: document.querySelectorAll('lease-timeline').length, text: pre ? pre.innerText : '',
			ws: pre ? getComputedStyle(pre).whiteSpace : '', shown: pre ? pre.getBoundingClientRect().height > 100 : false}; })()`)
	if got["players"].(float64) != 0 {
		t.Fatalf("without JavaScript the page has %v players: its scripts ran", got["players"])
	}
	text, _ := got["text"].(string)
	if !strings.Contains(text, storyLine+"\n") || !strings.Contains(text, "# Late courier") {
		t.Errorf("without JavaScript the fence reads %q, want the story line by line", text)
	}
	if ws, _ := got["ws"].(string); !strings.HasPrefix(ws, "pre") || got["shown"] != true {
		t.Errorf("without JavaScript the fence is white-space %q, shown %v", ws, got["shown"])
	}
	if n := eval[int](t, ctx, wasmFetches); n != 0 {
		t.Errorf("without JavaScript the page fetched the engine %d times", n)
	}
}

// Once prerendered, every player draws its trace at once, from the
// bundle's prerendered/ folder, and no byte of the engine is fetched.
func drawsPrerendered(t *testing.T, url string, n int) {
	ctx := openPlayers(t, url, n)
	if src := eval[[]string](t, ctx, players+`.map((e) => e.dataset.source)`); strings.Join(src, ",") != strings.TrimSuffix(strings.Repeat("prerendered,", n), ",") {
		t.Errorf("after prerendering the players' sources are %q, want prerendered for all", src)
	}
	if n := eval[int](t, ctx, wasmFetches); n != 0 {
		t.Errorf("the prerendered page fetched the engine %d times, want none", n)
	}
	if eng := eval[string](t, ctx, `document.documentElement.dataset.engine || ''`); eng != "" {
		t.Errorf("the prerendered page started the engine: data-engine=%q", eng)
	}
	noProblems(t, ctx)
}

// noProblems fails the test when the page had an uncaught error. MkDocs'
// own theme loads highlight.js from a CDN, which the test machine cannot
// reach; its "hljs is not defined" is not the page's.
func noProblems(t *testing.T, ctx context.Context) {
	t.Helper()
	if p := eval[[]string](t, ctx, `__seen.problems.filter((p) => !p.includes('hljs is not defined'))`); len(p) > 0 {
		t.Errorf("the page reported problems: %q", p)
	}
}
