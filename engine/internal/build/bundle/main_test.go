package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// page writes a page folder of files (name -> text).
func page(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// withStyles adds to files a sheet for each of Styles, each holding a rule
// that names it, and a worker with what it bundles.
func withStyles(files map[string]string) map[string]string {
	for _, f := range Styles {
		files[f] = "/* " + f + " */\n." + strings.TrimSuffix(f, ".css") + " { color: red; }\n"
	}
	files[Worker] = "const bridge = import('./sqlite-bridge.js');\nconsole.log(bridge);\n"
	files["sqlite-bridge.js"] = "export const bridge = 'THE BRIDGE';\n"
	files[GoRuntime] = "globalThis.Go = 'GO RUNTIME';\n"
	return files
}

// The worker's bundle begins with Go's runtime script and holds the bridge
// it imports.
func TestBundle_WorkerBeginsWithGoAndHoldsTheBridge(t *testing.T) {
	dir := page(t, withStyles(map[string]string{Entry: "console.log(1);\n"}))
	if err := bundle(dir); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, WorkerOut))
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	if !strings.HasPrefix(got, "globalThis.Go = 'GO RUNTIME';") || !strings.Contains(got, "THE BRIDGE") {
		t.Errorf("the worker's bundle does not begin with wasm_exec.js and hold the bridge:\n%s", got)
	}
}

// The style bundle is the page's sheets in their order, without comments.
func TestBundle_StylesInTheirOrderWithoutComments(t *testing.T) {
	dir := page(t, withStyles(map[string]string{Entry: "console.log(1);\n"}))
	if err := bundle(dir); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, StyleOut))
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	first, second := strings.Index(got, ".trace{"), strings.Index(got, ".style{")
	if first < 0 || second < first || strings.Contains(got, "/*") {
		t.Errorf("the style bundle is not trace.css then style.css, uncommented:\n%s", got)
	}
}

// The bundle holds the entry and what it imports statically, and leaves a
// module imported by its URL to be fetched at run time.
func TestBundle_HoldsTheStaticGraphAndLeavesURLImportsOut(t *testing.T) {
	dir := page(t, withStyles(map[string]string{
		Entry:       "import { words } from './words.js';\nconst engine = import(new URL('engine.js', import.meta.url).href);\nconsole.log(words, engine);\n",
		"words.js":  "export const words = 'from words.js';\n",
		"engine.js": "export const engine = 'ENGINE ITSELF';\n",
	}))
	if err := bundle(dir); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, Out))
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	for _, want := range []string{"from words.js", "new URL(\"engine.js\",import.meta.url)", "sourceMappingURL=" + Out + ".map"} {
		if !strings.Contains(got, want) {
			t.Errorf("the bundle lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "ENGINE ITSELF") || strings.Contains(got, "import ") {
		t.Errorf("the bundle holds engine.js or a static import:\n%s", got)
	}
	if _, err := os.Stat(filepath.Join(dir, Out+".map")); err != nil {
		t.Errorf("no source map: %v", err)
	}
}

// A page whose graph imports a shared module statically would hold a second
// instance of it: bundle refuses, naming it, and writes nothing.
func TestBundle_RefusesASharedModuleImportedStatically(t *testing.T) {
	dir := page(t, withStyles(map[string]string{
		Entry:       "import { engine } from './engine.js';\nconsole.log(engine);\n",
		"engine.js": "export const engine = 1;\n",
	}))
	err := bundle(dir)
	if err == nil || !strings.Contains(err.Error(), "engine.js") {
		t.Fatalf("err %v, want a refusal naming engine.js", err)
	}
	if _, err := os.Stat(filepath.Join(dir, Out)); !os.IsNotExist(err) {
		t.Errorf("a refused bundle was written: %v", err)
	}
}

// A module that cannot be resolved is esbuild's error, said with its place.
func TestBundle_UnresolvedImportIsAnError(t *testing.T) {
	dir := page(t, withStyles(map[string]string{Entry: "import { x } from './missing.js';\nconsole.log(x);\n"}))
	err := bundle(dir)
	if err == nil || !strings.Contains(err.Error(), "missing.js") {
		t.Fatalf("err %v, want one naming missing.js", err)
	}
}
