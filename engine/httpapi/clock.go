package httpapi

import (
	"errors"
	"fmt"
	"net/http"
)

// ClockMode says whose clock a request's times are read on.
type ClockMode string

const (
	// ClientClock, the default, is for virtual clocks: a request may carry
	// "now" (a virtual clock, as the simulator's timelines use) at any
	// instant from 0 up to MaxClockLead past the server's clock; omitted
	// or null, the server's clock decides. A now further ahead is 400: it
	// would let a caller end others' leases and pass others' deadlines
	// early (see the package documentation).
	ClientClock ClockMode = "client"
	// ServerClock takes every time from the server's clock; a request
	// that carries "now" (null included) is 400.
	ServerClock ClockMode = "server"
)

// MaxClockLead is how far ahead of the server's clock a request's now may
// be in the ClientClock mode, in milliseconds (one second: a client on its
// own synchronised clock is within it, and a request is sent after its now
// was read). It is what a caller's clock can take from another's job: a
// lease ends, and a deadline passes, at most this much early.
const MaxClockLead = 1000

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
// or null. In the ServerClock mode a request that carries now is refused;
// in the ClientClock mode a now more than MaxClockLead ahead of the
// server's clock is.
func (h *Handler) clock(w http.ResponseWriter, now nowField) (int64, bool) {
	if h.mode == ServerClock && now.Given {
		writeError(w, http.StatusBadRequest, codeBadRequest,
			"now: this server reads every time on its own clock (clock mode server); leave now out")
		return 0, false
	}
	server := h.now()
	err := safe("server clock", server)
	n := server
	if err == nil && now.V != nil {
		n = *now.V
		err = firstErr(safe("now", n), ahead(n, server))
	}
	if err != nil {
		writeError(w, http.StatusBadRequest, codeBadRequest, err.Error())
		return 0, false
	}
	return n, true
}

// ahead refuses a client's now more than MaxClockLead past the server's
// clock (server, within 0..MaxSafeInteger).
func ahead(now, server int64) error {
	if now-server <= MaxClockLead {
		return nil
	}
	return fmt.Errorf("now: %d is %d ms ahead of the server's clock (%d); a request's now may be at most %d ms ahead "+
		"(from 0 up to the server's clock plus %d ms), or left out to use the server's clock",
		now, now-server, server, int64(MaxClockLead), int64(MaxClockLead))
}
