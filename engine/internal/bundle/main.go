// Command bundle writes the simulator page's script, web/app.bundle.js:
// web/app.js and every module it imports statically, in one file (with its
// source map, app.bundle.js.map), which index.html loads instead of eleven
// modules. On 2 cores each request costs the browser and its network
// service CPU time that the engine's cold start needs (issue 15: the
// simulator fetched 21 URLs where the official SQLite page fetches 5).
//
//	go run ./engine/internal/bundle [-web web]
//
// The bundle is esbuild's (github.com/evanw/esbuild), whitespace and syntax
// minified, identifiers kept: a stack trace names the source's functions,
// and the source map leads back to the files. What the page imports by URL
// at run time is not bundled and stays a module of its own: engine.js
// above all, which every player of a page shares (one engine, one worker),
// and which the embeds import too. bundle fails if the bundle would hold
// one of those (Shared), or esbuild reports any warning.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// Entry is the page's module, and Out the bundle, in web/.
const (
	Entry = "app.js"
	Out   = "app.bundle.js"
)

// Shared are the modules a page imports by URL, never statically: a copy
// of one in the bundle would be a second instance (engine.js: a second
// engine and worker on the page).
var Shared = []string{"engine.js", "engine-worker.js", "sqlite-bridge.js", "wasm_exec.js"}

func main() {
	web := flag.String("web", "web", "the page's folder")
	flag.Parse()
	if err := bundle(*web); err != nil {
		fmt.Fprintln(os.Stderr, "bundle:", err)
		os.Exit(1)
	}
}

// bundle writes web/Out and its map from web/Entry.
func bundle(web string) error {
	abs, err := filepath.Abs(web)
	if err != nil {
		return err
	}
	res := api.Build(api.BuildOptions{
		AbsWorkingDir:    abs,
		EntryPoints:      []string{Entry},
		Outfile:          Out,
		Bundle:           true,
		Format:           api.FormatESModule,
		Platform:         api.PlatformBrowser,
		Target:           api.ES2022,
		Charset:          api.CharsetUTF8,
		MinifyWhitespace: true,
		MinifySyntax:     true,
		LegalComments:    api.LegalCommentsNone,
		Sourcemap:        api.SourceMapLinked,
		Metafile:         true,
		LogLevel:         api.LogLevelSilent,
	})
	if msgs := append(res.Errors, res.Warnings...); len(msgs) > 0 {
		return errors.New(strings.Join(api.FormatMessages(msgs, api.FormatMessagesOptions{Kind: api.ErrorMessage}), ""))
	}
	if err := checkShared(res.Metafile); err != nil {
		return err
	}
	for _, f := range res.OutputFiles {
		if err := writeWhole(f.Path, f.Contents); err != nil {
			return err
		}
	}
	return nil
}

// checkShared fails when the bundle's inputs (esbuild's metafile, paths
// relative to the page's folder) hold a Shared module.
func checkShared(metafile string) error {
	var meta struct{ Inputs map[string]json.RawMessage }
	if err := json.Unmarshal([]byte(metafile), &meta); err != nil {
		return fmt.Errorf("esbuild's metafile: %w", err)
	}
	for in := range meta.Inputs {
		if slices.Contains(Shared, filepath.ToSlash(in)) {
			return fmt.Errorf("%s imports %s: a page must import it by its URL (import(new URL(%q, import.meta.url).href)), so that the page holds one instance of it", Entry, in, in)
		}
	}
	return nil
}

// writeWhole replaces the file at path by data, whole: a server or a test
// never reads half of it.
func writeWhole(path string, data []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

