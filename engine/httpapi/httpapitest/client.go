package httpapitest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// The API's answers as a client reads them. They are declared here, apart
// from the server's types, so the suite checks the wire format itself.
type (
	job struct {
		ID          string `json:"id"`
		Qty         int64  `json:"qty"`
		Owner       string `json:"owner"`
		LeaseUntil  int64  `json:"lease_until"`
		Token       int64  `json:"token"`
		Attempts    int64  `json:"attempts"`
		MaxAttempts int64  `json:"max_attempts"`
		Deadline    int64  `json:"deadline"`
		Status      string `json:"status"`
		Reason      string `json:"reason"`
		Result      string `json:"result"`
	}
	lease struct {
		JobID      string `json:"job_id"`
		Owner      string `json:"owner"`
		Qty        int64  `json:"qty"`
		Token      int64  `json:"token"`
		Attempt    int64  `json:"attempt"`
		LeaseUntil int64  `json:"lease_until"`
	}
	enqueued struct {
		Created bool `json:"created"`
		Job     job  `json:"job"`
	}
	jobList struct {
		Jobs []job   `json:"jobs"`
		Next *string `json:"next"` // null on the last page
	}
	leaseAnswer struct {
		Lease lease `json:"lease"`
		Now   int64 `json:"now"`
	}
	okAnswer struct {
		OK  bool   `json:"ok"`
		Now *int64 `json:"now"`
	}
	errorAnswer struct {
		Error   string `json:"error"`
		Message string `json:"message"`
	}
	rejection struct {
		Error     string `json:"error"`
		Op        string `json:"op"`
		Reason    string `json:"reason"`
		Presented lease  `json:"presented"`
		Current   *job   `json:"current"`
		Now       int64  `json:"now"`
		Message   string `json:"message"`
	}
)

// answer is one HTTP exchange as the suite saw it.
type answer struct {
	method, path string
	status       int
	header       http.Header
	body         []byte
}

func (a answer) String() string {
	return fmt.Sprintf("%s %s -> %d %s", a.method, a.path, a.status, strings.TrimSpace(string(a.body)))
}

// client talks to one target. It retries an answer 503, which the Workers
// runtime gives when an instance restarts mid-request, and a request that
// timed out (wrangler's local runtime, under load, has held one for a
// minute after such a restart): every call of the API is safe to repeat (a
// repeated claim either wins or is refused). Run logs both counts.
type client struct {
	base     string
	hc       *http.Client
	retries  atomic.Int64 // 503s retried
	timeouts atomic.Int64 // timed-out requests retried
}

const maxAttempts = 8

func (c *client) do(t testing.TB, method, path, contentType string, body []byte) answer {
	t.Helper()
	return c.doHeader(t, method, path, http.Header{"Content-Type": {contentType}}, body)
}

// doHeader is do with the request's headers (empty values are not sent).
func (c *client) doHeader(t testing.TB, method, path string, header http.Header, body []byte) answer {
	t.Helper()
	a, err := c.tryHeader(method, path, header, body)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// try is do for goroutines other than the test's: it returns the error.
func (c *client) try(method, path, contentType string, body []byte) (answer, error) {
	return c.tryHeader(method, path, http.Header{"Content-Type": {contentType}}, body)
}

func (c *client) tryHeader(method, path string, header http.Header, body []byte) (answer, error) {
	for attempt := 1; ; attempt++ {
		var rd io.Reader
		if body != nil {
			rd = bytes.NewReader(body)
		}
		req, err := http.NewRequest(method, c.base+path, rd)
		if err != nil {
			return answer{}, fmt.Errorf("%s %s: %w", method, path, err)
		}
		for k, vs := range header {
			if len(vs) > 0 && vs[0] != "" {
				req.Header[k] = vs
			}
		}
		resp, err := c.hc.Do(req)
		var netErr net.Error
		if errors.As(err, &netErr) && netErr.Timeout() && attempt < maxAttempts {
			c.timeouts.Add(1)
			continue
		}
		if err != nil {
			return answer{}, fmt.Errorf("%s %s: %w", method, path, err)
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return answer{}, fmt.Errorf("%s %s: reading the answer: %w", method, path, err)
		}
		a := answer{method: method, path: path, status: resp.StatusCode, header: resp.Header, body: b}
		if a.status != http.StatusServiceUnavailable || attempt == maxAttempts {
			return a, nil
		}
		c.retries.Add(1)
		// Back off so a restarting runtime can come back; this waits for
		// a process, it does not make the engine's time pass.
		time.Sleep(time.Duration(attempt) * 25 * time.Millisecond)
	}
}

// post sends v as JSON (a []byte or string is sent as is).
func (c *client) post(t testing.TB, path string, v any) answer {
	t.Helper()
	var b []byte
	switch v := v.(type) {
	case []byte:
		b = v
	case string:
		b = []byte(v)
	default:
		var err error
		if b, err = json.Marshal(v); err != nil {
			t.Fatal(err)
		}
	}
	return c.do(t, http.MethodPost, path, "application/json", b)
}

func (c *client) get(t testing.TB, path string) answer {
	t.Helper()
	return c.do(t, http.MethodGet, path, "", nil)
}

// want checks the status and that the answer is JSON, then decodes it
// strictly (an unknown field fails: the shape is part of the contract).
func want[T any](t testing.TB, a answer, status int) T {
	t.Helper()
	var v T
	if a.status != status {
		t.Fatalf("%v\nwant status %d", a, status)
	}
	if ct := a.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("%v\nContent-Type %q, want application/json", a, ct)
	}
	if got := a.header.Get("X-Content-Type-Options"); got != "nosniff" {
		t.Fatalf("%v\nX-Content-Type-Options %q, want nosniff", a, got)
	}
	if got := a.header.Get("Cache-Control"); got != "no-store" {
		t.Fatalf("%v\nCache-Control %q, want no-store", a, got)
	}
	dec := json.NewDecoder(bytes.NewReader(a.body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%v\ndecoding as %T: %v", a, v, err)
	}
	return v
}

// wantError checks an error answer: status, code, and a message that
// contains every one of parts.
func wantError(t testing.TB, a answer, status int, code string, parts ...string) errorAnswer {
	t.Helper()
	e := want[errorAnswer](t, a, status)
	if e.Error != code {
		t.Fatalf("%v\nerror %q, want %q", a, e.Error, code)
	}
	if e.Message == "" {
		t.Fatalf("%v\nempty message", a)
	}
	for _, p := range parts {
		if !strings.Contains(e.Message, p) {
			t.Fatalf("%v\nmessage lacks %q", a, p)
		}
	}
	return e
}

// wantRejection checks a refusal: 409 (404 for not_found), op and reason.
func wantRejection(t testing.TB, a answer, op, reason string) rejection {
	t.Helper()
	status, code := http.StatusConflict, "refused"
	if reason == "not_found" {
		status, code = http.StatusNotFound, "not_found"
	}
	r := want[rejection](t, a, status)
	if r.Error != code || r.Op != op || r.Reason != reason {
		t.Fatalf("%v\nwant error %q op %q reason %q", a, code, op, reason)
	}
	if !strings.Contains(r.Message, op+" refused") {
		t.Fatalf("%v\nmessage does not name the refused op", a)
	}
	if (r.Current == nil) != (reason == "not_found") {
		t.Fatalf("%v\ncurrent must be null exactly when the job does not exist", a)
	}
	return r
}
