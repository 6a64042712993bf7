package timeline

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
)

// Library is the timelines that come with leaselab, one story each, as
// library/*.tl files. Their names sort in teaching order (the late courier
// first). Every one of them holds its expectations on the correct engine:
// go test runs them all.
//
//go:embed library/*.tl
var Library embed.FS

// LibraryNames lists the library's timelines by file name, in order.
func LibraryNames() []string {
	entries, _ := fs.ReadDir(Library, "library") // the directory is embedded: it exists
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tl") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names
}

// LibrarySource returns the text of the library timeline called name (as
// LibraryNames gives it).
func LibrarySource(name string) (string, error) {
	b, err := Library.ReadFile(path.Join("library", name))
	if err != nil {
		return "", fmt.Errorf("timeline: no library timeline %q", name)
	}
	return string(b), nil
}

// LoadLibrary parses the library timeline called name.
func LoadLibrary(name string) (*Timeline, error) {
	src, err := LibrarySource(name)
	if err != nil {
		return nil, err
	}
	return Parse(name, src)
}
