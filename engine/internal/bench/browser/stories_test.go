package main

import (
	"context"
	"encoding/base64"
	"net/url"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/limits"
	"github.com/leaselab/leaselab/engine/timeline"
	"github.com/leaselab/leaselab/engine/timeline/memrun"
)

// The benchmark's timelines are what they say they are: the long one has
// exactly the most steps a timeline may have and is within every other
// limit, both pass on the engine (each refusal is the superseded one the
// story tells), and neither is a library timeline.
func TestStoryTimelines_PassOnTheEngineAtTheirLengths(t *testing.T) {
	lim := limits.Default
	for _, c := range []struct {
		jobs, steps int
	}{{3, 12}, {longTimelineSteps / 4, lim.Steps}} {
		text := storyTimeline("bench", c.jobs)
		tl, err := timeline.Parse("bench.tl", text)
		if err != nil {
			t.Fatal(err)
		}
		if len(tl.Steps) != c.steps || len(text) > lim.TextBytes {
			t.Fatalf("%d jobs: %d steps, %d bytes; want %d steps, at most %d bytes", c.jobs, len(tl.Steps), len(text), c.steps, lim.TextBytes)
		}
		tr, err := memrun.Run(context.Background(), tl, timeline.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !tr.Summary.Passed {
			t.Fatalf("%d jobs: the story fails on the correct engine: %+v", c.jobs, tr.Summary)
		}
		for _, name := range timeline.LibraryNames() {
			if src, _ := timeline.LibrarySource(name); src == text {
				t.Fatalf("the bench timeline is the library's %s: its trace would be drawn ahead of time", name)
			}
		}
	}
}

// simulatorLink carries the text as the simulator reads it back: src is
// base64url (app.js decodes it with atob after mapping - and _).
func TestSimulatorLink_CarriesTheTextAsTheSimulatorReadsIt(t *testing.T) {
	text := storyTimeline("ümlaut & co = ?", 2)
	link := simulatorLink("b.tl", text)
	hash, ok := strings.CutPrefix(link, "/#")
	if !ok {
		t.Fatalf("%q is not the simulator's address with a hash", link)
	}
	p, err := url.ParseQuery(hash)
	if err != nil {
		t.Fatal(err)
	}
	std := strings.NewReplacer("-", "+", "_", "/").Replace(p.Get("src"))
	raw, err := base64.StdEncoding.WithPadding(base64.NoPadding).DecodeString(std)
	if err != nil || string(raw) != text || p.Get("name") != "b.tl" {
		t.Fatalf("the link gives name %q, text %q (%v); want b.tl, %q", p.Get("name"), raw, err, text)
	}
}
