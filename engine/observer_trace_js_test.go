//go:build js

package engine_test

import (
	"fmt"

	"github.com/leaselab/leaselab/wasm/sqlitejs"
)

// traceConn has SQLite trace the statements of dc, a connection of
// wasm/sqlitejs, to record. This driver runs transaction control as
// statements too, so SQLite traces them; they are left out, as natively,
// where the driver runs them outside the trace.
func traceConn(dc any, record func(expandedSQL string)) error {
	c, ok := dc.(sqlitejs.Tracer)
	if !ok {
		return fmt.Errorf("driver connection %T has no Trace", dc)
	}
	return c.Trace(func(sql string) {
		switch sql {
		case "BEGIN IMMEDIATE", "BEGIN", "COMMIT", "ROLLBACK":
		default:
			record(sql)
		}
	})
}
