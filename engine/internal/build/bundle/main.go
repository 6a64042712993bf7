// Command bundle writes the simulator page's script and style, each one
// file, which index.html loads instead of eleven modules and two style
// sheets: web/app.bundle.js, web/app.js and every module it imports
// statically (with its source map, app.bundle.js.map), and
// web/app.bundle.css, trace.css then style.css; and the engine's worker,
// web/engine-worker.bundle.js, engine-worker.js with the SQLite bridge it
// imports and Go's wasm_exec.js, which every page's engine starts (engine.js)
// instead of a worker that fetches two more scripts. On 2 cores each request
// costs the browser and its network service CPU time that the engine's cold
// start needs (see engine/DECISIONS.md, "One bundle per page and worker").
//
//	go run ./engine/internal/build/bundle [-web web]
//
// The bundles are esbuild's (github.com/evanw/esbuild): the script's
// whitespace and syntax minified, identifiers kept (a stack trace names the
// source's functions, and the source map leads back to the files), the
// style's whitespace and comments only. What the page
// imports by URL at run time is not bundled and stays a module of its own:
// engine.js above all, which every player of a page shares (one engine, one
// worker), and which the embeds import too. bundle fails if the script's
// bundle would hold one of those (Shared), or esbuild reports any warning.
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

// Entry is the page's module, and Out its bundle, in web/; Styles are the
// page's style sheets, in order, and StyleOut their bundle; Worker is the
// engine's worker, and WorkerOut its bundle, which begins with GoRuntime.
const (
	Entry     = "app.js"
	Out       = "app.bundle.js"
	StyleOut  = "app.bundle.css"
	Worker    = "engine-worker.js"
	WorkerOut = "engine-worker.bundle.js"
	GoRuntime = "wasm_exec.js"
)

// Styles are the sheets index.html used to link, in the order it did.
var Styles = []string{"trace.css", "style.css"}

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

// bundle writes web/Out and its map from web/Entry, web/WorkerOut and its
// map from web/Worker, and web/StyleOut from web/Styles.
func bundle(web string) error {
	abs, err := filepath.Abs(web)
	if err != nil {
		return err
	}
	common := api.BuildOptions{
		AbsWorkingDir:    abs,
		Bundle:           true,
		Platform:         api.PlatformBrowser,
		Charset:          api.CharsetUTF8,
		MinifyWhitespace: true,
		LegalComments:    api.LegalCommentsNone,
		LogLevel:         api.LogLevelSilent,
	}
	script := module(common, Entry, Out)
	script.Metafile = true
	res := api.Build(script)
	if err := failed(res); err != nil {
		return err
	}
	if err := checkShared(res.Metafile); err != nil {
		return err
	}
	worker, err := workerBundle(abs, common)
	if err != nil {
		return err
	}
	// The sheets lose their comments and spaces only: no rule is rewritten.
	style := common
	var imports strings.Builder
	for _, f := range Styles {
		fmt.Fprintf(&imports, "@import %q;\n", "./"+f)
	}
	style.Stdin = &api.StdinOptions{Contents: imports.String(), ResolveDir: abs, Sourcefile: StyleOut, Loader: api.LoaderCSS}
	style.Outfile = StyleOut
	styles := api.Build(style)
	if err := failed(styles); err != nil {
		return err
	}
	for _, f := range slices.Concat(res.OutputFiles, styles.OutputFiles, worker.OutputFiles) {
		if err := writeWhole(f.Path, f.Contents); err != nil {
			return err
		}
	}
	return nil
}

// module is common for a script bundle of entry into out: an ES module,
// its syntax minified too, with a source map beside it.
func module(common api.BuildOptions, entry, out string) api.BuildOptions {
	m := common
	m.EntryPoints = []string{entry}
	m.Outfile = out
	m.Format = api.FormatESModule
	m.Target = api.ES2022
	m.MinifySyntax = true
	m.Sourcemap = api.SourceMapLinked
	return m
}

// workerBundle builds WorkerOut: the worker and the bridge it imports,
// after Go's wasm_exec.js (GoRuntime, a classic script that defines
// globalThis.Go, which the worker then does not fetch).
func workerBundle(abs string, common api.BuildOptions) (api.BuildResult, error) {
	goRuntime, err := os.ReadFile(filepath.Join(abs, GoRuntime))
	if err != nil {
		return api.BuildResult{}, fmt.Errorf("%w (make wasm copies it from Go's own)", err)
	}
	worker := module(common, Worker, WorkerOut)
	worker.Banner = map[string]string{"js": string(goRuntime)}
	res := api.Build(worker)
	return res, failed(res)
}

// failed is esbuild's errors and warnings of res as one error, or nil.
func failed(res api.BuildResult) error {
	if msgs := append(res.Errors, res.Warnings...); len(msgs) > 0 {
		return errors.New(strings.Join(api.FormatMessages(msgs, api.FormatMessagesOptions{Kind: api.ErrorMessage}), ""))
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
