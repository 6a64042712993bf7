//go:build !(js && wasm)

package main

import (
	"fmt"
	"os"
)

// main, natively, says how the Worker is built: it runs only as
// WebAssembly under Cloudflare's runtime.
func main() {
	fmt.Fprintln(os.Stderr, "worker: the Cloudflare Worker builds only for GOOS=js GOARCH=wasm: run make worker")
	os.Exit(2)
}
