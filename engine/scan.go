package engine

import (
	"fmt"
	"strconv"
)

// scanner is a row to read: a *sql.Row or *sql.Rows.
type scanner interface{ Scan(dest ...any) error }

// scanColumns reads a row into dst, each a *string or an *int64, as
// Scan would but without its reflection: every column is taken as the
// driver gives it (database/sql's cheapest path, a *any) and converted
// here. NULL reads as "" or 0, as the engine stores an absent owner,
// reason, result or deadline. A text that is not an integer, or a value of
// another type, is an error.
//
// Why not Scan into the fields: database/sql converts an int64 into an
// *int64 by reflection, and in the browser its conversion function was the
// largest piece of Go that V8 optimized before the first trace came back.
func scanColumns(r scanner, dst ...any) error {
	vals := make([]any, len(dst))
	ptrs := make([]any, len(dst))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	if err := r.Scan(ptrs...); err != nil {
		return err
	}
	for i, d := range dst {
		if err := assign(d, vals[i]); err != nil {
			return fmt.Errorf("engine: column %d: %w", i+1, err)
		}
	}
	return nil
}

// assign stores v, a column's value as the driver gave it, into dst.
func assign(dst, v any) error {
	switch d := dst.(type) {
	case *string:
		switch v := v.(type) {
		case nil:
			*d = ""
		case string:
			*d = v
		case []byte:
			*d = string(v)
		case int64:
			*d = strconv.FormatInt(v, 10)
		default:
			return fmt.Errorf("a %T where text was expected", v)
		}
	case *int64:
		switch v := v.(type) {
		case nil:
			*d = 0
		case int64:
			*d = v
		case string:
			return parseInt(d, v)
		case []byte:
			return parseInt(d, string(v))
		default:
			return fmt.Errorf("a %T where an integer was expected", v)
		}
	default:
		return fmt.Errorf("cannot scan into a %T", dst)
	}
	return nil
}

func parseInt(d *int64, s string) error {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return fmt.Errorf("%q is not an integer", s)
	}
	*d = n
	return nil
}
