//go:build e2e

package e2e_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/leaselab/leaselab/engine/internal/coursesite"
	"github.com/leaselab/leaselab/engine/internal/webserve"
)

// Learning platforms (Canvas, Moodle, LTI tools) frame a page as
// <iframe sandbox="allow-scripts">: its document's origin is opaque
// ('null'), so every module script and fetch from the bundle's host is a
// cross-origin request, and a Worker cannot be constructed from that host.

// serveBundle serves web/ as the test's main server does, on a port of its
// own, sending the guide's Access-Control-Allow-Origin header when cors is
// set. When
// sandboxed is set, embed.html also carries the policy "sandbox
// allow-scripts", which gives the page opened on its own the opaque origin
// of a frame sandboxed without allow-same-origin.
func serveBundle(t *testing.T, cors, sandboxed bool) string {
	t.Helper()
	key, value, ok := strings.Cut(guideSnippet(t, "Access-Control-Allow-Origin"), ":")
	if !ok {
		t.Fatal("the guide's Access-Control-Allow-Origin snippet is no header")
	}
	files := webserve.Handler(os.DirFS(webDir))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if cors {
			w.Header().Set(strings.TrimSpace(key), strings.TrimSpace(value))
		}
		if sandboxed && r.URL.Path == "/embed.html" {
			w = &sandboxWriter{ResponseWriter: w}
		}
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// sandboxWriter adds the policy "sandbox allow-scripts" to a response's
// headers as they are sent (webserve sets its own policy, replacing one
// set before it).
type sandboxWriter struct {
	http.ResponseWriter
	sent bool
}

func (s *sandboxWriter) WriteHeader(code int) {
	if !s.sent {
		s.sent = true
		s.Header().Add("Content-Security-Policy", "sandbox allow-scripts")
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *sandboxWriter) Write(b []byte) (int, error) {
	if !s.sent {
		s.WriteHeader(http.StatusOK)
	}
	return s.ResponseWriter.Write(b)
}

// In a sandboxed frame whose host sends no CORS header no module loads;
// the frame is not left blank: it says why and what the host must allow,
// in the hash's language.
func TestEmbed_SandboxedFrameWithoutCORSSaysWhatTheHostMustAllow(t *testing.T) {
	bundle := serveBundle(t, false, true)
	for _, tc := range []struct {
		lang string
		want []string
	}{
		{"en", []string{"Access-Control-Allow-Origin", "allow-same-origin", "sandbox"}},
		{"ko", []string{"Access-Control-Allow-Origin", "allow-same-origin", "샌드박스"}},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			ctx := tab(t)
			must(t, chromedp.Do(ctx, chromedp.Navigate(bundle+"/embed.html#t="+index.Timelines[0].Name+"&lang="+tc.lang)))
			if o := eval[string](t, ctx, `self.origin`); o != "null" {
				t.Fatalf("the page's origin is %q, want the sandbox's opaque 'null'", o)
			}
			waitFor(t, ctx, `document.querySelector('#embed .leaselab-blocked') !== null`, 30*time.Second)
			said := text(t, ctx, "#embed .leaselab-blocked")
			for _, w := range tc.want {
				if !strings.Contains(said, w) {
					t.Errorf("the frame says %q; want it to name %q", said, w)
				}
			}
			if got := eval[string](t, ctx, `document.querySelector('#embed .leaselab-blocked').lang`); got != tc.lang {
				t.Errorf("the message's lang is %q, want %q", got, tc.lang)
			}
			if n := eval[int](t, ctx, `document.querySelectorAll('lease-timeline').length`); n != 0 {
				t.Errorf("%d players on the page, yet its modules cannot load", n)
			}
			noProblems(t, ctx) // the bundle's policy holds: no inline script nor style
			screenshot(t, ctx, "embed-sandboxed-nocors-"+tc.lang+".png")
		})
	}
}

// With CORS the frame's modules load in the sandbox, but no Worker can be
// constructed from the bundle's host: a library timeline plays from the
// trace the bundle ships computed in the frame's language, and the frame
// says that edits need the engine, which it cannot start, and what the
// host must allow.
func TestEmbed_SandboxedFrameWithCORSPlaysThePrerenderedTimeline(t *testing.T) {
	bundle := serveBundle(t, true, true)
	for _, tc := range []struct {
		lang string
		want []string
	}{
		{"en", []string{"edit", "engine", "allow-same-origin"}},
		{"ko", []string{"엔진", "allow-same-origin"}},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			tr := libraryTraceIn(t, index.Default, tc.lang)
			ctx := tab(t)
			must(t, chromedp.Do(ctx, chromedp.Navigate(bundle+"/embed.html#t="+tr.Name+"&step=1&lang="+tc.lang)))
			waitFor(t, ctx, `document.querySelector('#embed .leaselab-sandbox-note') !== null`, 30*time.Second)
			if o := eval[string](t, ctx, `self.origin`); o != "null" {
				t.Fatalf("the page's origin is %q, want the sandbox's opaque 'null'", o)
			}
			said := text(t, ctx, "#embed .leaselab-sandbox-note")
			for _, w := range tc.want {
				if !strings.Contains(said, w) {
					t.Errorf("the frame says %q; want it to name %q", said, w)
				}
			}
			waitFor(t, ctx, `document.querySelector('lease-timeline')?.dataset.state === 'ready'`, 30*time.Second)
			got := eval[map[string]string](t, ctx, `({...document.querySelector('lease-timeline').dataset})`)
			if got["source"] != "prerendered" || got["steps"] != fmt.Sprint(len(tr.Steps)) {
				t.Errorf("the timeline is %v, want the prerendered trace's %d steps", got, len(tr.Steps))
			}
			explains := eval[string](t, ctx, `document.querySelector('lease-timeline').shadowRoot.querySelector('.explain').textContent`)
			if !strings.HasSuffix(explains, tr.Steps[0].Explain) {
				t.Errorf("step 1 is explained as %q, want the %s trace's %q", explains, tc.lang, tr.Steps[0].Explain)
			}
			screenshot(t, ctx, "embed-sandboxed-cors-"+tc.lang+".png")
			noProblems(t, ctx)
		})
	}
}

// A course page on another origin frames the timeline as the guide's
// learning-platform snippet does — <iframe sandbox="allow-scripts">, and
// embed-host.js loaded as a classic script from the bundle's host — and
// gets its content's height: the frame's messages come from the opaque
// origin 'null'. With CORS the content is the timeline, without it the
// message saying what to allow; with allow-same-origin it is the timeline,
// CORS or not.
func TestEmbedHost_SandboxedFrameOnAnotherOriginGetsItsHeight(t *testing.T) {
	guideBundle := "https://courses.example.org/" + coursesite.BundleDir()
	page := guideSnippet(t, "learning-platform frame")
	if !strings.Contains(page, guideBundle+"/embed.html#t=") || !strings.Contains(page, `sandbox="allow-scripts"`) {
		t.Fatalf("the guide's learning-platform snippet does not frame %s/embed.html sandboxed:\n%s", guideBundle, page)
	}
	for _, tc := range []struct {
		sandbox  string
		cors     bool
		atLeast  int // the content's height, px
		contents string
	}{
		{"allow-scripts", true, 400, "the timeline"},
		{"allow-scripts", false, 80, "the message"},
		{"allow-scripts allow-same-origin", false, 400, "the timeline"},
	} {
		t.Run(fmt.Sprintf("%s/cors=%t", tc.sandbox, tc.cors), func(t *testing.T) {
			bundle := serveBundle(t, tc.cors, false)
			frame := strings.ReplaceAll(page, guideBundle, bundle)
			frame = strings.Replace(frame, `sandbox="allow-scripts"`, `id="f" sandbox="`+tc.sandbox+`"`, 1)
			// A first height no content has, so a frame the host never sized
			// is told from one whose content is as tall as the guide's 560.
			if !strings.Contains(frame, `height="560"`) {
				t.Fatalf("the guide's frame snippet has no height=\"560\" to start from:\n%s", frame)
			}
			frame = strings.Replace(frame, `height="560"`, `height="3"`, 1)
			host := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				fmt.Fprintf(w, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>a course</title></head><body>
%s
</body></html>`, frame)
			}))
			t.Cleanup(host.Close)
			ctx := tab(t)
			must(t, chromedp.Do(ctx, chromedp.Navigate(host.URL)))
			waitFor(t, ctx, `document.getElementById('f').dataset.leaselabHeight !== undefined`, 30*time.Second)
			// The timeline grows as its player draws it: its height settles.
			waitFor(t, ctx, fmt.Sprintf(`Number(document.getElementById('f').height) >= %d`, tc.atLeast), 30*time.Second)
			got := eval[map[string]string](t, ctx, `(() => { const f = document.getElementById('f');
				return {height: f.height, reported: f.dataset.leaselabHeight}; })()`)
			if got["height"] != got["reported"] || got["height"] == "3" {
				t.Errorf("the frame is %v, want the height %s reports", got, tc.contents)
			}
			noProblems(t, ctx)
		})
	}
}
