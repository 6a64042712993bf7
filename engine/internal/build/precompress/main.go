// Command precompress writes, beside each file it is given, the brotli
// (NAME.br) and gzip (NAME.gz) encodings of it at the strongest settings,
// for a static server that sends precompressed bytes and compresses nothing
// at request time (see package engine/internal/webserve). An output is replaced only
// whole: it is written to a temporary file and renamed.
//
//	go run ./engine/internal/build/precompress web/leaselab.wasm web/traces/*.json
package main

import (
	"fmt"
	"os"

	"github.com/leaselab/leaselab/engine/internal/build/compress"
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

// precompress writes name.br and name.gz (package compress).
var precompress = compress.Precompress
