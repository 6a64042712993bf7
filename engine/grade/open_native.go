//go:build !js

package grade

import (
	"database/sql"

	"github.com/leaselab/leaselab/engine/sqlitedb"
)

// openTable opens the student's database file at path, to read their
// table.
func openTable(path string) (*sql.DB, error) { return sqlitedb.Open(path) }

// oneThread is true where the student's code and the grader share one
// thread (a page's JavaScript): two of its calls never overlap there.
const oneThread = false
