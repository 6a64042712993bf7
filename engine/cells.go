package engine

import (
	"fmt"
	"strconv"
)

// The cells the store's rows are scanned into (cells, scanJob). database/sql's Rows.Scan
// converts a column into a *string or an *int64 by reflection, deep in one
// large function; a destination that implements sql.Scanner is handed the
// driver's value as it is, and the cell stores it, so that in the browser
// no large reflective function reaches V8's optimizing compiler during a
// cold first trace, on the cores the trace needs (see engine/DECISIONS.md,
// "Rows scanned into cells"). The cells accept what the columns hold (TEXT
// or NULL, INTEGER or NULL) and, as database/sql would, the digits of an
// integer given as text; anything else is an error naming the value.

// textCell scans a NOT NULL TEXT column into *p.
type textCell struct{ p *string }

func (c textCell) Scan(src any) error {
	switch v := src.(type) {
	case string:
		*c.p = v
		return nil
	case []byte:
		*c.p = string(v)
		return nil
	}
	return cellError(src, "a TEXT")
}

// nullTextCell scans a TEXT column that may be NULL into *p: NULL is "".
type nullTextCell struct{ p *string }

func (c nullTextCell) Scan(src any) error {
	if src == nil {
		*c.p = ""
		return nil
	}
	return textCell(c).Scan(src)
}

// intCell scans a NOT NULL INTEGER column into *p.
type intCell struct{ p *int64 }

func (c intCell) Scan(src any) error {
	if v, ok := src.(int64); ok {
		*c.p = v
		return nil
	}
	return c.other(src)
}

// other takes an integer given as text, as database/sql's conversion does.
func (c intCell) other(src any) error {
	var s string
	switch v := src.(type) {
	case string:
		s = v
	case []byte:
		s = string(v)
	default:
		return cellError(src, "an INTEGER")
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return cellError(src, "an INTEGER")
	}
	*c.p = n
	return nil
}

// nullIntCell scans an INTEGER column that may be NULL into *p: NULL is 0.
type nullIntCell struct{ p *int64 }

func (c nullIntCell) Scan(src any) error {
	if src == nil {
		*c.p = 0
		return nil
	}
	return intCell(c).Scan(src)
}

func cellError(src any, want string) error {
	if src == nil {
		return fmt.Errorf("engine: read NULL from %s column that is NOT NULL", want)
	}
	return fmt.Errorf("engine: read %T %v from %s column", src, src, want)
}

// cells is dst with each *string and *int64 (NOT NULL columns) in its
// cell; any other destination is left as it is.
func cells(dst ...any) []any {
	for i, d := range dst {
		switch p := d.(type) {
		case *string:
			dst[i] = textCell{p}
		case *int64:
			dst[i] = intCell{p}
		}
	}
	return dst
}
