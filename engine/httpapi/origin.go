package httpapi

import (
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
)

// crossOrigin refuses a browser's state-changing request (anything but
// GET, HEAD and OPTIONS) sent by a page of another origin, by the
// request's Sec-Fetch-Site header or, without it, by comparing Origin with
// Host (net/http.CrossOriginProtection): such a request is 403
// "cross_origin" and reaches no route, so it changes nothing. A same-origin
// page and a client that is no browser (no Sec-Fetch-Site, no Origin:
// curl, Go's http.Client) pass.
func crossOrigin(next http.Handler) http.Handler {
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusForbidden, codeCrossOrigin, fmt.Sprintf(
			"%s %s from a page of another origin (Sec-Fetch-Site %q, Origin %q): this API takes writes only from its own origin or from clients that are not browsers",
			r.Method, r.URL.Path, r.Header.Get("Sec-Fetch-Site"), r.Header.Get("Origin")))
	}))
	return cop.Handler(next)
}

// GuardHost guards a server listening on addr against DNS rebinding. When
// addr's IP is a loopback address, a request whose Host header is not one
// of 127.0.0.1:PORT, localhost:PORT, [::1]:PORT or addr itself (PORT being
// addr's port; a Host without a port means port 80) is answered 421
// "misdirected" before it reaches next: a page of another site whose name
// was made to resolve to 127.0.0.1 sends its own name as Host. Any other
// addr (a server reached under names it cannot know) gets next as is.
func GuardHost(addr net.Addr, next http.Handler) http.Handler {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok || !tcp.IP.IsLoopback() {
		return next
	}
	port := fmt.Sprint(tcp.Port)
	hosts := []string{
		net.JoinHostPort("127.0.0.1", port),
		net.JoinHostPort("localhost", port),
		net.JoinHostPort("::1", port),
	}
	if own := strings.ToLower(tcp.String()); !slices.Contains(hosts, own) {
		hosts = append(hosts, own)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := strings.ToLower(r.Host)
		if _, _, err := net.SplitHostPort(host); err != nil {
			host = net.JoinHostPort(strings.Trim(host, "[]"), "80")
		}
		if !slices.Contains(hosts, host) {
			w.Header().Set("X-Content-Type-Options", "nosniff")
			writeError(w, http.StatusMisdirectedRequest, codeMisdirected, fmt.Sprintf(
				"this server on loopback answers to %s only, not to Host %q (a guard against DNS rebinding)",
				strings.Join(hosts, ", "), r.Host))
			return
		}
		next.ServeHTTP(w, r)
	})
}
