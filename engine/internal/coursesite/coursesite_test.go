package coursesite_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/coursesite"
	"github.com/leaselab/leaselab/engine/timeline"
)

type vectors struct {
	Keys []struct {
		Run struct{ Text, Name, Lang, Mutant, Kind string } `json:"run"`
		Key string                                          `json:"key"`
	} `json:"keys"`
	Fences []struct {
		About, Raw, Text  string
		Options           map[string]string
		Marked, Directive bool
		Unknown           []string
	} `json:"fences"`
}

// The vectors web/fences.js's unit tests check too (make unit-js).
func readVectors(t *testing.T) vectors {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "web", ".tools", "test", "prerender-vectors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var v vectors
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestKey_IsTheJavaScriptsKey(t *testing.T) {
	v := readVectors(t)
	if len(v.Keys) < 5 {
		t.Fatalf("%d key vectors", len(v.Keys))
	}
	for _, k := range v.Keys {
		r := coursesite.Run{Text: k.Run.Text, Name: k.Run.Name, Lang: k.Run.Lang, Mutant: k.Run.Mutant, Kind: k.Run.Kind}
		if got := coursesite.Key(r); got != k.Key {
			t.Errorf("Key(%+v) = %s, want %s", r, got, k.Key)
		}
	}
	got := string(coursesite.CanonicalForm(coursesite.Run{Text: "민수\n", Name: "a.tl", Lang: "ko"}))
	if want := "20:leaselab-prerender-1\n4:a.tl\n2:ko\n0:\n7:민수\n\n"; got != want {
		t.Errorf("CanonicalForm = %q, want %q", got, want)
	}
}

func TestParseFence_ReadsAFenceAsTheJavaScriptDoes(t *testing.T) {
	v := readVectors(t)
	if len(v.Fences) < 5 {
		t.Fatalf("%d fence vectors", len(v.Fences))
	}
	for _, f := range v.Fences {
		got := coursesite.ParseFence(f.Raw)
		if got.Unknown == nil {
			got.Unknown = []string{}
		}
		want := coursesite.Fence{Options: f.Options, Marked: f.Marked, Directive: f.Directive, Unknown: f.Unknown, Text: f.Text}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %+v\nwant %+v", f.About, got, want)
		}
	}
}

func TestVersion_IsTheTraceFormatAndTheRelease(t *testing.T) {
	want := fmt.Sprintf("%d.%d", timeline.FormatVersion, coursesite.Release)
	if coursesite.Version() != want || coursesite.BundleDir() != "leaselab-"+want {
		t.Fatalf("Version %q, BundleDir %q, want %q", coursesite.Version(), coursesite.BundleDir(), want)
	}
}
