package command

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/leaselab/leaselab/engine/httpapi"
	"github.com/leaselab/leaselab/engine/httpapi/sqliteapi"
	"github.com/leaselab/leaselab/engine/internal/webserve"
	"github.com/leaselab/leaselab/engine/sqlitedb"
)

// testLimits are short limits set through the same code path as
// serveLimits, so a test of a stalled client takes a second, not 30.
var testLimits = connLimits{
	ReadHeader:     300 * time.Millisecond,
	Read:           600 * time.Millisecond,
	Write:          5 * time.Second,
	Idle:           time.Second,
	MaxConns:       64,
	MaxHeaderBytes: 1 << 10,
}

// startServer runs the server leaselab serve builds (page, API, Host
// guard) under limits l on a free loopback port and returns its address.
func startServer(t *testing.T, l connLimits) string {
	t.Helper()
	db, err := sqlitedb.Memory("serve-" + strings.ReplaceAll(t.Name(), "/", "_"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	api := newAPI(t, db)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	site := webserve.Handler(fstest.MapFS{"index.html": {Data: []byte("<!doctype html>")}})
	srv, ln := newServer(siteHandler(site, api, ln.Addr()), l, ln)
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

func newAPI(t *testing.T, db *sql.DB) http.Handler {
	t.Helper()
	api, err := sqliteapi.New(context.Background(), db, httpapi.WithErrorLog(nil))
	if err != nil {
		t.Fatal(err)
	}
	return api
}

// closedWithin sends raw on a new connection and reports whether the
// server closed it (after any answer) within wait, and what it answered.
func closedWithin(t *testing.T, addr, raw string, wait time.Duration) (bool, string) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, raw); err != nil {
		t.Fatal(err)
	}
	c.SetReadDeadline(time.Now().Add(wait)) // a real socket's deadline, not engine time
	got, err := io.ReadAll(c)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return false, string(got)
	}
	return true, string(got)
}

// A stalled client is dropped at its limit: the red team's headers and 6
// bytes of a 100-byte body at the read limit, headers sent too slowly at
// the header limit. Before its limit the connection stays open.
func TestServer_StalledClientIsDroppedAtItsLimit(t *testing.T) {
	addr := startServer(t, testLimits)
	body := "POST /api/jobs HTTP/1.1\r\nHost: " + addr + "\r\nContent-Type: application/json\r\n" +
		"Content-Length: 100\r\n\r\n{\"id\":"
	headers := "GET /api/jobs HTTP/1.1\r\nHost: " + addr + "\r\nX-Slow:"
	for _, tc := range []struct {
		name   string
		raw    string
		wait   time.Duration
		closed bool
	}{
		{"body-before", body, testLimits.Read / 2, false},
		{"body-after", body, testLimits.Read + 2*time.Second, true},
		{"headers-before", headers, testLimits.ReadHeader / 2, false},
		{"headers-after", headers, testLimits.ReadHeader + 2*time.Second, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			began := time.Now()
			closed, answer := closedWithin(t, addr, tc.raw, tc.wait)
			if closed != tc.closed {
				t.Fatalf("after %v: closed %v (%q), want %v", time.Since(began), closed, answer, tc.closed)
			}
			t.Logf("closed %v after %v", closed, time.Since(began).Round(time.Millisecond))
		})
	}
}

// Headers over MaxHeaderBytes (net/http allows 4096 bytes more) are 431.
func TestServer_HeadersOverTheLimitAre431(t *testing.T) {
	addr := startServer(t, testLimits)
	for _, tc := range []struct {
		name string
		size int
		want int
	}{
		{"below", testLimits.MaxHeaderBytes / 2, http.StatusOK},
		{"over", testLimits.MaxHeaderBytes + 4096 + 1, http.StatusRequestHeaderFieldsTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			raw := fmt.Sprintf("GET /api/jobs HTTP/1.1\r\nHost: %s\r\nX-Big: %s\r\nConnection: close\r\n\r\n", addr, strings.Repeat("a", tc.size))
			if got := statusOf(t, addr, raw); got != tc.want {
				t.Fatalf("status %d, want %d", got, tc.want)
			}
		})
	}
}

// The whole server is behind the Host guard: a rebound name is 421 for
// the page and the API; the server's own names are served.
func TestServer_HostItDoesNotServeIs421(t *testing.T) {
	addr := startServer(t, testLimits)
	_, port, _ := net.SplitHostPort(addr)
	for _, tc := range []struct {
		host string
		want int
	}{
		{addr, http.StatusOK},
		{"localhost:" + port, http.StatusOK},
		{"[::1]:" + port, http.StatusOK},
		{"evil.example:" + port, http.StatusMisdirectedRequest},
		{"evil.example", http.StatusMisdirectedRequest},
	} {
		for _, path := range []string{"/", "/api/jobs"} {
			raw := fmt.Sprintf("GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", path, tc.host)
			if got := statusOf(t, addr, raw); got != tc.want {
				t.Errorf("GET %s with Host %s: %d, want %d", path, tc.host, got, tc.want)
			}
		}
	}
}

// Every answer of the server carries X-Content-Type-Options: nosniff,
// the redirects the mux itself writes for unclean paths (// and /./ and
// /..) included, on the page's side and the API's.
func TestServer_EveryAnswerForbidsSniffing(t *testing.T) {
	addr := startServer(t, testLimits)
	for _, tc := range []struct {
		path string
		want int
	}{
		{"/", http.StatusOK},
		{"/index.html", http.StatusOK},
		{"/missing.html", http.StatusNotFound},
		{"//", http.StatusTemporaryRedirect},
		{"//index.html", http.StatusTemporaryRedirect},
		{"/./index.html", http.StatusTemporaryRedirect},
		{"/a/../index.html", http.StatusTemporaryRedirect},
		{"/api//jobs", http.StatusTemporaryRedirect},
		{"/api/jobs", http.StatusOK},
	} {
		raw := fmt.Sprintf("GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", tc.path, addr)
		resp := answerTo(t, addr, raw)
		if resp.StatusCode != tc.want {
			t.Errorf("GET %s: %d, want %d", tc.path, resp.StatusCode, tc.want)
		}
		if got := resp.Header.Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("GET %s (%d): X-Content-Type-Options %q, want nosniff", tc.path, resp.StatusCode, got)
		}
	}
}

// statusOf sends raw on a new connection and returns the answer's status.
func statusOf(t *testing.T, addr, raw string) int {
	t.Helper()
	return answerTo(t, addr, raw).StatusCode
}

// answerTo sends raw on a new connection and returns the answer, its
// body read and closed.
func answerTo(t *testing.T, addr, raw string) *http.Response {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(c, raw); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

// leaselab serve's own limits: a stalled body is dropped within 30 s, and
// a timeline that runs to its deadline still gets its answer written.
func TestServeLimits_BoundAStalledClientAndLetATimelineAnswer(t *testing.T) {
	l := serveLimits
	if l.ReadHeader <= 0 || l.ReadHeader > l.Read || l.Read > 30*time.Second {
		t.Errorf("read-header %v, read %v: want 0 < read-header <= read <= 30s", l.ReadHeader, l.Read)
	}
	if l.Write <= httpapi.DefaultTimelineDeadline+l.Read/2 {
		t.Errorf("write %v: want room for a body and a %v timeline", l.Write, httpapi.DefaultTimelineDeadline)
	}
	if l.Idle <= 0 || l.Idle > time.Minute || l.MaxHeaderBytes <= 0 {
		t.Errorf("idle %v, max header bytes %d: want both set, idle at most a minute", l.Idle, l.MaxHeaderBytes)
	}
	if l.MaxConns <= 0 || l.MaxConns > 4096 {
		t.Errorf("max conns %d: want a cap far below a process's usual file descriptor limits", l.MaxConns)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	srv, capped := newServer(http.NotFoundHandler(), l, ln)
	if _, ok := capped.(*cappedListener); !ok || srv.ConnState == nil {
		t.Errorf("newServer does not hold its listener to MaxConns: %T, ConnState %v", capped, srv.ConnState != nil)
	}
	if srv.ReadTimeout != l.Read || srv.ReadHeaderTimeout != l.ReadHeader || srv.WriteTimeout != l.Write ||
		srv.IdleTimeout != l.Idle || srv.MaxHeaderBytes != l.MaxHeaderBytes {
		t.Errorf("newServer does not apply its limits: %+v", srv)
	}
}

// -clock takes client or server; anything else stops before serving.
func TestServeCommand_ClockFlagIsClientOrServer(t *testing.T) {
	var stderr strings.Builder
	if code := Main([]string{"serve", "-clock", "wall", "-addr", "127.0.0.1:0"}, nil, io.Discard, &stderr); code != 2 ||
		!strings.Contains(stderr.String(), `"wall"`) {
		t.Fatalf("serve -clock wall: exit %d, %q; want 2 naming the value", code, stderr.String())
	}
}
