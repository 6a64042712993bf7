package lab

import (
	"embed"
	"io/fs"
	"slices"
	"strings"
)

//go:embed library/*.lab
var library embed.FS

// LibraryNames lists the library's labs (file names), in name order.
func LibraryNames() []string {
	entries, _ := fs.ReadDir(library, "library")
	var out []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".lab") {
			out = append(out, e.Name())
		}
	}
	slices.Sort(out)
	return out
}

// LibraryText is the text of the library's lab name.
func LibraryText(name string) (string, error) {
	b, err := library.ReadFile("library/" + name)
	return string(b), err
}

// LoadLibrary parses the library's lab name.
func LoadLibrary(name string) (*Lab, error) {
	text, err := LibraryText(name)
	if err != nil {
		return nil, err
	}
	return Parse(name, text)
}
