package weight

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// serve writes Files into a fresh folder, each raw bytes long with a
// brotli copy br bytes long, and returns the folder.
func serve(t *testing.T, raw, br int) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range Files {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, make([]byte, raw), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p+".br", make([]byte, br), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestOf_SumsEveryModuleAndItsBrotliCopy(t *testing.T) {
	w, err := Of(serve(t, 1000, 300))
	if err != nil {
		t.Fatal(err)
	}
	if want := (Weight{Raw: 1000 * int64(len(Files)), Brotli: 300 * int64(len(Files))}); w != want {
		t.Errorf("Of = %+v, want %+v", w, want)
	}
}

func TestOf_RefusesAMissingOrStaleCopy(t *testing.T) {
	for _, c := range []struct {
		name  string
		spoil func(t *testing.T, p string)
	}{
		{"module missing", func(t *testing.T, p string) { os.Remove(p) }},
		{"brotli copy missing", func(t *testing.T, p string) { os.Remove(p + ".br") }},
		{"brotli copy older than the module", func(t *testing.T, p string) {
			old := time.Now().Add(-time.Hour)
			if err := os.Chtimes(p+".br", old, old); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		for _, f := range Files {
			dir := serve(t, 10, 5)
			c.spoil(t, filepath.Join(dir, filepath.FromSlash(f)))
			if w, err := Of(dir); err == nil {
				t.Errorf("%s (%s): Of = %+v, want an error", c.name, f, w)
			}
		}
	}
}

func TestGoals_MetAtTheLimitMissedJustPastIt(t *testing.T) {
	for _, c := range []struct {
		name string
		w    Weight
		want []bool // raw, brotli
	}{
		{"both below", Weight{GoalRaw - 1, GoalBrotli - 1}, []bool{true, true}},
		{"both at", Weight{GoalRaw, GoalBrotli}, []bool{true, true}},
		{"raw past", Weight{GoalRaw + 1, GoalBrotli}, []bool{false, true}},
		{"brotli past", Weight{GoalRaw, GoalBrotli + 1}, []bool{true, false}},
	} {
		gs := c.w.Goals()
		if len(gs) != 2 || !strings.HasSuffix(gs[0].Name, "raw") || !strings.HasSuffix(gs[1].Name, "brotli") {
			t.Fatalf("goals %+v, want raw then brotli", gs)
		}
		for i, g := range gs {
			if g.Met() != c.want[i] {
				t.Errorf("%s: %s met = %v, want %v", c.name, g.Name, g.Met(), c.want[i])
			}
		}
	}
}

func TestWrite_PrintsEachGoalWithItsVerdict(t *testing.T) {
	var b strings.Builder
	if err := (Weight{Raw: 6_826_964, Brotli: 780_000}).Write(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("want two lines, got:\n%s", b.String())
	}
	for i, want := range [][]string{
		{Modules + ", raw", "6,826,964 bytes (6.83 MB)", "<= 3,000,000 bytes (3.0 MB)", "MISSED"},
		{Modules + ", brotli", "780,000 bytes (0.78 MB)", "<= 800,000 bytes (0.8 MB)", "met"},
	} {
		for _, w := range want {
			if !strings.Contains(lines[i], w) {
				t.Errorf("line %d %q lacks %q", i, lines[i], w)
			}
		}
	}
}

func TestThousands_GroupsByThree(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{
		{0, "0"}, {999, "999"}, {1000, "1,000"}, {-1000, "-1,000"}, {1234567, "1,234,567"}, {-999, "-999"},
	} {
		if got := Thousands(c.n); got != c.want {
			t.Errorf("Thousands(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

func TestTools_MeasuresTheToolsBuildApartFromTheFirstUseModules(t *testing.T) {
	dir := serve(t, 1000, 300)
	p := filepath.Join(dir, ToolsFile)
	if err := os.WriteFile(p, make([]byte, 7000), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Tools(dir); err == nil {
		t.Fatal("Tools with no brotli copy beside the tools' build: no error")
	}
	if err := os.WriteFile(p+".br", make([]byte, 1500), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := Tools(dir)
	if err != nil || w != (Weight{Raw: 7000, Brotli: 1500}) {
		t.Errorf("Tools = %+v, %v; want {7000 1500}", w, err)
	}
	if first, err := Of(dir); err != nil || first.Raw != 1000*int64(len(Files)) {
		t.Errorf("Of counts the tools' build: %+v, %v", first, err)
	}
	var out strings.Builder
	if err := w.WriteTools(&out); err != nil || !strings.Contains(out.String(), "7,000 bytes") || !strings.Contains(out.String(), "1,500 bytes") {
		t.Errorf("WriteTools printed %q, %v", out.String(), err)
	}
}

// pyodide writes PyodideFiles into dir's PyodideDir, the i-th (from 1)
// raw i*1000 bytes long, its brotli copy i*100 and its gzip copy i*200.
func pyodide(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, PyodideDir), 0o755); err != nil {
		t.Fatal(err)
	}
	for i, f := range PyodideFiles {
		p := filepath.Join(dir, PyodideDir, f)
		for ext, n := range map[string]int{"": 1000, ".br": 100, ".gz": 200} {
			if err := os.WriteFile(p+ext, make([]byte, (i+1)*n), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func TestPyodide_MeasuresEachFileRawBrotliAndGzip(t *testing.T) {
	dir := t.TempDir()
	pyodide(t, dir)
	ws, err := Pyodide(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != len(PyodideFiles) {
		t.Fatalf("Pyodide = %+v, want one weight per file of %q", ws, PyodideFiles)
	}
	for i, w := range ws {
		n := int64(i + 1)
		if want := (FileWeight{PyodideDir + "/" + PyodideFiles[i], n * 1000, n * 100, n * 200}); w != want {
			t.Errorf("Pyodide[%d] = %+v, want %+v", i, w, want)
		}
	}
	var out strings.Builder
	if err := WritePyodide(&out, ws); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
	if len(lines) != 2+len(PyodideFiles) {
		t.Fatalf("WritePyodide printed %d lines, want a title, one per file and the total:\n%s", len(lines), out.String())
	}
	if f := strings.Fields(lines[3]); !slices.Equal(f, []string{"pyodide/pyodide.asm.wasm", "raw", "3,000", "brotli", "300", "gzip", "600"}) {
		t.Errorf("the wasm's line is %q", lines[3])
	}
	if f := strings.Fields(lines[len(lines)-1]); !slices.Equal(f, []string{"total", "raw", "15,000", "brotli", "1,500", "gzip", "3,000"}) {
		t.Errorf("the total's line is %q", lines[len(lines)-1])
	}
}

func TestPyodide_RefusesAMissingOrStaleCopy(t *testing.T) {
	old := time.Now().Add(-time.Hour)
	for _, c := range []struct {
		name  string
		spoil func(p string) error
	}{
		{"file missing", func(p string) error { return os.Remove(p) }},
		{"brotli copy missing", func(p string) error { return os.Remove(p + ".br") }},
		{"gzip copy missing", func(p string) error { return os.Remove(p + ".gz") }},
		{"brotli copy older than the file", func(p string) error { return os.Chtimes(p+".br", old, old) }},
		{"gzip copy older than the file", func(p string) error { return os.Chtimes(p+".gz", old, old) }},
	} {
		for _, f := range PyodideFiles {
			dir := t.TempDir()
			pyodide(t, dir)
			if err := c.spoil(filepath.Join(dir, PyodideDir, f)); err != nil {
				t.Fatal(err)
			}
			if ws, err := Pyodide(dir); err == nil {
				t.Errorf("%s (%s): Pyodide = %+v, want an error", c.name, f, ws)
			}
		}
	}
}
