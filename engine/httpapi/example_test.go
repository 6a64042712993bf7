package httpapi_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/leaselab/leaselab/engine"
	"github.com/leaselab/leaselab/engine/httpapi"
	"github.com/leaselab/leaselab/engine/sqlitedb"
)

// A store served over HTTP: enqueue, claim, and a second claim refused
// while the lease holds, with the rule, the presented and the current row.
func ExampleNew() {
	db, _ := sqlitedb.Memory("httpapi-example")
	defer db.Close()
	store, _ := engine.New(context.Background(), db)
	srv := httptest.NewServer(httpapi.New(store, httpapi.WithClock(func() int64 { return 5000 })))
	defer srv.Close()

	post := func(path, body string) {
		resp, err := http.Post(srv.URL+path, "application/json", strings.NewReader(body))
		if err != nil {
			panic(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		fmt.Print(resp.StatusCode, " ", string(b))
	}
	post("/api/jobs", `{"id":"order-7"}`)
	post("/api/claim", `{"owner":"A","job_id":"order-7","now":1000,"ttl":1000}`)
	post("/api/claim", `{"owner":"B","job_id":"order-7","now":1500,"ttl":1000}`)
	// Output:
	// 201 {"created":true,"job":{"id":"order-7","qty":1,"owner":"","lease_until":0,"token":0,"attempts":0,"max_attempts":0,"deadline":0,"status":"pending","reason":"","result":""}}
	// 200 {"lease":{"job_id":"order-7","owner":"A","qty":1,"token":1,"attempt":1,"lease_until":2000},"now":1000}
	// 409 {"error":"refused","op":"claim","reason":"held","presented":{"job_id":"order-7","owner":"B","qty":0,"token":0,"attempt":0,"lease_until":0},"current":{"id":"order-7","qty":1,"owner":"A","lease_until":2000,"token":1,"attempts":1,"max_attempts":0,"deadline":0,"status":"leased","reason":"","result":""},"now":1500,"message":"claim refused (held): presented B for order-7, current A#1 until 2000, now 1500"}
}
