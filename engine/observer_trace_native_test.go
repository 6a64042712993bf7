//go:build !js

package engine_test

import (
	"fmt"

	"github.com/ncruces/go-sqlite3"
)

// traceConn has SQLite trace the statements of dc, a connection of
// ncruces/go-sqlite3's driver, to record.
func traceConn(dc any, record func(expandedSQL string)) error {
	c, ok := dc.(interface{ Raw() *sqlite3.Conn })
	if !ok {
		return fmt.Errorf("driver connection %T has no Raw", dc)
	}
	return c.Raw().Trace(sqlite3.TRACE_STMT, func(_ sqlite3.TraceEvent, stmt, _ any) error {
		record(stmt.(*sqlite3.Stmt).ExpandedSQL())
		return nil
	})
}
