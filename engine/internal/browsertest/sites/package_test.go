//go:build sites

package sites_test

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/leaselab/leaselab/engine/internal/coursesite"
)

// installPackage installs the npm package make dist wrote beside the
// bundle into a new project with npm install, checks its exports resolve
// under Node (the element's types too), and returns the project.
func installPackage(t *testing.T) string {
	t.Helper()
	tgz, err := filepath.Glob(filepath.Join(filepath.Dir(bundle), "leaselab-*.tgz"))
	must(t, err)
	if len(tgz) != 1 {
		t.Fatalf("make dist wrote %d npm packages beside the bundle, want one", len(tgz))
	}
	proj := t.TempDir()
	must(t, os.WriteFile(filepath.Join(proj, "package.json"), []byte(`{"name": "course", "private": true, "type": "module"}`), 0o644))
	if out, err := command(proj, "npm", "install", "--no-audit", "--no-fund", "--loglevel=error", tgz[0]); err != nil {
		t.Fatalf("npm install %s: %v\n%s", tgz[0], err, out)
	}
	out, err := command(proj, "node", "--input-type=module", "-e", `
		const md = await import('leaselab/markdown-it'), remark = await import('leaselab/remark');
		const { createRequire } = await import('node:module');
		const types = createRequire(import.meta.url).resolve('leaselab/types/lease-timeline.d.ts');
		console.log(typeof md.default, typeof remark.default, types.endsWith('lease-timeline.d.ts'));`)
	if err != nil || strings.TrimSpace(out) != "function function true" {
		t.Fatalf("the package's exports under Node: %v\n%s", err, out)
	}
	return proj
}

// embeddedAttr is the trace a build-time plugin embeds in an element.
var embeddedAttr = regexp.MustCompile(`data-prerendered="([A-Za-z0-9+/=]+)"`)

// embeddedTraces reads every trace the plugins embedded in the site's
// pages (data-prerendered: JSON, gzipped, in base64), by key, and counts
// the elements that carry one.
func embeddedTraces(t *testing.T, site string) (map[string][]byte, int) {
	t.Helper()
	traces := map[string][]byte{}
	elements := 0
	must(t, filepath.WalkDir(site, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") || strings.Contains(p, coursesite.BundleDir()) {
			return err
		}
		page, err := os.ReadFile(p)
		must(t, err)
		for _, m := range embeddedAttr.FindAllSubmatch(page, -1) {
			elements++
			gz, err := base64.StdEncoding.DecodeString(string(m[1]))
			must(t, err)
			r, err := gzip.NewReader(bytes.NewReader(gz))
			must(t, err)
			raw, err := io.ReadAll(r)
			must(t, err)
			var v struct {
				Format int               `json:"format"`
				Traces map[string]string `json:"traces"`
			}
			must(t, json.Unmarshal(raw, &v))
			if v.Format != 1 || len(v.Traces) == 0 {
				t.Fatalf("%s: an element embeds format %d with %d traces", p, v.Format, len(v.Traces))
			}
			for k, tr := range v.Traces {
				traces[k] = []byte(tr)
			}
		}
		return nil
	}))
	return traces, elements
}

// playEmbedded walks a site a build-time plugin built, with no prerender
// step, served by serveCounting, from its first page and from a deeper
// one: every player draws the trace its element carries, and the server
// sends no WebAssembly. Then leaselab prerender (whose report says
// prerendered) writes, under each key, the same bytes as the plugin
// embedded under it.
func playEmbedded(t *testing.T, site, url string, walk []spaStep, other spaStep, prerendered string) {
	t.Helper()
	ctx := walkSPA(t, url, elementSPA, spaStep{"", "/", 2}, walk)
	if src := eval[[]string](t, ctx, elementSPA+`.map((e) => e.dataset.source)`); len(src) == 0 || slices.ContainsFunc(src, func(s string) bool { return s != "prerendered" }) {
		t.Errorf("the players' sources are %q, want prerendered for all", src)
	}
	walkSPA(t, url, elementSPA, other, []spaStep{{"the course", "/", 2}})
	if n := wasmServed(t, url); n != 0 {
		t.Errorf("the server sent %d WebAssembly files to the site the plugin built, want none", n)
	}
	embedded, elements := embeddedTraces(t, site)
	out, err := command(root, leaselab, "prerender", site)
	if err != nil || !strings.Contains(out, prerendered) {
		t.Fatalf("leaselab prerender: %v\n%s", err, out)
	}
	dir := filepath.Join(site, coursesite.BundleDir(), coursesite.PrerenderedDir)
	b, err := os.ReadFile(filepath.Join(dir, "index.json"))
	must(t, err)
	var idx coursesite.Index
	must(t, json.Unmarshal(b, &idx))
	if len(idx.Traces) == 0 {
		t.Fatal("leaselab prerender wrote no trace")
	}
	for k, file := range idx.Traces {
		want, err := os.ReadFile(filepath.Join(dir, file))
		must(t, err)
		got, ok := embedded[k]
		if !ok {
			t.Errorf("leaselab prerender's trace %s is in no element's embedded traces (%d elements, %d traces)", k, elements, len(embedded))
		} else if !bytes.Equal(got, want) {
			t.Errorf("the trace embedded under %s differs from leaselab prerender's (%d bytes, want %d)", k, len(got), len(want))
		}
	}
}

// The npm package make dist writes installs with npm install from its
// tarball, its exports resolve under Node (the element's types too), and
// its markdown-it plugin builds the VitePress course: each fence is the
// element in the built HTML (nothing is changed in the page before Vue
// hydrates it), carrying its trace, which plays on a fresh load and after
// client-side navigation with nothing on the console and no WebAssembly
// sent, with no prerender step; the traces are leaselab prerender's.
func TestPackage_InstallsAndItsMarkdownItPluginBuildsVitePress(t *testing.T) {
	proj := installPackage(t)
	dir := npmSiteWith(t, "vitepress", map[string]string{"leaselab": filepath.Join(proj, "node_modules", "leaselab")},
		map[string]string{"lessons/lab.md": labPage}, "public", ".vitepress/config.js",
		withConfig(t, ".vitepress/config.js (plugin)", `  title: 'Queues that survive crashes',
  locales: { root: { label: 'English', lang: 'en' }, ko: { label: '한국어', lang: 'ko' } },
`), "vitepress", "build")
	site := filepath.Join(dir, ".vitepress", "dist")
	page, err := os.ReadFile(filepath.Join(site, "index.html"))
	must(t, err)
	if !regexp.MustCompile(`<lease-timeline step="3" show="lanes explain table" id="courier" data-prerendered="[^"]+"><pre>`).Match(page) || strings.Contains(string(page), "language-lease-timeline") {
		t.Fatalf("the built page does not hold the plugin's elements, with their traces, in place of its fences")
	}
	url := serveCounting(t, site)
	labEmbedded(t, url, "/lessons/lab.html")
	playEmbedded(t, site, url, vitepressWalk, spaStep{"", "/lessons/worksheet.html", 1}, "prerendered 4 timelines (1 worksheets) from 4 pages")
}

// labPage is a course page of a lab fence, which the plugins run as the
// site is built.
const labPage = "# A lab\n\nHow long should a lease be?\n\n```lease-lab\n#! name=heartbeat.lab\njobs 2\nworkers 2\n" +
	"work uniform 100ms 200ms\nhorizon 5s\nlease 1s\nsweep heartbeat 200ms 400ms\nruns 2\nseed 1\nplot dup_ms\n```\n"

// labEmbedded loads the page at path of a site a plugin built: its lab
// draws the result and plot its element carries, and the server sends no
// WebAssembly.
func labEmbedded(t *testing.T, url, path string) {
	t.Helper()
	ctx := tab(t)
	must(t, chromedp.Do(ctx, chromedp.Navigate(url+path)))
	waitFor(t, ctx, `(() => { const l = document.querySelector('lease-lab'); l?.scrollIntoView({block: 'center'});
		return l?.dataset.state === 'ready'; })()`, time.Minute)
	if src := eval[string](t, ctx, `document.querySelector('lease-lab').dataset.source`); src != "prerendered" {
		t.Errorf("%s: the lab's source is %q, want prerendered", path, src)
	}
	if n := eval[int](t, ctx, `document.querySelector('lease-lab').shadowRoot.querySelectorAll('svg [data-point]').length`); n == 0 {
		t.Errorf("%s: the lab drew no point of its plot", path)
	}
	if n := eval[int](t, ctx, wasmFetches); n != 0 {
		t.Errorf("%s fetched the engine %d times before the reader acted", path, n)
	}
	if n := wasmServed(t, url); n != 0 {
		t.Errorf("the server sent %d WebAssembly files for a page of a lab the plugin built, want none", n)
	}
	noProblems(t, ctx)
}

// The package's remark plugin builds the Docusaurus course with the
// guide's recipe: its two languages share one copy of the bundle; each fence is the element in the built HTML (React
// renders it; nothing is changed before hydration), whose text keeps its
// lines, carrying its trace; it plays on a fresh load and after
// client-side navigation with nothing on the console and no WebAssembly
// sent, with no prerender step; the traces are leaselab prerender's.
func TestPackage_ItsRemarkPluginBuildsDocusaurus(t *testing.T) {
	proj := installPackage(t)
	config := withConfig(t, "docusaurus.config.js (plugin)", docusaurusConfig)
	config = strings.Replace(config, "{ docs: { remarkPlugins: [leaselab] } }", "{ docs: { routeBasePath: '/', remarkPlugins: [leaselab] }, blog: false, pages: false }", 1)
	dir := npmSite(t, "docusaurus", map[string]string{"leaselab": filepath.Join(proj, "node_modules", "leaselab")}, "static", "docusaurus.config.js",
		config, "docusaurus", "build", "--out-dir", "build")
	site := filepath.Join(dir, "build")
	oneEngine(t, site)
	page, err := os.ReadFile(filepath.Join(site, "index.html"))
	must(t, err)
	if !regexp.MustCompile(`<lease-timeline step="3" show="lanes explain table" id="courier" data-prerendered="[^"]+"><pre># Late courier: the stale stamp is refused\nlease 1000ms\n`).Match(page) {
		i := strings.Index(string(page), "<lease-timeline")
		t.Fatalf("the built page does not hold the plugin's element, its text line by line: %q", string(page)[max(i, 0):min(max(i, 0)+400, len(page))])
	}
	url := serveCounting(t, site)
	playEmbedded(t, site, url, docusaurusWalk, spaStep{"", "/lessons/worksheet/", 1}, "prerendered 5 timelines (2 worksheets) from 4 pages")
}
