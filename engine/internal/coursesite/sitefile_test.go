package coursesite

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func openRoot(t *testing.T, dir string) *os.Root {
	t.Helper()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	return root
}

// readFile reads a file of at most max bytes whole, and one byte more is
// errTooLarge with nothing read.
func TestReadFile_ReadsUpToItsLimitAndNoFurther(t *testing.T) {
	dir := t.TempDir()
	root := openRoot(t, dir)
	for _, c := range []struct {
		name string
		size int
		ok   bool
	}{
		{"before", 9, true},
		{"at", 10, true},
		{"after", 11, false},
	} {
		if err := os.WriteFile(filepath.Join(dir, c.name), []byte(strings.Repeat("x", c.size)), 0o644); err != nil {
			t.Fatal(err)
		}
		b, err := readFile(root, c.name, 10)
		switch {
		case c.ok && (err != nil || len(b) != c.size):
			t.Errorf("%s the limit: %d bytes read, %v; want %d", c.name, len(b), err, c.size)
		case !c.ok && (!errors.Is(err, errTooLarge) || b != nil):
			t.Errorf("%s the limit: %d bytes read, %v; want errTooLarge", c.name, len(b), err)
		}
	}
}

// writeFile leaves the new bytes under the name and no temporary file
// beside them.
func TestWriteFile_RenamesANewFileIntoPlace(t *testing.T) {
	dir := t.TempDir()
	root := openRoot(t, dir)
	if err := os.WriteFile(filepath.Join(dir, "a.json"), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := writeFile(root, "a.json", []byte("new")); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "a.json"))
	if string(b) != "new" || len(entries) != 1 {
		t.Errorf("a.json holds %q, the folder %d entries; want \"new\" alone", b, len(entries))
	}
}
