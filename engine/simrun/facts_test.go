package simrun_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"os"
	"reflect"
	"runtime"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/mutant"
	"github.com/leaselab/leaselab/engine/limits"
	"github.com/leaselab/leaselab/engine/simrun"
	"github.com/leaselab/leaselab/engine/timeline"
)

func TestBuildFacts_EveryLanguageHasEveryMutant(t *testing.T) {
	f := simrun.BuildFacts()
	if !reflect.DeepEqual(f.Langs, timeline.Langs()) {
		t.Fatalf("langs %v, want %v", f.Langs, timeline.Langs())
	}
	for _, l := range f.Langs {
		if got, want := len(f.Mutants[l]), len(mutant.All()); got != want {
			t.Errorf("%s: %d mutants, want the build's %d", l, got, want)
		}
		for _, m := range f.Mutants[l] {
			if m.Breaks == "" || m.Breaks != mutant.Rule(l, m.Name) {
				t.Errorf("%s %s breaks %q, want timeline.MutantRule's %q", l, m.Name, m.Breaks, mutant.Rule(l, m.Name))
			}
		}
	}
	if len(f.Library) == 0 || !reflect.DeepEqual(f.Library, simrun.Library()) {
		t.Errorf("library of %d entries, want Library's %d", len(f.Library), len(simrun.Library()))
	}
	rows := limits.Default.Rows()
	if len(f.Limits) != len(rows) {
		t.Errorf("limits %v, want one per row of %v", f.Limits, rows)
	}
	for _, r := range rows {
		if f.Limits[r.Name] != r.Value {
			t.Errorf("limits[%s] = %d, want %d", r.Name, f.Limits[r.Name], r.Value)
		}
	}
}

func TestMutants_AnUnknownLanguageIsEnglish(t *testing.T) {
	for _, lang := range []string{"", "xx", "EN"} {
		if got, want := simrun.Mutants(lang), simrun.Mutants("en"); !reflect.DeepEqual(got, want) {
			t.Errorf("Mutants(%q) = %v, want English %v", lang, got, want)
		}
	}
	if got := simrun.Mutants("en"); got == nil {
		t.Error("Mutants is nil, want a list (empty in a build without mutants): the page reads it as a JSON array")
	}
}

// builtModule is the page's module make wasm builds (web/leaselab.wasm).
const builtModule = "../../web/leaselab.wasm"

// In WebAssembly (make wasm-test builds this test with the page's tags and
// builds the page's module first), the facts make wasm wrote into the
// module natively are the very facts the module computes for itself: the
// engine's worker hands the page the section instead of asking the engine.
func TestFactsSection_OfTheBuiltModuleIsWhatTheModuleComputes(t *testing.T) {
	if runtime.GOOS != "js" {
		t.Skip("the page's module runs in WebAssembly: make wasm-test runs this test there")
	}
	module, err := os.ReadFile(builtModule)
	if err != nil {
		t.Fatalf("%v: make wasm-test builds the page's module first (make wasm)", err)
	}
	payload, n := customSections(t, module, simrun.FactsSection)
	if n != 1 {
		t.Fatalf("%s holds %d sections %q, want 1 (make wasm writes it with engine/internal/build/wasmfacts)", builtModule, n, simrun.FactsSection)
	}
	var got simrun.Facts
	dec := json.NewDecoder(bytes.NewReader(payload))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("section: %v", err)
	}
	if want := simrun.BuildFacts(); !reflect.DeepEqual(got, want) {
		t.Errorf("the module's facts section differs from the facts it computes:\nsection %+v\ncomputed %+v\n(was the module built with other tags than make wasm-test, or not rebuilt?)", got, want)
	}
}

// customSections returns the contents, after the name, of the last custom
// section called name in module, and how many there are.
func customSections(t *testing.T, module []byte, name string) (last []byte, n int) {
	t.Helper()
	if len(module) < 8 || string(module[:4]) != "\x00asm" {
		t.Fatalf("not a WebAssembly module")
	}
	for rest := module[8:]; len(rest) > 0; {
		size, k := binary.Uvarint(rest[1:])
		if k <= 0 || int(size) > len(rest)-1-k {
			t.Fatalf("a section is cut short")
		}
		contents := rest[1+k : 1+k+int(size)]
		if rest[0] == 0 {
			l, m := binary.Uvarint(contents)
			if m > 0 && string(contents[m:m+int(l)]) == name {
				last, n = contents[m+int(l):], n+1
			}
		}
		rest = rest[1+k+int(size):]
	}
	return last, n
}
