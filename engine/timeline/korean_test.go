package timeline_test

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/leaselab/leaselab/engine/internal/lang"
	"github.com/leaselab/leaselab/engine/timeline"
	"github.com/leaselab/leaselab/engine/timeline/memrun"
)

// messageFormats are the literal formats a package's messages are made
// from: the format argument of errorf, warnf, limitf, fail, failOnce and
// lang.P, in the package's non-test files.
func messageFormats(t *testing.T, dir string) map[string]string {
	t.Helper()
	fs := token.NewFileSet()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, e := range entries {
		if n := e.Name(); strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
			f, err := parser.ParseFile(fs, filepath.Join(dir, n), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
	}
	argAt := map[string]int{"errorf": 1, "warnf": 1, "limitf": 2, "fail": 2, "failOnce": 2, "lang.P": 0}
	out := map[string]string{}
	{
		for _, f := range files {
			ast.Inspect(f, func(n ast.Node) bool {
				c, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				name := ""
				switch fn := c.Fun.(type) {
				case *ast.SelectorExpr:
					name = fn.Sel.Name
					if id, ok := fn.X.(*ast.Ident); ok && id.Name == "lang" {
						name = "lang." + name
					}
				case *ast.Ident:
					name = fn.Name
				}
				i, ok := argAt[name]
				if !ok || len(c.Args) <= i {
					return true
				}
				if bl, ok := c.Args[i].(*ast.BasicLit); ok && bl.Kind == token.STRING {
					s, _ := strconv.Unquote(bl.Value)
					out[s] = fs.Position(bl.Pos()).String()
				}
				return true
			})
		}
	}
	return out
}

// Every message the timeline language and the checker can give has a
// Korean form: a new message without one fails here.
func TestMessages_EveryFormatHasAKoreanForm(t *testing.T) {
	n := 0
	for _, dir := range []string{".", "../check"} {
		for f, at := range messageFormats(t, dir) {
			n++
			if strings.IndexFunc(f, unicode.IsLetter) < 0 {
				continue // placeholders and punctuation only
			}
			if !lang.Has("ko", f, false) {
				t.Errorf("%s: %q has no Korean form", at, f)
			}
		}
	}
	if n < 100 {
		t.Fatalf("found %d formats: the scan misses the messages", n)
	}
}

// englishRun is three English words in a row outside a quoted or
// backquoted span: an untranslated sentence.
var englishRun = regexp.MustCompile(`[A-Za-z]{2,}[,:;]? [A-Za-z]{2,}[,:;]? [A-Za-z]{2,}`)

// quoted are spans a message quotes (text of the timeline's); keywordList
// is a list of the language's keywords ("ok, refused REASON, invalid").
var (
	quoted      = regexp.MustCompile("`[^`]*`|\"[^\"]*\"")
	keywordList = regexp.MustCompile(`[A-Za-z_.]+(?: [A-Z]+)?(?:, [A-Za-z_.]+(?: [A-Z]+)?)+`)
)

func untranslated(msg string) string {
	bare := quoted.ReplaceAllString(msg, "")
	bare = keywordList.ReplaceAllString(bare, "")
	return englishRun.FindString(bare)
}

// In Korean, every mistake Parse reports, every warning, every failed
// expectation and every invariant's detail is Korean: no English sentence
// is left, only names and the language's own keywords.
func TestMessages_KoreanRunHasNoEnglishSentence(t *testing.T) {
	const head = "lease 1000ms\njob j\n"
	bad := []string{
		head + "0 A clam j\n", head + "0 A claim j ttl=2 s\n", "lease 2 s\n", head + "0 A claim j => ok\n",
		head + "0 A claim j tll=500ms\n", "job j attempts=3\n", head + "0 A claim jj\n",
		head + "0 A claim j\n100 A pause 2s\n1500 A complete j\n", "clock B -200ms\n" + head + "100 B claim j\n",
		head + "0 A claim j -> refused superseded\n", head + "0 A claim j -> ok violates=one-lease\n",
		head + "0 A,B claim j -> ok loser.C=held\n", "lease: 1000ms\njob j\n", "lese 1000ms\n", "lease 1m\n",
		head + "+0.5ms A claim j\n", head + "0 A claim j ttl=10x\n", head + "0 A release j -> refused expired\n",
		"job j\n0ms A claim j\n", "lease 1000ms\nlease 5s\n", "lease 0ms\n", "job j\njob j qty=2\n",
		head + "0 A claim j\n0 A claim j\n-5 A claim j\n", head + "10 A claim j\n5 A claim j\n",
		head + "0 A send j\n", head + "0 A pause\n", head + "0 A claim j -> ok token=x\n",
		head + "0 A claim j -> ok status=gone\n", head + "0 A state j -> delivered=true\n",
		head + "0 A claim j \"x\n", head + "0 wait j\n", head + "-> ok\n",
		"clock B\n", "clock B +1ms\nclock B +2ms\n", head + "0 A claim j token=1 token=2\n",
		head + "0 A complete j\n", "epoch 0\n", "job j deadline=+0\n", head + "0 A claim j -> ok -> ok\n",
		head + "0 A enqueue k qty=lots\n", head + "0 A,A claim j\n", head + "0 A,B renew j\n",
		"job j\n0ms A claim j\nlease 1s\n", head + "0 A claim j -> banana\n", head + "0 A write\n",
	}
	for _, src := range bad {
		_, err := timeline.Parse("t.tl", src)
		var list timeline.ErrorList
		if !errors.As(err, &list) {
			t.Errorf("%q parses", src)
			continue
		}
		for _, e := range list {
			if w := untranslated(e.In("ko")); w != "" {
				t.Errorf("%q: %q is English (%q)", src, e.In("ko"), w)
			}
		}
	}
	warned := "clock Bob 300ms\nclock Zed +1ms\n" + head + "0 Bob claim j ttl=5\n10 Bob pause 2\n20 Аlice claim j\n30 Alice claim j\n"
	tl, err := timeline.Parse("t.tl", warned)
	if err != nil || len(tl.Warnings) < 5 {
		t.Fatalf("warnings %v, err %v", tl.Warnings, err)
	}
	for _, w := range tl.Warnings {
		if u := untranslated(w.In("ko")); u != "" {
			t.Errorf("warning %q is English (%q)", w.In("ko"), u)
		}
	}
	story := "clock B +300ms\n" + head + "0 A claim j -> ok token=2 owner=C\n800 B claim j -> ok\n900 A complete j -> ok\n1000 C claim -> token=1\n"
	tr, err := memrun.RunSource(t.Context(), "t.tl", story, timeline.Options{Lang: "ko"})
	if err != nil {
		t.Fatal(err)
	}
	var said []string
	said = append(said, tr.Summary.Failures...)
	for _, st := range tr.Steps {
		for _, v := range st.Verdicts {
			if !v.OK {
				said = append(said, v.Detail)
			}
		}
	}
	if len(said) < 4 {
		t.Fatalf("the story says too little to test: %q", said)
	}
	for _, m := range said {
		if u := untranslated(m); u != "" {
			t.Errorf("%q is English (%q)", m, u)
		}
	}
}
