package main

import (
	"log"
	"net/http"

	"github.com/leaselab/leaselab/engine/httpapi"
)

// unavailable logs why the store could not be opened or the settings are
// wrong (wrangler tail shows it) and answers as the API answers a failure
// of its own (httpapi.ServerError): 500, without the cause's text.
func unavailable(w http.ResponseWriter, what string, err error) {
	log.Printf("worker: %s: %v", what, err)
	httpapi.ServerError(w)
}
