//go:build unix

package command_test

import (
	"github.com/leaselab/leaselab/engine/internal/command"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/coursesite"
)

// besideSite is a site with a page of passing (its trace's key) in a
// temporary folder, and files outside it beside it (see outsideFiles).
func besideSite(t *testing.T, pages map[string]string) (dir, outside string, unchanged func(), key string) {
	t.Helper()
	parent := t.TempDir()
	outside = filepath.Join(parent, "outside")
	unchanged = outsideFiles(t, outside)
	page, key := named("good.tl")
	pages["index.html"] = page
	return siteIn(t, filepath.Join(parent, "site"), pages), outside, unchanged, key
}

// An output that is a symbolic link — the prerendered folder, its index, a
// trace or a stale .br in it — is refused, naming it, whether it leads out
// of the site or to a page of it: nothing outside the site changes, the
// page it leads to neither, and the site's other bundle is prerendered.
func TestPrerender_RefusesAnOutputThatIsASymlink(t *testing.T) {
	out := filepath.Join("assets", coursesite.BundleDir(), coursesite.PrerenderedDir)
	for _, c := range []struct {
		about, link, target string
	}{
		{"the folder, relative", "", "../../../outside"},
		{"the folder, absolute", "", "OUTSIDE"},
		{"the index", "index.json", "OUTSIDE/index.json"},
		{"the index, to a page of the site", "index.json", "../../../index.html"},
		{"a trace", "", ""}, // the good page's trace: its name is its key
		{"a stale .br", strings.Repeat("cd", 32) + ".json.br", "OUTSIDE/site.css.br"},
		{"a .gz", "index.json.gz", "OUTSIDE/backup.tar.gz"},
	} {
		t.Run(c.about, func(t *testing.T) {
			dir, outside, unchanged, key := besideSite(t, map[string]string{})
			other := filepath.Join(dir, "docs", coursesite.BundleDir())
			must(t, os.MkdirAll(other, 0o755))
			manifest, err := os.ReadFile(filepath.Join(dir, "assets", coursesite.BundleDir(), "manifest.json"))
			must(t, err)
			must(t, os.WriteFile(filepath.Join(other, "manifest.json"), manifest, 0o644))
			link, target := c.link, strings.ReplaceAll(c.target, "OUTSIDE", outside)
			if c.about == "a trace" {
				link, target = key+".json", filepath.Join(outside, "victim.txt")
			}
			linkPath := filepath.Join(out, link)
			if link != "" {
				must(t, os.MkdirAll(filepath.Join(dir, out), 0o755))
			}
			must(t, os.Symlink(target, filepath.Join(dir, linkPath)))
			home, err := os.ReadFile(filepath.Join(dir, "index.html"))
			must(t, err)

			code, stdout, errOut := runCmd(command.Prerender, "", dir)
			want := filepath.ToSlash(linkPath) + " is a symbolic link"
			if code != command.ExitBadInput || !strings.Contains(errOut, want) {
				t.Errorf("exit %d, stderr %q; want %d and %q (stdout %q)", code, errOut, command.ExitBadInput, want, stdout)
			}
			unchanged()
			if b, _ := os.ReadFile(filepath.Join(dir, "index.html")); string(b) != string(home) {
				t.Error("the site's index.html changed")
			}
			if st, err := os.Lstat(filepath.Join(dir, linkPath)); err != nil || st.Mode()&os.ModeSymlink == 0 {
				t.Errorf("%s is no longer the link (%v)", linkPath, err)
			}
			b, err := os.ReadFile(filepath.Join(other, coursesite.PrerenderedDir, key+".json"))
			if err != nil || len(b) == 0 {
				t.Errorf("the other bundle's trace is not written: %v", err)
			}
		})
	}
}

// A page that is a symbolic link out of the site (to a page there, to
// /dev/zero) or a FIFO is refused, naming it, without reading from it or
// waiting on it; so is the file a src= names. Nothing outside the site
// changes and the good page is prerendered.
func TestPrerender_RefusesAPageThatIsNotARegularFileOfTheSite(t *testing.T) {
	src := `<html><body><lease-timeline src="t/x.tl"></lease-timeline></body></html>`
	for _, c := range []struct {
		about, file, target string // target "" is a FIFO
		pages               map[string]string
		code                int
		say                 string
	}{
		{"a page linked out of the site", "out.html", "OUTSIDE/lesson.html", nil, command.ExitBadInput,
			"out.html: a symbolic link that leads out of the site: refused"},
		{"a page linked out, relative", "out.html", "../outside/lesson.html", nil, command.ExitBadInput,
			"out.html: a symbolic link that leads out of the site: refused"},
		{"a page linked to /dev/zero", "zero.html", "/dev/zero", nil, command.ExitBadInput,
			"zero.html: a symbolic link that leads out of the site: refused"},
		{"a page that is a FIFO", "fifo.html", "", nil, command.ExitBadInput,
			"fifo.html: a FIFO, not a regular file: refused"},
		{"a src= linked to /dev/zero", "t/x.tl", "/dev/zero", map[string]string{"s.html": src}, command.ExitPass,
			`src="t/x.tl" is not a file of the site (t/x.tl: a symbolic link that leads out of the site): left to the engine`},
		{"a src= that is a FIFO", "t/x.tl", "", map[string]string{"s.html": src}, command.ExitPass,
			`src="t/x.tl" is not a file of the site (t/x.tl: a FIFO, not a regular file): left to the engine`},
	} {
		t.Run(c.about, func(t *testing.T) {
			pages := map[string]string{}
			for k, v := range c.pages {
				pages[k] = v
			}
			dir, outside, unchanged, key := besideSite(t, pages)
			p := filepath.Join(dir, filepath.FromSlash(c.file))
			must(t, os.MkdirAll(filepath.Dir(p), 0o755))
			if c.target == "" {
				must(t, syscall.Mkfifo(p, 0o644))
			} else {
				must(t, os.Symlink(strings.ReplaceAll(c.target, "OUTSIDE", outside), p))
			}

			code, stdout, errOut := runCmd(command.Prerender, "", dir)
			if code != c.code || !strings.Contains(errOut, c.say) {
				t.Errorf("exit %d, stderr %q; want %d and %q (stdout %q)", code, errOut, c.code, c.say, stdout)
			}
			unchanged()
			idx := readIndex(t, dir)
			if len(idx.Traces) != 1 || idx.Traces[key] == "" {
				t.Errorf("traces %v, want the good page's alone (%s)", idx.Traces, key)
			}
		})
	}
}

// outsideFiles makes dir, beside a site, with files an attack on the site
// would aim at, and returns a check that they are there as they were and
// alone.
func outsideFiles(t *testing.T, dir string) func() {
	t.Helper()
	files := map[string]string{
		"backup.tar.gz": "backup", "site.css.br": "css", "index.json": "index", "victim.txt": "victim",
		strings.Repeat("ab", 32) + ".json": "trace", "lesson.html": fencePage("en", "#! name=secret.tl\n"+passing),
	}
	must(t, os.MkdirAll(dir, 0o755))
	for name, body := range files {
		must(t, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644))
	}
	return func() {
		t.Helper()
		entries, err := os.ReadDir(dir)
		must(t, err)
		if len(entries) != len(files) {
			t.Errorf("outside the site: %d files, want %d", len(entries), len(files))
		}
		for name, body := range files {
			st, err := os.Lstat(filepath.Join(dir, name))
			b, _ := os.ReadFile(filepath.Join(dir, name))
			if err != nil || !st.Mode().IsRegular() || string(b) != body {
				t.Errorf("outside the site, %s: changed (%v)", name, err)
			}
		}
	}
}
