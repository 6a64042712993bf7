package simrun_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/lab"
	"github.com/leaselab/leaselab/engine/simrun"
)

var runsLine = regexp.MustCompile(`(?m)^(runs )\d+$`)

// goldenLab is a library lab's text cut to the runs its golden result
// holds (engine/internal/lab/testdata/golden).
func goldenLab(t *testing.T, name string) string {
	t.Helper()
	text, err := lab.LibraryText(name)
	if err != nil {
		t.Fatal(err)
	}
	cut := runsLine.ReplaceAllString(text, "${1}3")
	if cut == text {
		t.Fatalf("%s has no runs line to cut", name)
	}
	return cut
}

// The page's lab call gives the golden bytes (natively and, under make
// wasm-test, in WebAssembly), its progress counts every run once up to
// the total, and its plot is what the native plot writes.
func TestLabJSON_LibraryLabsGiveTheGoldenBytesAndTheNativePlot(t *testing.T) {
	for _, name := range lab.LibraryNames() {
		text := goldenLab(t, name)
		calls, last, total := 0, 0, 0
		got, err := simrun.LabJSON(context.Background(), name, text, simrun.LabOptions{Progress: func(done, all int) {
			calls++
			last, total = done, all
		}})
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join("..", "internal", "lab", "testdata", "golden", strings.TrimSuffix(name, ".lab")+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: LabJSON differs from the golden result (%d bytes, want %d)", name, len(got), len(want))
		}
		if calls == 0 || last != total || calls != total {
			t.Errorf("%s: progress heard %d times, last %d of %d", name, calls, last, total)
		}
		l, err := lab.Parse(name, text)
		if err != nil {
			t.Fatal(err)
		}
		res, err := lab.Run(context.Background(), l, lab.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, lang := range []string{"en", "ko"} {
			var native bytes.Buffer
			if err := res.WriteSVG(&native, lang); err != nil {
				t.Fatal(err)
			}
			svg, err := simrun.LabSVG(got, lang)
			if err != nil {
				t.Fatal(err)
			}
			if svg != native.String() {
				t.Errorf("%s %s: LabSVG differs from WriteSVG", name, lang)
			}
		}
	}
}

// A seed given to the call is the run's, whatever the lab's seed line.
func TestLabJSON_SeedOverridesTheLabsSeedLine(t *testing.T) {
	text := goldenLab(t, "heartbeat.lab")
	own, err := simrun.LabJSON(context.Background(), "heartbeat.lab", text, simrun.LabOptions{})
	if err != nil {
		t.Fatal(err)
	}
	other, err := simrun.LabJSON(context.Background(), "heartbeat.lab", text, simrun.LabOptions{Seed: "7"})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(own, other) || !bytes.Contains(other, []byte(`"seed": "7"`)) {
		t.Fatalf("seed 7 gave the lab's own result, or not seed 7")
	}
	if _, err := simrun.LabJSON(context.Background(), "heartbeat.lab", text, simrun.LabOptions{Seed: "-1"}); err == nil {
		t.Fatal("seed -1 was taken")
	}
}

// Bad text is the parser's ErrorList; a result of another format, or no
// result, draws no plot.
func TestLab_RefusesBadTextAndForeignResults(t *testing.T) {
	_, err := simrun.LabJSON(context.Background(), "bad.lab", "leese 2s\n", simrun.LabOptions{})
	var list lab.ErrorList
	if !errors.As(err, &list) || list[0].Line != 1 {
		t.Fatalf("bad text: %v", err)
	}
	for _, in := range []string{`{"format": "leaselab-lab/0"}`, `[]`, ``} {
		if _, err := simrun.LabSVG([]byte(in), "en"); err == nil {
			t.Errorf("LabSVG(%q) drew a plot", in)
		}
	}
}

// A story is lab.Story's timeline for the same point and run.
func TestLabStory_IsTheLabsStory(t *testing.T) {
	text := goldenLab(t, "lease-length.lab")
	got, err := simrun.LabStory(context.Background(), "lease-length.lab", text, "", 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	l, err := lab.Parse("lease-length.lab", text)
	if err != nil {
		t.Fatal(err)
	}
	want, err := lab.Story(context.Background(), l, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got != want || !strings.Contains(got, "point 2") {
		t.Fatalf("story differs from lab.Story, or names no point 2:\n%s", got)
	}
	if _, err := simrun.LabStory(context.Background(), "lease-length.lab", text, "", 99, 0); err == nil {
		t.Fatal("point 99 told a story")
	}
}
