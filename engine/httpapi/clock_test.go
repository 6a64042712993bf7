package httpapi_test

import (
	"errors"
	"net/http"
	"testing"

	"github.com/leaselab/leaselab/engine/httpapi"
)

// In the server-clock mode a request that carries now, null included, is
// 400 and changes nothing; in the client-clock mode (the default) now is
// the caller's.
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
		{httpapi.ClientClock, `{"owner":"A","job_id":"j","now":9000000000000,"ttl":100}`, http.StatusOK, 9000000000100},
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
