package command_test

import (
	"context"
	"encoding/json"
	"html"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/command"
	"github.com/leaselab/leaselab/engine/internal/coursesite"
	"github.com/leaselab/leaselab/engine/simrun"
)

const tinyLab = "# Tiny lab\njobs 4\nworkers 2\nhorizon 10s\nsweep lease 1s 2s\nruns 2\n"

// A lab, as a fence or as an element, is prerendered as the page's
// engine would answer it: its result under the lab's key (no language)
// and its plot in the page's language, as a JSON string, under the
// plot's; a timeline beside it keeps its own key.
func TestPrerender_WritesALabsResultAndItsPlotInThePagesLanguage(t *testing.T) {
	dir := site(t, map[string]string{
		"index.html": `<!doctype html><html lang="en"><body><pre><code class="language-lease-lab">` + html.EscapeString(tinyLab) +
			`</code></pre><pre><code class="language-lease-timeline">` + html.EscapeString(passing) + `</code></pre></body></html>`,
		"ko/a.html": `<!doctype html><html lang="ko"><body><lease-lab name="tiny.lab">` + html.EscapeString(tinyLab) + `</lease-lab></body></html>`,
	})
	code, out, errOut := runCmd(command.Prerender, "", dir)
	if code != command.ExitPass || !strings.Contains(out, "prerendered 2 labs") || !strings.Contains(out, "prerendered 1 timelines") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	idx := readIndex(t, dir)
	if len(idx.Traces) != 5 {
		t.Fatalf("%d answers, want 5 (a trace, two results, two plots): %v", len(idx.Traces), idx.Traces)
	}
	read := func(r coursesite.Run) []byte {
		file := idx.Traces[coursesite.Key(r)]
		if file == "" {
			t.Fatalf("no answer for %+v", r)
		}
		b, err := os.ReadFile(filepath.Join(dir, "assets", coursesite.BundleDir(), "prerendered", file))
		must(t, err)
		return b
	}
	for _, c := range []struct{ name, lang string }{{"lab.lab", "en"}, {"tiny.lab", "ko"}} {
		want, err := simrun.LabJSON(context.Background(), c.name, tinyLab, simrun.LabOptions{})
		must(t, err)
		if got := read(coursesite.Run{Text: tinyLab, Name: c.name, Kind: coursesite.KindLab}); string(got) != string(want) {
			t.Errorf("%s: the prerendered result is not the engine's bytes", c.name)
		}
		wantSVG, err := simrun.LabSVG(want, c.lang)
		must(t, err)
		var svg string
		must(t, json.Unmarshal(read(coursesite.Run{Text: tinyLab, Name: c.name, Lang: c.lang, Kind: coursesite.KindLabSVG}), &svg))
		if svg != wantSVG {
			t.Errorf("%s: the prerendered plot is not the %s plot", c.name, c.lang)
		}
	}
}

// A lab whose text is bad is bad input, told with its line, and nothing
// is written for it.
func TestPrerender_ABadLabIsBadInputAtItsLine(t *testing.T) {
	dir := site(t, map[string]string{
		"index.html": `<html><body><lease-lab>jobs 4
leese 2s</lease-lab></body></html>`,
	})
	code, out, errOut := runCmd(command.Prerender, "", dir)
	if code != command.ExitBadInput || !strings.Contains(errOut, "lab.lab:2:1") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if idx := readIndex(t, dir); len(idx.Traces) != 0 {
		t.Fatalf("answers written for a bad lab: %v", idx.Traces)
	}
}
