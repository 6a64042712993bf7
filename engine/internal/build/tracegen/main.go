// Command tracegen computes, natively, the trace of every library timeline
// for the simulator page to draw before its WebAssembly engine has
// compiled (make wasm runs it). The traces come from package engine/simrun,
// the code the page's engine runs, so they are byte for byte what the page
// would compute itself (the parity rule; engine/simrun tests it).
//
//	go run ./engine/internal/build/tracegen -out web/traces
//
// It writes OUT/index.json — {"format", "default", "timelines": [{"name",
// "title", "text", "trace", "langs"}]}, where trace is the page-relative
// URL of the timeline's trace, langs maps each other language the engine
// explains in (timeline.Langs) to the URL of its trace in that language,
// and default is the timeline the page opens on — one OUT/NAME.json per
// timeline (the correct engine, explained in English), one
// OUT/NAME.LANG.json per timeline and other language (a sandboxed frame,
// which cannot start the engine, plays them), and OUT/default.json, the
// default timeline's bytes again under a name the page preloads. Files of
// OUT it did not write are left alone.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/leaselab/leaselab/engine/simrun"
	"github.com/leaselab/leaselab/engine/timeline"
)

// defaultTimeline is the part of the name of the timeline the page opens on.
const defaultTimeline = "late-courier"

// DefaultFile holds the default timeline's trace under a name the page can
// preload before it has read index.json.
const DefaultFile = "default.json"

type entry struct {
	Name  string `json:"name"`
	Title string `json:"title"`
	Text  string `json:"text"`
	Trace string `json:"trace"`
	// Langs maps a language other than English to its trace's URL.
	Langs map[string]string `json:"langs"`
}

type index struct {
	Format    int     `json:"format"`
	Default   string  `json:"default"`
	Timelines []entry `json:"timelines"`
}

func main() {
	out := flag.String("out", "web/traces", "directory to write the traces into")
	flag.Parse()
	if err := generate(context.Background(), *out); err != nil {
		fmt.Fprintln(os.Stderr, "tracegen:", err)
		os.Exit(1)
	}
}

func generate(ctx context.Context, out string) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	lib := simrun.Library()
	if len(lib) == 0 {
		return fmt.Errorf("the timeline library is empty")
	}
	idx := index{Format: timeline.FormatVersion}
	for _, t := range lib {
		e := entry{Name: t.Name, Title: t.Title, Text: t.Text, Langs: map[string]string{}}
		for _, lang := range timeline.Langs() {
			data, err := simrun.TraceJSON(ctx, t.Name, t.Text, simrun.Options{Lang: lang})
			if err != nil {
				return fmt.Errorf("%s (%s): %w", t.Name, lang, err)
			}
			file := LangTraceFile(t.Name, lang)
			if lang == "en" {
				file = TraceFile(t.Name)
			}
			if err := writeFile(filepath.Join(out, file), data); err != nil {
				return err
			}
			if lang == "en" {
				e.Trace = path.Join(filepath.Base(out), file)
			} else {
				e.Langs[lang] = path.Join(filepath.Base(out), file)
			}
		}
		idx.Timelines = append(idx.Timelines, e)
		if idx.Default == "" && strings.Contains(t.Name, defaultTimeline) {
			idx.Default = t.Name
		}
	}
	if idx.Default == "" {
		idx.Default = lib[0].Name
	}
	// The page preloads the default trace by a fixed name, beside index.json.
	def, err := os.ReadFile(filepath.Join(out, TraceFile(idx.Default)))
	if err != nil {
		return err
	}
	if err := writeFile(filepath.Join(out, DefaultFile), def); err != nil {
		return err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(idx); err != nil {
		return err
	}
	return writeFile(filepath.Join(out, "index.json"), b.Bytes())
}

// TraceFile is the file a timeline's trace is written to: its name with
// the .tl extension replaced by .json.
func TraceFile(name string) string {
	return strings.TrimSuffix(path.Base(name), ".tl") + ".json"
}

// LangTraceFile is the file a timeline's trace explained in lang is
// written to: its name with the .tl extension replaced by .LANG.json.
func LangTraceFile(name, lang string) string {
	return strings.TrimSuffix(path.Base(name), ".tl") + "." + lang + ".json"
}

// writeFile replaces name whole (temporary file, then rename), and leaves
// it untouched when it already holds data, so an unchanged trace keeps its
// modification time and its ETag.
func writeFile(name string, data []byte) error {
	if old, err := os.ReadFile(name); err == nil && bytes.Equal(old, data) {
		return nil
	}
	tmp, err := os.CreateTemp(filepath.Dir(name), filepath.Base(name)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), name)
}
