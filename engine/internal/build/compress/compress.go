// Package compress writes the precompressed encodings of a file (NAME.br
// and NAME.gz, at the strongest settings) for a static server that sends
// precompressed bytes (engine/internal/webserve; many static hosts): the command
// precompress (make wasm) and the course bundle (make dist) use it.
package compress

import (
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/andybalholm/brotli"
)

// Precompress writes name.br and name.gz beside name.
func Precompress(name string) error {
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
