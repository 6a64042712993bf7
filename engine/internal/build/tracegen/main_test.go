package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/simrun"
	"github.com/leaselab/leaselab/engine/timeline"
)

func TestTraceFile_ReplacesTheTimelineExtension(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"01-late-courier.tl", "01-late-courier.json"},
		{"library/02-x.tl", "02-x.json"},
		{"no-extension", "no-extension.json"},
	} {
		if got := TraceFile(tc.name); got != tc.want {
			t.Errorf("TraceFile(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestLangTraceFile_NamesTheLanguageBeforeTheExtension(t *testing.T) {
	for _, tc := range []struct{ name, lang, want string }{
		{"late-courier.tl", "ko", "late-courier.ko.json"},
		{"library/late-courier.tl", "ko", "late-courier.ko.json"},
	} {
		if got := LangTraceFile(tc.name, tc.lang); got != tc.want {
			t.Errorf("LangTraceFile(%q, %q) = %q, want %q", tc.name, tc.lang, got, tc.want)
		}
	}
}

func TestGenerate_WritesEveryLibraryTraceAnIndexAndTheDefault(t *testing.T) {
	out := filepath.Join(t.TempDir(), "traces")
	if err := generate(context.Background(), out); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(out, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	var idx index
	if err := json.Unmarshal(raw, &idx); err != nil {
		t.Fatal(err)
	}
	lib := simrun.Library()
	if len(idx.Timelines) != len(lib) {
		t.Fatalf("index lists %d timelines, the library has %d", len(idx.Timelines), len(lib))
	}
	if !strings.Contains(idx.Default, defaultTimeline) {
		t.Errorf("default %q, want the %s timeline", idx.Default, defaultTimeline)
	}
	for i, e := range idx.Timelines {
		if e.Name != lib[i].Name || e.Text != lib[i].Text || e.Title != lib[i].Title {
			t.Errorf("index entry %d is %q, want the library's %q with its title and text", i, e.Name, lib[i].Name)
		}
		if want := "traces/" + TraceFile(e.Name); e.Trace != want {
			t.Errorf("%s: trace URL %q, want %q", e.Name, e.Trace, want)
		}
		got, err := os.ReadFile(filepath.Join(out, TraceFile(e.Name)))
		if err != nil {
			t.Fatal(err)
		}
		want, err := simrun.TraceJSON(context.Background(), e.Name, e.Text, simrun.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: written trace differs from simrun.TraceJSON", e.Name)
		}
		for _, lang := range timeline.Langs() {
			if lang == "en" {
				continue
			}
			file := LangTraceFile(e.Name, lang)
			if want := "traces/" + file; e.Langs[lang] != want {
				t.Errorf("%s: %s trace URL %q, want %q", e.Name, lang, e.Langs[lang], want)
			}
			got, err := os.ReadFile(filepath.Join(out, file))
			if err != nil {
				t.Fatal(err)
			}
			want, err := simrun.TraceJSON(context.Background(), e.Name, e.Text, simrun.Options{Lang: lang})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s: written %s trace differs from simrun.TraceJSON in %s", e.Name, file, lang)
			}
		}
		if len(e.Langs) != len(timeline.Langs())-1 {
			t.Errorf("%s: traces in %v beside English, want one per other language of %v", e.Name, e.Langs, timeline.Langs())
		}
		if e.Name == idx.Default {
			def, err := os.ReadFile(filepath.Join(out, DefaultFile))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(def, want) {
				t.Errorf("%s differs from the default timeline's trace", DefaultFile)
			}
		}
	}
}

func TestWriteFile_LeavesAnUnchangedFileUntouched(t *testing.T) {
	name := filepath.Join(t.TempDir(), "a.json")
	if err := writeFile(name, []byte("one")); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(name)
	old := before.ModTime().Add(-3600e9)
	if err := os.Chtimes(name, old, old); err != nil {
		t.Fatal(err)
	}
	if err := writeFile(name, []byte("one")); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(name); !st.ModTime().Equal(old) {
		t.Errorf("same bytes rewrote the file (mtime %v, want %v)", st.ModTime(), old)
	}
	if err := writeFile(name, []byte("two")); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(name); string(got) != "two" {
		t.Errorf("file holds %q, want two", got)
	}
}
