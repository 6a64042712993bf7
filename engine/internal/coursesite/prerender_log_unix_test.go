//go:build unix

package coursesite

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A page's file name, or an element's name=, that holds a newline or an
// escape is quoted in the log: it cannot forge a line of the log (one that
// reads like another page's verdict) nor drive the terminal; a plain name
// is logged as is.
func TestPrerender_LogQuotesNamesThatAreNotPrintable(t *testing.T) {
	site := t.TempDir()
	bundle := filepath.Join(site, BundleDir())
	if err := os.Mkdir(bundle, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		filepath.Join(bundle, "manifest.json"):           `{"name":"leaselab","version":"` + Version() + `"}`,
		filepath.Join(site, "plain.html"):                "<lease-timeline>\nlease 1s\njob a\n0 A clam a\n</lease-timeline>",
		filepath.Join(site, "evil\nFAKE: all good.html"): "<lease-timeline>\nlease 1s\njob a\n0 A clam a # 2\n</lease-timeline>",
		filepath.Join(site, "esc\x1b[2J.html"):           "<lease-timeline>\nlease 1s\njob a\n0 A clam a # 3\n</lease-timeline>",
		filepath.Join(site, "named.html"):                "<lease-timeline name=\"n&#10;FAKE: &#27;[2J.tl\">\nlease 1s\njob a\n0 A clam a # 4\n</lease-timeline>",
	}
	for name, body := range files {
		if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var log bytes.Buffer
	rep, err := Prerender(t.Context(), site, &log)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Bad != 4 {
		t.Fatalf("%d timelines bad, want 4; log:\n%s", rep.Bad, log.String())
	}
	for _, want := range []string{"plain.html: timeline 1", `"evil\nFAKE: all good.html": timeline 1`,
		`"esc\x1b[2J.html": timeline 1`, `named.html: timeline 1 ("n\nFAKE: \x1b[2J.tl")`} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %s; log:\n%s", want, log.String())
		}
	}
	for _, line := range strings.Split(log.String(), "\n") {
		if strings.HasPrefix(line, "FAKE") || strings.ContainsRune(line, '\x1b') {
			t.Errorf("a forged or raw line: %q", line)
		}
	}
}
