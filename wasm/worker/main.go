//go:build js && wasm

// Command worker is the engine's HTTP API (package engine/httpapi) as a
// Cloudflare Worker, with D1 as the store: `make worker` builds it,
// wrangler.toml deploys it. It links no SQLite: D1 is reached through
// github.com/syumai/workers/cloudflare/d1, a database/sql driver over the
// Workers runtime's D1 binding.
//
// D1 has no interactive transactions, so the store runs with
// engine.WithoutTransactions: each decision is written by one UPDATE
// guarded by the row version it was made on, and D1 runs each statement
// atomically on its single primary.
//
// The clock mode (httpapi.ClockMode) is the variable LEASELAB_CLOCK of
// wrangler.toml's [vars]: "server" (the default, also when unset) or
// "client" (a request's now is taken, up to httpapi.MaxClockLead ahead of
// the Worker's clock). Any other value answers every request 500 and logs
// why.
//
// POST /api/timeline answers 501: a timeline needs a fresh database of its
// own, and this Worker's only database is the shared queue (and it has no
// SQLite to make one). Timelines run in the simulator page and natively.
package main

import (
	"database/sql"
	"net/http"

	"github.com/syumai/workers"
	"github.com/syumai/workers/cloudflare"
	"github.com/syumai/workers/cloudflare/d1"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/httpapi"
)

// binding is the D1 binding's name in wrangler.toml.
const binding = "DB"

// clockVar is the variable of wrangler.toml's [vars] that sets the clock
// mode.
const clockVar = "LEASELAB_CLOCK"

const noTimeline = "this Worker runs no timelines: a timeline needs a fresh database of its own, " +
	"and the Worker's only database is the shared D1 queue; run it in the simulator page or with `leaselab serve`"

func main() {
	workers.Serve(http.HandlerFunc(serve))
}

// serve answers one request. The Workers runtime starts a new Go instance
// per request, so the store is opened here; engine.New's schema statements
// are idempotent (CREATE ... IF NOT EXISTS, DROP ... IF EXISTS) and cost
// four D1 round trips.
func serve(w http.ResponseWriter, r *http.Request) {
	mode, err := clockMode(cloudflare.Getenv(clockVar))
	if err != nil {
		unavailable(w, clockVar, err)
		return
	}
	c, err := d1.OpenConnector(binding)
	if err != nil {
		unavailable(w, "D1 binding "+binding, err)
		return
	}
	db := sql.OpenDB(c)
	defer db.Close()
	store, err := engine.New(r.Context(), db, engine.WithoutTransactions())
	if err != nil {
		unavailable(w, "opening the store", err)
		return
	}
	httpapi.New(store, httpapi.WithoutTimeline(noTimeline), httpapi.WithClockMode(mode)).ServeHTTP(w, r)
}
