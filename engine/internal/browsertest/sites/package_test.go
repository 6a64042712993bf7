//go:build sites

package sites_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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

// The npm package make dist writes installs with npm install from its
// tarball, its exports resolve under Node (the element's types too), and
// its markdown-it plugin builds the VitePress course: each fence is the
// element in the built HTML (nothing is changed in the page before Vue
// hydrates it), which plays on a fresh load and after client-side
// navigation with nothing on the console, and is prerendered.
func TestPackage_InstallsAndItsMarkdownItPluginBuildsVitePress(t *testing.T) {
	proj := installPackage(t)
	dir := npmSite(t, "vitepress", map[string]string{"leaselab": filepath.Join(proj, "node_modules", "leaselab")}, "public", ".vitepress/config.js",
		withConfig(t, ".vitepress/config.js (plugin)", `  title: 'Queues that survive crashes',
  locales: { root: { label: 'English', lang: 'en' }, ko: { label: '한국어', lang: 'ko' } },
`), "vitepress", "build")
	site := filepath.Join(dir, ".vitepress", "dist")
	page, err := os.ReadFile(filepath.Join(site, "index.html"))
	must(t, err)
	if !strings.Contains(string(page), `<lease-timeline step="3" show="lanes explain table" id="courier"><pre>`) || strings.Contains(string(page), "language-lease-timeline") {
		t.Fatalf("the built page does not hold the plugin's elements in place of its fences")
	}
	url := serveCounting(t, site)
	playSPA(t, site, url, elementSPA, vitepressWalk, spaStep{"", "/lessons/worksheet.html", 1}, "prerendered 4 timelines (1 worksheets) from 3 pages")
}

// The package's remark plugin builds the Docusaurus course with the
// guide's recipe: each fence is the element in the built HTML (React
// renders it; nothing is changed before hydration), whose text keeps its
// lines, and it plays on a fresh load and after client-side navigation
// with nothing on the console, and is prerendered.
func TestPackage_ItsRemarkPluginBuildsDocusaurus(t *testing.T) {
	proj := installPackage(t)
	config := withConfig(t, "docusaurus.config.js (plugin)", docusaurusConfig)
	config = strings.Replace(config, "{ docs: { remarkPlugins: [leaselab] } }", "{ docs: { routeBasePath: '/', remarkPlugins: [leaselab] }, blog: false, pages: false }", 1)
	dir := npmSite(t, "docusaurus", map[string]string{"leaselab": filepath.Join(proj, "node_modules", "leaselab")}, "static", "docusaurus.config.js",
		config, "docusaurus", "build", "--out-dir", "build")
	site := filepath.Join(dir, "build")
	page, err := os.ReadFile(filepath.Join(site, "index.html"))
	must(t, err)
	if !strings.Contains(string(page), "<lease-timeline step=\"3\" show=\"lanes explain table\" id=\"courier\"><pre># Late courier: the stale stamp is refused\nlease 1000ms\n") {
		i := strings.Index(string(page), "<lease-timeline")
		t.Fatalf("the built page does not hold the plugin's element, its text line by line: %q", string(page)[max(i, 0):min(max(i, 0)+400, len(page))])
	}
	url := serveCounting(t, site)
	playSPA(t, site, url, elementSPA, docusaurusWalk, spaStep{"", "/lessons/worksheet/", 1}, "prerendered 5 timelines (2 worksheets) from 4 pages")
}
