package main

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/webserve"
)

func TestTransferSizes_SumsWhatTheServerSendsPerEncoding(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, size int) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(strings.Repeat("x", size)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The encodings are written after the files they encode, as make does.
	write("app.js", 1000)
	write("engine.wasm", 5000)
	write("plain.json", 300) // no precompressed variant
	write("app.js.gz", 400)
	write("app.js.br", 300)
	write("engine.wasm.gz", 2000)
	write("engine.wasm.br", 1500)
	srv := httptest.NewServer(webserve.Handler(os.DirFS(dir)))
	defer srv.Close()

	got, err := transferSizes(context.Background(), []string{srv.URL + "/app.js", srv.URL + "/engine.wasm?page=bench", srv.URL + "/plain.json"})
	if err != nil {
		t.Fatal(err)
	}
	want := sizes{Raw: 1000 + 5000 + 300, Gzip: 400 + 2000 + 300, Brotli: 300 + 1500 + 300, Uncompressed: []string{"/plain.json"}}
	if got.Raw != want.Raw || got.Gzip != want.Gzip || got.Brotli != want.Brotli || !slices.Equal(got.Uncompressed, want.Uncompressed) {
		t.Errorf("transferSizes = %+v, want %+v", got, want)
	}
	if _, err := transferSizes(context.Background(), []string{srv.URL + "/missing.js"}); err == nil {
		t.Error("transferSizes of a missing file: no error")
	}
}
