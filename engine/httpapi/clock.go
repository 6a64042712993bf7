package httpapi

import (
	"errors"
	"fmt"
	"net/http"
)

// ClockMode says whose clock a request's times are read on.
type ClockMode string

const (
	// ClientClock, the default, is the teaching mode: a request may carry
	// "now" (a virtual clock, as the simulator's timelines use); omitted
	// or null, the server's clock decides. Its hazard: whoever can write
	// to the API can claim a job at a "now" in the far future, and the
	// lease then holds the job until the server's clock reaches it.
	ClientClock ClockMode = "client"
	// ServerClock takes every time from the server's clock; a request
	// that carries "now" (null included) is 400.
	ServerClock ClockMode = "server"
)

// ErrClockMode is a clock mode other than "client" and "server".
var ErrClockMode = errors.New(`clock mode: want "client" or "server"`)

// ParseClockMode reads a clock mode as a flag or a setting spells it;
// "" is ClientClock.
func ParseClockMode(s string) (ClockMode, error) {
	switch ClockMode(s) {
	case "", ClientClock:
		return ClientClock, nil
	case ServerClock:
		return ServerClock, nil
	}
	return "", fmt.Errorf("%w, got %q", ErrClockMode, s)
}

// WithClockMode sets whose clock a request's times are read on (default
// ClientClock).
func WithClockMode(m ClockMode) Option {
	return func(h *Handler) { h.mode = m }
}

// clock resolves now: the request's, or the server's clock when omitted
// or null; in ServerClock mode a request that carries now is refused.
func (h *Handler) clock(w http.ResponseWriter, now nowField) (int64, bool) {
	if h.mode == ServerClock && now.Given {
		writeError(w, http.StatusBadRequest, codeBadRequest,
			"now: this server reads every time on its own clock (clock mode server); leave now out")
		return 0, false
	}
	n := h.now()
	field := "server clock"
	if now.V != nil {
		n, field = *now.V, "now"
	}
	if err := safe(field, n); err != nil {
		writeError(w, http.StatusBadRequest, codeBadRequest, err.Error())
		return 0, false
	}
	return n, true
}
