package lab_test

import (
	"html"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/internal/lab"
)

// guideLab is a lab the guide carries: a <lease-lab name=…> element's text
// or a ```lease-lab fence (its directive line names it).
var guideLab = regexp.MustCompile(`(?s)<lease-lab name="([^"]+)"[^>]*>\n(.*?)</lease-lab>|<code class="language-lease-lab">#! lease-lab name=(\S+)\n(.*?)</code>`)

// Every lab the author's guide shows, as a fence or an element, in English
// or in Korean, is its library file word for word: the guide teaches the
// lab the command and the tests run.
func TestGuide_ItsLabsAreTheLibrarys(t *testing.T) {
	b, err := os.ReadFile("../../../web/guide.html")
	if err != nil {
		t.Skipf("no web/guide.html beside the module: %v", err)
	}
	found := 0
	for _, m := range guideLab.FindAllStringSubmatch(string(b), -1) {
		name, text := m[1]+m[3], m[2]+m[4]
		want, err := lab.LibraryText(name)
		if err != nil {
			t.Errorf("the guide shows %s, which the library lacks: %v", name, err)
			continue
		}
		if got := strings.TrimSpace(html.UnescapeString(text)); got != strings.TrimSpace(want) {
			t.Errorf("the guide's %s differs from engine/internal/lab/library/%s", name, name)
		}
		found++
	}
	if found < 4 {
		t.Errorf("found %d labs in the guide, want its 4 (a fence and three elements)", found)
	}
}
