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

// The bundle holds the entry and what it imports statically, and leaves a
// module imported by its URL to be fetched at run time.
func TestBundle_HoldsTheStaticGraphAndLeavesURLImportsOut(t *testing.T) {
	dir := page(t, map[string]string{
		Entry:       "import { words } from './words.js';\nconst engine = import(new URL('engine.js', import.meta.url).href);\nconsole.log(words, engine);\n",
		"words.js":  "export const words = 'from words.js';\n",
		"engine.js": "export const engine = 'ENGINE ITSELF';\n",
	})
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
	dir := page(t, map[string]string{
		Entry:       "import { engine } from './engine.js';\nconsole.log(engine);\n",
		"engine.js": "export const engine = 1;\n",
	})
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
	dir := page(t, map[string]string{Entry: "import { x } from './missing.js';\nconsole.log(x);\n"})
	err := bundle(dir)
	if err == nil || !strings.Contains(err.Error(), "missing.js") {
		t.Fatalf("err %v, want one naming missing.js", err)
	}
}
