package simrun_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/mutant"
	"github.com/leaselab/leaselab/engine/simrun"
	"github.com/leaselab/leaselab/engine/timeline"
)

// GoTest gives the file timeline.GoTest gives, named after the timeline
// unless the caller names the function.
func TestGoTest_NamesTheFunctionAfterTheTimeline(t *testing.T) {
	src, err := timeline.LibrarySource("01-late-courier.tl")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ funcName, want string }{
		{"", "func TestLateCourier(t *testing.T) {"},
		{"TestMine", "func TestMine(t *testing.T) {"},
	} {
		code, err := simrun.GoTest("01-late-courier.tl", src, tc.funcName)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(code, tc.want) {
			t.Errorf("GoTest(%q) lacks %q:\n%s", tc.funcName, tc.want, code)
		}
	}
	if _, err := simrun.GoTest("bad.tl", "0ms A compleat x\n", ""); err == nil {
		t.Error("GoTest of a bad timeline: no error")
	}
}

func TestWorksheetJSON_NeedsAMutant(t *testing.T) {
	_, err := simrun.WorksheetJSON(context.Background(), "t.tl", "lease 1s\njob a\n0ms A claim a\n", simrun.Options{})
	if err == nil {
		t.Error("a worksheet without a mutant: no error")
	}
}

// The worksheet's two traces are each what TraceJSON gives for its engine.
func TestWorksheetJSON_HoldsBothTracesAsTraceJSONGivesThem(t *testing.T) {
	ctx := context.Background()
	src := "lease 1000ms\njob job-1\n0ms A claim job-1\n1000ms B claim job-1\n"
	var mutants []string
	for _, m := range mutant.All() {
		mutants = append(mutants, m.Name)
	}
	if len(mutants) == 0 {
		t.Skip("this build has no mutants (make wasm-test runs it with -tags mutants)")
	}
	raw, err := simrun.WorksheetJSON(ctx, "t.tl", src, simrun.Options{Mutant: mutants[0], Lang: "ko"})
	if err != nil {
		t.Fatal(err)
	}
	var w struct {
		Correct, Mutant json.RawMessage
		Difference      *timeline.Difference
	}
	if err := json.Unmarshal(raw, &w); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		got    json.RawMessage
		mutant string
	}{{w.Correct, ""}, {w.Mutant, mutants[0]}} {
		want, err := simrun.TraceJSON(ctx, "t.tl", src, simrun.Options{Mutant: tc.mutant, Lang: "ko"})
		if err != nil {
			t.Fatal(err)
		}
		if compact(t, tc.got) != compact(t, want) {
			t.Errorf("the worksheet's trace on %q is not TraceJSON's", tc.mutant)
		}
	}
}

func compact(t *testing.T, raw []byte) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
