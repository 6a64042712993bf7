// Package weight measures the engine's weight: the bytes of the two
// WebAssembly modules a page loads to play a timeline, the player's build
// of the Go module (leaselab.wasm) and the SQLite it runs on
// (sqlite-wasm/sqlite3.wasm), as a host sends them raw and as brotli,
// against the goals (GoalRaw, GoalBrotli); and, beside them, the tools'
// build (leaselab-tools.wasm), which a page loads only when a reader first
// uses the explorer, a lab or an exercise; and Pyodide's runtime
// (PyodideFiles), which a page loads only when a reader first runs a
// Python exercise. The browser benchmark (make bench) and the course
// bundle's command (make dist) print it.
package weight

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"text/tabwriter"
)

// The goals, module and SQLite together, in decimal megabytes: at most
// 3.0 MB as a host without compression sends them, at most 0.8 MB as
// brotli.
const (
	GoalRaw    = 3_000_000
	GoalBrotli = 800_000
)

// Files are the engine's modules, relative to the folder that serves them
// (web/ and the course bundle alike).
var Files = []string{"leaselab.wasm", "sqlite-wasm/sqlite3.wasm"}

// ToolsFile is the tools' build of the engine, relative to the same folder.
const ToolsFile = "leaselab-tools.wasm"

// Weight is the bytes of Files: raw, and their brotli copies (NAME.br,
// which make wasm and make dist write beside each file).
type Weight struct {
	Raw, Brotli int64
}

// Of measures Files in dir. A file or its brotli copy missing, or a copy
// older than its file, is an error: the copy would not be what a host
// sends.
func Of(dir string) (Weight, error) { return measure(dir, Files) }

// Tools measures ToolsFile in dir, as Of measures Files.
func Tools(dir string) (Weight, error) { return measure(dir, []string{ToolsFile}) }

func measure(dir string, files []string) (Weight, error) {
	var w Weight
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f))
		raw, err := os.Stat(p)
		if err != nil {
			return Weight{}, err
		}
		br, err := copySize(p, ".br", raw)
		if err != nil {
			return Weight{}, err
		}
		w.Raw += raw.Size()
		w.Brotli += br
	}
	return w, nil
}

// copySize is the size of p's precompressed copy p+ext; a copy missing, or
// older than raw (p's stat), is an error.
func copySize(p, ext string, raw os.FileInfo) (int64, error) {
	c, err := os.Stat(p + ext)
	if err != nil {
		return 0, fmt.Errorf("%w: make wasm writes it", err)
	}
	if c.ModTime().Before(raw.ModTime()) {
		return 0, fmt.Errorf("%s%s is older than %[1]s: make wasm writes it afresh", p, ext)
	}
	return c.Size(), nil
}

// Goal is one of the weight's goals with what was measured for it.
type Goal struct {
	Name            string
	Measured, Limit int64
}

// Met reports whether the measured bytes are at most the limit.
func (g Goal) Met() bool { return g.Measured <= g.Limit }

// Modules names Files in a goal's name.
const Modules = "the engine's modules (leaselab.wasm and sqlite-wasm/sqlite3.wasm)"

// Goals are w against GoalRaw and GoalBrotli.
func (w Weight) Goals() []Goal {
	return []Goal{
		{Modules + ", raw", w.Raw, GoalRaw},
		{Modules + ", brotli", w.Brotli, GoalBrotli},
	}
}

// Write prints w's goals, one a line: the bytes measured, the limit and
// met or MISSED (a missed goal is printed, not an error).
func (w Weight) Write(out io.Writer) error {
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	for _, g := range w.Goals() {
		verdict := "MISSED"
		if g.Met() {
			verdict = "met"
		}
		fmt.Fprintf(tw, "  %s\t%s bytes (%.2f MB)\t<= %s bytes (%.1f MB)\t%s\n",
			g.Name, Thousands(g.Measured), float64(g.Measured)/1e6, Thousands(g.Limit), float64(g.Limit)/1e6, verdict)
	}
	return tw.Flush()
}

// WriteTools prints w, the tools' build's weight, on one line: it has no
// goal of its own, since no first trace waits for it.
func (w Weight) WriteTools(out io.Writer) error {
	_, err := fmt.Fprintf(out, "  the tools' build (%s: explorer, lab, grader; loaded at their first use), raw %s bytes (%.2f MB), brotli %s bytes (%.2f MB)\n",
		ToolsFile, Thousands(w.Raw), float64(w.Raw)/1e6, Thousands(w.Brotli), float64(w.Brotli)/1e6)
	return err
}

// PyodideDir is the folder of Pyodide's runtime, relative to the folder
// that serves the page (web/ and the course bundle alike).
const PyodideDir = "pyodide"

// PyodideFiles are the files of Pyodide's runtime in PyodideDir: what its
// loader reads (loadPyodide with indexURL that folder) to start CPython
// with its standard library. The Makefile's PYODIDE_FILES copies the same.
var PyodideFiles = []string{"pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"}

// FileWeight is one file's bytes: raw, and its brotli and gzip copies.
type FileWeight struct {
	Name              string
	Raw, Brotli, Gzip int64
}

// Pyodide measures PyodideFiles in dir's PyodideDir, in their order. A file
// or either copy missing, or a copy older than its file, is an error, as
// in Of.
func Pyodide(dir string) ([]FileWeight, error) {
	var ws []FileWeight
	for _, f := range PyodideFiles {
		name := PyodideDir + "/" + f
		p := filepath.Join(dir, filepath.FromSlash(name))
		raw, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		w := FileWeight{Name: name, Raw: raw.Size()}
		if w.Brotli, err = copySize(p, ".br", raw); err != nil {
			return nil, err
		}
		if w.Gzip, err = copySize(p, ".gz", raw); err != nil {
			return nil, err
		}
		ws = append(ws, w)
	}
	return ws, nil
}

// WritePyodide prints ws, Pyodide's files, one a line (raw, brotli, gzip)
// and then their total. Like the tools' build it has no goal: no first
// trace waits for it.
func WritePyodide(out io.Writer, ws []FileWeight) error {
	if _, err := fmt.Fprintln(out, "  Pyodide (CPython for the Python exercise; loaded at its first run), bytes:"); err != nil {
		return err
	}
	total := FileWeight{Name: "total"}
	width := len(total.Name)
	for _, w := range ws {
		width = max(width, len(w.Name))
		total.Raw, total.Brotli, total.Gzip = total.Raw+w.Raw, total.Brotli+w.Brotli, total.Gzip+w.Gzip
	}
	for _, w := range append(ws, total) {
		_, err := fmt.Fprintf(out, "    %-*s  raw %11s  brotli %11s  gzip %11s\n",
			width, w.Name, Thousands(w.Raw), Thousands(w.Brotli), Thousands(w.Gzip))
		if err != nil {
			return err
		}
	}
	return nil
}

// Thousands prints n with comma separators: 1,234,567.
func Thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	var b []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, s[i])
	}
	if neg {
		return "-" + string(b)
	}
	return string(b)
}
