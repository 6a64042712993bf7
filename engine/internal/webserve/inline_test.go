package webserve_test

import (
	"crypto/sha256"
	"encoding/base64"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/webserve"
)

// inlineScript is an inline <script> of a page: one without src.
var inlineScript = regexp.MustCompile(`(?s)<script>(.*?)</script>`)

// scriptHashes are the 'sha256-…' sources of the CSP's script-src.
func scriptHashes(t *testing.T) []string {
	t.Helper()
	for _, d := range strings.Split(webserve.CSP, ";") {
		fields := strings.Fields(d)
		if len(fields) > 0 && fields[0] == "script-src" {
			var out []string
			for _, f := range fields[1:] {
				if strings.HasPrefix(f, "'sha256-") {
					out = append(out, f)
				}
			}
			return out
		}
	}
	t.Fatalf("CSP %q has no script-src", webserve.CSP)
	return nil
}

// Every inline script of web/'s pages runs under the CSP (its hash is
// there), and the CSP names no script that no page holds: a script edited
// without its hash would be refused by the browser, and a hash left behind
// would let a script no one reviewed run.
func TestCSP_NamesExactlyTheInlineScriptsOfThePages(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join("..", "..", "..", "web", "*.html"))
	if err != nil || len(pages) == 0 {
		t.Fatalf("no pages in web/: %v", err)
	}
	var held []string
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range inlineScript.FindAllSubmatch(b, -1) {
			sum := sha256.Sum256(m[1])
			h := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
			held = append(held, h)
			if !slices.Contains(scriptHashes(t), h) {
				t.Errorf("%s: an inline script's hash %s is not in the CSP's script-src", filepath.Base(p), h)
			}
		}
	}
	if len(held) == 0 {
		t.Error("no page holds an inline script: index.html starts the engine's worker in one")
	}
	for _, h := range scriptHashes(t) {
		if !slices.Contains(held, h) {
			t.Errorf("the CSP names %s, which no page of web/ holds", h)
		}
	}
}
