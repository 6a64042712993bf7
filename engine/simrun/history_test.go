package simrun_test

import (
	"bytes"
	"errors"
	"os"
	"runtime"
	"testing"

	"github.com/leaselab/leaselab/engine/history"
	"github.com/leaselab/leaselab/engine/simrun"
)

// The page's history view draws what HistoryJSON gives; natively (go
// test) and in WebAssembly under Node (make wasm-test) it is byte for byte
// the native drawing engine/history holds as its golden file.
func TestHistoryJSON_IsByteIdenticalToTheNativeGolden(t *testing.T) {
	text, err := os.ReadFile("../history/testdata/overlap-complete.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	golden, err := os.ReadFile("../history/testdata/overlap-complete.drawing.json")
	if err != nil {
		t.Fatal(err)
	}
	got, err := simrun.HistoryJSON(string(text))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, golden) {
		t.Errorf("on %s/%s the drawing differs from the native golden: %s", runtime.GOOS, runtime.GOARCH, firstDifference(got, golden))
	}
}

// A text that is no history is refused at its line and column, and
// nothing is drawn.
func TestHistoryJSON_RefusesABadLineAtItsPlace(t *testing.T) {
	out, err := simrun.HistoryJSON("{\"client\":\"A\"}\n")
	var ie *history.InputError
	if out != nil || !errors.As(err, &ie) || ie.Line != 1 {
		t.Errorf("HistoryJSON of a bad line = %q, %v; want an *history.InputError at line 1", out, err)
	}
}
