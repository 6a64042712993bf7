package lab_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/lab"
)

var update = flag.Bool("update", false, "rewrite the golden results under testdata/golden")

// goldenRuns is how many runs a point the golden results hold: enough to
// meet every stream of every distribution, few enough for WebAssembly.
const goldenRuns = 3

// The golden results are the native engine's. This test runs natively (go
// test) and in WebAssembly under Node (make wasm-test) and compares each
// library lab's JSON with the same files on both, so passing on both
// proves the two platforms give the same bytes for the same text and seed.
func TestResultJSON_LibraryLabsAreByteIdenticalToTheNativeGolden(t *testing.T) {
	arithmetic(t)
	for _, name := range lab.LibraryNames() {
		l, err := lab.LoadLibrary(name)
		if err != nil {
			t.Fatal(err)
		}
		l.Runs = goldenRuns
		res, err := lab.Run(context.Background(), l, lab.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := res.Encode(&got); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("testdata", "golden", strings.TrimSuffix(name, ".lab")+".json")
		if *update {
			if err := os.WriteFile(path, got.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (go test ./engine/internal/lab -run Golden -update writes it)", err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%s: the result differs from %s (%d bytes, want %d)", name, path, got.Len(), len(want))
		}
	}
}
