package coursesite

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"

	"github.com/leaselab/leaselab/engine/limits"
)

// Prerender reads and writes a site only through an os.Root on its folder:
// no path, and no symbolic link, takes it out of the site.

// errTooLarge marks a file over limits.PageBytes.
var errTooLarge = errors.New("over the limit " + limits.PageRow.String())

// readFile reads the site's file rel (a slash path) through root, at most
// max bytes of it (limits.PageBytes). It follows a symbolic link only to a file inside
// the site, and refuses what is not a regular file (a FIFO, a device, a
// socket, a folder) from its metadata, before opening it, so no read
// blocks or runs without end. The error says why; it wraps errTooLarge
// for a file over max.
func readFile(root *os.Root, rel string, max int64) ([]byte, error) {
	st, err := root.Lstat(rel)
	if err != nil {
		return nil, err
	}
	if st.Mode()&fs.ModeSymlink != 0 {
		if st, err = root.Stat(rel); errors.Is(err, fs.ErrNotExist) {
			return nil, errors.New("a symbolic link to nothing")
		} else if err != nil {
			return nil, errors.New("a symbolic link that leads out of the site")
		}
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s, not a regular file", kind(st.Mode()))
	}
	if st.Size() > max {
		return nil, fmt.Errorf("%d bytes: %w", st.Size(), errTooLarge)
	}
	f, err := root.OpenFile(rel, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if now, err := f.Stat(); err != nil || !os.SameFile(st, now) {
		return nil, errors.New("replaced while being read")
	}
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("more than %d bytes: %w", max, errTooLarge)
	}
	return b, nil
}

// kind names a file's type in a refusal.
func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m.IsRegular():
		return "a regular file"
	}
	return "a special file"
}

// writeFile writes data to the site's file rel through root: into a new
// temporary file beside it, then renamed over it, so a reader sees the old
// file or the new one, and an entry already at rel (a symbolic link too)
// is replaced, never written through.
func writeFile(root *os.Root, rel string, data []byte) error {
	var r [8]byte
	if _, err := rand.Read(r[:]); err != nil {
		return err
	}
	tmp := path.Join(path.Dir(rel), "."+path.Base(rel)+"."+hex.EncodeToString(r[:])+".tmp")
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = root.Rename(tmp, rel)
	}
	if err != nil {
		_ = root.Remove(tmp)
	}
	return err
}
