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
