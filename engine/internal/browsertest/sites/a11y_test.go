//go:build sites

package sites_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/leaselab/leaselab/engine/internal/browsertest/axe"
)

// A course page built by each site generator the guide names, its players
// ready, passes axe-core's audit with no serious or critical violation,
// light and dark, on a desktop and a phone. On Hugo the whole page is
// audited (its theme is the test's own); on MkDocs and Material, the
// players: the themes' own chrome (MkDocs' navigation bar at 3.97:1,
// Material's unnamed search dialog) is theirs, which no course bundle can
// change.
func TestSite_CoursePagesPassAxe(t *testing.T) {
	for _, s := range []struct {
		name   string
		url    func(t *testing.T) string
		fences int
		within string
	}{
		{"MkDocs", func(t *testing.T) string { return servePython(t, buildMkDocs(t, "mkdocs", "mkdocs.yml")) }, 2, "lease-timeline"},
		{"Material for MkDocs", func(t *testing.T) string {
			return serveUnder(t, buildMkDocs(t, "material", "mkdocs.yml (Material)"), "/docs/course/", false)
		}, 3, "lease-timeline"},
		{"Hugo", func(t *testing.T) string { return serveUnder(t, buildHugo(t, false), "/course/", true) }, 2, ""},
	} {
		t.Run(s.name, func(t *testing.T) {
			ctx := openPlayers(t, s.url(t)+"/", s.fences)
			auditLooks(t, ctx, s.within, s.name)
			noProblems(t, ctx)
		})
	}
}

// auditLooks fails the test on every serious or critical violation
// axe-core finds within the elements of css (the whole page when "") on
// the page ctx shows, light and dark, at 1280 and 360 px; where names the
// page in the failures.
func auditLooks(t *testing.T, ctx context.Context, css, where string) {
	t.Helper()
	script, err := axe.Script(filepath.Join(root, "web"))
	must(t, err)
	for _, look := range []struct {
		scheme string
		width  int64
	}{{"light", 1280}, {"dark", 1280}, {"light", 360}, {"dark", 360}} {
		_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{
			{Name: "prefers-color-scheme", Value: look.scheme},
		}})
		must(t, err)
		must(t, chromedp.Do(ctx, chromedp.EmulateViewport(look.width, 800)))
		found, err := axe.Serious(ctx, script, nil, css)
		must(t, err)
		for _, v := range found {
			t.Errorf("%s %s %dpx: %s", where, look.scheme, look.width, v)
		}
	}
}
