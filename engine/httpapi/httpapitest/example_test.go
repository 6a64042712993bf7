package httpapitest_test

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/httpapi"
	"github.com/leaselab/leaselab/engine/httpapi/httpapitest"
	"github.com/leaselab/leaselab/engine/sqlitedb"
)

// A server of the API, here the engine's handler under httptest, passes
// the suite by its base URL alone; a deployed server is tested the same way.
func ExampleRun() {
	testMyServer := func(t *testing.T) {
		db, err := sqlitedb.Memory("httpapitest-example")
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		store, err := engine.New(context.Background(), db)
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(httpapi.New(store))
		defer srv.Close()
		httpapitest.Run(t, httpapitest.Target{BaseURL: srv.URL}) // Timeline false: 501 expected
	}
	_ = testMyServer
}
