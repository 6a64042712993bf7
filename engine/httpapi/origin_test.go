package httpapi_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/httpapi"
)

// The red team's page: a cross-site POST with Content-Type text/plain (a
// "simple" request, sent without a preflight) is 403 and creates nothing;
// so is every other write from another origin. Same-origin pages and
// clients that are no browser keep working; reads are not writes.
func TestCrossOrigin_BrowserWritesFromAnotherOriginAre403AndChangeNothing(t *testing.T) {
	run := func(context.Context, string) ([]byte, error) { return []byte(`{}`), nil }
	for _, tc := range []struct {
		name         string
		site, origin string
		want         int
	}{
		{"cross-site", "cross-site", "http://evil.example", http.StatusForbidden},
		{"same-site-other-port", "same-site", "http://localhost:9999", http.StatusForbidden},
		{"origin-only-other-host", "", "http://evil.example", http.StatusForbidden},
		{"same-origin", "same-origin", "http://api.test", http.StatusOK},
		{"typed-by-the-user", "none", "", http.StatusOK},
		{"origin-only-same-host", "", "http://api.test", http.StatusOK},
		{"no-browser", "", "", http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store := newStore(t)
			h := httpapi.New(store, httpapi.WithTimeline(run))
			serve(t, h, "POST", "/api/jobs", `{"id":"j"}`)
			before := jobsOf(t, store)
			for _, w := range []struct{ path, body string }{
				{"/api/jobs", `{"id":"x"}`},
				{"/api/claim", `{"owner":"A","job_id":"j","now":0,"ttl":1000}`},
				{"/api/renew", `{"lease":{"job_id":"j","owner":"A","token":1},"now":1,"ttl":10}`},
				{"/api/complete", `{"lease":{"job_id":"j","owner":"A","token":1},"now":2}`},
				{"/api/release", `{"lease":{"job_id":"j","owner":"A","token":1}}`},
				{"/api/timeline", "lease 1s\n"},
			} {
				req := httptest.NewRequest("POST", "http://api.test"+w.path, strings.NewReader(w.body))
				req.Header.Set("Content-Type", "text/plain")
				if tc.site != "" {
					req.Header.Set("Sec-Fetch-Site", tc.site)
				}
				if tc.origin != "" {
					req.Header.Set("Origin", tc.origin)
				}
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				refused := rec.Code == http.StatusForbidden
				if refused != (tc.want == http.StatusForbidden) || (refused && errorCode(t, rec) != "cross_origin") {
					t.Errorf("POST %s: %d %s; want refused: %v", w.path, rec.Code, rec.Body, tc.want == http.StatusForbidden)
				}
				if rec.Header().Get("X-Content-Type-Options") != "nosniff" {
					t.Errorf("POST %s: no nosniff", w.path)
				}
			}
			if after := jobsOf(t, store); tc.want == http.StatusForbidden && !slices.Equal(before, after) {
				t.Errorf("refused writes changed the store:\nbefore %v\nafter  %v", before, after)
			}
			req := httptest.NewRequest("GET", "http://api.test/api/jobs", nil)
			req.Header.Set("Sec-Fetch-Site", tc.site)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK {
				t.Errorf("GET /api/jobs: %d, want 200 (a read changes nothing; CORS keeps its answer from another page)", rec.Code)
			}
		})
	}
}

// On loopback, only the server's own names are served as Host; a rebound
// name is 421 before any handler runs.
func TestGuardHost_OnLoopbackOnlyItsOwnNames(t *testing.T) {
	reached := false
	next := http.HandlerFunc(func(http.ResponseWriter, *http.Request) { reached = true })
	v4 := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}
	v4other := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 2), Port: 8080}
	v6 := &net.TCPAddr{IP: net.IPv6loopback, Port: 8080}
	public := &net.TCPAddr{IP: net.IPv4(192, 0, 2, 1), Port: 8080}
	port80 := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 80}
	for _, tc := range []struct {
		name string
		addr net.Addr
		host string
		want bool
	}{
		{"ipv4", v4, "127.0.0.1:8080", true},
		{"localhost", v4, "localhost:8080", true},
		{"localhost-upper-case", v4, "LOCALHOST:8080", true},
		{"ipv6", v4, "[::1]:8080", true},
		{"own-address", v4other, "127.0.0.2:8080", true},
		{"other-loopback-address", v4, "127.0.0.2:8080", false},
		{"rebound-name", v4, "evil.example:8080", false},
		{"rebound-name-no-port", v4, "evil.example", false},
		{"other-port", v4, "localhost:8081", false},
		{"no-port-is-80", v4, "localhost", false},
		{"no-port-on-80", port80, "localhost", true},
		{"empty", v4, "", false},
		{"bound-to-ipv6", v6, "[::1]:8080", true},
		{"bound-to-ipv6-rebound", v6, "evil.example:8080", false},
		{"public-address-unguarded", public, "anything.example", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reached = false
			req := httptest.NewRequest("GET", "/api/jobs", nil)
			req.Host = tc.host
			rec := httptest.NewRecorder()
			httpapi.GuardHost(tc.addr, next).ServeHTTP(rec, req)
			if reached != tc.want {
				t.Fatalf("Host %q on %v: reached %v (%d %s), want %v", tc.host, tc.addr, reached, rec.Code, rec.Body, tc.want)
			}
			if !tc.want && (rec.Code != http.StatusMisdirectedRequest || errorCode(t, rec) != "misdirected") {
				t.Fatalf("Host %q: %d %s, want 421 misdirected", tc.host, rec.Code, rec.Body)
			}
		})
	}
}
