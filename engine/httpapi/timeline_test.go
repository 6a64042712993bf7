package httpapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/leaselab/leaselab/engine/httpapi"
	"github.com/leaselab/leaselab/engine/limits"
)

// blocker is a TimelineFunc that reports each run's start and then waits
// until its context ends (or, with ignoreCtx, until released), reporting
// the context's error. Text "quick" returns a trace at once.
type blocker struct {
	started   chan struct{}
	ended     chan error
	release   chan struct{}
	ignoreCtx bool
}

func newBlocker() *blocker {
	return &blocker{started: make(chan struct{}, 16), ended: make(chan error, 16), release: make(chan struct{})}
}

func (b *blocker) run(ctx context.Context, text string) ([]byte, error) {
	if text == "quick" {
		return []byte(`{"steps":[]}`), nil
	}
	b.started <- struct{}{}
	if b.ignoreCtx {
		<-b.release
	} else {
		<-ctx.Done()
	}
	b.ended <- ctx.Err()
	return nil, ctx.Err()
}

// untouched is a ResponseWriter that fails the test if anything is
// written to it.
type untouched struct {
	t   *testing.T
	hdr http.Header
}

func (u untouched) Header() http.Header { return u.hdr }
func (u untouched) Write(p []byte) (int, error) {
	u.t.Errorf("wrote %q to a client that left", p)
	return len(p), nil
}
func (u untouched) WriteHeader(code int) { u.t.Errorf("wrote status %d to a client that left", code) }

func postTimeline(h http.Handler, ctx context.Context, text string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequestWithContext(ctx, "POST", "/api/timeline", strings.NewReader(text)))
	return rec
}

func errorCode(t *testing.T, rec *httptest.ResponseRecorder) string {
	t.Helper()
	var v struct{ Error, Message string }
	if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
		t.Fatalf("%d %s: %v", rec.Code, rec.Body, err)
	}
	return v.Error
}

// A client that leaves ends the run's context: the runner sees Canceled,
// the handler returns, and nothing is written.
func TestTimeline_ClientThatLeavesStopsTheRun(t *testing.T) {
	b := newBlocker()
	h := httpapi.New(newStore(t), httpapi.WithTimeline(b.run))
	ctx, leave := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() {
		defer close(served)
		req := httptest.NewRequestWithContext(ctx, "POST", "/api/timeline", strings.NewReader("lease 1s\n"))
		h.ServeHTTP(untouched{t, http.Header{}}, req)
	}()
	<-b.started
	leave()
	if err := <-b.ended; !errors.Is(err, context.Canceled) {
		t.Fatalf("the runner's context ended with %v, want Canceled", err)
	}
	<-served
}

// A run that reaches its deadline is stopped and answered 503 "timeout".
func TestTimeline_RunPastItsDeadlineIs503Timeout(t *testing.T) {
	b := newBlocker()
	h := httpapi.New(newStore(t), httpapi.WithTimeline(b.run), httpapi.WithTimelineDeadline(20*time.Millisecond))
	rec := postTimeline(h, context.Background(), "lease 1s\n")
	if rec.Code != http.StatusServiceUnavailable || errorCode(t, rec) != "timeout" {
		t.Fatalf("%d %s, want 503 timeout", rec.Code, rec.Body)
	}
	if err := <-b.ended; !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("the runner's context ended with %v, want DeadlineExceeded", err)
	}
}

// Runs at once are capped: below the cap a run is taken, at it the next
// is 503 "busy" with Retry-After; a slot comes back when its run ends.
func TestTimeline_RunsBeyondTheCapAre503WithRetryAfter(t *testing.T) {
	const most = 2
	for _, tc := range []struct {
		name     string
		inFlight int
		want     int
	}{
		{"below", most - 1, http.StatusOK},
		{"at", most, http.StatusServiceUnavailable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBlocker()
			h := httpapi.New(newStore(t), httpapi.WithTimeline(b.run), httpapi.WithTimelineRuns(most))
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{}, tc.inFlight)
			for range tc.inFlight {
				go func() { postTimeline(h, ctx, "block"); done <- struct{}{} }()
				<-b.started
			}
			rec := postTimeline(h, context.Background(), "quick")
			if rec.Code != tc.want {
				t.Fatalf("with %d runs going: %d %s, want %d", tc.inFlight, rec.Code, rec.Body, tc.want)
			}
			if tc.want == http.StatusServiceUnavailable && (errorCode(t, rec) != "busy" || rec.Header().Get("Retry-After") == "") {
				t.Fatalf("%s, Retry-After %q: want busy with Retry-After", rec.Body, rec.Header().Get("Retry-After"))
			}
			cancel()
			for range tc.inFlight {
				<-done
				<-b.ended
			}
			// The slots freed by the ended runs take new ones.
			if rec := postTimeline(h, context.Background(), "quick"); rec.Code != http.StatusOK {
				t.Fatalf("after the runs ended: %d %s", rec.Code, rec.Body)
			}
		})
	}
}

// A runner that ignores its context is answered at the deadline, but its
// slot stays taken until it really returns.
func TestTimeline_RunnerThatIgnoresItsContextKeepsItsSlotUntilItReturns(t *testing.T) {
	b := newBlocker()
	b.ignoreCtx = true
	h := httpapi.New(newStore(t), httpapi.WithTimeline(b.run),
		httpapi.WithTimelineDeadline(20*time.Millisecond), httpapi.WithTimelineRuns(1))
	if rec := postTimeline(h, context.Background(), "stuck"); rec.Code != http.StatusServiceUnavailable || errorCode(t, rec) != "timeout" {
		t.Fatalf("%d %s, want 503 timeout at the deadline", rec.Code, rec.Body)
	}
	if rec := postTimeline(h, context.Background(), "quick"); rec.Code != http.StatusServiceUnavailable || errorCode(t, rec) != "busy" {
		t.Fatalf("while the stuck run goes on: %d %s, want 503 busy", rec.Code, rec.Body)
	}
	close(b.release)
	<-b.ended
	var rec *httptest.ResponseRecorder
	for range 1000 { // the slot is given back just after the runner returns
		if rec = postTimeline(h, context.Background(), "quick"); rec.Code == http.StatusOK {
			return
		}
		time.Sleep(time.Millisecond) // waits for a goroutine, not for engine time
	}
	t.Fatalf("after the stuck run returned: %d %s", rec.Code, rec.Body)
}

// The route's body limit is the timeline text limit (limits.Default);
// a blank or non-UTF-8 text is 400 and runs nothing.
func TestTimeline_BodyIsTextWithinTheTimelineLimit(t *testing.T) {
	ran := 0
	run := func(context.Context, string) ([]byte, error) { ran++; return []byte(`{}`), nil }
	h := httpapi.New(newStore(t), httpapi.WithTimeline(run))
	limit := limits.Default.TextBytes
	text := func(n int) string { return "lease 1s\n" + strings.Repeat("#", n-len("lease 1s\n")) }
	for _, tc := range []struct {
		name, body string
		want       int
		ran        int
	}{
		{"below", text(limit - 1), http.StatusOK, 1},
		{"at", text(limit), http.StatusOK, 1},
		{"over", text(limit + 1), http.StatusRequestEntityTooLarge, 0},
		{"empty", "", http.StatusBadRequest, 0},
		{"blank", " \n\t\n", http.StatusBadRequest, 0},
		{"not-utf8", "lease 1s\n# \xff\n", http.StatusBadRequest, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ran = 0
			rec := postTimeline(h, context.Background(), tc.body)
			if rec.Code != tc.want || ran != tc.ran {
				t.Fatalf("%d-byte body: %d %s, ran %d; want %d, ran %d", len(tc.body), rec.Code, rec.Body, ran, tc.want, tc.ran)
			}
		})
	}
}

// stalled is a ResponseWriter whose client reads nothing until released:
// its Write blocks, as a TCP write does once the client's window is full.
type stalled struct {
	hdr     http.Header
	writing chan struct{}
	release chan struct{}
}

func (s *stalled) Header() http.Header { return s.hdr }
func (s *stalled) WriteHeader(int)     {}
func (s *stalled) Write(p []byte) (int, error) {
	s.writing <- struct{}{}
	<-s.release
	return len(p), nil
}

// A trace waiting on a client that does not read holds its slot until it
// is written: answers held in memory are at most the slots' number.
func TestTimeline_AnswerWaitingOnASlowClientHoldsItsSlot(t *testing.T) {
	b := newBlocker()
	h := httpapi.New(newStore(t), httpapi.WithTimeline(b.run), httpapi.WithTimelineRuns(1))
	slow := &stalled{hdr: http.Header{}, writing: make(chan struct{}), release: make(chan struct{})}
	done := make(chan struct{})
	go func() {
		h.ServeHTTP(slow, httptest.NewRequest("POST", "/api/timeline", strings.NewReader("quick")))
		close(done)
	}()
	<-slow.writing // the run has returned; its answer waits on the client
	if rec := postTimeline(h, context.Background(), "quick"); rec.Code != http.StatusServiceUnavailable || errorCode(t, rec) != "busy" {
		t.Fatalf("while an answer waits on its client: %d %s, want 503 busy", rec.Code, rec.Body)
	}
	close(slow.release)
	<-done
	if rec := postTimeline(h, context.Background(), "quick"); rec.Code != http.StatusOK {
		t.Fatalf("after the answer was written: %d %s, want 200", rec.Code, rec.Body)
	}
}
