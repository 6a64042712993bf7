package simrun_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/simrun"
	"github.com/leaselab/leaselab/engine/timeline"
)

// The golden traces are the native engine's, kept by package timeline
// (engine/timeline/testdata/golden: NAME.json in English, NAME.LANG.json in
// another language; go test ./engine/timeline -update rewrites them). This
// test runs natively (go test) and in WebAssembly under Node (make
// wasm-test: GOOS=js, the -tags mutants build the page ships) and compares
// the page's code path with the same files on both, so passing on both
// proves the two platforms give the same bytes.
const goldenDir = "../../engine/timeline/testdata/golden"

func TestTraceJSON_EveryLibraryTimelineIsByteIdenticalToTheNativeGolden(t *testing.T) {
	lib := map[string]simrun.Entry{}
	for _, e := range simrun.Library() {
		lib[strings.TrimSuffix(e.Name, ".tl")] = e
	}
	if len(lib) == 0 {
		t.Fatal("the timeline library is empty")
	}
	entries, err := os.ReadDir(goldenDir)
	if err != nil {
		t.Fatal(err)
	}
	english := map[string]bool{}
	for _, g := range entries {
		base, lang, ok := goldenOf(g.Name())
		if !ok {
			continue
		}
		e, found := lib[base]
		if !found {
			t.Errorf("golden %s belongs to no library timeline", g.Name())
			continue
		}
		if lang == "en" {
			english[base] = true
		}
		t.Run(g.Name(), func(t *testing.T) {
			golden, err := os.ReadFile(filepath.Join(goldenDir, g.Name()))
			if err != nil {
				t.Fatal(err)
			}
			got, err := simrun.TraceJSON(context.Background(), e.Name, e.Text, simrun.Options{Lang: lang})
			if err != nil {
				t.Fatalf("run: %v", err)
			}
			if !bytes.Equal(got, golden) {
				t.Errorf("on %s/%s the trace of %s (%s) differs from the native golden: %s",
					runtime.GOOS, runtime.GOARCH, e.Name, lang, firstDifference(got, golden))
			}
		})
	}
	for base := range lib {
		if !english[base] {
			t.Errorf("library timeline %s has no English golden %s.json", base, base)
		}
	}
}

// goldenOf reads a golden file's name: NAME.json is English, NAME.LANG.json
// another language.
func goldenOf(file string) (base, lang string, ok bool) {
	name, found := strings.CutSuffix(file, ".json")
	if !found {
		return "", "", false
	}
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		return name[:i], name[i+1:], true
	}
	return name, "en", true
}

// firstDifference shows where two byte strings part, with some context.
func firstDifference(got, want []byte) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	from := max(0, i-60)
	clip := func(b []byte) string { return string(b[from:min(len(b), i+60)]) }
	return fmt.Sprintf("first difference at byte %d (got %d bytes, want %d)\n got: …%s…\nwant: …%s…",
		i, len(got), len(want), clip(got), clip(want))
}

func TestTraceJSON_SameTextGivesSameBytesOnEveryRun(t *testing.T) {
	for _, tl := range simrun.Library() {
		first, err := simrun.TraceJSON(context.Background(), tl.Name, tl.Text, simrun.Options{})
		if err != nil {
			t.Fatalf("%s: %v", tl.Name, err)
		}
		second, err := simrun.TraceJSON(context.Background(), tl.Name, tl.Text, simrun.Options{})
		if err != nil {
			t.Fatalf("%s: %v", tl.Name, err)
		}
		if !bytes.Equal(first, second) {
			t.Errorf("%s: two runs differ: %s", tl.Name, firstDifference(second, first))
		}
	}
}

func TestTraceJSON_BadTextReportsLineAndColumnAndRunsNothing(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		line       int
	}{
		{"unknown verb on the first step", "lease 1000ms\njob j\n\n0ms A fly j\n", 4},
		{"time going backwards", "lease 1000ms\njob j\n\n10ms A claim j\n5ms A complete j\n", 5},
		{"unknown job", "lease 1000ms\njob j\n\n0ms A claim k\n", 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := simrun.TraceJSON(context.Background(), "bad.tl", tc.text, simrun.Options{})
			if out != nil {
				t.Errorf("bad text gave a trace of %d bytes, want none", len(out))
			}
			if !errors.Is(err, timeline.ErrBadInput) {
				t.Fatalf("error %v, want one matching timeline.ErrBadInput", err)
			}
			var list timeline.ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error %T %v, want a timeline.ErrorList", err, err)
			}
			if list[0].Line != tc.line || list[0].Col < 1 {
				t.Errorf("first mistake at %d:%d, want line %d and a column >= 1", list[0].Line, list[0].Col, tc.line)
			}
		})
	}
}

func TestTraceJSON_UnknownMutantOrLanguageRunsNothing(t *testing.T) {
	lib := simrun.Library()
	if len(lib) == 0 {
		t.Fatal("the timeline library is empty")
	}
	for _, opts := range []simrun.Options{{Mutant: "no-such-mutant"}, {Lang: "xx"}} {
		out, err := simrun.TraceJSON(context.Background(), lib[0].Name, lib[0].Text, opts)
		if err == nil || out != nil {
			t.Errorf("options %+v: got %d bytes and error %v, want no trace and an error", opts, len(out), err)
		}
	}
}
