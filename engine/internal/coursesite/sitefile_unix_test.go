//go:build unix

package coursesite

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// readFile reads a file of the site, through a symbolic link inside it
// too, and refuses, saying why, a link out of the site (relative,
// absolute, to a device), a link to nothing, a FIFO (without blocking on
// it) and a folder.
func TestReadFile_RefusesWhatIsNotARegularFileOfTheSite(t *testing.T) {
	parent := t.TempDir()
	site, outside := filepath.Join(parent, "site"), filepath.Join(parent, "outside")
	for _, d := range []string{site, outside, filepath.Join(site, "dir")} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, body := range map[string]string{filepath.Join(outside, "secret.txt"): "secret", filepath.Join(site, "in.txt"): "in"} {
		if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{
		"inlink": "in.txt", "out": "../outside/secret.txt", "abs": filepath.Join(outside, "secret.txt"),
		"zero": "/dev/zero", "nowhere": "missing.txt",
	} {
		if err := os.Symlink(target, filepath.Join(site, link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(site, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	root := openRoot(t, site)
	for _, c := range []struct{ name, want string }{
		{"in.txt", ""},
		{"inlink", ""},
		{"out", "a symbolic link that leads out of the site"},
		{"abs", "a symbolic link that leads out of the site"},
		{"zero", "a symbolic link that leads out of the site"},
		{"nowhere", "a symbolic link to nothing"},
		{"fifo", "a FIFO, not a regular file"},
		{"dir", "a folder, not a regular file"},
	} {
		b, err := readFile(root, c.name, 1<<20)
		switch {
		case c.want == "" && (err != nil || string(b) != "in"):
			t.Errorf("%s: %q, %v; want \"in\"", c.name, b, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || b != nil):
			t.Errorf("%s: %d bytes, %v; want the error %q", c.name, len(b), err, c.want)
		}
	}
}

// writeFile over a symbolic link replaces the link and leaves its target,
// outside the site, as it was.
func TestWriteFile_ReplacesASymlinkNotItsTarget(t *testing.T) {
	parent := t.TempDir()
	site, target := filepath.Join(parent, "site"), filepath.Join(parent, "target.txt")
	if err := os.Mkdir(site, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(target, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../target.txt", filepath.Join(site, "index.json")); err != nil {
		t.Fatal(err)
	}
	if err := writeFile(openRoot(t, site), "index.json", []byte("new")); err != nil {
		t.Fatal(err)
	}
	st, err := os.Lstat(filepath.Join(site, "index.json"))
	if err != nil || !st.Mode().IsRegular() {
		t.Fatalf("index.json: %v, %v; want a regular file", st, err)
	}
	if b, _ := os.ReadFile(target); string(b) != "keep" {
		t.Errorf("the link's target holds %q, want \"keep\"", b)
	}
}
