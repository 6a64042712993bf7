package httpapi_test

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/leaselab/leaselab/engine/httpapi"
)

// In the server-clock mode a request that carries now, null included, is
// 400 and changes nothing; in the client-clock mode (the default) now is
// the caller's, up to MaxClockLead past the server's clock.
func TestClockMode_ServerRefusesEveryNowClientTakesIt(t *testing.T) {
	for _, tc := range []struct {
		mode      httpapi.ClockMode
		body      string
		want      int
		wantUntil float64
	}{
		{httpapi.ServerClock, `{"owner":"A","job_id":"j","now":9000000000000,"ttl":100}`, http.StatusBadRequest, 0},
		{httpapi.ServerClock, `{"owner":"A","job_id":"j","now":null,"ttl":100}`, http.StatusBadRequest, 0},
		{httpapi.ServerClock, `{"owner":"A","job_id":"j","ttl":100}`, http.StatusOK, 5100},
		{httpapi.ClientClock, `{"owner":"A","job_id":"j","now":9000000000000,"ttl":100}`, http.StatusBadRequest, 0},
		{httpapi.ClientClock, `{"owner":"A","job_id":"j","now":0,"ttl":100}`, http.StatusOK, 100},
		{httpapi.ClientClock, `{"owner":"A","job_id":"j","now":null,"ttl":100}`, http.StatusOK, 5100},
		{httpapi.ClientClock, `{"owner":"A","job_id":"j","ttl":100}`, http.StatusOK, 5100},
	} {
		t.Run(string(tc.mode)+" "+tc.body, func(t *testing.T) {
			store := newStore(t)
			h := httpapi.New(store, httpapi.WithClockMode(tc.mode), httpapi.WithClock(func() int64 { return 5000 }))
			serve(t, h, "POST", "/api/jobs", `{"id":"j"}`)
			before := jobsOf(t, store)
			code, v := serve(t, h, "POST", "/api/claim", tc.body)
			if code != tc.want {
				t.Fatalf("%d %v, want %d", code, v, tc.want)
			}
			if code != http.StatusOK {
				if after := jobsOf(t, store); after[0] != before[0] {
					t.Fatalf("a refused claim changed the job: %v", after[0])
				}
				return
			}
			if got := v["lease"].(map[string]any)["lease_until"]; got != tc.wantUntil {
				t.Fatalf("lease_until %v, want %v", got, tc.wantUntil)
			}
		})
	}
}

func TestParseClockMode_ClientServerOrEmpty(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want httpapi.ClockMode
		err  bool
	}{
		{"", httpapi.ClientClock, false},
		{"client", httpapi.ClientClock, false},
		{"server", httpapi.ServerClock, false},
		{"Server", "", true},
		{"wall", "", true},
	} {
		got, err := httpapi.ParseClockMode(tc.in)
		if got != tc.want || (err != nil) != tc.err || (err != nil && !errors.Is(err, httpapi.ErrClockMode)) {
			t.Errorf("ParseClockMode(%q) = %q, %v; want %q, error %v", tc.in, got, err, tc.want, tc.err)
		}
	}
}

// A client's now is taken from 0 up to MaxClockLead past the server's
// clock: before, at and after each end; beyond it the claim is 400 naming
// the window and the job is as it was.
func TestClientClock_NowAtMostMaxClockLeadAhead(t *testing.T) {
	const server = 5000
	for _, tc := range []struct {
		name string
		now  int64
		ok   bool
	}{
		{"below zero", -1, false},
		{"zero", 0, true},
		{"one before the server's clock", server - 1, true},
		{"the server's clock", server, true},
		{"one before the lead", server + httpapi.MaxClockLead - 1, true},
		{"at the lead", server + httpapi.MaxClockLead, true},
		{"one past the lead", server + httpapi.MaxClockLead + 1, false},
		{"the largest number", httpapi.MaxSafeInteger, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store := newStore(t)
			h := httpapi.New(store, httpapi.WithClock(func() int64 { return server }))
			serve(t, h, "POST", "/api/jobs", `{"id":"j"}`)
			if tc.ok {
				code, v := serve(t, h, "POST", "/api/claim", fmt.Sprintf(`{"owner":"A","job_id":"j","now":%d,"ttl":100}`, tc.now))
				if code != http.StatusOK || v["now"] != float64(tc.now) {
					t.Fatalf("claim at now %d: %d %v", tc.now, code, v)
				}
				return
			}
			before := jobsOf(t, store)
			lease := `{"job_id":"j","owner":"A","token":0}`
			for route, body := range map[string]string{
				"/api/claim":    fmt.Sprintf(`{"owner":"A","job_id":"j","now":%d,"ttl":100}`, tc.now),
				"/api/renew":    fmt.Sprintf(`{"lease":%s,"now":%d,"ttl":100}`, lease, tc.now),
				"/api/complete": fmt.Sprintf(`{"lease":%s,"now":%d}`, lease, tc.now),
			} {
				code, v := serve(t, h, "POST", route, body)
				if code != http.StatusBadRequest || !strings.Contains(v["message"].(string), "now") {
					t.Fatalf("%s at now %d: %d %v, want 400 naming now", route, tc.now, code, v)
				}
				if tc.now >= 0 && !strings.Contains(v["message"].(string), "at most 1000 ms ahead") {
					t.Fatalf("%s at now %d: message %q does not state the window", route, tc.now, v["message"])
				}
			}
			if after := jobsOf(t, store); after[0] != before[0] {
				t.Fatalf("refused requests changed the job: %v", after[0])
			}
		})
	}
}

// The attack on the client mode: claims at a now near 2^53 would have
// quarantined every job with a deadline (an hour away) and held one until
// 2^53-1. Both are 400 now and every job stays as it was.
func TestClientClock_FarFutureNowQuarantinesAndHoldsNothing(t *testing.T) {
	const server = 1_800_000_000_000
	store := newStore(t)
	h := httpapi.New(store, httpapi.WithClock(func() int64 { return server }))
	for _, id := range []string{"a", "b", "c"} {
		serve(t, h, "POST", "/api/jobs", fmt.Sprintf(`{"id":%q,"deadline":%d}`, id, server+3_600_000))
	}
	before := jobsOf(t, store)
	for _, body := range []string{
		`{"owner":"evil","now":9007199254739991,"ttl":1000}`,
		`{"owner":"evil","job_id":"a","now":9007199254739991,"ttl":1000}`,
		`{"owner":"evil","job_id":"b","now":9007199254740990,"ttl":1}`,
	} {
		if code, v := serve(t, h, "POST", "/api/claim", body); code != http.StatusBadRequest {
			t.Fatalf("%s: %d %v, want 400", body, code, v)
		}
	}
	after := jobsOf(t, store)
	for i := range before {
		if after[i] != before[i] {
			t.Fatalf("far-future claims changed a job: %v, was %v", after[i], before[i])
		}
	}
}
