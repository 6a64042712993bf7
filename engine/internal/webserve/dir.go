package webserve

import (
	"net/http"
	"os"
)

// Dir serves one folder on disk, opened as an os.Root: no request reads
// outside it, whatever the path or a symbolic link inside the folder says
// (a link that leads out is answered 404, as a missing file). Links that
// stay inside are followed.
type Dir struct {
	http.Handler
	root *os.Root
}

// OpenDir opens the folder dir and returns its handler (see Handler for
// what a response promises). Close it when the server is done.
func OpenDir(dir string) (*Dir, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &Dir{Handler: Handler(root.FS()), root: root}, nil
}

// Close releases the folder.
func (d *Dir) Close() error { return d.root.Close() }
