package lang_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// The Korean glossary: one word for each concept, the rejected synonym on
// the left (engine/DECISIONS.md, "One Korean word for each concept").
var rejected = []struct {
	word, chosen string
	notBefore    string // a rune after the word that makes it another word
}{
	{"리스", "임대", "트크"}, // 리스트 is a list, 리스크 a risk
	{"예상", "기대", ""},
	{"획득", "선점", ""}, // a claim
}

// Every Korean text of the repository — the Go catalogs and their stories,
// the page's catalogue, guide and examples — says lease and expectation
// with the glossary's one word: a rejected word fails here, with its file
// and line. DECISIONS.md, which names the rejected words, is not scanned.
func TestGlossary_KoreanTextsUseOneWordForEachConcept(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	scanned := 0
	for _, dir := range []string{"engine", "web", "wasm"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "node_modules" || d.Name() == ".tools" || d.Name() == "sqlite-wasm") {
				return filepath.SkipDir
			}
			texts := map[string]bool{".go": true, ".js": true, ".html": true, ".lab": true, ".tl": true, ".md": true}
			if d.IsDir() || strings.HasSuffix(path, "_test.go") || d.Name() == "DECISIONS.md" || !texts[filepath.Ext(path)] {
				return nil
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			scanned++
			for n, line := range strings.Split(string(b), "\n") {
				for _, r := range rejected {
					if at := rejectedAt(line, r.word, r.notBefore); at >= 0 {
						t.Errorf("%s:%d: %q where the glossary says %q: %s", path, n+1, r.word, r.chosen, line)
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if scanned < 100 {
		t.Fatalf("%d files scanned: the walk missed the repository", scanned)
	}
}

// rejectedAt is the index of word in line as a word of its own — not the
// end of a longer Hangul word (서비스), not followed by a rune of notBefore
// (리스트) — or -1.
func rejectedAt(line, word, notBefore string) int {
	for from := 0; ; {
		i := strings.Index(line[from:], word)
		if i < 0 {
			return -1
		}
		i += from
		prev, _ := utf8.DecodeLastRuneInString(line[:i])
		next, _ := utf8.DecodeRuneInString(line[i+len(word):])
		if !(prev >= 0xAC00 && prev <= 0xD7A3) && !strings.ContainsRune(notBefore, next) {
			return i
		}
		from = i + len(word)
	}
}

// The scan tells a rejected word from a longer word that ends or begins
// with it: before, in and after the boundaries it draws.
func TestGlossary_RejectedAtFindsTheWordAlone(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		{"리스는 얼마나", true}, {"2초 리스를", true}, {"(리스)", true}, {"리스", true},
		{"서비스의 시계", false}, {"프로세스", false}, {"리스트", false}, {"리스크", false},
		{"서비스 리스가", true}, // the second occurrence
	} {
		if got := rejectedAt(c.line, "리스", "트크") >= 0; got != c.want {
			t.Errorf("rejectedAt(%q) found = %v, want %v", c.line, got, c.want)
		}
	}
}
