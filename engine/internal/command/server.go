package command

import (
	"net"
	"net/http"
	"time"

	"github.com/leaselab/leaselab/engine/httpapi"
)

// connLimits bound what one connection may hold of the server.
type connLimits struct {
	// ReadHeader is the longest a client may take to send its headers.
	ReadHeader time.Duration
	// Read is the longest a client may take to send a whole request,
	// headers and body: a stalled body is dropped when it passes.
	Read time.Duration
	// Write is the longest from the end of the headers to the end of the
	// answer: it covers reading the body, running the handler (a timeline
	// runs for at most httpapi.DefaultTimelineDeadline) and sending.
	Write time.Duration
	// Idle is the longest a kept-alive connection waits for its next
	// request.
	Idle time.Duration
	// MaxConns bounds the connections open at once (see connCap): at the
	// cap a new one closes the longest idle one, or waits for a busy one
	// to end if none is idle.
	MaxConns int
	// MaxHeaderBytes bounds the request line and headers (net/http allows
	// 4096 bytes more); a larger request is 431.
	MaxHeaderBytes int
}

// serveLimits are the limits of leaselab serve.
var serveLimits = connLimits{
	ReadHeader:     5 * time.Second,
	Read:           20 * time.Second,
	Write:          httpapi.DefaultTimelineDeadline + 50*time.Second,
	Idle:           30 * time.Second,
	MaxConns:       1024,
	MaxHeaderBytes: 64 << 10,
}

// siteHandler serves the page at / and the API under /api/, both behind
// the Host guard of a server listening on addr (httpapi.GuardHost). Every
// answer it writes carries X-Content-Type-Options: nosniff, the mux's own
// redirects of unclean paths (//, /./, /..) included.
func siteHandler(site, api http.Handler, addr net.Addr) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/", site)
	mux.Handle("/api/", api)
	guarded := httpapi.GuardHost(addr, mux)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		guarded.ServeHTTP(w, r)
	})
}

// newServer returns the server of h under limits l, and ln held to
// l.MaxConns: serve on the listener it returns.
func newServer(h http.Handler, l connLimits, ln net.Listener) (*http.Server, net.Listener) {
	conns := newConnCap(l.MaxConns)
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: l.ReadHeader,
		ReadTimeout:       l.Read,
		WriteTimeout:      l.Write,
		IdleTimeout:       l.Idle,
		MaxHeaderBytes:    l.MaxHeaderBytes,
		ConnState:         conns.track,
	}, conns.listener(ln)
}
