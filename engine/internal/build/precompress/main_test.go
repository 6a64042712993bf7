package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/andybalholm/brotli"
)

func TestPrecompress_BothEncodingsDecodeToTheFile(t *testing.T) {
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"one byte", []byte{0}},
		{"text", bytes.Repeat([]byte("lease until 1000 ms, token 2; "), 500)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name := filepath.Join(t.TempDir(), "f.wasm")
			if err := os.WriteFile(name, tc.data, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := precompress(name); err != nil {
				t.Fatal(err)
			}
			for ext, open := range map[string]func(io.Reader) (io.Reader, error){
				".br": func(r io.Reader) (io.Reader, error) { return brotli.NewReader(r), nil },
				".gz": func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) },
			} {
				f, err := os.Open(name + ext)
				if err != nil {
					t.Fatal(err)
				}
				r, err := open(f)
				if err != nil {
					t.Fatalf("%s: %v", ext, err)
				}
				got, err := io.ReadAll(r)
				f.Close()
				if err != nil {
					t.Fatalf("%s: %v", ext, err)
				}
				if !bytes.Equal(got, tc.data) {
					t.Errorf("%s decodes to %d bytes, want the file's %d", ext, len(got), len(tc.data))
				}
			}
			left, _ := filepath.Glob(filepath.Join(filepath.Dir(name), "*.tmp"))
			if len(left) > 0 {
				t.Errorf("temporary files left behind: %v", left)
			}
		})
	}
}

func TestPrecompress_MissingFileIsAnError(t *testing.T) {
	if err := precompress(filepath.Join(t.TempDir(), "nope.wasm")); err == nil {
		t.Error("precompress of a missing file returned nil")
	}
}
