//go:build js

package grade

import (
	"database/sql"

	"github.com/leaselab/leaselab/engine/sqlitedb"
)

// openTable opens the student's database to read their table: in the
// browser, which has no files, a path is the name of a shared in-memory
// database (sqlitedb.Memory), and the student's code opens the same one.
func openTable(path string) (*sql.DB, error) { return sqlitedb.Memory(path) }

// oneThread is true where the student's code and the grader share one
// thread (a page's JavaScript): two of its calls never overlap there.
const oneThread = true
