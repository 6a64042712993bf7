package main

import (
	"context"
	"fmt"
	"html"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/leaselab/leaselab/engine/internal/coursesite"
	"github.com/leaselab/leaselab/engine/simrun"
)

// The course page's goals: a page with five author timelines,
// prerendered (leaselab prerender), draws its first trace this soon after
// navigation, cold, and fetches no byte of WebAssembly before the reader
// asks for something the traces do not hold.
const (
	goalCourseFirstMillis = 300
	goalCourseWasmBytes   = 0
	courseTimelines       = 5
)

// course is what the course page gave: prerendered, and the same page on
// a bundle nothing was prerendered into (the engine's own first trace).
type course struct {
	PrerenderedFirst float64 // ms from navigation to the first trace painted, cold
	PrerenderedAll   float64 // ms until all five were drawn (each scrolled into view)
	WasmBytes        float64 // bytes of the engine's modules (either build) fetched before any interaction
	WasmFetches      float64
	EngineFirst      float64 // ms to the first trace painted without prerendering, cold
}

func newCourse() course {
	n := unmeasured
	return course{PrerenderedFirst: n, PrerenderedAll: n, WasmBytes: n, WasmFetches: n, EngineFirst: n}
}

// coursePaths are where the two course sites are served.
const (
	coursePrerendered = "/course-prerendered/"
	coursePlain       = "/course-plain/"
	coursePage        = "lesson.html"
)

// courseSites writes the two course sites into a temporary folder: each
// the bundle (make dist) and a page with five of the library's timelines
// as ```lease-timeline fences (as MkDocs writes them); the first is then
// prerendered. It returns the two folders and a function that removes
// them.
func courseSites(web string, log io.Writer) (prerendered, plain string, remove func(), err error) {
	tmp, err := os.MkdirTemp("", "leaselab-bench-course-")
	if err != nil {
		return "", "", nil, err
	}
	remove = func() { os.RemoveAll(tmp) }
	cmd := exec.Command("go", "run", "./engine/internal/build/dist", "-web", web, "-out", filepath.Join(tmp, "dist"))
	if out, err := cmd.CombinedOutput(); err != nil {
		remove()
		return "", "", nil, fmt.Errorf("make dist: %v\n%s", err, out)
	}
	page := coursePageHTML()
	for _, site := range []string{"prerendered", "plain"} {
		dir := filepath.Join(tmp, site)
		if err := os.CopyFS(filepath.Join(dir, coursesite.BundleDir()), os.DirFS(filepath.Join(tmp, "dist", coursesite.BundleDir()))); err != nil {
			remove()
			return "", "", nil, err
		}
		if err := os.WriteFile(filepath.Join(dir, coursePage), []byte(page), 0o644); err != nil {
			remove()
			return "", "", nil, err
		}
	}
	prerendered, plain = filepath.Join(tmp, "prerendered"), filepath.Join(tmp, "plain")
	if _, err := coursesite.Prerender(context.Background(), prerendered, log); err != nil {
		remove()
		return "", "", nil, err
	}
	return prerendered, plain, remove, nil
}

// coursePageHTML is a lesson with the library's first five timelines, a
// paragraph between each two, the first in view at once.
func coursePageHTML() string {
	var b strings.Builder
	b.WriteString(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A lesson</title>
<script src="` + coursesite.BundleDir() + `/leaselab.js" defer></script></head><body><main><h1>A lesson</h1>
`)
	for i, e := range simrun.Library()[:courseTimelines] {
		fmt.Fprintf(&b, "<p>Story %d.</p>\n<pre><code class=\"language-lease-timeline\">#! name=%s\n%s</code></pre>\n",
			i+1, e.Name, html.EscapeString(e.Text))
	}
	b.WriteString("</main></body></html>\n")
	return b.String()
}

// courseDrawn holds once the page painted its first trace (the probe's
// courseDrawn) and every player has run, each scrolled into view.
const courseDrawn = `(() => {
	const all = [...document.querySelectorAll('lease-timeline')];
	for (const e of all) if (e.dataset.state !== 'ready') { e.scrollIntoView(); break; }
	return window.__bench.courseDrawn !== undefined && all.length === %d && all.every((e) => e.dataset.state === 'ready');
})()`

// courseRead reads the page's figures: the first trace painted, the last
// player's ready event, and the engine's bytes fetched (a worker's fetch is
// marked on the page's timeline by engine.js).
const courseRead = `(() => {
	const fcp = performance.getEntriesByName('first-contentful-paint')[0];
	const wasm = [...performance.getEntriesByType('resource'), ...performance.getEntriesByType('mark').map((m) => m.detail).filter(Boolean)]
		.filter((e) => URL.canParse(e.name) && /\/leaselab(-tools)?\.wasm$/.test(new URL(e.name).pathname));
	return {first: Math.max(window.__bench.courseDrawn, fcp ? fcp.startTime : 0), all: window.__bench.courseAll,
		sources: [...document.querySelectorAll('lease-timeline')].map((e) => e.dataset.source).join(' '),
		fetches: wasm.length, bytes: wasm.reduce((n, e) => n + (e.transferSize || e.encodedBodySize || 0), 0)};
})()`

type courseFigures struct {
	First, All     float64
	Sources        string
	Fetches, Bytes float64
}

// coursePage visits one of the course sites, cold (its URLs are its own:
// nothing of it is in the HTTP cache or V8's code cache).
func (s *session) coursePage(path string, c *course, prerendered bool) ([]string, error) {
	t, err := s.open(path, 3*time.Minute)
	if err != nil {
		return nil, err
	}
	defer t.close()
	if err := t.wait(fmt.Sprintf(courseDrawn, courseTimelines), 2*time.Minute); err != nil {
		return nil, err
	}
	time.Sleep(300 * time.Millisecond) // anything still in flight lands
	v, err := eval[courseFigures](t, courseRead)
	if err != nil {
		return nil, err
	}
	if !prerendered {
		c.EngineFirst = v.First
		return []string{fmt.Sprintf("course page without prerendering: players' sources %q", v.Sources)}, nil
	}
	c.PrerenderedFirst, c.PrerenderedAll, c.WasmFetches, c.WasmBytes = v.First, v.All, v.Fetches, v.Bytes
	note := fmt.Sprintf("course page, prerendered: players' sources %q; all %d drawn at %s; the engine's modules fetched %.0f times",
		v.Sources, courseTimelines, millis(v.All), v.Fetches)
	return []string{note}, nil
}

// courseGoals are the course page's goals.
func (r results) courseGoals() []goal {
	return []goal{
		{Name: "course page, 5 prerendered timelines: first trace drawn, cold", Unit: "ms",
			Measured: r.Course.PrerenderedFirst, Limit: goalCourseFirstMillis},
		{Name: "course page, 5 prerendered timelines: WebAssembly fetched before interaction", Unit: "bytes",
			Measured: r.Course.WasmBytes, Limit: goalCourseWasmBytes},
	}
}
