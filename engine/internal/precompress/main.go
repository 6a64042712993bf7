// Command precompress writes, beside each file it is given, the brotli
// (NAME.br) and gzip (NAME.gz) encodings of it at the strongest settings,
// for a static server that sends precompressed bytes and compresses nothing
// at request time (see package engine/webserve). An output is replaced only
// whole: it is written to a temporary file and renamed.
//
//	go run ./engine/internal/precompress web/leaselab.wasm web/traces/*.json
package main

import (
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/andybalholm/brotli"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: precompress FILE...")
		os.Exit(2)
	}
	for _, name := range os.Args[1:] {
		if err := precompress(name); err != nil {
			fmt.Fprintln(os.Stderr, "precompress:", err)
			os.Exit(1)
		}
	}
}

// precompress writes name.br and name.gz.
func precompress(name string) error {
	data, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	err = writeEncoded(name+".br", data, func(w io.Writer) io.WriteCloser {
		return brotli.NewWriterOptions(w, brotli.WriterOptions{Quality: brotli.BestCompression, LGWin: 24})
	})
	if err != nil {
		return err
	}
	return writeEncoded(name+".gz", data, func(w io.Writer) io.WriteCloser {
		zw, _ := gzip.NewWriterLevel(w, gzip.BestCompression) // a valid level cannot fail
		return zw
	})
}

// writeEncoded writes data through the encoder to a temporary file beside
// out and renames it to out.
func writeEncoded(out string, data []byte, encoder func(io.Writer) io.WriteCloser) error {
	tmp, err := os.CreateTemp(filepath.Dir(out), filepath.Base(out)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	enc := encoder(tmp)
	if _, err := enc.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("%s: %w", out, err)
	}
	if err := enc.Close(); err != nil {
		tmp.Close()
		return fmt.Errorf("%s: %w", out, err)
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), out)
}
