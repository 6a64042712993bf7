package command_test

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/command"
	"github.com/leaselab/leaselab/engine/internal/coursesite"
	"github.com/leaselab/leaselab/engine/internal/mutant"
	"github.com/leaselab/leaselab/engine/simrun"
)

// site writes a built course site into a temporary folder: a bundle of this
// version (its manifest), and pages; it returns the folder.
func site(t *testing.T, pages map[string]string) string {
	t.Helper()
	return siteIn(t, t.TempDir(), pages)
}

// siteIn writes the site of site into dir, which it makes.
func siteIn(t *testing.T, dir string, pages map[string]string) string {
	t.Helper()
	bundle := filepath.Join(dir, "assets", coursesite.BundleDir())
	must(t, os.MkdirAll(bundle, 0o755))
	m, _ := json.Marshal(coursesite.Manifest{Name: "leaselab", Version: coursesite.Version(), Entry: "leaselab.js"})
	must(t, os.WriteFile(filepath.Join(bundle, "manifest.json"), m, 0o644))
	for name, body := range pages {
		p := filepath.Join(dir, filepath.FromSlash(name))
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte(body), 0o644))
	}
	return dir
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func fencePage(lang string, fences ...string) string {
	var b strings.Builder
	b.WriteString(`<!doctype html><html lang="` + lang + `"><body>`)
	for _, f := range fences {
		b.WriteString(`<pre><code class="language-lease-timeline">` + html.EscapeString(f) + "</code></pre>\n")
	}
	return b.String() + "</body></html>"
}

func readIndex(t *testing.T, dir string) coursesite.Index {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "assets", coursesite.BundleDir(), "prerendered", "index.json"))
	must(t, err)
	var idx coursesite.Index
	must(t, json.Unmarshal(b, &idx))
	return idx
}

// Prerender writes, under each run's key, the bytes the browser's engine
// would give (simrun: the parity rule), for fences and elements on every
// page, a Korean page's in Korean, and each run once.
func TestPrerender_WritesTheBrowsersBytesUnderEachRunsKey(t *testing.T) {
	dir := site(t, map[string]string{
		"index.html":       fencePage("en", "#! step=2\n"+passing, passing),
		"ko/lesson/a.html": fencePage("ko", passing),
		"b.html":           `<html><body><lease-timeline name="late.tl">` + html.EscapeString(passing) + `</lease-timeline></body></html>`,
	})
	code, out, errOut := runCmd(command.Prerender, "", dir)
	if code != command.ExitPass || !strings.Contains(out, "prerendered 3 timelines (0 worksheets) from 3 pages") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	idx := readIndex(t, dir)
	if idx.Format != coursesite.IndexFormat || idx.Version != coursesite.Version() || len(idx.Traces) != 3 {
		t.Fatalf("index: %+v", idx)
	}
	for _, r := range []coursesite.Run{
		{Text: passing, Name: "timeline.tl", Lang: "en"},
		{Text: passing, Name: "timeline.tl", Lang: "ko"},
		{Text: passing, Name: "late.tl", Lang: "en"},
	} {
		file := idx.Traces[coursesite.Key(r)]
		if file == "" {
			t.Errorf("no trace for %s/%s", r.Name, r.Lang)
			continue
		}
		got, err := os.ReadFile(filepath.Join(dir, "assets", coursesite.BundleDir(), "prerendered", file))
		must(t, err)
		want, err := simrun.TraceJSON(context.Background(), r.Name, r.Text, simrun.Options{Lang: r.Lang})
		must(t, err)
		if string(got) != string(want) {
			t.Errorf("%s/%s: the prerendered trace is not the engine's bytes", r.Name, r.Lang)
		}
	}
}

// A worksheet is prerendered with its mutant in a mutants build (the index
// then words each mutant's rule), and skipped with a line saying why in
// a build without them; a second run removes the traces no page holds.
func TestPrerender_WorksheetsNeedTheMutantsAndStaleTracesGo(t *testing.T) {
	sheet := `<lease-timeline mutant="claim-boundary">` + html.EscapeString(passing) + `</lease-timeline>`
	dir := site(t, map[string]string{"w.html": `<html><body>` + sheet + `</body></html>`, "x.html": fencePage("en", failing)})
	code, out, errOut := runCmd(command.Prerender, "", dir)
	idx := readIndex(t, dir)
	if len(mutant.All()) == 0 {
		if code != command.ExitFail || !strings.Contains(out, "skipped 1 worksheets") || !strings.Contains(errOut, "go run -tags mutants . prerender") {
			t.Fatalf("without mutants: exit %d, stdout %q, stderr %q", code, out, errOut)
		}
	} else {
		key := coursesite.Key(coursesite.Run{Text: passing, Name: "timeline.tl", Lang: "en", Mutant: "claim-boundary"})
		if code != command.ExitFail || idx.Traces[key] == "" || len(idx.Mutants["ko"]) != len(mutant.All()) {
			t.Fatalf("with mutants: exit %d, stdout %q, stderr %q, index %+v", code, out, errOut, idx)
		}
	}
	if !strings.Contains(out, "FAIL: 1 timelines failed") {
		t.Errorf("the failing timeline is not told: %q", out)
	}
	must(t, os.WriteFile(filepath.Join(dir, "x.html"), []byte(fencePage("en", passing)), 0o644))
	must(t, os.Remove(filepath.Join(dir, "w.html")))
	if code, out, errOut := runCmd(command.Prerender, "", dir); code != command.ExitPass {
		t.Fatalf("second run: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	entries, err := os.ReadDir(filepath.Join(dir, "assets", coursesite.BundleDir(), "prerendered"))
	must(t, err)
	if len(entries) != 2 {
		t.Errorf("after the second run prerendered/ holds %d files, want the index and one trace", len(entries))
	}
}

// Bad input: no folder, no bundle of this version (another version's is
// left alone), a timeline that does not parse (named with its line and
// column; the others are written).
func TestPrerender_BadInputIsTwo(t *testing.T) {
	if code, _, errOut := runCmd(command.Prerender, ""); code != command.ExitBadInput || !strings.Contains(errOut, "usage: leaselab prerender") {
		t.Errorf("no folder: exit %d, %q", code, errOut)
	}
	other := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(other, "leaselab-1.9"), 0o755))
	must(t, os.WriteFile(filepath.Join(other, "leaselab-1.9", "manifest.json"), []byte(`{"name":"leaselab","version":"1.9"}`), 0o644))
	if code, _, errOut := runCmd(command.Prerender, "", other); code != command.ExitBadInput ||
		!strings.Contains(errOut, "leaselab-1.9: a bundle of leaselab 1.9") || !strings.Contains(errOut, "no leaselab bundle of version "+coursesite.Version()) {
		t.Errorf("another version: exit %d, %q", code, errOut)
	}
	dir := site(t, map[string]string{"p.html": fencePage("en", passing, bad)})
	code, out, errOut := runCmd(command.Prerender, "", dir)
	if code != command.ExitBadInput || !strings.Contains(errOut, "p.html: timeline 2 (timeline.tl): timeline.tl:4:") || len(readIndex(t, dir).Traces) != 1 {
		t.Errorf("a bad timeline: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// A fence prerender cannot read — a directive whose keys are no option
// (the text a highlighter made one line), a text of comments only — is an
// error naming the page and its line, a failure (exit 1), and no trace of
// no step is written for it; the readable fence beside it is prerendered.
// A timeline that does not parse beside it makes the run bad input (exit 2).
func TestPrerender_FailsOnAnUnreadableFenceNamingPageAndLine(t *testing.T) {
	swallowed := "#! step=2 # Late courier lease 1000ms job order-7"
	dir := site(t, map[string]string{
		"lesson/a.html": fencePage("en", passing, swallowed),
		"b.html":        fencePage("en", "# only a title\n"),
	})
	code, out, errOut := runCmd(command.Prerender, "", dir)
	if code != command.ExitFail || !strings.Contains(out, "prerendered 1 timelines") || !strings.Contains(out, "FAIL: 2 fences cannot be read") ||
		strings.Contains(out, "BAD INPUT") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	// The first fence's pre starts on line 1 and takes a line for each of its newlines.
	line := strings.Count(passing, "\n") + 1 + 1
	for _, w := range []string{
		fmt.Sprintf("lesson/a.html: timeline 2 (timeline.tl): line %d: cannot be read: the directive's keys #, Late, courier", line),
		"b.html: timeline 1 (timeline.tl): line 1: cannot be read: the fence holds no step",
	} {
		if !strings.Contains(errOut, w) {
			t.Errorf("stderr does not say %q:\n%s", w, errOut)
		}
	}
	if idx := readIndex(t, dir); len(idx.Traces) != 1 {
		t.Errorf("the index holds %d traces, want the readable fence's alone", len(idx.Traces))
	}

	both := site(t, map[string]string{"a.html": fencePage("en", passing, swallowed, bad)})
	code, out, errOut = runCmd(command.Prerender, "", both)
	if code != command.ExitBadInput || !strings.Contains(out, "FAIL: 1 fences cannot be read") || !strings.Contains(out, "BAD INPUT: 1 timelines do not parse") {
		t.Errorf("an unreadable fence and a timeline that does not parse: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// The count of pages excludes the bundle's own (its guide and examples
// hold timelines): they are not the site's.
func TestPrerender_CountsNotTheBundlesOwnPages(t *testing.T) {
	dir := site(t, map[string]string{
		"index.html": fencePage("en", passing),
		"assets/" + coursesite.BundleDir() + "/guide.html":   fencePage("en", "lease 2s\n"),
		"assets/" + coursesite.BundleDir() + "/example.html": fencePage("en", "lease 3s\n"),
	})
	code, out, errOut := runCmd(command.Prerender, "", dir)
	if code != command.ExitPass || !strings.Contains(out, "prerendered 1 timelines (0 worksheets) from 1 pages") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
