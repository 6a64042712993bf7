//go:build sites

package sites_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/coursesite"
)

// buildSphinx builds testdata/sphinx (reStructuredText and a MyST page)
// with sphinx-build -W, conf.py the given text and the bundle in _static/;
// it returns the built site.
func buildSphinx(t *testing.T, conf string) string {
	t.Helper()
	dir := t.TempDir()
	copyTree(t, filepath.Join("testdata", "sphinx"), dir)
	must(t, os.WriteFile(filepath.Join(dir, "conf.py"), []byte(conf), 0o644))
	copyTree(t, bundle, filepath.Join(dir, "_static", coursesite.BundleDir()))
	if out, err := command(dir, "sphinx-build", "-q", "-W", "-b", "html", ".", "_build"); err != nil {
		t.Fatalf("sphinx-build: %v\n%s", err, out)
	}
	return filepath.Join(dir, "_build")
}

// Sphinx with the guide's conf.py: Pygments writes each block's text into a
// pre with no code, a code-block's in a highlight-lease-timeline wrapper,
// a MyST fence's too, a literal block's highlighted in spans with the
// marker first; each becomes a player that plays, and the site prerenders.
func TestSite_SphinxRSTAndMyST(t *testing.T) {
	site := buildSphinx(t, snippet(t, "conf.py"))
	for _, p := range []string{"index.html", "lessons/worksheet.html"} {
		b, err := os.ReadFile(filepath.Join(site, filepath.FromSlash(p)))
		must(t, err)
		if page := string(b); !strings.Contains(page, `<div class="highlight-lease-timeline notranslate"><div class="highlight"><pre><span></span>`) || strings.Contains(page, "<pre><code") {
			t.Fatalf("%s: Sphinx did not write its Pygments markup (a code-less pre in highlight-lease-timeline): the test tests nothing", p)
		}
	}
	url := servePython(t, site)
	playSite(t, site, url, []coursePage{{"/", 2, ""}, {"/lessons/worksheet.html", 1, "sheet"}})
}

// notebook is a notebook (nbformat 4) of Markdown cells.
func notebook(t *testing.T, cells ...string) []byte {
	t.Helper()
	type cell struct {
		Type     string         `json:"cell_type"`
		ID       string         `json:"id"`
		Metadata map[string]any `json:"metadata"`
		Source   string         `json:"source"`
	}
	nb := map[string]any{"nbformat": 4, "nbformat_minor": 5, "metadata": map[string]any{}}
	var cs []cell
	for i, c := range cells {
		cs = append(cs, cell{"markdown", "cell-" + string(rune('a'+i)), map[string]any{}, c})
	}
	nb["cells"] = cs
	b, err := json.Marshal(nb)
	must(t, err)
	return b
}

// A notebook whose first Markdown cell is the guide's script cell and whose
// next cells are the MkDocs site's lessons (their fences and worksheet),
// exported by jupyter nbconvert --to html beside the bundle: nbconvert
// writes each fence's language as its code's first line; the fences
// become players that play, and the page prerenders.
func TestSite_NotebookByNbconvert(t *testing.T) {
	dir := t.TempDir()
	var cells []string
	for _, p := range []string{"index.md", "lessons/worksheet.md"} {
		b, err := os.ReadFile(filepath.Join("testdata", "mkdocs", "docs", filepath.FromSlash(p)))
		must(t, err)
		cells = append(cells, string(b))
	}
	must(t, os.WriteFile(filepath.Join(dir, "lesson.ipynb"), notebook(t, append([]string{snippet(t, "notebook cell")}, cells...)...), 0o644))
	copyTree(t, bundle, filepath.Join(dir, coursesite.BundleDir()))
	if out, err := command(dir, "jupyter", "nbconvert", "--to", "html", "lesson.ipynb"); err != nil {
		t.Fatalf("jupyter nbconvert: %v\n%s", err, out)
	}
	b, err := os.ReadFile(filepath.Join(dir, "lesson.html"))
	must(t, err)
	if page := string(b); !strings.Contains(page, "<pre><code>lease-timeline\n#! step=3") || strings.Contains(page, "language-lease-timeline") {
		t.Fatalf("nbconvert did not write the fence's language as its first line: the test tests nothing")
	}
	url := servePython(t, dir)
	playSite(t, dir, url, []coursePage{{"/lesson.html", 3, "sheet"}})
}
