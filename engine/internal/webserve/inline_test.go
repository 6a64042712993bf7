package webserve_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/webserve"
)

// inlineScript is an inline <script> of a page: one without src.
var inlineScript = regexp.MustCompile(`(?is)<script(\s[^>]*)?>`)

// dataURL is a data: URL in an attribute of a page (an icon, an image).
var dataURL = regexp.MustCompile(`(?i)(href|src)\s*=\s*["']?\s*data:`)

// web/'s pages hold no inline script and no data: URL, and the CSP names
// no script by its hash: each page runs under a policy that allows
// scripts and images from 'self' only (the guide's, which a course site
// sends), and a hash in the CSP would let a script no page holds run.
func TestCSP_PagesHoldNoInlineScriptNorDataURL(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join("..", "..", "..", "web", "*.html"))
	if err != nil || len(pages) == 0 {
		t.Fatalf("no pages in web/: %v", err)
	}
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range inlineScript.FindAllSubmatch(b, -1) {
			if !regexp.MustCompile(`(?i)\ssrc\s*=`).Match(m[1]) {
				t.Errorf("%s: an inline script %q", filepath.Base(p), m[0])
			}
		}
		if m := dataURL.Find(b); m != nil {
			t.Errorf("%s: a data: URL (%q)", filepath.Base(p), m)
		}
	}
	if strings.Contains(webserve.CSP, "'sha256-") {
		t.Errorf("the CSP names a script by its hash: %s", webserve.CSP)
	}
}
