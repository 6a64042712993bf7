package httpapi_test

import (
	"bytes"
	"context"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/httpapi"
	"github.com/leaselab/leaselab/engine/internal/testkit/faultdb"
	"github.com/leaselab/leaselab/engine/internal/testkit/nativeonly"
	"github.com/leaselab/leaselab/engine/timeline"
)

// race is a timeline whose one step is a concurrent claim: four
// contenders race, each in a goroutine of the engine.
const race = "lease 1000ms\njob j\n0ms A,B,C,D,E claim j\n"

// A panic in a goroutine a request started (a contender of a timeline's
// concurrent claim, in the driver as it connects) is a 500 for that
// request, with the cause in the log only; the server goes on, and the
// next requests are answered.
func TestServer_PanicInARequestsGoroutineIs500AndTheServerGoesOn(t *testing.T) {
	nativeonly.Test(t, "a driver that panics on demand")
	var runs int
	run := func(ctx context.Context, text string) ([]byte, error) {
		runs++ // one request at a time in this test
		db, conn, err := faultdb.Memory("httpapi-panic-" + strconv.Itoa(runs))
		if err != nil {
			return nil, err
		}
		defer db.Close()
		if runs == 1 {
			conn.PanicOnConnect(3) // in the race: the setup holds at most two at once
		}
		tl, err := timeline.Parse("timeline", text)
		if err != nil {
			return nil, err
		}
		tr, err := timeline.Run(ctx, db, tl, timeline.Options{})
		if err != nil {
			return nil, err
		}
		var b bytes.Buffer
		err = tr.Encode(&b)
		return b.Bytes(), err
	}
	var logged strings.Builder
	srv := httptest.NewServer(httpapi.New(newStore(t), httpapi.WithTimeline(run),
		httpapi.WithErrorLog(log.New(&logged, "", 0))))
	defer srv.Close()
	post := func(path, body string) (int, string) {
		t.Helper()
		resp, err := http.Post(srv.URL+path, "text/plain", strings.NewReader(body))
		if err != nil {
			t.Fatalf("POST %s: %v", path, err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}

	code, body := post("/api/timeline", race)
	if code != http.StatusInternalServerError || !strings.Contains(body, `"database"`) || strings.Contains(body, "panic") {
		t.Fatalf("a run whose contender panicked: %d %s; want 500 database, the cause not told", code, body)
	}
	if !strings.Contains(logged.String(), faultdb.Panic) {
		t.Fatalf("the log does not say what panicked: %q", logged.String())
	}
	if code, body := post("/api/timeline", race); code != http.StatusOK || !strings.Contains(body, `"steps"`) {
		t.Fatalf("the next run: %d %s", code, body)
	}
	if code, body := post("/api/jobs", `{"id":"after"}`); code != http.StatusCreated {
		t.Fatalf("the next enqueue: %d %s", code, body)
	}
}

// A panic in the handler's own goroutine (here the server's clock) is a
// 500 for that request, and the next request is answered.
func TestHandler_PanicWhileAnsweringIs500(t *testing.T) {
	var logged strings.Builder
	clock := func() int64 { panic("clock broke") }
	h := httpapi.New(newStore(t), httpapi.WithClock(func() int64 { return clock() }),
		httpapi.WithErrorLog(log.New(&logged, "", 0)))
	serve(t, h, "POST", "/api/jobs", `{"id":"j"}`)
	code, v := serve(t, h, "POST", "/api/claim", `{"owner":"A","job_id":"j","ttl":100}`)
	if code != http.StatusInternalServerError || v["error"] != "database" || !strings.Contains(logged.String(), "clock broke") {
		t.Fatalf("%d %v, log %q; want 500 database, the panic in the log", code, v, logged.String())
	}
	clock = func() int64 { return 5000 }
	if code, v := serve(t, h, "POST", "/api/claim", `{"owner":"A","job_id":"j","ttl":100}`); code != http.StatusOK {
		t.Fatalf("the next claim: %d %v", code, v)
	}
}
